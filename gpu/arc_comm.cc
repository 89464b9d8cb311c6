// arc_comm.cc: the communicators of arc_gpu.h, host code over the device
// runtime of arc_internal.h (arc_gpu.cu on a GPU, a fake in gpu/ffitest):
// the memory plan, creation (ranks of this process, and ranks of other
// processes met through a key-value store), argument checks, launches, and
// the failure records kernels leave, turned into messages.
//
// Ranks in other processes, on the peer link: each process allocates its
// ranks' exchange and flag memory, publishes CUDA IPC handles of them, opens
// its peers' with lazy peer access, and at destroy closes them before it frees
// its own, once its peers say they closed theirs. On the host-staged link:
// rank 0's process creates one POSIX shared-memory segment holding every
// rank's exchange and flag memory (arc_shm.cc), the others map it by the name
// it publishes, each registers it with the device runtime, and the name is
// removed once every process mapped it; at destroy each unmaps it, with no
// word through the store (the system frees it with the last mapping). Keys,
// under the caller's unique key K:
//   K/info/<rank>    host, pid, PCI bus id, multiprocessors, world, link, max_bytes
//   K/mem/<rank>     peer link: the plan (grid, exchange bytes, flag words) and the two handles
//   K/closed/<rank>  peer link: written once the rank's process closed its peers' memory
//   K/shm/0          host link: the plan, the segment's size and name (rank 0's process)
//   K/mapped/<rank>  host link: written once the rank's process mapped and registered the segment
// Every process checks that every peer plans the same communicator; the grid
// counts ranks per physical GPU (bus id) across processes.

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "arc_internal.h"

struct arc_comm {
  int world = 0;
  arc_link link = ARC_LINK_PEER;
  size_t max_bytes = 0;
  int grid = 0; /* blocks per rank: every rank's blocks fit on its device at once */
  uint64_t timeout_ns = 0;
  int nowait = 0; /* ARC_DEBUG_NOWAIT */
  int dev[ARC_MAX_WORLD];        /* local device ordinal, or -1: a rank of another process */
  long long ids[ARC_MAX_WORLD];  /* how messages name each rank's device */
  char *x[ARC_MAX_WORLD];        /* exchange memory (device, or mapped host) */
  uint32_t *f[ARC_MAX_WORLD];    /* flags, headers and abort slots */
  bool opened[ARC_MAX_WORLD];    /* x and f of this rank were opened from IPC handles */
  uint32_t *epochs[ARC_MAX_WORLD];
  uint32_t *state[ARC_MAX_WORLD];
  uint32_t *records = nullptr;   /* [world][ARC_REC_WORDS], mapped host memory */
  KernelLayout one, two, hier;   /* one layout per algorithm (only its fields are used) */
  std::vector<std::pair<int, int> > peers; /* peer access references held (ARC_LINK_PEER) */
  int import_dev = -1;           /* the device remote memory was opened on */
  arc_shm shm;                   /* the host-staged link across processes: every rank's x and f */
  bool shm_registered = false;
  /* ranks of other processes */
  bool remote = false;
  std::string key;
  void *kv_ctx = nullptr;
  int (*kv_put)(void *, const char *, size_t, const char *, size_t, char **) = nullptr;
  int (*kv_get)(void *, const char *, size_t, int, char **, size_t *, char **) = nullptr;
  long long rendezvous_ms = 0;
  bool reported = false; /* the watchdog printed this communicator's failure */
};

static thread_local std::string last_error;

static void watch(arc_comm *c);   /* the watchdog (below) */
static void unwatch(arc_comm *c);

int arc_set_error(int code, const std::string &msg) {
  last_error = msg;
  return code;
}

static int fail(int code, const std::string &msg) { return arc_set_error(code, msg); }

#define TRY(call)                   \
  do {                              \
    int rc_ = (call);               \
    if (rc_ != ARC_OK) return rc_;  \
  } while (0)

/* Restores the calling thread's current device when it leaves scope. */
struct DeviceGuard {
  int saved = -1;
  DeviceGuard() {
    if (arc_dev_get(&saved) != ARC_OK) saved = -1;
  }
  ~DeviceGuard() {
    if (saved >= 0) (void)arc_dev_set(saved);
  }
};

static uint64_t cdiv_h(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/* The 32-bit hash of a call's fingerprint that flags carry (a mismatch that
 * hashes alike is still caught by the header when the epochs differ; with
 * equal epochs it passes, about once in 2^32 such calls). */
static uint32_t fingerprint_hash(uint32_t y, uint32_t z) {
  uint64_t h = ((uint64_t)z << 32 | y) * 0x9E3779B97F4A7C15ull;
  return (uint32_t)(h >> 32) ^ (uint32_t)h;
}

/* One block's share of a region at max_bytes, in bytes: the most tiles any
 * block handles (for any element size) times the largest tile (fp codec,
 * or the raw elements of oneshot, ARC_TILE_ELEMS x element bytes; bf16 under
 * the cast adds a byte per codec block). parts splits the
 * codec blocks into owner chunks (0: the whole buffer, in tiles). */
static uint64_t block_cap(size_t max_bytes, int parts, int grid) {
  uint64_t cap = 0;
  for (uint64_t es = 2; es <= 4; es += 2) {
    uint64_t n = max_bytes / es, tiles;
    if (parts == 0)
      tiles = cdiv_h(n, ARC_TILE_ELEMS);
    else
      tiles = cdiv_h(cdiv_h(cdiv_h(n, 32), parts), ARC_TILE_BLOCKS);
    const uint64_t tile = ARC_TILE_ELEMS * es + (parts != 0 && es == 2 ? ARC_TILE_BLOCKS : 0);
    uint64_t c = cdiv_h(tiles, grid) * tile;
    cap = c > cap ? c : cap;
  }
  return cap;
}

static bool oneshot_world(int w) { return w == 2 || w == 4 || w == 6 || w == 8; }
static bool twoshot_world(int w) { return w == 2 || w == 4 || w == 8; }
static bool hier_world(int w) { return w == 4 || w == 8; }
/* The links that run with ranks in other processes: peer (CUDA IPC handles)
 * and host (one POSIX shared-memory segment). abi.ProcessLinks says the same. */
static bool process_link(int l) { return l == ARC_LINK_PEER || l == ARC_LINK_HOST; }

/* Whether x and f live in the shared segment (the host link across processes). */
static bool shares_host(const arc_comm *c) { return c->remote && c->link == ARC_LINK_HOST; }

/* Plans every algorithm's regions; returns the bytes of exchange memory and
 * the words of flag memory each rank needs. */
static void plan(arc_comm *c, uint64_t *xbytes, uint64_t *fwords) {
  const uint64_t W = c->world, G = c->grid;
  uint64_t x = 0, f = W * G; /* the call flags come first */
  if (oneshot_world(c->world)) {
    c->one.one_cap = block_cap(c->max_bytes, 0, c->grid);
    c->one.one_x = x;
    x += 2 * W * G * c->one.one_cap;
  }
  if (twoshot_world(c->world)) {
    KernelLayout &l = c->two;
    l.cap = block_cap(c->max_bytes, c->world, c->grid);
    l.p1_x = x;
    x += W * G * l.cap;
    l.p2_x = x;
    x += W * G * l.cap;
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
    l.px_f = (uint32_t)f;
    f += G;
    l.p2_f = (uint32_t)f;
    f += H * G;
  }
  /* headers (16-byte aligned) and the failure record, shared by every algorithm */
  const uint32_t nflag = (uint32_t)f, hdr_f = (uint32_t)cdiv_h(2 * f, 4) * 4; /* flags are two words */
  const uint32_t abort_f = hdr_f + 2 * nflag * 4;
  for (KernelLayout *l : {&c->one, &c->two, &c->hier}) {
    l->call_f = 0;
    l->nflag = nflag;
    l->hdr_f = hdr_f;
    l->abort_f = abort_f;
  }
  *xbytes = x;
  *fwords = abort_f + ARC_REC_WORDS;
}

static void free_comm(arc_comm *c) {
  for (int r = 0; r < c->world; r++) {
    if (c->opened[r]) {
      arc_dev_ipc_close(c->import_dev, c->x[r]);
      arc_dev_ipc_close(c->import_dev, c->f[r]);
    }
  }
  for (int r = 0; r < c->world; r++) {
    if (c->dev[r] < 0) continue;
    if (!shares_host(c)) {
      arc_dev_free_shared(c->dev[r], c->link, c->x[r]);
      arc_dev_free_shared(c->dev[r], c->link, c->f[r]);
    }
    arc_dev_free(c->dev[r], c->epochs[r]);
    arc_dev_free(c->dev[r], c->state[r]);
  }
  if (c->shm_registered) arc_dev_host_unregister(c->shm.base);
  arc_shm_unmap(&c->shm);
  arc_shm_unlink(&c->shm); /* a creation that failed: its name goes with it */
  arc_dev_free_host(c->records);
  for (auto &p : c->peers) arc_dev_peer_release(p.first, p.second);
  delete c;
}

static std::string group_name(const arc_comm *c) {
  std::string s = "group [";
  for (int r = 0; r < c->world; r++) s += (r ? "," : "") + std::to_string(c->ids[r]);
  return s + "]";
}

static std::string rank_name(const arc_comm *c, int r) {
  return "rank " + std::to_string(r) + " (device " + std::to_string(c->ids[r]) + ")";
}

/* ---- the key-value store ---- */

static std::string hex(const unsigned char *p, size_t n) {
  static const char digits[] = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; i++) {
    s += digits[p[i] >> 4];
    s += digits[p[i] & 15];
  }
  return s;
}

static bool unhex(const std::string &s, unsigned char *p, size_t n) {
  if (s.size() != 2 * n) return false;
  for (size_t i = 0; i < n; i++) {
    int v = 0;
    for (int k = 0; k < 2; k++) {
      char ch = s[2 * i + k];
      int d = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
      if (d < 0) return false;
      v = v * 16 + d;
    }
    p[i] = (unsigned char)v;
  }
  return true;
}

/* The value of field name in "a=1 b=2 ..." (empty when absent). */
static std::string field(const std::string &v, const char *name) {
  const std::string want = std::string(name) + "=";
  size_t i = 0;
  while (i < v.size()) {
    size_t j = v.find(' ', i);
    if (j == std::string::npos) j = v.size();
    if (v.compare(i, want.size(), want) == 0) return v.substr(i + want.size(), j - i - want.size());
    i = j + 1;
  }
  return "";
}

static int kv_put(arc_comm *c, const std::string &key, const std::string &value) {
  char *err = nullptr;
  if (c->kv_put(c->kv_ctx, key.data(), key.size(), value.data(), value.size(), &err) != 0) {
    std::string why = err ? err : "no reason given";
    free(err);
    return fail(ARC_ERR_RENDEZVOUS, group_name(c) + ": publishing " + key + " in the key-value store failed: " + why +
                                        " (a key is written once: was this communicator made before under this key?)");
  }
  return ARC_OK;
}

static int kv_get(arc_comm *c, const std::string &key, long long timeout_ms, const std::string &what,
                  std::string *value) {
  char *err = nullptr, *v = nullptr;
  size_t n = 0;
  int ms = timeout_ms > 0x7fffffff ? 0x7fffffff : (int)timeout_ms;
  if (c->kv_get(c->kv_ctx, key.data(), key.size(), ms, &v, &n, &err) != 0) {
    std::string why = err ? err : "no reason given";
    free(err);
    free(v);
    return fail(ARC_ERR_RENDEZVOUS, group_name(c) + ": " + what + " within " + std::to_string(timeout_ms) +
                                        " ms (key " + key + "): " + why);
  }
  value->assign(v ? v : "", n);
  free(v);
  return ARC_OK;
}

static long long env_ms(const char *name, long long fallback) {
  const char *v = getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  char *end = nullptr;
  long long ms = strtoll(v, &end, 10);
  return end != v && ms >= 0 ? ms : fallback;
}

/* ---- creation ---- */

struct rank_info {
  std::string bus;
  int sms = 0;
};

/* The grid: all ranks' blocks must be resident at once (a block spins on its
 * peers' blocks), so a GPU's multiprocessors are shared by its ranks, whatever
 * process they are in; every rank uses the same grid. Blocks per
 * multiprocessor are this build's: another build that fits another number
 * plans another grid, which the rendezvous refuses. */
static int grid_of(const arc_comm *c, const rank_info *info) {
  int grid = 1 << 20;
  for (int r = 0; r < c->world; r++) {
    int ranks = 0;
    for (int q = 0; q < c->world; q++) ranks += info[q].bus == info[r].bus;
    int g = arc_dev_blocks_per_sm() * info[r].sms / ranks;
    grid = g < grid ? g : grid;
  }
  return grid;
}

static int alloc_rank(arc_comm *c, int r, uint64_t xbytes, uint64_t fwords) {
  void *p = nullptr;
  if (!shares_host(c)) { /* else x and f are in the shared segment (share_host) */
    TRY(arc_dev_alloc_shared(c->dev[r], c->link, xbytes, false, &p));
    c->x[r] = (char *)p;
    TRY(arc_dev_alloc_shared(c->dev[r], c->link, fwords * sizeof(uint32_t), true, &p));
    c->f[r] = (uint32_t *)p;
  }
  TRY(arc_dev_alloc(c->dev[r], (size_t)c->grid * sizeof(uint32_t), &p));
  c->epochs[r] = (uint32_t *)p;
  TRY(arc_dev_alloc(c->dev[r], ARC_ST_WORDS * sizeof(uint32_t), &p));
  c->state[r] = (uint32_t *)p;
  return ARC_OK;
}

static std::string rkey(const arc_comm *c, const char *what, int r) {
  return c->key + "/" + what + "/" + std::to_string(r);
}

/* 2. the memory, host-staged link: one shared-memory segment of every rank's
 * exchange and flag memory, [rank][x, f], each page-aligned. Rank 0's process
 * creates it (zeroed: fresh pages) and publishes its name, the others map it
 * by that name; every process registers the whole segment (its kernels write
 * into the peers' parts) and says so, and once every process has, each removes
 * the name (the first one does it, the others find it gone). A process that
 * never maps it leaves the others waiting rendezvous_ms, then failing; any
 * failure removes the name too (free_comm). */
static int share_host(arc_comm *c, uint64_t xbytes, uint64_t fwords) {
  const uint64_t page = 4096, xpad = cdiv_h(xbytes, page) * page, fpad = cdiv_h(fwords * sizeof(uint32_t), page) * page;
  const uint64_t stride = xpad + fpad, total = stride * (uint64_t)c->world;
  char plan_s[160];
  snprintf(plan_s, sizeof plan_s, "grid=%d xbytes=%" PRIu64 " fwords=%" PRIu64 " bytes=%" PRIu64, c->grid, xbytes,
           fwords, total);
  if (c->dev[0] >= 0) {
    int rc = arc_shm_create(&c->shm, c->key, (size_t)total);
    if (rc != ARC_OK) return fail(rc, group_name(c) + ": " + last_error);
    TRY(kv_put(c, rkey(c, "shm", 0), std::string(plan_s) + " name=" + c->shm.name));
  } else {
    std::string v;
    TRY(kv_get(c, rkey(c, "shm", 0), c->rendezvous_ms, rank_name(c, 0) + " did not publish the shared memory", &v));
    const std::string name = field(v, "name");
    if (arc_shm_name_ok(name)) c->shm.name = name; /* from here on, a failure removes it: the group is off */
    const char *keys[] = {"grid", "xbytes", "fwords", "bytes"};
    for (const char *k : keys) {
      if (field(v, k) != field(plan_s, k))
        return fail(ARC_ERR_RENDEZVOUS, group_name(c) + ": plan mismatch: " + rank_name(c, 0) + " plans " + k + "=" +
                                            field(v, k) + ", this process " + k + "=" + field(plan_s, k) +
                                            " (another build of libarc_gpu.so?)");
    }
    int rc = arc_shm_open(&c->shm, name, (size_t)total);
    if (rc != ARC_OK) return fail(rc, group_name(c) + ": " + last_error);
  }
  void *d = nullptr;
  int rc = arc_dev_host_register(c->shm.base, (size_t)total, &d);
  if (rc != ARC_OK) return fail(rc, group_name(c) + ": registering the shared memory " + c->shm.name + ": " + last_error);
  c->shm_registered = true;
  for (int r = 0; r < c->world; r++) {
    c->x[r] = (char *)d + (uint64_t)r * stride;
    c->f[r] = (uint32_t *)((char *)d + (uint64_t)r * stride + xpad);
  }
  for (int r = 0; r < c->world; r++)
    if (c->dev[r] >= 0) TRY(kv_put(c, rkey(c, "mapped", r), "1"));
  for (int r = 0; r < c->world; r++) {
    if (c->dev[r] >= 0) continue;
    std::string v;
    TRY(kv_get(c, rkey(c, "mapped", r), c->rendezvous_ms, rank_name(c, r) + " did not map the shared memory", &v));
  }
  arc_shm_unlink(&c->shm);
  return ARC_OK;
}

static int create(arc_comm *c) {
  int ndev = 0;
  TRY(arc_dev_count(&ndev));
  rank_info info[ARC_MAX_WORLD];
  int first_local = -1;
  for (int r = 0; r < c->world; r++) {
    if (c->dev[r] < 0) continue;
    if (c->dev[r] >= ndev) return fail(ARC_ERR_INVALID, "device " + std::to_string(c->dev[r]) + " does not exist");
    if (first_local < 0) first_local = r;
    char bus[64] = {0};
    TRY(arc_dev_describe(c->dev[r], bus, sizeof bus, &info[r].sms));
    info[r].bus = bus;
  }
  if (first_local < 0) return fail(ARC_ERR_INVALID, "arc_comm_create_config: no rank runs in this process");

  char host[256] = {0};
  if (c->remote) {
    /* 1. who is where: every rank's GPU, and the same communicator everywhere */
    (void)gethostname(host, sizeof host - 1);
    for (int r = 0; r < c->world; r++) {
      if (c->dev[r] < 0) continue;
      char v[512];
      snprintf(v, sizeof v, "arc-rv1 host=%s pid=%ld bus=%s sms=%d world=%d link=%d max_bytes=%zu", host, (long)getpid(),
               info[r].bus.c_str(), info[r].sms, c->world, (int)c->link, c->max_bytes);
      TRY(kv_put(c, rkey(c, "info", r), v));
    }
    for (int r = 0; r < c->world; r++) {
      if (c->dev[r] >= 0) continue;
      std::string v;
      TRY(kv_get(c, rkey(c, "info", r), c->rendezvous_ms, rank_name(c, r) + " did not join", &v));
      std::string who = rank_name(c, r);
      who.insert(who.size() - 1, ", pid " + field(v, "pid"));
      if (v.compare(0, 8, "arc-rv1 ") != 0)
        return fail(ARC_ERR_RENDEZVOUS, group_name(c) + ": " + who + " speaks another rendezvous protocol: " + v);
      if (field(v, "host") != host)
        return fail(ARC_ERR_UNSUPPORTED, group_name(c) + ": " + who + " runs on host " + field(v, "host") +
                                             ", this process on " + host + ": arc's kernels reach only the GPUs of one host");
      const char *keys[] = {"world", "link", "max_bytes"};
      const std::string mine[] = {std::to_string(c->world), std::to_string((int)c->link), std::to_string(c->max_bytes)};
      for (int k = 0; k < 3; k++) {
        if (field(v, keys[k]) != mine[k])
          return fail(ARC_ERR_RENDEZVOUS, group_name(c) + ": plan mismatch: " + who + " plans " + keys[k] + "=" +
                                              field(v, keys[k]) + ", this process " + keys[k] + "=" + mine[k]);
      }
      info[r].bus = field(v, "bus");
      info[r].sms = atoi(field(v, "sms").c_str());
      if (info[r].bus.empty() || info[r].sms <= 0)
        return fail(ARC_ERR_RENDEZVOUS, group_name(c) + ": " + who + " published an unreadable description: " + v);
    }
  }

  c->grid = grid_of(c, info);
  if (c->grid < 1) return fail(ARC_ERR_UNSUPPORTED, "more ranks on one device than it has multiprocessors");

  if (c->link == ARC_LINK_PEER) {
    for (int r = 0; r < c->world; r++)
      for (int q = 0; q < c->world; q++) {
        if (c->dev[r] < 0 || c->dev[q] < 0) continue;
        std::pair<int, int> p(c->dev[r], c->dev[q]);
        if (p.first == p.second) continue;
        bool dup = false;
        for (auto &h : c->peers) dup = dup || h == p;
        if (dup) continue;
        TRY(arc_dev_peer_acquire(p.first, p.second)); /* free_comm releases those taken */
        c->peers.push_back(p);
      }
  }
  for (int r = 0; r < c->world; r++) {
    bool seen = false;
    for (int q = 0; q < r; q++) seen = seen || c->dev[q] == c->dev[r];
    if (c->dev[r] >= 0 && !seen) TRY(arc_dev_preload(c->dev[r]));
  }
  uint64_t xbytes = 0, fwords = 0;
  plan(c, &xbytes, &fwords);
  void *rec = nullptr;
  TRY(arc_dev_alloc_host((size_t)c->world * ARC_REC_WORDS * sizeof(uint32_t), &rec));
  c->records = (uint32_t *)rec;
  for (int r = 0; r < c->world; r++)
    if (c->dev[r] >= 0) TRY(alloc_rank(c, r, xbytes, fwords));
  if (!c->remote) return ARC_OK;
  if (c->link == ARC_LINK_HOST) return share_host(c, xbytes, fwords);

  /* 2. the memory, peer link: this process's handles out, the peers' in, the same plan */
  char plan_s[128];
  snprintf(plan_s, sizeof plan_s, "grid=%d xbytes=%" PRIu64 " fwords=%" PRIu64, c->grid, xbytes, fwords);
  for (int r = 0; r < c->world; r++) {
    if (c->dev[r] < 0) continue;
    arc_ipc_handle hx, hf;
    TRY(arc_dev_ipc_export(c->dev[r], c->x[r], &hx));
    TRY(arc_dev_ipc_export(c->dev[r], c->f[r], &hf));
    TRY(kv_put(c, rkey(c, "mem", r),
               std::string(plan_s) + " x=" + hex(hx.bytes, sizeof hx.bytes) + " f=" + hex(hf.bytes, sizeof hf.bytes)));
  }
  c->import_dev = c->dev[first_local];
  for (int r = 0; r < c->world; r++) {
    if (c->dev[r] >= 0) continue;
    std::string v;
    TRY(kv_get(c, rkey(c, "mem", r), c->rendezvous_ms, rank_name(c, r) + " did not publish its memory", &v));
    const char *keys[] = {"grid", "xbytes", "fwords"};
    for (const char *k : keys) {
      if (field(v, k) != field(plan_s, k))
        return fail(ARC_ERR_RENDEZVOUS, group_name(c) + ": plan mismatch: " + rank_name(c, r) + " plans " + k + "=" +
                                            field(v, k) + ", this process " + k + "=" + field(plan_s, k) +
                                            " (another build of libarc_gpu.so?)");
    }
    arc_ipc_handle hx, hf;
    if (!unhex(field(v, "x"), hx.bytes, sizeof hx.bytes) || !unhex(field(v, "f"), hf.bytes, sizeof hf.bytes))
      return fail(ARC_ERR_RENDEZVOUS, group_name(c) + ": " + rank_name(c, r) + " published unreadable handles");
    void *px = nullptr, *pf = nullptr;
    int rc = arc_dev_ipc_open(c->import_dev, &hx, &px);
    if (rc == ARC_OK) {
      rc = arc_dev_ipc_open(c->import_dev, &hf, &pf);
      if (rc != ARC_OK) arc_dev_ipc_close(c->import_dev, px);
    }
    if (rc != ARC_OK)
      return fail(rc, group_name(c) + ": opening the memory of " + rank_name(c, r) + " (CUDA IPC): " + last_error);
    c->x[r] = (char *)px;
    c->f[r] = (uint32_t *)pf;
    c->opened[r] = true;
  }
  return ARC_OK;
}

extern "C" int arc_comm_create_config(arc_comm **comm, const arc_comm_config *user) {
  if (comm == nullptr || user == nullptr) return fail(ARC_ERR_INVALID, "arc_comm_create_config: null argument");
  *comm = nullptr;
  arc_comm_config cfg;
  memset(&cfg, 0, sizeof cfg);
  memcpy(&cfg, user, user->struct_size < sizeof cfg ? user->struct_size : sizeof cfg);
  if (cfg.devices == nullptr) return fail(ARC_ERR_INVALID, "arc_comm_create_config: null devices");
  if (!oneshot_world(cfg.world)) /* every other algorithm's worlds are a subset */
    return fail(ARC_ERR_UNSUPPORTED, "world size " + std::to_string(cfg.world) + " is not 2, 4, 6 or 8");
  if (cfg.link != ARC_LINK_PEER && cfg.link != ARC_LINK_HOST) return fail(ARC_ERR_INVALID, "unknown link mode");
  arc_comm *c = new arc_comm();
  c->world = cfg.world;
  c->link = cfg.link;
  c->max_bytes = cfg.max_bytes ? cfg.max_bytes : (size_t)256 << 20;
  long long ms = cfg.timeout_ms >= 0 ? cfg.timeout_ms : env_ms("ARC_TIMEOUT_MS", ARC_DEFAULT_TIMEOUT_MS);
  c->timeout_ns = (uint64_t)ms * 1000000ull;
  const char *nw = getenv("ARC_DEBUG_NOWAIT");
  c->nowait = nw != nullptr && nw[0] == '1';
  for (int r = 0; r < c->world; r++) {
    c->dev[r] = cfg.devices[r] < 0 ? -1 : cfg.devices[r];
    c->ids[r] = cfg.ids ? cfg.ids[r] : c->dev[r];
    c->x[r] = nullptr;
    c->f[r] = nullptr;
    c->opened[r] = false;
    c->epochs[r] = c->state[r] = nullptr;
    c->remote = c->remote || c->dev[r] < 0;
  }
  int rc = ARC_OK;
  if (c->remote) {
    c->key = cfg.key ? cfg.key : "";
    c->kv_ctx = cfg.kv_ctx;
    c->kv_put = cfg.kv_put;
    c->kv_get = cfg.kv_get;
    c->rendezvous_ms = cfg.rendezvous_ms > 0 ? cfg.rendezvous_ms : env_ms("ARC_RENDEZVOUS_MS", ARC_DEFAULT_TIMEOUT_MS);
    if (cfg.ids == nullptr)
      rc = fail(ARC_ERR_INVALID, "arc_comm_create_config: ranks of other processes need ids");
    else if (c->kv_put == nullptr || c->kv_get == nullptr || c->key.empty())
      rc = fail(ARC_ERR_INVALID, group_name(c) + ": ranks of other processes need a key-value store and a key");
    else if (!process_link(c->link))
      rc = fail(ARC_ERR_UNSUPPORTED, group_name(c) + ": this link needs every rank in one process");
  }
  if (rc == ARC_OK) {
    DeviceGuard guard;
    /* A caller may be capturing a graph on this thread (XLA records arc's
     * custom call into its command buffers): allocate outside that capture. */
    int mode = arc_dev_relax_capture();
    rc = create(c);
    arc_dev_restore_capture(mode);
  }
  if (rc != ARC_OK) {
    std::string msg = last_error;
    free_comm(c);
    last_error = msg;
    return rc;
  }
  watch(c);
  *comm = c;
  return ARC_OK;
}

extern "C" int arc_comm_create(arc_comm **comm, const int *devices, int ndevices, arc_link link, size_t max_bytes) {
  if (comm == nullptr || devices == nullptr) return fail(ARC_ERR_INVALID, "arc_comm_create: null argument");
  *comm = nullptr;
  for (int r = 0; r < ndevices && r < ARC_MAX_WORLD; r++)
    if (devices[r] < 0) return fail(ARC_ERR_INVALID, "device " + std::to_string(devices[r]) + " does not exist");
  arc_comm_config cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.struct_size = sizeof cfg;
  cfg.world = ndevices;
  cfg.devices = devices;
  cfg.link = link;
  cfg.max_bytes = max_bytes;
  cfg.timeout_ms = -1;
  return arc_comm_create_config(comm, &cfg);
}

extern "C" int arc_comm_destroy(arc_comm *comm) {
  if (comm == nullptr) return ARC_OK;
  unwatch(comm);
  DeviceGuard guard;
  for (int r = 0; r < comm->world; r++)
    if (comm->dev[r] >= 0) (void)arc_dev_synchronize(comm->dev[r]);
  if (comm->remote && comm->link == ARC_LINK_PEER) {
    /* Close the peers' memory, say so, and free this process's only once
     * the peers closed it (freeing memory another process maps is undefined).
     * A peer that died never says so: wait a while, then free anyway. */
    for (int r = 0; r < comm->world; r++) {
      if (!comm->opened[r]) continue;
      arc_dev_ipc_close(comm->import_dev, comm->x[r]);
      arc_dev_ipc_close(comm->import_dev, comm->f[r]);
      comm->opened[r] = false;
    }
    bool published = true;
    for (int r = 0; r < comm->world; r++)
      if (comm->dev[r] >= 0 && kv_put(comm, rkey(comm, "closed", r), "1") != ARC_OK) published = false;
    const long long wait_ms = env_ms("ARC_CLOSE_MS", 10000);
    for (int r = 0; r < comm->world && published; r++) {
      std::string v;
      if (comm->dev[r] < 0) (void)kv_get(comm, rkey(comm, "closed", r), wait_ms, "closing", &v);
    }
  }
  /* The host link's segment is unmapped here; the peers' mappings keep the
   * memory until they unmap it too (or exit), so nothing waits for them. */
  free_comm(comm);
  return ARC_OK;
}

extern "C" int arc_comm_release(arc_comm *comm) {
  /* Local communicators, and the host link's (unmapping says nothing to the
   * peers, whose mappings stay), are destroyed without the store. */
  if (comm == nullptr || !comm->remote || comm->link == ARC_LINK_HOST) return arc_comm_destroy(comm);
  unwatch(comm);
  DeviceGuard guard;
  for (int r = 0; r < comm->world; r++)
    if (comm->dev[r] >= 0) (void)arc_dev_synchronize(comm->dev[r]);
  for (int r = 0; r < comm->world; r++) {
    if (comm->opened[r]) {
      arc_dev_ipc_close(comm->import_dev, comm->x[r]);
      arc_dev_ipc_close(comm->import_dev, comm->f[r]);
      comm->opened[r] = false;
    }
    if (comm->dev[r] >= 0) {  // exported: a peer may still map them
      comm->x[r] = nullptr;
      comm->f[r] = nullptr;
    }
  }
  free_comm(comm);
  return ARC_OK;
}

/* ---- failures ---- */


/* "call 3 (twoshot int8, 2048 bf16 cast to f16)" from a header's words: a
 * header's epoch is the call's sequence number for block 0, which takes part
 * in every call; another block's counts only the calls it took part in. */
static std::string describe_call(const uint32_t *h, int block) {
  const uint64_t count = (uint64_t)h[1] | (uint64_t)(h[2] & 0xFFFFu) << 32;
  const int dtype = (h[2] >> 16) & 3, algo = (h[2] >> 18) & 3, codec = (h[2] >> 20) & 7, cast = (h[2] >> 23) & 1;
  std::string s = block == 0 ? "call " + std::to_string(h[0]) : "the call block " + std::to_string(block) +
                                                                   " took part in " + std::to_string(h[0]) + " times";
  s += " (" + std::string(arc_algo_name(algo));
  if (algo != ARC_ONESHOT || codec != ARC_CODEC_NONE) s += std::string(" ") + arc_codec_name(codec);
  s += ", " + std::to_string(count) + " " + arc_dtype_name(dtype) + (cast ? " cast to f16" : "") + ")";
  return s;
}

/* The communicator's failure as this process's ranks recorded it, or ARC_OK.
 * The records live in mapped host memory: no device call, no wait. */
static int check_records(const arc_comm *c) {
  for (int r = 0; r < c->world; r++) {
    if (c->dev[r] < 0) continue;
    const uint32_t *rec = c->records + (size_t)r * ARC_REC_WORDS;
    uint32_t kind = __atomic_load_n(&rec[ARC_REC_KIND], __ATOMIC_ACQUIRE);
    if (kind == 0) continue;
    uint32_t w[ARC_REC_WORDS];
    for (int i = 0; i < ARC_REC_WORDS; i++) w[i] = __atomic_load_n(&rec[i], __ATOMIC_RELAXED);
    const int who = (int)(w[ARC_REC_RANKS] & 0xFF), peer = (int)(w[ARC_REC_RANKS] >> 8 & 0xFF);
    const int block = (int)(w[ARC_REC_RANKS] >> 16);
    if (who >= c->world || peer >= c->world)
      return fail(ARC_ERR_INVALID, group_name(c) + ": unreadable failure record");
    std::string msg = group_name(c) + ": ";
    if (kind == ARC_ERR_TIMEOUT) {
      msg += rank_name(c, who) + " timed out after " + std::to_string(c->timeout_ns / 1000000) + " ms waiting for " +
             rank_name(c, peer) + " in " + describe_call(w + ARC_REC_MINE, block);
    } else if (kind == ARC_ERR_MISMATCH) {
      msg += "ranks made different calls: " + rank_name(c, who) + " is at " + describe_call(w + ARC_REC_MINE, block) +
             ", " + rank_name(c, peer) + " at " + describe_call(w + ARC_REC_THEIRS, block);
    } else {
      msg += "failure " + std::to_string(kind);
    }
    return fail((int)kind, msg + "; the communicator is unusable");
  }
  return ARC_OK;
}

/* The watchdog: under XLA's command buffers a call's handler runs only when
 * the call is recorded, so nothing would read a failure that a replayed
 * kernel records. A thread prints each communicator's first failure once on
 * stderr (ARC_WATCHDOG=0: off). The registry is never freed, so that the
 * thread stays safe while the process exits; records are memory that stays
 * mapped until then (arc_dev_alloc_host). */
static std::mutex live_mu;
static std::vector<arc_comm *> *live = nullptr;

static void watchdog() {
  for (;;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::lock_guard<std::mutex> lock(live_mu);
    for (arc_comm *c : *live) {
      if (c->reported || check_records(c) == ARC_OK) continue;
      c->reported = true;
      fprintf(stderr, "arc: %s\n", last_error.c_str());
      fflush(stderr);
    }
  }
}

static void watch(arc_comm *c) {
  const char *v = getenv("ARC_WATCHDOG");
  if (v != nullptr && v[0] == '0') return;
  std::lock_guard<std::mutex> lock(live_mu);
  if (live == nullptr) {
    live = new std::vector<arc_comm *>();
    std::thread(watchdog).detach();
  }
  live->push_back(c);
}

static void unwatch(arc_comm *c) {
  std::lock_guard<std::mutex> lock(live_mu);
  if (live == nullptr) return;
  for (size_t i = 0; i < live->size(); i++) {
    if ((*live)[i] == c) {
      live->erase(live->begin() + (long)i);
      break;
    }
  }
}

extern "C" int arc_comm_status(arc_comm *comm) {
  if (comm == nullptr) return fail(ARC_ERR_INVALID, "arc_comm_status: null communicator");
  return check_records(comm);
}

static int launch(arc_comm *comm, int rank, const void *in, void *out, size_t count, arc_dtype dtype, arc_algo algo,
                  arc_codec codec, int flags, const arc_norm *norm, void *stream);

extern "C" int arc_allreduce(arc_comm *comm, int rank, const void *in, void *out, size_t count, arc_dtype dtype,
                             arc_algo algo, arc_codec codec, int flags, void *stream) {
  return launch(comm, rank, in, out, count, dtype, algo, codec, flags, nullptr, stream);
}

extern "C" int arc_allreduce_norm(arc_comm *comm, int rank, const void *in, void *out, size_t count, arc_dtype dtype,
                                  arc_algo algo, arc_codec codec, int flags, const arc_norm *norm, void *stream) {
  if (norm == nullptr) return fail(ARC_ERR_INVALID, "arc_allreduce_norm: null norm");
  return launch(comm, rank, in, out, count, dtype, algo, codec, flags, norm, stream);
}

/* The fused kernels' checks and grid (arc_fused.cu): the norm's arguments,
 * and that a block's share of the call's segments fits its region. */
static int plan_norm(const arc_comm *comm, const arc_norm *norm, size_t count, uint64_t es, arc_algo algo,
                     arc_codec codec, const void *in, const void *out, KernelArgs *a, uint64_t *work) {
  const uint64_t N = norm->row, seg = ARC_TILE_ELEMS;
  if (algo != ARC_ONESHOT && algo != ARC_TWOSHOT) return fail(ARC_ERR_UNSUPPORTED, "the fused kernels are oneshot and twoshot");
  if (N == 0 || count % N != 0)
    return fail(ARC_ERR_INVALID, "arc_allreduce_norm: " + std::to_string(count) + " elements are not whole rows of " + std::to_string(N));
  if (N * es > 64 * 1024) return fail(ARC_ERR_UNSUPPORTED, "arc_allreduce_norm: rows longer than 64 KiB");
  if (algo == ARC_TWOSHOT && N % 32 != 0)
    return fail(ARC_ERR_UNSUPPORTED, "arc_allreduce_norm: twoshot needs rows of a multiple of 32 elements");
  if (norm->mean != ARC_NORM_MEAN_MUL && norm->mean != ARC_NORM_MEAN_DIV)
    return fail(ARC_ERR_INVALID, "arc_allreduce_norm: unknown mean");
  if (norm->weight_mode != ARC_NORM_WEIGHT_F32 && norm->weight_mode != ARC_NORM_WEIGHT_IO)
    return fail(ARC_ERR_INVALID, "arc_allreduce_norm: unknown weight placement");
  if (norm->kind != ARC_NORM_KIND_RMSNORM && norm->kind != ARC_NORM_KIND_LAYERNORM &&
      norm->kind != ARC_NORM_KIND_LAYERNORM_FAST)
    return fail(ARC_ERR_INVALID, "arc_allreduce_norm: unknown norm");
  if (norm->kind != ARC_NORM_KIND_RMSNORM && norm->weight_mode != ARC_NORM_WEIGHT_F32)
    return fail(ARC_ERR_INVALID, "arc_allreduce_norm: LayerNorm applies its weight in f32");
  if (norm->kind == ARC_NORM_KIND_RMSNORM && norm->bias != nullptr)
    return fail(ARC_ERR_INVALID, "arc_allreduce_norm: RMSNorm has no bias");
  uint32_t ibits;
  memcpy(&ibits, &norm->init, 4);
  if ((ibits & 0x7FFFFFFFu) != 0 || (ibits != 0 && norm->kind == ARC_NORM_KIND_RMSNORM))
    return fail(ARC_ERR_INVALID, "arc_allreduce_norm: a row sum from neither +0 nor (for LayerNorm) -0");
  if (norm->kind != ARC_NORM_KIND_RMSNORM) /* the fused kernels run RMSNorm only, so far */
    return fail(ARC_ERR_UNSUPPORTED, "arc_allreduce_norm: this library's fused kernels run RMSNorm only");
  if (count == 0) return ARC_OK;
  if (norm->residual == nullptr || norm->weight == nullptr || norm->y == nullptr)
    return fail(ARC_ERR_INVALID, "arc_allreduce_norm: null residual, weight or y");
  if (out == in || out == norm->residual || out == norm->y || norm->y == in)
    return fail(ARC_ERR_INVALID, "arc_allreduce_norm: h and y must not alias the input, the residual or each other");
  const uint64_t Q = cdiv_h(N, seg), R = count / N, W = comm->world, G = comm->grid;
  uint64_t per_block, cap;
  if (algo == ARC_ONESHOT) {
    *work = R * Q;
    const uint64_t slot = cdiv_h(N < seg ? N : seg, 8) * 8 * es;
    per_block = cdiv_h(*work, G) * slot;
    cap = comm->one.one_cap;
  } else {
    *work = cdiv_h(R, W) * Q; /* the most segments one rank owns */
    per_block = cdiv_h(*work, G) * (uint64_t)ARC_TILE_ELEMS * es; /* the largest tile: fp's */
    cap = comm->two.cap;
  }
  (void)codec;
  if (per_block > cap || cdiv_h(R * Q, G) * 4 > cap)
    return fail(ARC_ERR_TOO_LARGE, "arc_allreduce_norm: " + std::to_string(R) + " rows of " + std::to_string(N) +
                                       " elements do not fit the communicator's max_bytes " + std::to_string(comm->max_bytes));
  a->norm.res = norm->residual;
  a->norm.w = norm->weight;
  a->norm.y = norm->y;
  a->norm.row = N;
  a->norm.scale = norm->scale;
  a->norm.eps = norm->eps;
  a->norm.mean = norm->mean;
  a->norm.wmode = norm->weight_mode;
  a->norm.kind = norm->kind;
  a->norm.b = norm->bias;
  a->norm.init = norm->init;
  auto aligned = [](const void *p) { return (uintptr_t)p % 16 == 0; };
  a->vec = a->vec && aligned(norm->residual) && aligned(norm->weight) && aligned(norm->y) &&
           (norm->bias == nullptr || aligned(norm->bias)) && N % 8 == 0;
  uint32_t sbits, ebits;
  memcpy(&sbits, &norm->scale, 4);
  memcpy(&ebits, &norm->eps, 4);
  const uint32_t h = fingerprint_hash((uint32_t)N ^ sbits * 3u, ebits ^ (uint32_t)norm->mean << 1 ^ (uint32_t)norm->weight_mode ^
                                        (uint32_t)norm->kind << 2 ^ (norm->bias != nullptr ? 16u : 0u) ^ ibits);
  a->desc_z |= ARC_DESC_FUSED | (h & 0x7Fu) << 25;
  a->desc_hash = fingerprint_hash(a->desc_y, a->desc_z);
  return ARC_OK;
}

static int launch(arc_comm *comm, int rank, const void *in, void *out, size_t count, arc_dtype dtype, arc_algo algo,
                  arc_codec codec, int flags, const arc_norm *norm, void *stream) {
  if (comm == nullptr) return fail(ARC_ERR_INVALID, "arc_allreduce: null communicator");
  if (rank < 0 || rank >= comm->world) return fail(ARC_ERR_INVALID, "arc_allreduce: rank out of range");
  if (comm->dev[rank] < 0)
    return fail(ARC_ERR_INVALID, "arc_allreduce: rank " + std::to_string(rank) + " runs in another process");
  if (dtype != ARC_F16 && dtype != ARC_BF16 && dtype != ARC_F32)
    return fail(ARC_ERR_INVALID, "arc_allreduce: unknown dtype");
  if ((flags & ~ARC_CAST_BF16_TO_FP16) != 0) return fail(ARC_ERR_INVALID, "arc_allreduce: unknown flags");
  if (codec < ARC_CODEC_NONE || codec >= ARC_CODEC_COUNT) return fail(ARC_ERR_INVALID, "arc_allreduce: unknown codec");
  const int W = comm->world;
  switch (algo) {
  case ARC_ONESHOT:
    if (codec != ARC_CODEC_NONE) return fail(ARC_ERR_UNSUPPORTED, "oneshot takes no codec (ARC_CODEC_NONE)");
    if (!oneshot_world(W)) return fail(ARC_ERR_UNSUPPORTED, "oneshot needs world 2, 4, 6 or 8");
    break;
  case ARC_TWOSHOT:
  case ARC_HIER:
    if (codec == ARC_CODEC_NONE) return fail(ARC_ERR_UNSUPPORTED, std::string(arc_algo_name(algo)) + " needs a codec");
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
  /* Sticky: a failed communicator refuses every later call with the first
   * failure's message (its kernels would only write NaN). */
  TRY(check_records(comm));
  if (count == 0) return ARC_OK;
  if (in == nullptr || out == nullptr) return fail(ARC_ERR_INVALID, "arc_allreduce: null buffer");

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
  a.state = comm->state[rank];
  a.record = comm->records + (size_t)rank * ARC_REC_WORDS;
  const bool cast = (flags & ARC_CAST_BF16_TO_FP16) != 0;
  a.desc_y = (uint32_t)count;
  a.desc_z = ARC_DESC_Z((count >> 32) & 0xFFFF, dtype, algo, codec, cast ? 1 : 0);
  a.desc_hash = fingerprint_hash(a.desc_y, a.desc_z);
  for (int r = 0; r < W; r++) {
    a.x[r] = comm->x[r];
    a.f[r] = comm->f[r];
  }
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
  if (norm != nullptr) TRY(plan_norm(comm, norm, count, es, algo, codec, in, out, &a, &work));
  if (work == 0) work = 1;
  const int blocks = (int)(work < (uint64_t)comm->grid ? work : (uint64_t)comm->grid);
  DeviceGuard guard;
  return arc_dev_launch(comm->dev[rank], algo, dtype, codec, cast, a, blocks, stream);
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
  case ARC_ERR_MISMATCH:
    return "ranks made different calls";
  case ARC_ERR_RENDEZVOUS:
    return "ranks of other processes did not join, or planned another communicator";
  }
  return "unknown error";
}

extern "C" const char *arc_last_error(void) { return last_error.c_str(); }
