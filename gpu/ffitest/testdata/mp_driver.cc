// mp_driver.cc: one process of a job of two ("one process per GPU"), each
// driving the real handler (arc_ffi.cc) and communicator (arc_comm.cc) with
// the device runtime faked (fake_dev.h), meeting the other through a
// key-value store kept as files in a directory (as the PJRT client's
// distributed store: a key is written once, get waits for it).
//
//   mp_driver KVDIR PROCESS   (PROCESS 0 or 1; both run the same steps)
//
// Global device 0 is process 0's local device 0, global device 1 process 1's
// local device 0. gpu/ffitest runs two of them at once and compares their
// transcripts (stdout) and the store's keys with testdata/mp_driver.golden.
#include "fake_xla.h"
#include "kv_files.h"

static void counters(const char *what) {
  std::printf("%s: exported %d, opened %d, closed %d, registered %d, unregistered %d\n", what, fake_exported.load(),
              fake_opened.load(), fake_closed.load(), fake_registers.load(), fake_unregisters.load());
  std::fflush(stdout);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: mp_driver KVDIR PROCESS\n");
    return 2;
  }
  kv_dir = argv[1];
  const int me = std::atoi(argv[2]);
  setenv("ARC_RENDEZVOUS_MS", "20000", 1);
  setenv("ARC_CLOSE_MS", "20000", 1);
  arc_kv_store kv = {nullptr, kv_put, kv_get, nullptr};
  auto attach = [&] {
    auto *t = new table(me, {entry(0, 0, me == 0 ? 0 : -1), entry(1, 1, me == 1 ? 0 : -1)}, kv);
    std::printf("attach: %d\n", arc_runtime_attach(&t->info));
    return t;
  };
  auto detach = [&](table *t) {
    arc_runtime_detach(&t->info);
    delete t;
    counters("detached");
  };
  table *t = attach();
  auto a = global_attrs("oneshot", "none", 2, {0, 1}, {0, 1});
  call("oneshot across the two processes", a, 0);
  call("again: the same communicator", a, 0);
  auto tw = global_attrs("twoshot", "int4", 2, {0, 1}, {0, 1});
  call("twoshot int4 on it", tw, 0, ARC_XLA_BF16, ARC_XLA_BF16, {1000}, {1000});
  counters("met");
  if (me == 0) {
    fake_fail = ARC_ERR_TIMEOUT;  // this process's kernel gives up waiting for the other
    call("process 0's kernel times out", a, 0);
    call("process 0's next call", a, 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(400));  // the watchdog's report, on stderr
  } else {
    call("process 1's call", a, 0);
    call("process 1's next call", a, 0);
  }

  // A new client: the old one's communicators close their peers' memory
  // (arc_comm_release: nothing through the store, which may be gone),
  // the group meets again under generation 1.
  detach(t);
  t = attach();
  call("generation 1", a, 0);

  // A group process 1 never calls: process 0 gives up after ARC_RENDEZVOUS_MS.
  auto swapped = global_attrs("oneshot", "none", 2, {0, 1}, {1, 0});
  if (me == 0) {
    setenv("ARC_RENDEZVOUS_MS", "300", 1);
    call("a group the other process never joins", swapped, 0);
    setenv("ARC_RENDEZVOUS_MS", "20000", 1);
  }
  // The host-staged link across processes: one shared-memory segment that
  // both map (sized by a small max_bytes), its name gone once both have.
  auto host = lowering_attrs("twoshot", "fp", 2, {0, 1}, "host", 0, {0, 1});
  setenv("ARC_MAX_BYTES", "65536", 1);
  call("the host-staged link across processes", host, 0);
  unsetenv("ARC_MAX_BYTES");
  std::printf("shared: %s; registered %d, names left in /dev/shm: %d\n", fake_wait_shared().c_str(),
              fake_registers.load(), shm_names_left());

  // Plans that differ: a larger communicator in process 1 (generation 2), then
  // another build's blocks per multiprocessor, so another grid (generation 3).
  detach(t);
  t = attach();
  if (me == 1) setenv("ARC_MAX_BYTES", "1048576", 1);
  call("process 1 plans max_bytes 1 MiB", a, 0);
  unsetenv("ARC_MAX_BYTES");
  detach(t);
  t = attach();
  if (me == 1) setenv("FAKE_BLOCKS_PER_SM", "1", 1);
  call("process 1 plans another grid", a, 0);
  unsetenv("FAKE_BLOCKS_PER_SM");
  detach(t);
  return 0;
}
