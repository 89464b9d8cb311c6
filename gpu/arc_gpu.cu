/* arc_gpu.cu: the C API of arc_gpu.h: communicators, their exchange memory,
 * argument checks and the launch of the right kernel. */
#include <stdio.h>
#include <stdlib.h>

#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "arc_internal.h"


struct arc_comm {
  int world;
  arc_link link;
  size_t max_bytes;
  int grid; /* blocks per rank: every rank's blocks fit on its device at once */
  uint64_t timeout_ns;
  int nowait;    /* ARC_DEBUG_NOWAIT */
  int dev[ARC_MAX_WORLD];
  char *x[ARC_MAX_WORLD];     /* exchange memory (device, or mapped host) */
  uint32_t *f[ARC_MAX_WORLD]; /* flags (device, or mapped host) */
  uint32_t *epochs[ARC_MAX_WORLD];
  uint32_t *status[ARC_MAX_WORLD];
  KernelLayout one, two, hier; /* one layout per algorithm (only its fields are used) */
  std::vector<std::pair<int, int> > peers; /* peer access references held (ARC_LINK_PEER) */
};

static thread_local std::string last_error;

static int fail(int code, const std::string &msg) {
  last_error = msg;
  return code;
}

/* For the test helpers (arc_gpu_test.cu), which share the thread's last error. */
int arc_set_error(int code, const std::string &msg) { return fail(code, msg); }

static int cuda_fail(gpuError_t err, const char *what) {
  return fail(ARC_ERR_CUDA, std::string(what) + ": " + gpuGetErrorString(err));
}

#define CHECK(call)                                       \
  do {                                                    \
    gpuError_t err_ = (call);                             \
    if (err_ != gpuSuccess) return cuda_fail(err_, #call); \
  } while (0)

/* Restores the calling thread's current device when it leaves scope. */
struct DeviceGuard {
  int saved = -1;
  DeviceGuard() { (void)gpuGetDevice(&saved); }
  ~DeviceGuard() {
    if (saved >= 0) (void)gpuSetDevice(saved);
  }
};

static uint64_t cdiv_h(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/* One block's share of a region at max_bytes, in bytes: the most tiles any
 * block handles (for any element size) times the largest tile (fp codec,
 * or the raw elements of oneshot, ARC_TILE_ELEMS x element bytes). parts splits the
 * codec blocks into owner chunks (0: the whole buffer, in tiles). */
static uint64_t block_cap(size_t max_bytes, int parts, int grid) {
  uint64_t cap = 0;
  for (uint64_t es = 2; es <= 4; es += 2) {
    uint64_t n = max_bytes / es, tiles;
    if (parts == 0)
      tiles = cdiv_h(n, ARC_TILE_ELEMS);
    else
      tiles = cdiv_h(cdiv_h(cdiv_h(n, 32), parts), ARC_TILE_BLOCKS);
    uint64_t c = cdiv_h(tiles, grid) * ARC_TILE_ELEMS * es;
    cap = c > cap ? c : cap;
  }
  return cap;
}

static bool oneshot_world(int w) { return w == 2 || w == 4 || w == 6 || w == 8; }
static bool twoshot_world(int w) { return w == 2 || w == 4 || w == 8; }
static bool hier_world(int w) { return w == 4 || w == 8; }

/* Plans every algorithm's regions; returns the bytes of exchange memory and
 * the number of flags each rank needs. */
static void plan(arc_comm *c, uint64_t *xbytes, uint64_t *nflags) {
  const uint64_t W = c->world, G = c->grid;
  uint64_t x = 0, f = 0;
  if (oneshot_world(c->world)) {
    c->one.one_cap = block_cap(c->max_bytes, 0, c->grid);
    c->one.one_x = x;
    x += 2 * W * G * c->one.one_cap;
    c->one.one_f = (uint32_t)f;
    f += W * G;
  }
  if (twoshot_world(c->world)) {
    KernelLayout &l = c->two;
    l.cap = block_cap(c->max_bytes, c->world, c->grid);
    l.p1_x = x;
    x += W * G * l.cap;
    l.p2_x = x;
    x += W * G * l.cap;
    l.p1_f = (uint32_t)f;
    f += W * G;
    l.p2_f = (uint32_t)f;
    f += W * G;
  }
  if (hier_world(c->world)) {
    KernelLayout &l = c->hier;
    const uint64_t H = W / 2;
    l.cap = block_cap(c->max_bytes, (int)H, c->grid);
    l.p1_x = x;
    x += H * G * l.cap;
    l.px_x = x;
    x += 4 * G * l.cap;
    l.p2_x = x;
    x += H * G * l.cap;
    l.p1_f = (uint32_t)f;
    f += H * G;
    l.px_f = (uint32_t)f;
    f += G;
    l.p2_f = (uint32_t)f;
    f += H * G;
  }
  *xbytes = x;
  *nflags = f;
}

/* Peer access is reference-counted per ordered device pair, so destroying
 * one communicator leaves another's mappings alone, and once none is left
 * peer access is off again (the host-staged path is tested that way). */
static std::mutex peer_mu;
static std::map<std::pair<int, int>, int> peer_refs;

static int peer_acquire(int a, int b) {
  std::lock_guard<std::mutex> lock(peer_mu);
  int &refs = peer_refs[std::make_pair(a, b)];
  if (refs == 0) {
    int can = 0;
    CHECK(gpuDeviceCanAccessPeer(&can, a, b));
    if (!can)
      return fail(ARC_ERR_UNSUPPORTED, "device " + std::to_string(a) + " cannot access device " + std::to_string(b) +
                                           " (no peer access): use ARC_LINK_HOST");
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

static void peer_release(int a, int b) {
  std::lock_guard<std::mutex> lock(peer_mu);
  auto it = peer_refs.find(std::make_pair(a, b));
  if (it == peer_refs.end() || it->second == 0) return;
  if (--it->second == 0 && gpuSetDevice(a) == gpuSuccess) {
    if (gpuDeviceDisablePeerAccess(b) != gpuSuccess) (void)gpuGetLastError();
  }
}

static void free_comm(arc_comm *c) {
  for (int r = 0; r < c->world; r++) {
    (void)gpuSetDevice(c->dev[r]);
    if (c->link == ARC_LINK_HOST) {
      if (c->x[r]) (void)gpuFreeHost(c->x[r]);
      if (c->f[r]) (void)gpuFreeHost(c->f[r]);
    } else {
      if (c->x[r]) (void)gpuFree(c->x[r]);
      if (c->f[r]) (void)gpuFree(c->f[r]);
    }
    if (c->epochs[r]) (void)gpuFree(c->epochs[r]);
    if (c->status[r]) (void)gpuFree(c->status[r]);
  }
  for (auto &p : c->peers) peer_release(p.first, p.second);
  delete c;
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

/* Allocates rank r's memory: exchange and flags where peers reach them,
 * epochs and status on its own device. */
static int alloc_rank(arc_comm *c, int r, uint64_t xbytes, uint64_t nflags) {
  CHECK(gpuSetDevice(c->dev[r]));
  uint64_t fbytes = nflags * sizeof(uint32_t);
  if (c->link == ARC_LINK_HOST) {
    void *p = nullptr;
    CHECK(gpuHostAlloc(&p, xbytes, gpuHostAllocMapped | gpuHostAllocPortable));
    c->x[r] = (char *)p;
    CHECK(gpuHostAlloc(&p, fbytes, gpuHostAllocMapped | gpuHostAllocPortable));
    c->f[r] = (uint32_t *)p;
    memset(p, 0, fbytes);
    /* With unified addressing the device pointer is the host pointer; ask
     * anyway, so a platform where they differ fails here, not in a kernel. */
    void *d = nullptr;
    CHECK(gpuHostGetDevicePointer(&d, c->x[r], 0));
    if (d != (void *)c->x[r]) return fail(ARC_ERR_UNSUPPORTED, "mapped host memory needs unified addressing");
  } else {
    void *p = nullptr;
    CHECK(gpuMalloc(&p, xbytes));
    c->x[r] = (char *)p;
    CHECK(gpuMalloc(&p, fbytes));
    c->f[r] = (uint32_t *)p;
    int rc = zero_device(p, fbytes);
    if (rc != ARC_OK) return rc;
  }
  void *p = nullptr;
  CHECK(gpuMalloc(&p, (size_t)c->grid * sizeof(uint32_t)));
  c->epochs[r] = (uint32_t *)p;
  int rc = zero_device(p, (size_t)c->grid * sizeof(uint32_t));
  if (rc != ARC_OK) return rc;
  CHECK(gpuMalloc(&p, sizeof(uint32_t)));
  c->status[r] = (uint32_t *)p;
  return zero_device(p, sizeof(uint32_t));
}

/* Loads every kernel on dev now. With lazy loading (CUDA's default), a
 * kernel's first launch loads its module, and a load can wait for the
 * device to go idle: while another rank's kernel spins there waiting for a
 * peer whose launch is queued behind the load, that never happens. */
static int preload(int dev) {
  CHECK(gpuSetDevice(dev));
  KernelArgs none;
  memset(&none, 0, sizeof none);
  for (int dt = ARC_F16; dt <= ARC_F32; dt++) {
    CHECK(arc_launch_oneshot(dt, none, 0, nullptr));
    for (int codec = ARC_CODEC_FP; codec <= ARC_CODEC_FP8; codec++)
      for (int cast = 0; cast <= (dt == ARC_BF16 && codec == ARC_CODEC_FP); cast++) {
        CHECK(arc_launch_twoshot(dt, codec, cast != 0, none, 0, nullptr));
        CHECK(arc_launch_hier(dt, codec, cast != 0, none, 0, nullptr));
      }
  }
  return ARC_OK;
}

static int create(arc_comm *c, const int *devices) {
  int ndev = 0;
  CHECK(gpuGetDeviceCount(&ndev));
  for (int r = 0; r < c->world; r++) {
    if (devices[r] < 0 || devices[r] >= ndev)
      return fail(ARC_ERR_INVALID, "device " + std::to_string(devices[r]) + " does not exist");
    c->dev[r] = devices[r];
  }
  /* All ranks' blocks must be resident at once (a block spins on its peers'
   * blocks), so a device's multiprocessors are shared by its ranks,
   * ARC_BLOCKS_PER_SM blocks each; every rank uses the same grid. */
  c->grid = 1 << 20;
  for (int r = 0; r < c->world; r++) {
    int ranks = 0;
    for (int q = 0; q < c->world; q++) ranks += c->dev[q] == c->dev[r];
    int sms = 0;
    CHECK(gpuDeviceGetAttribute(&sms, gpuDevAttrMultiProcessorCount, c->dev[r]));
    int g = ARC_BLOCKS_PER_SM * sms / ranks;
    c->grid = g < c->grid ? g : c->grid;
  }
  if (c->grid < 1) return fail(ARC_ERR_UNSUPPORTED, "more ranks on one device than it has multiprocessors");
  const char *t = getenv("ARC_TIMEOUT_MS");
  c->timeout_ns = t ? (uint64_t)strtoull(t, nullptr, 10) * 1000000ull : 0;
  const char *nw = getenv("ARC_DEBUG_NOWAIT");
  c->nowait = nw != nullptr && nw[0] == '1';

  if (c->link == ARC_LINK_PEER) {
    for (int r = 0; r < c->world; r++)
      for (int q = 0; q < c->world; q++) {
        std::pair<int, int> p(c->dev[r], c->dev[q]);
        if (p.first == p.second) continue;
        bool dup = false;
        for (auto &h : c->peers) dup = dup || h == p;
        if (dup) continue;
        int rc = peer_acquire(p.first, p.second);
        if (rc != ARC_OK) return rc; /* free_comm releases those taken */
        c->peers.push_back(p);
      }
  }
  for (int r = 0; r < c->world; r++) {
    int rc = preload(c->dev[r]);
    if (rc != ARC_OK) return rc;
  }
  uint64_t xbytes = 0, nflags = 0;
  plan(c, &xbytes, &nflags);
  for (int r = 0; r < c->world; r++) {
    int rc = alloc_rank(c, r, xbytes, nflags);
    if (rc != ARC_OK) return rc;
  }
  return ARC_OK;
}

extern "C" int arc_comm_create(arc_comm **comm, const int *devices, int ndevices, arc_link link, size_t max_bytes) {
  if (comm == nullptr || devices == nullptr) return fail(ARC_ERR_INVALID, "arc_comm_create: null argument");
  *comm = nullptr;
  if (!oneshot_world(ndevices)) /* every other algorithm's worlds are a subset */
    return fail(ARC_ERR_UNSUPPORTED, "world size " + std::to_string(ndevices) + " is not 2, 4, 6 or 8");
  if (link != ARC_LINK_PEER && link != ARC_LINK_HOST) return fail(ARC_ERR_INVALID, "unknown link mode");
  DeviceGuard guard;
  arc_comm *c = new arc_comm();
  c->world = ndevices;
  c->link = link;
  c->max_bytes = max_bytes ? max_bytes : (size_t)256 << 20;
  /* A caller may be capturing a graph on this thread (XLA records arc's
   * custom call into its command buffers): allocate outside that capture. */
  gpuStreamCaptureMode mode = gpuStreamCaptureModeRelaxed;
  (void)gpuThreadExchangeStreamCaptureMode(&mode);
  int rc = create(c, devices);
  (void)gpuThreadExchangeStreamCaptureMode(&mode);
  if (rc != ARC_OK) {
    std::string msg = last_error;
    free_comm(c);
    last_error = msg;
    return rc;
  }
  *comm = c;
  return ARC_OK;
}

extern "C" int arc_comm_destroy(arc_comm *comm) {
  if (comm == nullptr) return ARC_OK;
  DeviceGuard guard;
  for (int r = 0; r < comm->world; r++)
    if (gpuSetDevice(comm->dev[r]) == gpuSuccess) (void)gpuDeviceSynchronize();
  free_comm(comm);
  return ARC_OK;
}

extern "C" int arc_comm_status(arc_comm *comm) {
  if (comm == nullptr) return fail(ARC_ERR_INVALID, "arc_comm_status: null communicator");
  DeviceGuard guard;
  for (int r = 0; r < comm->world; r++) {
    uint32_t v = 0;
    CHECK(gpuSetDevice(comm->dev[r]));
    CHECK(gpuMemcpy(&v, comm->status[r], sizeof v, gpuMemcpyDefault));
    if (v != 0)
      return fail(ARC_ERR_TIMEOUT, "rank " + std::to_string(r) + " timed out waiting for a peer");
  }
  return ARC_OK;
}

static const char *algo_name(int a) { return a == ARC_ONESHOT ? "oneshot" : a == ARC_TWOSHOT ? "twoshot" : "hier"; }

extern "C" int arc_allreduce(arc_comm *comm, int rank, const void *in, void *out, size_t count, arc_dtype dtype,
                             arc_algo algo, arc_codec codec, int flags, void *stream) {
  if (comm == nullptr) return fail(ARC_ERR_INVALID, "arc_allreduce: null communicator");
  if (rank < 0 || rank >= comm->world) return fail(ARC_ERR_INVALID, "arc_allreduce: rank out of range");
  if (dtype != ARC_F16 && dtype != ARC_BF16 && dtype != ARC_F32)
    return fail(ARC_ERR_INVALID, "arc_allreduce: unknown dtype");
  if ((flags & ~ARC_CAST_BF16_TO_FP16) != 0) return fail(ARC_ERR_INVALID, "arc_allreduce: unknown flags");
  if (codec < ARC_CODEC_NONE || codec > ARC_CODEC_FP8) return fail(ARC_ERR_INVALID, "arc_allreduce: unknown codec");
  const int W = comm->world;
  switch (algo) {
  case ARC_ONESHOT:
    if (codec != ARC_CODEC_NONE) return fail(ARC_ERR_UNSUPPORTED, "oneshot takes no codec (ARC_CODEC_NONE)");
    if (!oneshot_world(W)) return fail(ARC_ERR_UNSUPPORTED, "oneshot needs world 2, 4, 6 or 8");
    break;
  case ARC_TWOSHOT:
  case ARC_HIER:
    if (codec == ARC_CODEC_NONE) return fail(ARC_ERR_UNSUPPORTED, std::string(algo_name(algo)) + " needs a codec");
    if (algo == ARC_TWOSHOT && !twoshot_world(W)) return fail(ARC_ERR_UNSUPPORTED, "twoshot needs world 2, 4 or 8");
    if (algo == ARC_HIER && !hier_world(W)) return fail(ARC_ERR_UNSUPPORTED, "hier needs world 4 or 8");
    break;
  default:
    return fail(ARC_ERR_INVALID, "arc_allreduce: unknown algorithm");
  }
  const uint64_t es = dtype == ARC_F32 ? 4 : 2;
  if (count > comm->max_bytes / es)
    return fail(ARC_ERR_TOO_LARGE, "arc_allreduce: " + std::to_string(count * es) + " bytes exceed max_bytes " +
                                       std::to_string(comm->max_bytes));
  if (count == 0) return ARC_OK;
  if (count > 0 && (in == nullptr || out == nullptr)) return fail(ARC_ERR_INVALID, "arc_allreduce: null buffer");

  KernelArgs a;
  memset(&a, 0, sizeof a);
  a.in = in;
  a.out = out;
  a.n = count;
  a.rank = rank;
  a.world = W;
  a.grid = comm->grid;
  a.vec = ((uintptr_t)in % 16 == 0) && ((uintptr_t)out % 16 == 0);
  a.timeout_ns = comm->timeout_ns;
  a.nowait = comm->nowait;
  a.epochs = comm->epochs[rank];
  a.status = comm->status[rank];
  for (int r = 0; r < W; r++) {
    a.x[r] = comm->x[r];
    a.f[r] = comm->f[r];
  }
  const bool cast = (flags & ARC_CAST_BF16_TO_FP16) != 0;
  const uint64_t nb = cdiv_h(count, 32);
  uint64_t work = 0;
  if (algo == ARC_ONESHOT) {
    a.lay = comm->one;
    work = cdiv_h(count, ARC_TILE_ELEMS);
  } else if (algo == ARC_TWOSHOT) {
    a.lay = comm->two;
    work = cdiv_h(cdiv_h(nb, W), ARC_TILE_BLOCKS);
  } else {
    a.lay = comm->hier;
    work = cdiv_h(cdiv_h(nb, W / 2), ARC_TILE_BLOCKS);
  }
  const int blocks = (int)(work < (uint64_t)comm->grid ? work : (uint64_t)comm->grid);

  DeviceGuard guard;
  CHECK(gpuSetDevice(comm->dev[rank]));
  gpuStream_t s = (gpuStream_t)stream;
  gpuError_t err;
  if (algo == ARC_ONESHOT)
    err = arc_launch_oneshot(dtype, a, blocks, s);
  else if (algo == ARC_TWOSHOT)
    err = arc_launch_twoshot(dtype, codec, cast, a, blocks, s);
  else
    err = arc_launch_hier(dtype, codec, cast, a, blocks, s);
  if (err != gpuSuccess) return cuda_fail(err, algo_name(algo));
  return ARC_OK;
}

extern "C" const char *arc_error_string(int code) {
  switch (code) {
  case ARC_OK:
    return "ok";
  case ARC_ERR_INVALID:
    return "invalid argument";
  case ARC_ERR_UNSUPPORTED:
    return "unsupported algorithm, codec, world or dtype";
  case ARC_ERR_CUDA:
    return "GPU runtime error";
  case ARC_ERR_TOO_LARGE:
    return "count exceeds the communicator's max_bytes";
  case ARC_ERR_TIMEOUT:
    return "timed out waiting for a peer";
  }
  return "unknown error";
}

extern "C" const char *arc_last_error(void) { return last_error.c_str(); }
