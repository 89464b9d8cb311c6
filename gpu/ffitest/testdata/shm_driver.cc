// shm_driver.cc: one process of a group on the host-staged link across
// processes: the real handler (arc_ffi.cc), communicator (arc_comm.cc) and
// shared memory (arc_shm.cc, real POSIX shared memory in /dev/shm), the
// device runtime faked (fake_dev.h), the processes meeting through a
// key-value store kept as files (kv_files.h).
//
//   shm_driver KVDIR PROCESS SCENARIO [KEY=VALUE...]
//
// Scenarios (gpu/ffitest runs every process of one at once):
//   four      4 processes, one device each: oneshot, twoshot int8 and hier fp8
//             on one communicator, each process seeing the others' stores
//   pairs     2 processes of 2 devices each (ranks 0, 1 in process 0): twoshot fp
//   mismatch  2 processes, process 1 planning another grid: it fails when it
//             reads the segment's plan, process 0 once ARC_RENDEZVOUS_MS passed
//             without process 1 mapping it
//   crash     2 processes; process crash=P dies (SIGKILL) as it registers the
//             segment, after the name was published; the other fails once
//             ARC_RENDEZVOUS_MS passed
//   run       one call the arguments describe, on every device of this process:
//             ids=ID:PROCESS,... (PROCESS's devices get ordinals 0, 1, ... in
//             that order) algo= codec= link= world= groups=0,1,... devices=...
//             dtype=f16|bf16|f32 count=N
// Each prints its calls' outcomes, whether every rank's store was seen in the
// shared memory, and how many segment names are left in /dev/shm.
#include <map>
#include <sstream>

#include "fake_xla.h"
#include "kv_files.h"

static std::vector<int64_t> ints(const std::string &s) {
  std::vector<int64_t> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');) out.push_back(std::atoll(item.c_str()));
  return out;
}

static void report(const char *what) {
  std::printf("%s: %s; names left in /dev/shm: %d\n", what, fake_wait_shared().c_str(), shm_names_left());
  std::fflush(stdout);
}

static void counters() {
  std::printf("detached: registered %d, unregistered %d, names left in /dev/shm: %d\n", fake_registers.load(),
              fake_unregisters.load(), shm_names_left());
  std::fflush(stdout);
}

int main(int argc, char **argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: shm_driver KVDIR PROCESS SCENARIO [KEY=VALUE...]\n");
    return 2;
  }
  kv_dir = argv[1];
  const int me = std::atoi(argv[2]);
  const std::string scenario = argv[3];
  std::map<std::string, std::string> arg;
  for (int i = 4; i < argc; i++) {
    const std::string a = argv[i];
    const size_t eq = a.find('=');
    if (eq != std::string::npos) arg[a.substr(0, eq)] = a.substr(eq + 1);
  }
  setenv("ARC_WATCHDOG", "0", 1);
  setenv("ARC_MAX_BYTES", "65536", 1);  // small segments: a few MB
  setenv("FAKE_SMS", "4", 1);
  setenv("ARC_RENDEZVOUS_MS", scenario == "mismatch" || scenario == "crash" ? "500" : "20000", 1);
  arc_kv_store kv = {nullptr, kv_put, kv_get, nullptr};

  // The job's devices: global id -> process, this process's get ordinals in order.
  std::vector<std::pair<long long, int>> layout;
  if (scenario == "four")
    layout = {{0, 0}, {1, 1}, {2, 2}, {3, 3}};
  else if (scenario == "pairs")
    layout = {{0, 0}, {1, 0}, {2, 1}, {3, 1}};
  else if (scenario != "run")
    layout = {{0, 0}, {1, 1}};
  else {
    std::stringstream in(arg["ids"]);
    for (std::string item; std::getline(in, item, ',');) {
      const size_t colon = item.find(':');
      layout.push_back({std::atoll(item.substr(0, colon).c_str()), std::atoi(item.substr(colon + 1).c_str())});
    }
  }
  std::vector<arc_device_entry> entries;
  std::vector<int> mine;  // this process's ordinals, in the order of its devices
  std::map<int, int> next;
  for (auto &d : layout) {
    const int hw = d.second == me ? next[me]++ : -1;
    entries.push_back(entry(d.first, d.second, hw));
    if (hw >= 0) mine.push_back(hw);
  }
  auto *t = new table(me, entries, kv);
  std::printf("attach: %d\n", arc_runtime_attach(&t->info));
  std::fflush(stdout);

  if (scenario == "four") {
    auto one = lowering_attrs("oneshot", "none", 4, {0, 1, 2, 3}, "host", 0, {0, 1, 2, 3});
    auto two = lowering_attrs("twoshot", "int8", 4, {0, 1, 2, 3}, "host", 0, {0, 1, 2, 3});
    auto hier = lowering_attrs("hier", "fp8", 4, {0, 1, 2, 3}, "host", 0, {0, 1, 2, 3});
    call("oneshot, world 4", one, 0);
    call("twoshot int8, the same communicator", two, 0);
    call("hier fp8", hier, 0, ARC_XLA_BF16, ARC_XLA_BF16, {4096}, {4096});
    report("after three calls");
  } else if (scenario == "pairs") {
    auto a = lowering_attrs("twoshot", "fp", 4, {0, 1, 2, 3}, "host", 0, {0, 1, 2, 3});
    call("twoshot fp, this process's first device", a, 0);
    call("twoshot fp, its second", a, 1);
    report("after both");
  } else if (scenario == "mismatch") {
    if (me == 1) setenv("FAKE_BLOCKS_PER_SM", "1", 1);
    auto a = lowering_attrs("oneshot", "none", 2, {0, 1}, "host", 0, {0, 1});
    call("process 1 plans another grid", a, 0);
    std::printf("names left in /dev/shm: %d\n", shm_names_left());
  } else if (scenario == "crash") {
    if (me == std::atoi(arg["crash"].c_str())) setenv("FAKE_DIE_IN_REGISTER", "1", 1);
    auto a = lowering_attrs("oneshot", "none", 2, {0, 1}, "host", 0, {0, 1});
    call("a process dies as it registers the segment", a, 0);
    std::printf("names left in /dev/shm: %d\n", shm_names_left());
  } else if (scenario == "run") {
    const std::string dtype = arg["dtype"];
    const int xla = dtype == "bf16" ? ARC_XLA_BF16 : dtype == "f32" ? ARC_XLA_F32 : ARC_XLA_F16;
    auto a = lowering_attrs(arg["algo"].c_str(), arg["codec"].c_str(), std::atoll(arg["world"].c_str()),
                            ints(arg["groups"]), arg["link"].c_str(), 0, ints(arg["devices"]));
    const int64_t count = std::atoll(arg["count"].c_str());
    setenv("ARC_MAX_BYTES", std::to_string(count * (dtype == "f32" ? 4 : 2)).c_str(), 1);  // the call's size
    for (int ordinal : mine) call(("device " + std::to_string(ordinal)).c_str(), a, ordinal, xla, xla, {count}, {count});
    if (arg["link"] == "host") report("shared");
  } else {
    std::fprintf(stderr, "unknown scenario %s\n", scenario.c_str());
    return 2;
  }
  arc_runtime_detach(&t->info);
  delete t;
  counters();
  return 0;
}
