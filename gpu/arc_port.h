/* arc_port.h: the few names that differ between CUDA, HIP and a plain host
 * compiler. Kernels and codecs are written once against these.
 *
 * - ARC_CUDA / ARC_HIP / ARC_HOST tell which compiler is reading.
 * - Runtime API: gpu* names map to cuda* or hip*.
 * - Device helpers: release/acquire at system scope, 4-lane
 *   shuffles, cache-bypassing loads of exchange buffers, IEEE f32 arithmetic
 *   (no contraction: docs/FORMATS.md) and the f16/bf16 conversions.
 * Under ARC_HOST the arithmetic and conversions compile for the CPU, so the
 * codec math can be checked against the Go reference without a GPU.
 */
#ifndef ARC_PORT_H
#define ARC_PORT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__HIP__) || defined(__HIPCC__)
#define ARC_HIP 1
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>
#elif defined(__CUDACC__)
#define ARC_CUDA 1
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>
/* sm_80 is the oldest GPU the kernels run on: fmax_nan and fmin_nan are
 * max.NaN and min.NaN, sm_80 instructions (docs/KERNELS.md,
 * "Architectures"). */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#error "arc's kernels need sm_80 or newer: build for compute_80 and up (GPU_ARCH in the Makefile)"
#endif
#else
#define ARC_HOST 1
#include <math.h>
#define __host__
#define __device__
#define __forceinline__ inline
#endif

/* ARC_FN: the numeric core (arithmetic, conversions, codecs): device code
 * for CUDA and HIP, plain inline functions for the host check. */
#if ARC_HOST
#define ARC_FN inline
#else
#define ARC_FN __device__ __forceinline__
#endif
#define ARC_D __device__ __forceinline__

/* ---- runtime API names ---- */
#if ARC_CUDA
typedef cudaError_t gpuError_t;
typedef cudaStream_t gpuStream_t;
typedef cudaGraph_t gpuGraph_t;
typedef cudaGraphExec_t gpuGraphExec_t;
typedef cudaFuncAttributes gpuFuncAttributes;
#define gpuFuncGetAttributes cudaFuncGetAttributes
#define gpuSuccess cudaSuccess
#define gpuErrorInvalidValue cudaErrorInvalidValue
#define gpuErrorPeerAccessAlreadyEnabled cudaErrorPeerAccessAlreadyEnabled
#define gpuErrorPeerAccessNotEnabled cudaErrorPeerAccessNotEnabled
#define gpuGetErrorString cudaGetErrorString
#define gpuGetLastError cudaGetLastError
#define gpuGetDevice cudaGetDevice
#define gpuSetDevice cudaSetDevice
#define gpuGetDeviceCount cudaGetDeviceCount
#define gpuDeviceGetAttribute cudaDeviceGetAttribute
#define gpuDevAttrMultiProcessorCount cudaDevAttrMultiProcessorCount
#define gpuDeviceCanAccessPeer cudaDeviceCanAccessPeer
#define gpuDeviceEnablePeerAccess cudaDeviceEnablePeerAccess
#define gpuDeviceDisablePeerAccess cudaDeviceDisablePeerAccess
#define gpuDeviceSynchronize cudaDeviceSynchronize
#define gpuMalloc cudaMalloc
#define gpuFree cudaFree
#define gpuHostAlloc cudaHostAlloc
#define gpuFreeHost cudaFreeHost
#define gpuHostAllocMapped cudaHostAllocMapped
#define gpuHostAllocPortable cudaHostAllocPortable
#define gpuHostGetDevicePointer cudaHostGetDevicePointer
#define gpuHostRegister cudaHostRegister
#define gpuHostUnregister cudaHostUnregister
#define gpuHostRegisterMapped cudaHostRegisterMapped
#define gpuHostRegisterPortable cudaHostRegisterPortable
#define gpuMemset cudaMemset
#define gpuMemcpy cudaMemcpy
#define gpuMemcpyAsync cudaMemcpyAsync
#define gpuMemcpyDefault cudaMemcpyDefault
#define gpuStreamCreateWithFlags cudaStreamCreateWithFlags
#define gpuStreamNonBlocking cudaStreamNonBlocking
#define gpuStreamDestroy cudaStreamDestroy
#define gpuStreamSynchronize cudaStreamSynchronize
#define gpuStreamBeginCapture cudaStreamBeginCapture
#define gpuStreamCaptureModeThreadLocal cudaStreamCaptureModeThreadLocal
#define gpuStreamCaptureModeRelaxed cudaStreamCaptureModeRelaxed
#define gpuStreamCaptureMode cudaStreamCaptureMode
#define gpuThreadExchangeStreamCaptureMode cudaThreadExchangeStreamCaptureMode
#define gpuMemsetAsync cudaMemsetAsync
#define gpuStreamEndCapture cudaStreamEndCapture
#define gpuGraphInstantiateWithFlags cudaGraphInstantiateWithFlags
#define gpuGraphLaunch cudaGraphLaunch
#define gpuGraphExecDestroy cudaGraphExecDestroy
#define gpuGraphDestroy cudaGraphDestroy
#elif ARC_HIP
typedef hipError_t gpuError_t;
typedef hipStream_t gpuStream_t;
typedef hipGraph_t gpuGraph_t;
typedef hipGraphExec_t gpuGraphExec_t;
typedef hipFuncAttributes gpuFuncAttributes;
#define gpuFuncGetAttributes hipFuncGetAttributes
#define gpuSuccess hipSuccess
#define gpuErrorInvalidValue hipErrorInvalidValue
#define gpuErrorPeerAccessAlreadyEnabled hipErrorPeerAccessAlreadyEnabled
#define gpuErrorPeerAccessNotEnabled hipErrorPeerAccessNotEnabled
#define gpuGetErrorString hipGetErrorString
#define gpuGetLastError hipGetLastError
#define gpuGetDevice hipGetDevice
#define gpuSetDevice hipSetDevice
#define gpuGetDeviceCount hipGetDeviceCount
#define gpuDeviceGetAttribute hipDeviceGetAttribute
#define gpuDevAttrMultiProcessorCount hipDeviceAttributeMultiprocessorCount
#define gpuDeviceCanAccessPeer hipDeviceCanAccessPeer
#define gpuDeviceEnablePeerAccess hipDeviceEnablePeerAccess
#define gpuDeviceDisablePeerAccess hipDeviceDisablePeerAccess
#define gpuDeviceSynchronize hipDeviceSynchronize
#define gpuMalloc hipMalloc
#define gpuFree hipFree
#define gpuHostAlloc hipHostMalloc
#define gpuFreeHost hipHostFree
#define gpuHostAllocMapped hipHostMallocMapped
#define gpuHostAllocPortable hipHostMallocPortable
#define gpuHostGetDevicePointer hipHostGetDevicePointer
#define gpuHostRegister hipHostRegister
#define gpuHostUnregister hipHostUnregister
#define gpuHostRegisterMapped hipHostRegisterMapped
#define gpuHostRegisterPortable hipHostRegisterPortable
#define gpuMemset hipMemset
#define gpuMemcpy hipMemcpy
#define gpuMemcpyAsync hipMemcpyAsync
#define gpuMemcpyDefault hipMemcpyDefault
#define gpuStreamCreateWithFlags hipStreamCreateWithFlags
#define gpuStreamNonBlocking hipStreamNonBlocking
#define gpuStreamDestroy hipStreamDestroy
#define gpuStreamSynchronize hipStreamSynchronize
#define gpuStreamBeginCapture hipStreamBeginCapture
#define gpuStreamCaptureModeThreadLocal hipStreamCaptureModeThreadLocal
#define gpuStreamCaptureModeRelaxed hipStreamCaptureModeRelaxed
#define gpuStreamCaptureMode hipStreamCaptureMode
#define gpuThreadExchangeStreamCaptureMode hipThreadExchangeStreamCaptureMode
#define gpuMemsetAsync hipMemsetAsync
#define gpuStreamEndCapture hipStreamEndCapture
#define gpuGraphInstantiateWithFlags hipGraphInstantiateWithFlags
#define gpuGraphLaunch hipGraphLaunch
#define gpuGraphExecDestroy hipGraphExecDestroy
#define gpuGraphDestroy hipGraphDestroy
#endif

/* ---- f32 arithmetic: each operation rounds once, to nearest even ---- */
#if ARC_CUDA
ARC_D float fadd(float a, float b) { return __fadd_rn(a, b); }
ARC_D float fsub(float a, float b) { return __fsub_rn(a, b); }
ARC_D float fmul(float a, float b) { return __fmul_rn(a, b); }
ARC_D float fdiv(float a, float b) { return __fdiv_rn(a, b); }
/* 1/a correctly rounded: the bits of fdiv(1, a), in fewer instructions. */
ARC_D float frcp(float a) { return __frcp_rn(a); }
/* frcp for a normal a whose reciprocal is normal too (|a| in [2^-125, 2^125],
 * every f16 scale among them): __frcp_rn's own fast path, the same bits,
 * without its test and branch to the slow path that other a need. */
ARC_D float frcp_normal(float a) {
  float r;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(a));
  const float e = __fmaf_rn(r, a, -1.0f);
  return __fmaf_rn(r, -e, r);
}
ARC_D float rne(float a) { return rintf(a); }
#elif ARC_HIP
/* HIP is built with -ffp-contract=off: the operators are single IEEE operations. */
ARC_FN float fadd(float a, float b) { return a + b; }
ARC_FN float fsub(float a, float b) { return a - b; }
ARC_FN float fmul(float a, float b) { return a * b; }
ARC_FN float fdiv(float a, float b) { return a / b; }
ARC_FN float frcp(float a) { return 1.0f / a; }
ARC_FN float frcp_normal(float a) { return 1.0f / a; }
ARC_FN float rne(float a) { return rintf(a); }
#else
/* The host check cannot rely on a compiler flag (cgo allows few): a product
 * that goes through memory cannot be fused into an FMA. */
ARC_FN float fadd(float a, float b) { return a + b; }
ARC_FN float fsub(float a, float b) { return a - b; }
ARC_FN float fmul(float a, float b) {
  volatile float r = a * b;
  return r;
}
ARC_FN float fdiv(float a, float b) { return a / b; }
ARC_FN float frcp(float a) { return 1.0f / a; }
ARC_FN float frcp_normal(float a) { return 1.0f / a; }
ARC_FN float rne(float a) { return rintf(a); }
#endif

ARC_FN uint32_t f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
ARC_FN float bits_f32(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* The bytes of (b, a) that s selects, a nibble each (CUDA's __byte_perm
 * without its sign modes): byte k of the result is byte (s >> 4k) & 7. */
#if ARC_CUDA || ARC_HIP
ARC_D uint32_t byte_perm(uint32_t a, uint32_t b, uint32_t s) { return __byte_perm(a, b, s); }
#else
ARC_FN uint32_t byte_perm(uint32_t a, uint32_t b, uint32_t s) {
  const uint64_t v = (uint64_t)b << 32 | a;
  uint32_t r = 0;
  for (int k = 0; k < 4; k++) r |= (uint32_t)(v >> (8 * ((s >> (4 * k)) & 7u)) & 0xFFu) << (8 * k);
  return r;
}
#endif

/* max and min that return NaN when an operand is NaN (the sign of a zero
 * result is unspecified: no caller reads it), so that one pass over a block
 * gives its range and whether every value is finite. One instruction each on
 * CUDA (sm_80 and up). clamp(v, lo, hi) for v that is not NaN. */
#if ARC_CUDA
ARC_D float fmax_nan(float a, float b) {
  float r;
  asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  return r;
}
ARC_D float fmin_nan(float a, float b) {
  float r;
  asm("min.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  return r;
}
ARC_D float fclamp(float v, float lo, float hi) { return fminf(fmaxf(v, lo), hi); }
#else
ARC_FN float fmax_nan(float a, float b) { return a != a ? a : (b != b ? b : (a > b ? a : b)); }
ARC_FN float fmin_nan(float a, float b) { return a != a ? a : (b != b ? b : (a < b ? a : b)); }
ARC_FN float fclamp(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }
#endif
/* Neither NaN nor +-Inf lies in [lo, hi] when both are the results of
 * fmax_nan/fmin_nan over a set: the set is finite. */
ARC_FN bool range_finite(float mx, float mn) { return mx <= 3.40282347e38f && mn >= -3.40282347e38f; }

/* ---- 16-bit types, kept as raw bits ---- */
#if ARC_CUDA
ARC_D float f16_to_f32(uint16_t h) { return __half2float(__ushort_as_half(h)); }
ARC_D uint16_t f32_to_f16(float f) { return __half_as_ushort(__float2half_rn(f)); }
/* Two conversions in one instruction (lo in the low half), the same bits. */
ARC_D uint32_t f32x2_to_f16x2(float lo, float hi) {
  const __half2 h = __floats2half2_rn(lo, hi);
  return *(const uint32_t *)&h;
}
#elif ARC_HIP
ARC_D float f16_to_f32(uint16_t h) {
  _Float16 v;
  memcpy(&v, &h, 2);
  return (float)v;
}
ARC_D uint16_t f32_to_f16(float f) {
  /* The empty asm pins f as a rounded f32: otherwise clang folds a product
   * into the conversion (v_fma_mix), rounding once instead of twice. */
  asm volatile("" : "+v"(f));
  if (f != f) return 0x7FFF; /* CUDA's NaN */
  _Float16 v = (_Float16)f; /* round to nearest even, overflow to Inf */
  uint16_t h;
  memcpy(&h, &v, 2);
  return h;
}
#else
inline float f16_to_f32(uint16_t h) {
  _Float16 v;
  memcpy(&v, &h, 2);
  return (float)v;
}
inline uint16_t f32_to_f16(float f) {
  if (f != f) return 0x7FFF; /* CUDA's NaN */
  _Float16 v = (_Float16)f;
  uint16_t h;
  memcpy(&h, &v, 2);
  return h;
}
#endif
#if !ARC_CUDA
ARC_FN uint32_t f32x2_to_f16x2(float lo, float hi) { return (uint32_t)f32_to_f16(lo) | (uint32_t)f32_to_f16(hi) << 16; }
#endif

ARC_FN float bf16_to_f32(uint16_t h) { return bits_f32((uint32_t)h << 16); }
/* Round to nearest even in integer code, so every compiler agrees; a carry
 * out of the mantissa moves to the exponent and overflows to Inf. */
ARC_FN uint16_t f32_to_bf16(float f) {
  uint32_t u = f32_bits(f);
  if ((u & 0x7FFFFFFFu) > 0x7F800000u) return 0x7FFF; /* NaN */
  return (uint16_t)((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

/* ---- device-only helpers: memory order, shuffles, loads, time ---- */
#if ARC_CUDA
ARC_D uint32_t ld_acquire_sys(const uint32_t *p) {
  uint32_t v;
  asm volatile("ld.acquire.sys.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
ARC_D void st_release_sys(uint32_t *p, uint32_t v) {
  asm volatile("st.release.sys.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
ARC_D uint64_t ld_acquire_sys64(const uint64_t *p) {
  uint64_t v;
  asm volatile("ld.acquire.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
ARC_D void st_release_sys64(uint64_t *p, uint64_t v) {
  asm volatile("st.release.sys.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
ARC_D float shfl_xor(float v, int m) { return __shfl_xor_sync(0xffffffffu, v, m); }
ARC_D uint32_t shfl_xor(uint32_t v, int m) { return __shfl_xor_sync(0xffffffffu, v, m); }
/* Lane l + d's value among the first 32 threads (all of them calling). */
ARC_D float shfl_down32(float v, int d) { return __shfl_down_sync(0xffffffffu, v, d); }
/* Whether p holds on any lane of the warp (all of them calling): a branch
 * on it is taken by the whole warp, so shuffles inside it stay whole. */
ARC_D bool warp_any(bool p) { return __any_sync(0xffffffffu, p); }
/* Exchange buffers are written by other GPUs: read them past L1 (and past
 * stale cached lines of host memory). */
ARC_D uint4 ldx16(const void *p) { return __ldcv((const uint4 *)p); }
ARC_D uint2 ldx8(const void *p) { return __ldcv((const uint2 *)p); }
ARC_D uint32_t ldx4(const void *p) { return __ldcv((const unsigned int *)p); }
ARC_D uint16_t ldx2(const void *p) { return __ldcv((const unsigned short *)p); }
ARC_D uint64_t clock_ns() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
ARC_D void pause_briefly() { __nanosleep(64); }
#elif ARC_HIP
ARC_D uint32_t ld_acquire_sys(const uint32_t *p) {
  return __hip_atomic_load(p, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_SYSTEM);
}
ARC_D void st_release_sys(uint32_t *p, uint32_t v) {
  /* The CUDA path releases a block's stores with the release store alone
   * (measured on H200: docs/KERNELS.md). These kernels have never run on an
   * AMD GPU, so HIP keeps the full system fence before it. */
  __threadfence_system();
  __hip_atomic_store(p, v, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_SYSTEM);
}
ARC_D uint64_t ld_acquire_sys64(const uint64_t *p) {
  return __hip_atomic_load(p, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_SYSTEM);
}
ARC_D void st_release_sys64(uint64_t *p, uint64_t v) {
  __threadfence_system();
  __hip_atomic_store(p, v, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_SYSTEM);
}
ARC_D float shfl_xor(float v, int m) { return __shfl_xor(v, m, 4); }
ARC_D uint32_t shfl_xor(uint32_t v, int m) { return __shfl_xor(v, m, 4); }
ARC_D float shfl_down32(float v, int d) { return __shfl_down(v, d, 32); }
ARC_D bool warp_any(bool p) { return __any(p); }
/* Plain loads: the acquire before them orders them, and host memory mapped
 * for the GPU is uncached (fine-grained) on AMD parts. */
ARC_D uint4 ldx16(const void *p) { return *(const uint4 *)p; }
ARC_D uint2 ldx8(const void *p) { return *(const uint2 *)p; }
ARC_D uint32_t ldx4(const void *p) { return *(const uint32_t *)p; }
ARC_D uint16_t ldx2(const void *p) { return *(const uint16_t *)p; }
/* wall_clock64 ticks at a constant 100 MHz on gfx9 parts. */
ARC_D uint64_t clock_ns() { return (uint64_t)wall_clock64() * 10u; }
ARC_D void pause_briefly() {}
#endif

#endif
