/* arc_gpu.cu: the device runtime under the communicator (arc_internal.h's
 * arc_dev_*): memory, peer access, CUDA IPC, kernel loading and launches.
 * The communicator itself (arc_comm.cc) is host code. */
#include <stdio.h>
#include <stdlib.h>

#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "arc_internal.h"

static int cuda_fail(gpuError_t err, const char *what) {
  return arc_set_error(ARC_ERR_CUDA, std::string(what) + ": " + gpuGetErrorString(err));
}

#define CHECK(call)                                        \
  do {                                                     \
    gpuError_t err_ = (call);                              \
    if (err_ != gpuSuccess) return cuda_fail(err_, #call); \
  } while (0)

int arc_dev_count(int *n) {
  *n = 0;
  CHECK(gpuGetDeviceCount(n));
  return ARC_OK;
}

int arc_dev_describe(int dev, char *bus, size_t bus_size, int *sms) {
  CHECK(gpuDeviceGetAttribute(sms, gpuDevAttrMultiProcessorCount, dev));
#if ARC_HIP
  CHECK(hipDeviceGetPCIBusId(bus, (int)bus_size, dev));
#else
  CHECK(cudaDeviceGetPCIBusId(bus, (int)bus_size, dev));
#endif
  return ARC_OK;
}

int arc_dev_blocks_per_sm(void) { return ARC_BLOCKS_PER_SM; }

int arc_dev_get(int *dev) {
  CHECK(gpuGetDevice(dev));
  return ARC_OK;
}

int arc_dev_set(int dev) {
  CHECK(gpuSetDevice(dev));
  return ARC_OK;
}

int arc_dev_relax_capture(void) {
  gpuStreamCaptureMode mode = gpuStreamCaptureModeRelaxed;
  (void)gpuThreadExchangeStreamCaptureMode(&mode);
  return (int)mode;
}

void arc_dev_restore_capture(int mode) {
  gpuStreamCaptureMode m = (gpuStreamCaptureMode)mode;
  (void)gpuThreadExchangeStreamCaptureMode(&m);
}

/* Peer access is reference-counted per ordered device pair, so destroying
 * one communicator leaves another's mappings alone, and once none is left
 * peer access is off again (the host-staged path is tested that way). */
static std::mutex peer_mu;
static std::map<std::pair<int, int>, int> peer_refs;

int arc_dev_peer_acquire(int a, int b) {
  std::lock_guard<std::mutex> lock(peer_mu);
  int &refs = peer_refs[std::make_pair(a, b)];
  if (refs == 0) {
    int can = 0;
    CHECK(gpuDeviceCanAccessPeer(&can, a, b));
    if (!can)
      return arc_set_error(ARC_ERR_UNSUPPORTED, "device " + std::to_string(a) + " cannot access device " +
                                                    std::to_string(b) + " (no peer access): use ARC_LINK_HOST");
    CHECK(gpuSetDevice(a));
    gpuError_t err = gpuDeviceEnablePeerAccess(b, 0);
    if (err == gpuErrorPeerAccessAlreadyEnabled)
      (void)gpuGetLastError();
    else if (err != gpuSuccess)
      return cuda_fail(err, "gpuDeviceEnablePeerAccess");
  }
  refs++;
  return ARC_OK;
}

void arc_dev_peer_release(int a, int b) {
  std::lock_guard<std::mutex> lock(peer_mu);
  auto it = peer_refs.find(std::make_pair(a, b));
  if (it == peer_refs.end() || it->second == 0) return;
  if (--it->second == 0 && gpuSetDevice(a) == gpuSuccess) {
    if (gpuDeviceDisablePeerAccess(b) != gpuSuccess) (void)gpuGetLastError();
  }
}

/* Zeroes device memory on a private non-blocking stream: a synchronous
 * memset runs on the legacy stream, which would break a caller's graph
 * capture (XLA may first call arc while it records a command buffer). */
static int zero_device(void *p, size_t bytes) {
  gpuStream_t s;
  CHECK(gpuStreamCreateWithFlags(&s, gpuStreamNonBlocking));
  gpuError_t err = gpuMemsetAsync(p, 0, bytes, s);
  gpuError_t sync = gpuStreamSynchronize(s);
  (void)gpuStreamDestroy(s);
  CHECK(err);
  CHECK(sync);
  return ARC_OK;
}

static int alloc_device(int dev, size_t bytes, bool zero, void **p) {
  *p = nullptr;
  CHECK(gpuSetDevice(dev));
  CHECK(gpuMalloc(p, bytes));
  return zero ? zero_device(*p, bytes) : ARC_OK;
}

int arc_dev_alloc(int dev, size_t bytes, void **p) { return alloc_device(dev, bytes, true, p); }

void arc_dev_free(int dev, void *p) {
  if (p == nullptr) return;
  (void)gpuSetDevice(dev);
  (void)gpuFree(p);
}

static int alloc_host(size_t bytes, bool zero, void **p) {
  *p = nullptr;
  CHECK(gpuHostAlloc(p, bytes, gpuHostAllocMapped | gpuHostAllocPortable));
  if (zero) memset(*p, 0, bytes);
  /* With unified addressing the device pointer is the host pointer; ask
   * anyway, so a platform where they differ fails here, not in a kernel. */
  void *d = nullptr;
  CHECK(gpuHostGetDevicePointer(&d, *p, 0));
  if (d != *p) return arc_set_error(ARC_ERR_UNSUPPORTED, "mapped host memory needs unified addressing");
  return ARC_OK;
}

/* Records: plain memory registered with the runtime, so it stays mapped in
 * the process after the runtime's teardown at exit. */
int arc_dev_alloc_host(size_t bytes, void **p) {
  *p = nullptr;
  void *m = nullptr;
  size_t rounded = (bytes + 4095) / 4096 * 4096;
  if (posix_memalign(&m, 4096, rounded) != 0) return arc_set_error(ARC_ERR_CUDA, "out of host memory");
  memset(m, 0, rounded);
  gpuError_t err = gpuHostRegister(m, rounded, gpuHostRegisterMapped | gpuHostRegisterPortable);
  if (err != gpuSuccess) {
    free(m);
    return cuda_fail(err, "gpuHostRegister");
  }
  void *d = nullptr;
  err = gpuHostGetDevicePointer(&d, m, 0);
  if (err != gpuSuccess || d != m) {
    (void)gpuHostUnregister(m);
    free(m);
    return err != gpuSuccess ? cuda_fail(err, "gpuHostGetDevicePointer")
                             : arc_set_error(ARC_ERR_UNSUPPORTED, "mapped host memory needs unified addressing");
  }
  *p = m;
  return ARC_OK;
}

void arc_dev_free_host(void *p) {
  if (p == nullptr) return;
  (void)gpuHostUnregister(p);
  free(p);
}

/* A shared-memory segment (arc_shm.cc): Portable, so that every device of
 * this process maps it; the same address on each under unified addressing. */
int arc_dev_host_register(void *p, size_t bytes, void **dev) {
  *dev = nullptr;
  gpuError_t err = gpuHostRegister(p, bytes, gpuHostRegisterMapped | gpuHostRegisterPortable);
  if (err != gpuSuccess) {
    (void)gpuGetLastError(); /* reported here: a later launch must not read it as its own */
    return cuda_fail(err, "gpuHostRegister of the shared memory");
  }
  void *d = nullptr;
  err = gpuHostGetDevicePointer(&d, p, 0);
  if (err != gpuSuccess || d != p) {
    (void)gpuGetLastError();
    (void)gpuHostUnregister(p);
    return err != gpuSuccess ? cuda_fail(err, "gpuHostGetDevicePointer")
                             : arc_set_error(ARC_ERR_UNSUPPORTED, "mapped host memory needs unified addressing");
  }
  *dev = d;
  return ARC_OK;
}

void arc_dev_host_unregister(void *p) {
  if (p != nullptr && gpuHostUnregister(p) != gpuSuccess) (void)gpuGetLastError();
}

int arc_dev_alloc_shared(int dev, arc_link link, size_t bytes, bool zero, void **p) {
  if (link == ARC_LINK_HOST) return alloc_host(bytes, zero, p);
  return alloc_device(dev, bytes, zero, p);
}

void arc_dev_free_shared(int dev, arc_link link, void *p) {
  if (p == nullptr) return;
  if (link == ARC_LINK_HOST)
    (void)gpuFreeHost(p);
  else
    arc_dev_free(dev, p);
}

#if ARC_HIP
typedef hipIpcMemHandle_t gpuIpcMemHandle_t;
#define gpuIpcGetMemHandle hipIpcGetMemHandle
#define gpuIpcOpenMemHandle hipIpcOpenMemHandle
#define gpuIpcCloseMemHandle hipIpcCloseMemHandle
#define gpuIpcMemLazyEnablePeerAccess hipIpcMemLazyEnablePeerAccess
#else
typedef cudaIpcMemHandle_t gpuIpcMemHandle_t;
#define gpuIpcGetMemHandle cudaIpcGetMemHandle
#define gpuIpcOpenMemHandle cudaIpcOpenMemHandle
#define gpuIpcCloseMemHandle cudaIpcCloseMemHandle
#define gpuIpcMemLazyEnablePeerAccess cudaIpcMemLazyEnablePeerAccess
#endif
static_assert(sizeof(gpuIpcMemHandle_t) <= sizeof(arc_ipc_handle), "an IPC handle fits arc_ipc_handle");

int arc_dev_ipc_export(int dev, void *p, arc_ipc_handle *h) {
  memset(h, 0, sizeof *h);
  CHECK(gpuSetDevice(dev));
  gpuIpcMemHandle_t mh;
  CHECK(gpuIpcGetMemHandle(&mh, p));
  memcpy(h->bytes, &mh, sizeof mh);
  return ARC_OK;
}

int arc_dev_ipc_open(int dev, const arc_ipc_handle *h, void **p) {
  *p = nullptr;
  CHECK(gpuSetDevice(dev));
  gpuIpcMemHandle_t mh;
  memcpy(&mh, h->bytes, sizeof mh);
  CHECK(gpuIpcOpenMemHandle(p, mh, gpuIpcMemLazyEnablePeerAccess));
  return ARC_OK;
}

void arc_dev_ipc_close(int dev, void *p) {
  if (p == nullptr) return;
  (void)gpuSetDevice(dev);
  if (gpuIpcCloseMemHandle(p) != gpuSuccess) (void)gpuGetLastError();
}

int arc_dev_synchronize(int dev) {
  CHECK(gpuSetDevice(dev));
  CHECK(gpuDeviceSynchronize());
  return ARC_OK;
}

/* Loads every kernel on dev now. With lazy loading (CUDA's default), a
 * kernel's first launch loads its module, and a load can wait for the
 * device to go idle: while another rank's kernel spins there waiting for a
 * peer whose launch is queued behind the load, that never happens. */
int arc_dev_preload(int dev) {
  CHECK(gpuSetDevice(dev));
  KernelArgs none;
  memset(&none, 0, sizeof none);
  for (int dt = ARC_F16; dt <= ARC_F32; dt++) {
    CHECK(arc_launch_oneshot(dt, none, 0, nullptr));
    CHECK(arc_launch_fused(ARC_ONESHOT, dt, ARC_CODEC_NONE, false, none, 0, nullptr));
    for (int codec = ARC_CODEC_FP; codec < ARC_CODEC_COUNT; codec++)
      for (int cast = 0; cast <= (dt == ARC_BF16 && codec == ARC_CODEC_FP); cast++) {
        CHECK(arc_launch_twoshot(dt, codec, cast != 0, none, 0, nullptr));
        CHECK(arc_launch_hier(dt, codec, cast != 0, none, 0, nullptr));
        CHECK(arc_launch_fused(ARC_TWOSHOT, dt, codec, cast != 0, none, 0, nullptr));
      }
  }
  return ARC_OK;
}

int arc_dev_launch(int dev, int algo, int dtype, int codec, bool cast, const KernelArgs &a, int blocks, void *stream) {
  CHECK(gpuSetDevice(dev));
  gpuStream_t s = (gpuStream_t)stream;
  gpuError_t err;
  if (a.norm.y != nullptr)
    err = arc_launch_fused(algo, dtype, codec, cast, a, blocks, s);
  else if (algo == ARC_ONESHOT)
    err = arc_launch_oneshot(dtype, a, blocks, s);
  else if (algo == ARC_TWOSHOT)
    err = arc_launch_twoshot(dtype, codec, cast, a, blocks, s);
  else
    err = arc_launch_hier(dtype, codec, cast, a, blocks, s);
  if (err != gpuSuccess) return cuda_fail(err, arc_algo_name(algo));
  return ARC_OK;
}
