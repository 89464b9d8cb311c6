// fake_dev.h: the device runtime of gpu/arc_internal.h faked for a CPU, so
// that the real handler (arc_ffi.cc) and communicator (arc_comm.cc) run in
// gpu/ffitest's drivers. Memory is host memory, IPC handles name the
// exporting process's pointer, a stream is a fake pointer 100+device, and a
// launch prints what the kernel would have got (fake_launches) and counts
// the rank's calls (as block 0's epoch does); fake_fail makes the next launch
// record a failure in the rank's record, as a kernel that gave up would.
// Registered host memory (the host link's shared segment across processes,
// arc_shm.cc, real POSIX shared memory here) is real: a launch on it stores
// its call's number in the rank's own exchange memory, and fake_wait_shared
// waits for every rank's, which only a segment the processes share can show.
// FAKE_SMS sets the multiprocessors a device has (a smaller grid, a smaller
// segment); FAKE_DIE_IN_REGISTER=1 kills the process (SIGKILL) when it
// registers a segment, as a crash in the middle of a rendezvous.
#ifndef FAKE_DEV_H
#define FAKE_DEV_H

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <future>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "arc_ffi.h"
#include "arc_internal.h"

static std::mutex fake_mu;
static std::vector<std::string> fake_launches;  // one line per launch
static thread_local int fake_current = 0;
static std::atomic<int> fake_exported{0}, fake_opened{0}, fake_closed{0}, fake_comms{0};
// what the next launch records: 0, ARC_ERR_TIMEOUT or ARC_ERR_MISMATCH
static std::atomic<int> fake_fail{0};
// A device-9 allocation waits for fake_release (a slow creation).
static std::atomic<bool> fake_creating_9{false};
static std::promise<void> fake_release;
static std::shared_future<void> fake_released = fake_release.get_future().share();
static std::map<const void *, int> fake_owner;  // exchange memory -> its device (-1: another process's)
static std::map<const void *, uint32_t> fake_calls;  // a rank's state -> its calls: block 0's epoch
static std::map<const char *, size_t> fake_registered;  // registered host memory: start -> bytes
static std::atomic<int> fake_registers{0}, fake_unregisters{0};
// What the last launch on shared memory stored, for fake_wait_shared.
static std::vector<char *> fake_shared_x;
static uint32_t fake_shared_seq = 0;

int arc_dev_count(int *n) {
  *n = 16;
  return ARC_OK;
}
int arc_dev_describe(int dev, char *bus, size_t bus_size, int *sms) {
  std::snprintf(bus, bus_size, "0000:%02x:00.0", dev);
  const char *v = std::getenv("FAKE_SMS");
  *sms = v ? std::atoi(v) : 132;
  return ARC_OK;
}
int arc_dev_blocks_per_sm(void) {
  const char *v = std::getenv("FAKE_BLOCKS_PER_SM");
  return v ? std::atoi(v) : ARC_BLOCKS_PER_SM;
}
int arc_dev_get(int *dev) {
  *dev = fake_current;
  return ARC_OK;
}
int arc_dev_set(int dev) {
  fake_current = dev;
  return ARC_OK;
}
int arc_dev_relax_capture(void) { return 0; }
void arc_dev_restore_capture(int) {}
int arc_dev_peer_acquire(int, int) { return ARC_OK; }
void arc_dev_peer_release(int, int) {}
int arc_dev_preload(int) { return ARC_OK; }
int arc_dev_alloc_shared(int dev, arc_link, size_t bytes, bool, void **p) {
  if (dev == 9) {
    fake_creating_9 = true;
    fake_released.wait();
  }
  fake_current = dev;  // as the real one does while touching each device
  *p = std::calloc(1, bytes ? bytes : 1);
  std::lock_guard<std::mutex> lock(fake_mu);
  fake_owner[*p] = dev;
  return ARC_OK;
}
void arc_dev_free_shared(int, arc_link, void *p) { std::free(p); }
int arc_dev_alloc(int, size_t bytes, void **p) {
  *p = std::calloc(1, bytes ? bytes : 1);
  return ARC_OK;
}
void arc_dev_free(int, void *p) { std::free(p); }
int arc_dev_alloc_host(size_t bytes, void **p) {
  *p = std::calloc(1, bytes);
  fake_comms++;
  return ARC_OK;
}
void arc_dev_free_host(void *p) { std::free(p); }
int arc_dev_host_register(void *p, size_t bytes, void **dev) {
  const char *die = std::getenv("FAKE_DIE_IN_REGISTER");
  if (die != nullptr && die[0] == '1') {
    std::fflush(stdout);
    kill(getpid(), SIGKILL);
  }
  std::lock_guard<std::mutex> lock(fake_mu);
  fake_registered[static_cast<const char *>(p)] = bytes;
  fake_registers++;
  *dev = p;
  return ARC_OK;
}
void arc_dev_host_unregister(void *p) {
  std::lock_guard<std::mutex> lock(fake_mu);
  if (fake_registered.erase(static_cast<const char *>(p)) == 1) fake_unregisters++;
}
// Whether p lies in registered host memory (called with fake_mu held).
static bool fake_in_registered(const void *p) {
  const char *c = static_cast<const char *>(p);
  auto it = fake_registered.upper_bound(c);
  if (it == fake_registered.begin()) return false;
  --it;
  return c >= it->first && c < it->first + it->second;
}
int arc_dev_ipc_export(int, void *p, arc_ipc_handle *h) {
  std::memset(h, 0, sizeof *h);
  std::snprintf(reinterpret_cast<char *>(h->bytes), sizeof h->bytes, "fake %ld %p", static_cast<long>(getpid()), p);
  fake_exported++;
  return ARC_OK;
}
int arc_dev_ipc_open(int, const arc_ipc_handle *h, void **p) {
  if (std::strncmp(reinterpret_cast<const char *>(h->bytes), "fake ", 5) != 0)
    return arc_set_error(ARC_ERR_CUDA, "fake: not a handle");
  *p = std::calloc(1, 64);  // another process's memory: never touched here
  fake_opened++;
  std::lock_guard<std::mutex> lock(fake_mu);
  fake_owner[*p] = -1;
  return ARC_OK;
}
void arc_dev_ipc_close(int, void *p) {
  std::free(p);
  fake_closed++;
}
int arc_dev_synchronize(int) { return ARC_OK; }

static const char *const fake_algos[] = {"oneshot", "twoshot", "hier"};
static const char *const fake_codecs[] = {"none", "fp", "int8", "int6", "int4", "int4r", "fp8"};

int arc_dev_launch(int dev, int algo, int dtype, int codec, bool cast, const KernelArgs &a, int blocks,
                   void *stream) {
  std::lock_guard<std::mutex> lock(fake_mu);
  const uint32_t seq = ++fake_calls[a.state];  // block 0's epoch: the call's sequence number
  // each rank's exchange memory: its device, "ipc" (opened from another
  // process) or "shm" (registered host memory: the shared segment)
  std::string group;
  bool shared = true;
  for (int r = 0; r < a.world; r++) {
    auto it = fake_owner.find(a.x[r]);
    const bool shm = fake_in_registered(a.x[r]) && fake_in_registered(a.f[r]);
    shared = shared && shm;
    group += (r ? "," : "") + (shm ? std::string("shm")
                               : it == fake_owner.end() ? std::string("?")
                               : it->second < 0         ? "ipc"
                                                        : std::to_string(it->second));
  }
  if (shared) {  // this rank's "push": its call's number, where every process sees it
    __atomic_store_n(reinterpret_cast<uint32_t *>(a.x[a.rank]), seq, __ATOMIC_RELEASE);
    fake_shared_x.assign(a.x, a.x + a.world);
    fake_shared_seq = seq;
  }
  char line[512];
  std::snprintf(line, sizeof line,
                "launch dev=%d rank=%d of [%s] %s %s dtype=%d cast=%d count=%llu aliased=%s grid=%d blocks=%d seq=%u "
                "timeout_ms=%llu stream=%ld current_device=%d",
                dev, a.rank, group.c_str(), fake_algos[algo], fake_codecs[codec], dtype, cast ? 1 : 0,
                static_cast<unsigned long long>(a.n), a.in == a.out ? "yes" : "no", a.grid, blocks, seq,
                static_cast<unsigned long long>(a.timeout_ns / 1000000),
                static_cast<long>(reinterpret_cast<intptr_t>(stream)), fake_current);
  std::string launch = line;
  if (a.norm.y != nullptr) {
    char norm[160];
    std::snprintf(norm, sizeof norm, " norm kind=%d row=%llu mean=%d scale=%g eps=%g weight=%d bias=%s", a.norm.kind,
                  static_cast<unsigned long long>(a.norm.row), a.norm.mean, a.norm.scale, a.norm.eps, a.norm.wmode,
                  a.norm.b != nullptr ? "yes" : "no");
    launch += norm;
  }
  fake_launches.push_back(launch);
  if (int kind = fake_fail.exchange(0)) {
    // A kernel that gave up: its record, fields first, the kind last.
    const int peer = (a.rank + 1) % a.world;
    uint32_t *rec = a.record;
    rec[ARC_REC_RANKS] = static_cast<uint32_t>(a.rank) | static_cast<uint32_t>(peer) << 8;
    rec[ARC_REC_MINE] = seq;
    rec[ARC_REC_MINE + 1] = a.desc_y;
    rec[ARC_REC_MINE + 2] = a.desc_z;
    if (kind == ARC_ERR_MISMATCH) {  // the peer at the same call with another algorithm and codec
      rec[ARC_REC_THEIRS] = seq;
      rec[ARC_REC_THEIRS + 1] = a.desc_y;
      rec[ARC_REC_THEIRS + 2] = ARC_DESC_Z(0, dtype, ARC_TWOSHOT, ARC_CODEC_INT8, 0);
    }
    __atomic_store_n(&rec[ARC_REC_KIND], static_cast<uint32_t>(kind), __ATOMIC_RELEASE);
  }
  return ARC_OK;
}

// fake_wait_shared waits (at most 20 s) until every rank of the last launch
// on shared memory has stored that call's number, and says what it saw.
[[maybe_unused]] static std::string fake_wait_shared() {
  std::vector<char *> x;
  uint32_t seq;
  {
    std::lock_guard<std::mutex> lock(fake_mu);
    x = fake_shared_x;
    seq = fake_shared_seq;
  }
  if (x.empty()) return "no launch on shared memory";
  auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  for (size_t r = 0; r < x.size(); r++) {
    while (__atomic_load_n(reinterpret_cast<uint32_t *>(x[r]), __ATOMIC_ACQUIRE) < seq) {
      if (std::chrono::steady_clock::now() > until)
        return "rank " + std::to_string(r) + " never stored call " + std::to_string(seq);
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  return "every rank's call " + std::to_string(seq) + " seen in the shared memory";
}

// ---- the handler's device helpers (arc_ffi.h) ----
// Streams are fake pointers 100+device.
extern "C" int arc_ffi_stream_device(void *stream, int *device) {
  intptr_t v = reinterpret_cast<intptr_t>(stream);
  if (v < 100) return 1;
  *device = static_cast<int>(v - 100);
  return 0;
}
extern "C" int arc_ffi_get_device(int *device) {
  *device = fake_current;
  return 0;
}
extern "C" int arc_ffi_set_device(int device) {
  fake_current = device;
  return 0;
}
extern "C" int arc_ffi_stream_wait(void *) { return 0; }
extern "C" const char *arc_ffi_device_error(void) { return "fake stream"; }

#endif
