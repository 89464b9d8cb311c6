// arc_ffi_device.cc: the device-runtime calls of arc's FFI handler and the
// topology probe the PJRT proxy uses to pick a target (arc_ffi.h).
//
// Single source for CUDA and HIP. NVLink is read from NVML, loaded at run time
// (dlopen) so libarc_gpu.so needs no link-time dependency on the driver's
// management library; without NVML, nvlink reads as 0.

#include <dlfcn.h>

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <string>

#include "arc_ffi.h"
#include "arc_gpu.h"

#if defined(__HIP__) || defined(__HIPCC__)
#include <hip/hip_runtime.h>
#define gpuError_t hipError_t
#define gpuSuccess hipSuccess
#define gpuGetErrorString hipGetErrorString
#define gpuStream_t hipStream_t
#define gpuGetDevice hipGetDevice
#define gpuSetDevice hipSetDevice
#define gpuGetDeviceCount hipGetDeviceCount
#define gpuDeviceCanAccessPeer hipDeviceCanAccessPeer
#define gpuDeviceProp hipDeviceProp_t
#define gpuGetDeviceProperties hipGetDeviceProperties
#define gpuStreamSynchronize hipStreamSynchronize
#define gpuStreamIsCapturing hipStreamIsCapturing
#define gpuStreamCaptureStatus hipStreamCaptureStatus
#define gpuStreamCaptureStatusNone hipStreamCaptureStatusNone
#define gpuMalloc hipMalloc
#define gpuFree hipFree
#define gpuIpcMemHandle_t hipIpcMemHandle_t
#define gpuIpcGetMemHandle hipIpcGetMemHandle
#define gpuDeviceGetAttribute hipDeviceGetAttribute
#define gpuDevAttrUnifiedAddressing hipDeviceAttributeUnifiedAddressing
#define gpuGetLastError hipGetLastError
#define ARC_FFI_HIP 1
#else
#include <cuda_runtime.h>
#define gpuError_t cudaError_t
#define gpuSuccess cudaSuccess
#define gpuGetErrorString cudaGetErrorString
#define gpuStream_t cudaStream_t
#define gpuStreamGetDevice cudaStreamGetDevice
#define gpuGetDevice cudaGetDevice
#define gpuSetDevice cudaSetDevice
#define gpuGetDeviceCount cudaGetDeviceCount
#define gpuDeviceCanAccessPeer cudaDeviceCanAccessPeer
#define gpuDeviceProp cudaDeviceProp
#define gpuGetDeviceProperties cudaGetDeviceProperties
#define gpuStreamSynchronize cudaStreamSynchronize
#define gpuStreamIsCapturing cudaStreamIsCapturing
#define gpuStreamCaptureStatus cudaStreamCaptureStatus
#define gpuStreamCaptureStatusNone cudaStreamCaptureStatusNone
#define gpuMalloc cudaMalloc
#define gpuFree cudaFree
#define gpuIpcMemHandle_t cudaIpcMemHandle_t
#define gpuIpcGetMemHandle cudaIpcGetMemHandle
#define gpuDeviceGetAttribute cudaDeviceGetAttribute
#define gpuDevAttrUnifiedAddressing cudaDevAttrUnifiedAddressing
#define gpuGetLastError cudaGetLastError
#define ARC_FFI_HIP 0
#endif

namespace {

thread_local std::string last_error;

int check(gpuError_t e, const char *what) {
  if (e == gpuSuccess) return 0;
  (void)gpuGetLastError(); // reported here: the next launch must not read it as its own
  last_error = std::string(what) + ": " + gpuGetErrorString(e);
  return ARC_ERR_CUDA;
}

#if !ARC_FFI_HIP
// nvlinked reports whether NVML sees an NVLink path between two devices.
bool nvlinked(int a, int b) {
  static void *nvml = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (nvml == nullptr) return false;
  typedef int (*init_fn)();
  typedef int (*by_bus_fn)(const char *, void **);
  typedef int (*p2p_fn)(void *, void *, int, int *);
  auto init = reinterpret_cast<init_fn>(dlsym(nvml, "nvmlInit_v2"));
  auto by_bus = reinterpret_cast<by_bus_fn>(dlsym(nvml, "nvmlDeviceGetHandleByPciBusId_v2"));
  auto p2p = reinterpret_cast<p2p_fn>(dlsym(nvml, "nvmlDeviceGetP2PStatus"));
  if (init == nullptr || by_bus == nullptr || p2p == nullptr || init() != 0) return false;
  char bus_a[64], bus_b[64];
  if (cudaDeviceGetPCIBusId(bus_a, sizeof bus_a, a) != cudaSuccess ||
      cudaDeviceGetPCIBusId(bus_b, sizeof bus_b, b) != cudaSuccess)
    return false;
  void *ha = nullptr, *hb = nullptr;
  if (by_bus(bus_a, &ha) != 0 || by_bus(bus_b, &hb) != 0) return false;
  const int kCapsNvlink = 2, kStatusOk = 0;  // NVML_P2P_CAPS_INDEX_NVLINK, NVML_P2P_STATUS_OK
  int status = -1;
  return p2p(ha, hb, kCapsNvlink, &status) == 0 && status == kStatusOk;
}
#endif

}  // namespace

extern "C" int arc_ffi_stream_device(void *stream, int *device) {
#if ARC_FFI_HIP || CUDART_VERSION < 12080
  // The HIP runtimes CI compiles against (5.x) and CUDA before 12.8 have no
  // call for a stream's device; XLA makes the stream's device current before
  // it calls a handler.
  (void)stream;
  return check(gpuGetDevice(device), "reading the current device");
#else
  // XLA records a handler into its command buffers by capturing the stream,
  // and a capture refuses cudaStreamGetDevice ("operation not permitted when
  // stream is capturing"): then the current device, which XLA set, is it.
  gpuStreamCaptureStatus st = gpuStreamCaptureStatusNone;
  if (int rc = check(gpuStreamIsCapturing(static_cast<gpuStream_t>(stream), &st), "reading a stream's capture")) return rc;
  if (st != gpuStreamCaptureStatusNone) return check(gpuGetDevice(device), "reading the current device");
  return check(gpuStreamGetDevice(static_cast<gpuStream_t>(stream), device), "reading a stream's device");
#endif
}

extern "C" int arc_ffi_stream_wait(void *stream) {
  gpuStreamCaptureStatus st = gpuStreamCaptureStatusNone;
  if (int rc = check(gpuStreamIsCapturing(static_cast<gpuStream_t>(stream), &st), "reading a stream's capture")) return rc;
  if (st != gpuStreamCaptureStatusNone) return 1;
  return check(gpuStreamSynchronize(static_cast<gpuStream_t>(stream)), "waiting for a stream");
}

extern "C" int arc_detect_ipc(arc_ipc_info *info) {
  if (info == nullptr || info->struct_size < offsetof(arc_ipc_info, reason) + sizeof(info->reason))
    return ARC_ERR_INVALID;
  info->ipc = 0;
  info->reason[0] = '\0';
  int n = 0;
  if (gpuGetDeviceCount(&n) != gpuSuccess || n == 0) {
    (void)gpuGetLastError();
    std::snprintf(info->reason, sizeof info->reason, "no GPU is visible to this process");
    return ARC_OK;
  }
  int saved = -1;
  if (int rc = check(gpuGetDevice(&saved), "reading the current device")) return rc;
  // A handle of a small allocation: where the driver has no legacy IPC
  // (WSL, some containers) this fails, and so would every rendezvous.
  for (int d = 0; d < n && info->reason[0] == '\0'; d++) {
    int uva = 0;
    void *p = nullptr;
    gpuIpcMemHandle_t h;
    gpuError_t e = gpuSetDevice(d);
    if (e == gpuSuccess) e = gpuDeviceGetAttribute(&uva, gpuDevAttrUnifiedAddressing, d);
    if (e == gpuSuccess && !uva) {
      std::snprintf(info->reason, sizeof info->reason, "device %d has no unified addressing: no CUDA IPC", d);
      break;
    }
    if (e == gpuSuccess) e = gpuMalloc(&p, 4096);
    if (e == gpuSuccess) e = gpuIpcGetMemHandle(&h, p);
    if (e != gpuSuccess)
      std::snprintf(info->reason, sizeof info->reason,
                    "device %d cannot share memory with other processes (CUDA IPC): %s", d, gpuGetErrorString(e));
    if (p != nullptr) (void)gpuFree(p);
    (void)gpuGetLastError();
  }
  if (saved >= 0) (void)gpuSetDevice(saved);
  info->ipc = info->reason[0] == '\0';
  return ARC_OK;
}

extern "C" int arc_ffi_get_device(int *device) { return check(gpuGetDevice(device), "reading the current device"); }

extern "C" int arc_ffi_set_device(int device) { return check(gpuSetDevice(device), "setting the current device"); }

extern "C" const char *arc_ffi_device_error(void) { return last_error.c_str(); }

extern "C" int arc_detect_link(arc_link_info *info) {
  std::memset(info, 0, sizeof *info);
  int n = 0;
  if (int rc = check(gpuGetDeviceCount(&n), "counting devices")) return rc;
  info->devices = n;
  info->peer = n > 1;
  info->nvlink = n > 1;
  for (int a = 0; a < n; a++) {
    for (int b = 0; b < n; b++) {
      if (a == b) continue;
      int can = 0;
      if (int rc = check(gpuDeviceCanAccessPeer(&can, a, b), "probing peer access")) return rc;
      if (!can) info->peer = 0;
#if ARC_FFI_HIP
      // MI300X/MI355X nodes join every pair of GPUs with xGMI; peer access is that path.
      if (!can) info->nvlink = 0;
#else
      if (a < b && !nvlinked(a, b)) info->nvlink = 0;
#endif
    }
  }
  if (n > 0) {
    gpuDeviceProp prop;
    if (int rc = check(gpuGetDeviceProperties(&prop, 0), "reading device properties")) return rc;
#if ARC_FFI_HIP
    std::snprintf(info->arch, sizeof info->arch, "%s", prop.gcnArchName);
    if (char *colon = std::strchr(info->arch, ':')) *colon = '\0';  // "gfx942:sramecc+:xnack-"
#else
    std::snprintf(info->arch, sizeof info->arch, "sm_%d%d", prop.major, prop.minor);
#endif
  }
  return ARC_OK;
}
