/* arc_gpu_test.cu: the helpers of arc_gpu_test.h. */
#include <string>

#include "arc_gpu_test.h"
#include "arc_port.h"

/* arc_gpu.cu keeps the thread's last error; these helpers report through it. */
extern "C" const char *arc_last_error(void);
int arc_set_error(int code, const std::string &msg);

static int check(gpuError_t err, const char *what) {
  if (err == gpuSuccess) return ARC_OK;
  return arc_set_error(ARC_ERR_CUDA, std::string(what) + ": " + gpuGetErrorString(err));
}

#define TRY(call)                                  \
  do {                                             \
    int rc_ = check((call), #call);                \
    if (rc_ != ARC_OK) return rc_;                 \
  } while (0)

extern "C" int arc_test_device_count(int *n) {
  *n = 0;
  gpuError_t err = gpuGetDeviceCount(n);
  if (err != gpuSuccess) { /* no driver or no device: zero devices */
    (void)gpuGetLastError();
    *n = 0;
  }
  return ARC_OK;
}

extern "C" int arc_test_malloc(int dev, size_t bytes, void **p) {
  TRY(gpuSetDevice(dev));
  TRY(gpuMalloc(p, bytes));
  return ARC_OK;
}

extern "C" int arc_test_free(int dev, void *p) {
  TRY(gpuSetDevice(dev));
  TRY(gpuFree(p));
  return ARC_OK;
}

extern "C" int arc_test_copy(int dev, void *dst, const void *src, size_t bytes) {
  TRY(gpuSetDevice(dev));
  TRY(gpuMemcpy(dst, src, bytes, gpuMemcpyDefault));
  /* From pageable host memory cudaMemcpy may return before its DMA lands,
   * and the legacy stream it uses does not order the ranks' non-blocking
   * streams after it: a kernel could read part of the old input. */
  TRY(gpuDeviceSynchronize());
  return ARC_OK;
}

extern "C" int arc_test_memset(int dev, void *p, int value, size_t bytes) {
  TRY(gpuSetDevice(dev));
  TRY(gpuMemset(p, value, bytes));
  TRY(gpuDeviceSynchronize());
  return ARC_OK;
}

extern "C" int arc_test_stream_create(int dev, void **stream) {
  TRY(gpuSetDevice(dev));
  gpuStream_t s;
  TRY(gpuStreamCreateWithFlags(&s, gpuStreamNonBlocking));
  *stream = (void *)s;
  return ARC_OK;
}

extern "C" int arc_test_stream_destroy(int dev, void *stream) {
  TRY(gpuSetDevice(dev));
  TRY(gpuStreamDestroy((gpuStream_t)stream));
  return ARC_OK;
}

extern "C" int arc_test_stream_sync(int dev, void *stream) {
  TRY(gpuSetDevice(dev));
  TRY(gpuStreamSynchronize((gpuStream_t)stream));
  return ARC_OK;
}

extern "C" int arc_test_copy_async(int dev, void *dst, const void *src, size_t bytes, void *stream) {
  TRY(gpuSetDevice(dev));
  TRY(gpuMemcpyAsync(dst, src, bytes, gpuMemcpyDefault, (gpuStream_t)stream));
  return ARC_OK;
}

extern "C" int arc_test_capture_begin(int dev, void *stream) {
  TRY(gpuSetDevice(dev));
  TRY(gpuStreamBeginCapture((gpuStream_t)stream, gpuStreamCaptureModeThreadLocal));
  return ARC_OK;
}

extern "C" int arc_test_capture_end(int dev, void *stream, void **graph_exec) {
  TRY(gpuSetDevice(dev));
  gpuGraph_t g;
  TRY(gpuStreamEndCapture((gpuStream_t)stream, &g));
  gpuGraphExec_t exec;
  gpuError_t err = gpuGraphInstantiateWithFlags(&exec, g, 0);
  (void)gpuGraphDestroy(g);
  TRY(err);
  *graph_exec = (void *)exec;
  return ARC_OK;
}

extern "C" int arc_test_graph_launch(int dev, void *graph_exec, void *stream) {
  TRY(gpuSetDevice(dev));
  TRY(gpuGraphLaunch((gpuGraphExec_t)graph_exec, (gpuStream_t)stream));
  return ARC_OK;
}

extern "C" int arc_test_graph_destroy(int dev, void *graph_exec) {
  TRY(gpuSetDevice(dev));
  TRY(gpuGraphExecDestroy((gpuGraphExec_t)graph_exec));
  return ARC_OK;
}

__device__ bool is_nan_bits(uint32_t v, int dtype) {
  if (dtype == ARC_F32) return (v & 0x7F800000u) == 0x7F800000u && (v & 0x7FFFFFu) != 0;
  if (dtype == ARC_F16) return (v & 0x7C00u) == 0x7C00u && (v & 0x3FFu) != 0;
  return (v & 0x7F80u) == 0x7F80u && (v & 0x7Fu) != 0;
}

__global__ void count_diff_kernel(const void *a, const void *b, size_t n, int dtype, unsigned long long *counter) {
  unsigned long long bad = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    uint32_t x, y;
    if (dtype == ARC_F32) {
      x = ((const uint32_t *)a)[i];
      y = ((const uint32_t *)b)[i];
    } else {
      x = ((const uint16_t *)a)[i];
      y = ((const uint16_t *)b)[i];
    }
    if (x != y && !(is_nan_bits(x, dtype) && is_nan_bits(y, dtype))) bad++;
  }
  if (bad) atomicAdd(counter, bad);
}

extern "C" int arc_test_count_diff(int dev, const void *a, const void *b, size_t count, arc_dtype dtype,
                                   unsigned long long *counter, void *stream) {
  TRY(gpuSetDevice(dev));
  count_diff_kernel<<<264, 256, 0, (gpuStream_t)stream>>>(a, b, count, dtype, counter);
  TRY(gpuGetLastError());
  return ARC_OK;
}

__global__ void fill_kernel(void *p, size_t n, int dtype, unsigned long long seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    unsigned long long z = (i + 1) * 0x9E3779B97F4A7C15ull ^ seed; /* splitmix64 */
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    float v = ((float)(z >> 40) / 16777216.0f - 0.5f) * 8.0f;
    if (dtype == ARC_F32)
      ((float *)p)[i] = v;
    else if (dtype == ARC_F16)
      ((uint16_t *)p)[i] = f32_to_f16(v);
    else
      ((uint16_t *)p)[i] = f32_to_bf16(v);
  }
}

extern "C" int arc_test_fill(int dev, void *p, size_t count, arc_dtype dtype, unsigned long long seed, void *stream) {
  TRY(gpuSetDevice(dev));
  fill_kernel<<<264, 256, 0, (gpuStream_t)stream>>>(p, count, dtype, seed);
  TRY(gpuGetLastError());
  return ARC_OK;
}

/* Asking to enable peer access answers whether it is on: "already enabled"
 * means yes; success means it was off, so turn it off again. */
extern "C" int arc_test_peer_enabled(int dev, int peer, int *enabled) {
  *enabled = 0;
  if (dev == peer) {
    *enabled = 1;
    return ARC_OK;
  }
  TRY(gpuSetDevice(dev));
  gpuError_t err = gpuDeviceEnablePeerAccess(peer, 0);
  if (err == gpuErrorPeerAccessAlreadyEnabled) {
    (void)gpuGetLastError();
    *enabled = 1;
  } else if (err == gpuSuccess) {
    TRY(gpuDeviceDisablePeerAccess(peer));
  } else {
    (void)gpuGetLastError(); /* no peer path at all: off */
  }
  return ARC_OK;
}
