// ffi_driver.cc: drives gpu/arc_ffi.cc and gpu/arc_comm.cc on a CPU, as XLA
// would, in one process, and prints what the handler did. The device runtime
// is faked (fake_dev.h): a stream is a fake pointer naming its device, and a
// launch prints what the kernel would have got. gpu/ffitest compares the
// transcript with testdata/ffi_driver.golden.
#include <chrono>
#include <future>
#include <thread>

#include "fake_xla.h"

static void metadata() {
  arc_xla_metadata m;
  std::memset(&m, 0, sizeof m);
  m.struct_size = ARC_XLA_STRUCT_SIZE(arc_xla_metadata, traits);
  m.api_version.major_version = m.api_version.minor_version = -1;
  m.traits = 99;
  arc_xla_metadata_extension ext = {{ARC_XLA_STRUCT_SIZE(arc_xla_metadata_extension, metadata), ARC_XLA_EXTENSION_METADATA, nullptr}, &m};
  arc_xla_call_frame f;
  std::memset(&f, 0, sizeof f);
  f.struct_size = ARC_XLA_STRUCT_SIZE(arc_xla_call_frame, attrs);
  f.extension_start = &ext.extension_base;
  f.api = &api;
  f.stage = ARC_XLA_STAGE_EXECUTE;
  XLA_FFI_Error *err = arc_ffi_allreduce(reinterpret_cast<XLA_FFI_CallFrame *>(&f));
  std::printf("metadata: %s, api %d.%d, traits %u, launches %zu\n", err ? "error" : "ok", m.api_version.major_version,
              m.api_version.minor_version, m.traits, fake_launches.size());
}

int main() {
  setenv("ARC_WATCHDOG", "0", 1);  // the transcript is stdout alone
  metadata();

  // Every algorithm, codec, link and the cast flag reach the kernel; ranks follow the group order.
  auto a = lowering_attrs("twoshot", "int8", 2, {0, 1});
  call("twoshot int8 rank 0", a, 0);
  call("twoshot int8 rank 1 (same comm)", a, 1);
  auto b = lowering_attrs("oneshot", "none", 2, {1, 0});
  call("oneshot, group listed 1,0: device 0 is rank 1", b, 0);
  auto c = lowering_attrs("twoshot", "fp", 2, {0, 1}, "peer", 1);
  call("bf16 cast to f16", c, 1, ARC_XLA_BF16, ARC_XLA_BF16);
  auto d = lowering_attrs("twoshot", "fp8", 2, {0, 1}, "host");
  call("host link: a communicator of its own", d, 0, ARC_XLA_F32, ARC_XLA_F32, {7, 3}, {7, 3});
  auto e = lowering_attrs("hier", "int4r", 4, {0, 1, 2, 3, 4, 5, 6, 7});
  call("two groups: device 6 in the second", e, 6, ARC_XLA_F16, ARC_XLA_F16, {64}, {64});
  auto e6 = lowering_attrs("twoshot", "int6", 4, {0, 1, 2, 3});
  call("int6, world 4", e6, 2);
  auto e4 = lowering_attrs("twoshot", "int4", 2, {0, 1});
  call("int4", e4, 0);
  setenv("ARC_TIMEOUT_MS", "2500", 1);
  auto t = lowering_attrs("oneshot", "none", 2, {4, 5});
  call("ARC_TIMEOUT_MS=2500 when the communicator is made", t, 4, ARC_XLA_F16, ARC_XLA_F16, {100}, {100});
  unsetenv("ARC_TIMEOUT_MS");
  auto ini = lowering_attrs("oneshot", "none", 2, {6, 7});
  call("initialize stage: the communicator, no launch", ini, 6, ARC_XLA_F16, ARC_XLA_F16, {16}, {16}, 2);
  call("then execute", ini, 6, ARC_XLA_F16, ARC_XLA_F16, {16}, {16});
  // Every size: a rank-0 operand (a scalar loss) is one element, and odd
  // counts reach the kernels as they are.
  call("a scalar: tensor<f32>", ini, 7, ARC_XLA_F32, ARC_XLA_F32, {}, {});
  auto odd = lowering_attrs("twoshot", "int8", 2, {6, 7});
  call("3 f16 elements, twoshot int8", odd, 6, ARC_XLA_F16, ARC_XLA_F16, {3}, {3});

  // The fused form: operand, residual, weight -> h, y, the norm's keys read.
  auto fused = lowering_attrs("oneshot", "none", 2, {0, 1});
  fused.f32("eps", 1e-5f).str("mean", "div").str("norm", "rmsnorm").i64("row", 512).f32("scale", 512).str("weight", "io");
  call_fused("fused oneshot + rmsnorm", fused, 0, {16, 512}, 512);
  auto fused_ts = lowering_attrs("twoshot", "fp", 2, {0, 1});
  fused_ts.f32("eps", 1e-6f).str("mean", "mul").str("norm", "rmsnorm").i64("row", 512).f32("scale", 1.0f / 512).str("weight", "f32");
  call_fused("fused twoshot fp + rmsnorm", fused_ts, 1, {16, 512}, 512);
  call_fused("fused: a weight of another length", fused, 0, {16, 512}, 256);
  call_fused("fused: one operand", fused, 0, {16, 512}, 512, 1);
  auto no_eps = lowering_attrs("oneshot", "none", 2, {0, 1});
  no_eps.str("mean", "div").str("norm", "rmsnorm").i64("row", 512).f32("scale", 512).str("weight", "io");
  call_fused("fused: no eps", no_eps, 0, {16, 512}, 512);
  auto int_eps = lowering_attrs("oneshot", "none", 2, {0, 1});
  int_eps.i64("eps", 0).str("mean", "div").str("norm", "rmsnorm").i64("row", 512).f32("scale", 512).str("weight", "io");
  call_fused("fused: eps an integer", int_eps, 0, {16, 512}, 512);
  auto group = lowering_attrs("oneshot", "none", 2, {0, 1});
  group.f32("eps", 1e-5f).str("mean", "div").str("norm", "groupnorm").i64("row", 512).f32("scale", 512).str("weight", "f32");
  call_fused("fused: another norm", group, 0, {16, 512}, 512);
  // LayerNorm: with a bias (a fourth operand) or without; its weight in f32.
  auto layer = lowering_attrs("oneshot", "none", 2, {0, 1});
  layer.f32("eps", 1e-5f).str("mean", "div").str("norm", "layernorm").i64("row", 512).f32("scale", 512).str("weight", "f32");
  call_fused("fused oneshot + layernorm, a bias", layer, 0, {16, 512}, 512, 4);
  auto fast = lowering_attrs("twoshot", "fp", 2, {0, 1});
  fast.f32("eps", 1e-6f).str("mean", "mul").str("norm", "layernorm_fast").i64("row", 512).f32("scale", 1.0f / 512).str("weight", "f32");
  call_fused("fused twoshot fp + layernorm_fast, no bias", fast, 1, {16, 512}, 512);
  call_fused("fused: a bias for rmsnorm", fused_ts, 1, {16, 512}, 512, 4);
  auto layer_io = lowering_attrs("oneshot", "none", 2, {0, 1});
  layer_io.f32("eps", 1e-5f).str("mean", "div").str("norm", "layernorm").i64("row", 512).f32("scale", 512).str("weight", "io");
  call_fused("fused: layernorm's weight in the I/O type", layer_io, 0, {16, 512}, 512);

  // What XLA could hand the handler that arc must refuse with a reason.
  attrs missing;
  missing.str("codec", "fp").array("groups", {0, 1}).i64("world", 2);
  call("no algo", missing, 0);
  auto bad_codec = lowering_attrs("twoshot", "int3", 2, {0, 1});
  call("unknown codec", bad_codec, 0);
  auto ragged = lowering_attrs("twoshot", "fp", 2, {0, 1, 2});
  call("groups not whole", ragged, 0);
  auto other = lowering_attrs("twoshot", "fp", 2, {2, 3});
  call("device in no group", other, 0);
  auto twice = lowering_attrs("twoshot", "fp", 2, {0, 0});
  call("device twice in a group", twice, 0);
  auto short_devices = global_attrs("twoshot", "fp", 2, {0, 1, 2, 3}, {0, 1});
  call("devices shorter than groups", short_devices, 0);
  call("s32 operand", a, 0, ARC_XLA_S32, ARC_XLA_S32);
  call("result shape differs", a, 0, ARC_XLA_F16, ARC_XLA_F16, {16, 512}, {16, 256});
  call("prepare stage", a, 0, ARC_XLA_F16, ARC_XLA_F16, {16, 512}, {16, 512}, 1);
  call("kernel refuses: 512 MiB", a, 1, ARC_XLA_F16, ARC_XLA_F16, {1 << 28}, {1 << 28});
  auto bad_world = lowering_attrs("oneshot", "none", 3, {0, 1, 2});
  call("world 3", bad_world, 0);

  // Failures kernels record are sticky: the next call and every later one
  // fail with the first failure's message.
  auto s = lowering_attrs("oneshot", "none", 2, {10, 11});
  call("a call whose kernel will time out", s, 10);
  fake_fail = ARC_ERR_TIMEOUT;
  call("the kernel times out (its handler call has returned)", s, 10);
  call("the next call on the communicator", s, 11);
  call("and the one after", s, 10);
  auto mm = lowering_attrs("oneshot", "none", 2, {12, 13});
  fake_fail = ARC_ERR_MISMATCH;
  call("a kernel sees its peer's call differ", mm, 12);
  call("the next call", mm, 13);
  setenv("ARC_SYNC_CALLS", "1", 1);
  auto sy = lowering_attrs("oneshot", "none", 2, {14, 15});
  fake_fail = ARC_ERR_TIMEOUT;
  call("ARC_SYNC_CALLS=1: the call whose kernel times out fails itself", sy, 14);
  unsetenv("ARC_SYNC_CALLS");

  // The PJRT client's device table: global ids 10..13 on local hardware ids
  // 2, 0, 3, 1 (a permuted assignment), groups as global ids in `devices`.
  table perm(0, {entry(10, 0, 2), entry(11, 0, 0), entry(12, 0, 3), entry(13, 0, 1)});
  std::printf("attach: %d\n", arc_runtime_attach(&perm.info));
  auto p = global_attrs("oneshot", "none", 2, {0, 1, 2, 3}, {12, 10, 13, 11});
  call("permuted: ordinal 0 is global 11, rank 1 of [13,11] on ordinals 1,0", p, 0);
  call("permuted: ordinal 1 is global 13, rank 0 of the same group", p, 1);
  call("permuted: ordinal 2 is global 10, rank 1 of [12,10] on ordinals 3,2", p, 2);
  auto sub = global_attrs("twoshot", "fp", 2, {0, 1}, {13, 10});
  call("subset group [13,10]: ordinal 2 is global 10, rank 1", sub, 2);
  call("subset group [13,10]: ordinal 0 (global 11) is in none", sub, 0);
  auto sub4 = global_attrs("twoshot", "int8", 2, {0, 1, 2, 3}, {10, 12, 11, 13});
  call("subset groups [10,12],[11,13]: ordinal 3 is global 12", sub4, 3);
  auto old = lowering_attrs("oneshot", "none", 2, {11, 10});
  call("a module without devices: groups are read as global ids", old, 2);
  auto unknown = global_attrs("oneshot", "none", 2, {0, 1}, {10, 99});
  call("a global id the client does not have", unknown, 2);
  call("an ordinal the table does not have", p, 7);
  // A second client, spanning two processes, without a key-value store.
  table two(0, {entry(20, 0, 5), entry(21, 1, -1)});
  std::printf("attach: %d\n", arc_runtime_attach(&two.info));
  auto span = global_attrs("oneshot", "none", 2, {0, 1}, {20, 21});
  call("a group of two processes without a key-value store", span, 5);
  table hosts(0, {entry(30, 0, 6, 0), entry(31, 1, -1, 1)});
  std::printf("attach: %d\n", arc_runtime_attach(&hosts.info));
  auto span_hosts = global_attrs("oneshot", "none", 2, {0, 1}, {30, 31});
  call("a group across two hosts", span_hosts, 6);
  arc_runtime_detach(&hosts.info);
  arc_runtime_detach(&two.info);
  arc_runtime_detach(&perm.info);
  call("detached: ordinals are ids again", b, 1);

  // Eight ranks of a new group arrive at once: one communicator is created.
  int before = fake_comms;
  auto g = lowering_attrs("oneshot", "none", 8, {0, 1, 2, 3, 4, 5, 6, 7});
  std::vector<std::thread> ranks;
  size_t first = fake_launches.size();
  for (int dev = 0; dev < 8; dev++) {
    ranks.emplace_back([&g, dev] {
      fake_current = dev;
      call("", g, dev, ARC_XLA_F16, ARC_XLA_F16, {16, 512}, {16, 512}, ARC_XLA_STAGE_EXECUTE, false);
    });
  }
  for (auto &th : ranks) th.join();
  int devices_ok = 0;
  for (size_t i = first; i < fake_launches.size(); i++) {
    const std::string &line = fake_launches[i];
    int rank = -1, cur = -1;
    std::sscanf(line.c_str() + line.find("rank="), "rank=%d", &rank);
    std::sscanf(line.c_str() + line.find("current_device="), "current_device=%d", &cur);
    devices_ok += rank == cur;
  }
  std::printf("8 concurrent ranks: %d communicator(s) created, %zu launches, %d of 8 on their own device\n",
              fake_comms - before, fake_launches.size() - first, devices_ok);

  // While a new group's communicator is being created, a rank of an existing
  // group must get its own at once: its peers' kernels may be waiting for it.
  auto slow = lowering_attrs("oneshot", "none", 2, {8, 9});
  std::thread creator([&slow] { call("", slow, 9, ARC_XLA_F16, ARC_XLA_F16, {16}, {16}, ARC_XLA_STAGE_EXECUTE, false); });
  while (!fake_creating_9) std::this_thread::yield();
  auto lookup = std::async(std::launch::async, [&a] {
    call("", a, 1, ARC_XLA_F16, ARC_XLA_F16, {16, 512}, {16, 512}, ARC_XLA_STAGE_EXECUTE, false);
  });
  bool blocked = lookup.wait_for(std::chrono::seconds(5)) != std::future_status::ready;
  fake_release.set_value();
  creator.join();
  lookup.wait();
  std::printf("existing group during another group's creation: %s\n", blocked ? "blocked" : "not blocked");
  std::printf("communicators in all: %d\n", fake_comms.load());
  return 0;
}
