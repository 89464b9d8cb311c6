// ffi_driver.cc: drives gpu/arc_ffi.cc on a CPU, as XLA would, and
// prints what the handler did. The kernels' C API (arc_gpu.h) and the device
// helpers (arc_ffi.h) are faked here: a stream is a fake pointer naming its
// device, and arc_allreduce records its arguments. gpu/ffitest
// compares the transcript with testdata/ffi_driver.golden.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <future>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "arc_ffi.h"
#include "arc_ffi_abi.h"
#include "arc_gpu.h"

// ---- fake kernels ----------------------------------------------------------

struct arc_comm {
  int id;
  std::vector<int> devices;
  arc_link link;
};

static std::atomic<int> comms_created{0};
static std::mutex log_mu;
static std::vector<std::string> calls;
static int next_rc = ARC_OK;  // what the next arc_allreduce returns
static thread_local int current_device = 0;
static std::atomic<int> device_switches{0};
// A group holding device 9 is created only once `release` is set.
static std::atomic<bool> creating_9{false};
static std::promise<void> release;
static std::shared_future<void> released = release.get_future().share();

extern "C" int arc_comm_create(arc_comm **comm, const int *devices, int n, arc_link link, size_t max_bytes) {
  (void)max_bytes;
  for (int i = 0; i < n; i++) {
    if (devices[i] == 9) {
      creating_9 = true;
      released.wait();
    }
  }
  current_device = devices[n - 1];  // as a real creator does while touching each device
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // widen the race between ranks
  *comm = new arc_comm{++comms_created, std::vector<int>(devices, devices + n), link};
  return ARC_OK;
}

extern "C" int arc_allreduce(arc_comm *comm, int rank, const void *in, void *out, size_t count, arc_dtype dtype,
                             arc_algo algo, arc_codec codec, int flags, void *stream) {
  char line[256];
  std::string devs;
  for (int d : comm->devices) devs += (devs.empty() ? "" : ",") + std::to_string(d);
  std::snprintf(line, sizeof line,
                "allreduce comm=[%s] link=%d rank=%d aliased=%s out=%s count=%zu dtype=%d algo=%d codec=%d flags=%d "
                "stream=%ld current_device=%d",
                devs.c_str(), comm->link, rank, in == out ? "yes" : "no", out ? "set" : "null", count, dtype, algo,
                codec, flags, static_cast<long>(reinterpret_cast<intptr_t>(stream)), current_device);
  std::lock_guard<std::mutex> lock(log_mu);
  calls.push_back(line);
  int rc = next_rc;
  next_rc = ARC_OK;
  return rc;
}

extern "C" int arc_comm_destroy(arc_comm *comm) {
  delete comm;
  return ARC_OK;
}
extern "C" const char *arc_error_string(int code) { return code == ARC_ERR_TOO_LARGE ? "too large" : "error"; }
extern "C" const char *arc_last_error(void) { return "count exceeds max_bytes"; }

// Streams are fake pointers 100+device.
extern "C" int arc_ffi_stream_device(void *stream, int *device) {
  intptr_t v = reinterpret_cast<intptr_t>(stream);
  if (v < 100) return 1;
  *device = static_cast<int>(v - 100);
  return 0;
}
extern "C" int arc_ffi_get_device(int *device) {
  *device = current_device;
  return 0;
}
extern "C" int arc_ffi_set_device(int device) {
  current_device = device;
  device_switches++;
  return 0;
}
extern "C" const char *arc_ffi_device_error(void) { return "fake stream"; }

// ---- fake XLA --------------------------------------------------------------

struct XLA_FFI_Error {
  int code;
  std::string msg;
};

static XLA_FFI_Error *error_create(arc_xla_error_create_args *a) {
  if (a->struct_size < ARC_XLA_STRUCT_SIZE(arc_xla_error_create_args, errc)) return nullptr;
  return new XLA_FFI_Error{a->errc, a->message};
}
// The execution context is the stream itself.
static XLA_FFI_Error *stream_get(arc_xla_stream_get_args *a) {
  a->stream = a->ctx;
  return nullptr;
}

static arc_xla_api fake_api() {
  arc_xla_api api;
  std::memset(&api, 0, sizeof api);
  api.struct_size = sizeof api;
  api.error_create = error_create;
  api.stream_get = stream_get;
  return api;
}
static const arc_xla_api api = fake_api();

// An attribute set built like XLA's: sorted names, typed values.
struct attrs {
  std::vector<arc_xla_byte_span> spans;
  std::vector<arc_xla_byte_span *> names;
  std::vector<int> types;
  std::vector<void *> values;
  std::vector<std::string> keep;
  std::vector<arc_xla_scalar> scalars;
  std::vector<arc_xla_array> arrays;
  std::vector<std::vector<int64_t>> ints;
  std::vector<int64_t> scalar_values;

  attrs() {
    spans.reserve(16);
    keep.reserve(32);
    scalars.reserve(16);
    arrays.reserve(16);
    ints.reserve(16);
    scalar_values.reserve(16);
  }
  void name(const char *n) {
    keep.push_back(n);
    spans.push_back({keep.back().data(), keep.back().size()});
  }
  attrs &str(const char *n, const char *v) {
    name(n);
    keep.push_back(v);
    spans.push_back({keep.back().data(), keep.back().size()});
    types.push_back(ARC_XLA_ATTR_STRING);
    values.push_back(&spans.back());
    return *this;
  }
  attrs &i64(const char *n, int64_t v) {
    name(n);
    scalar_values.push_back(v);
    scalars.push_back({ARC_XLA_S64, &scalar_values.back()});
    types.push_back(ARC_XLA_ATTR_SCALAR);
    values.push_back(&scalars.back());
    return *this;
  }
  attrs &array(const char *n, std::vector<int64_t> v) {
    name(n);
    ints.push_back(v);
    arrays.push_back({ARC_XLA_S64, ints.back().size(), ints.back().data()});
    types.push_back(ARC_XLA_ATTR_ARRAY);
    values.push_back(&arrays.back());
    return *this;
  }
  arc_xla_attrs build() {
    // Names point at spans in insertion order (every other span is a value).
    names.clear();
    size_t k = 0;
    for (size_t i = 0; i < types.size(); i++) {
      names.push_back(&spans[k]);
      k += types[i] == ARC_XLA_ATTR_STRING ? 2 : 1;
    }
    arc_xla_attrs a;
    std::memset(&a, 0, sizeof a);
    a.struct_size = ARC_XLA_STRUCT_SIZE(arc_xla_attrs, attrs);
    a.size = static_cast<int64_t>(types.size());
    a.types = types.data();
    a.names = names.data();
    a.attrs = values.data();
    return a;
  }
};

// The attributes the CUDA lowering prints, sorted by name as XLA passes them.
static attrs lowering_attrs(const char *algo, const char *codec, int64_t world, std::vector<int64_t> groups,
                            const char *link = "peer", int64_t cast = 0) {
  attrs a;
  a.str("algo", algo).i64("cast", cast).str("codec", codec).array("groups", groups).str("link", link).i64("world", world);
  return a;
}

struct buffer {
  arc_xla_buffer b;
  std::vector<int64_t> dims;
  buffer(int dtype, std::vector<int64_t> d) : dims(d) {
    std::memset(&b, 0, sizeof b);
    b.struct_size = ARC_XLA_STRUCT_SIZE(arc_xla_buffer, dims);
    b.dtype = dtype;
    b.data = this;
    b.rank = static_cast<int64_t>(dims.size());
    b.dims = dims.data();
  }
};

// call runs the handler once on device's stream and prints the outcome.
static void call(const char *what, attrs &a, int device, int in_dtype = ARC_XLA_F16, int out_dtype = ARC_XLA_F16,
                 std::vector<int64_t> in_dims = {16, 512}, std::vector<int64_t> out_dims = {16, 512},
                 int stage = ARC_XLA_STAGE_EXECUTE, bool print = true) {
  buffer in(in_dtype, in_dims), out(out_dtype, out_dims);
  int arg_type = ARC_XLA_ARG_BUFFER, ret_type = ARC_XLA_RET_BUFFER;
  void *arg = &in.b, *ret = &out.b;
  arc_xla_call_frame f;
  std::memset(&f, 0, sizeof f);
  f.struct_size = ARC_XLA_STRUCT_SIZE(arc_xla_call_frame, attrs);
  f.api = &api;
  f.ctx = reinterpret_cast<arc_xla_context *>(static_cast<intptr_t>(100 + device));
  f.stage = stage;
  f.args = {ARC_XLA_STRUCT_SIZE(arc_xla_args, args), nullptr, 1, &arg_type, &arg};
  f.rets = {ARC_XLA_STRUCT_SIZE(arc_xla_rets, rets), nullptr, 1, &ret_type, &ret};
  f.attrs = a.build();
  size_t before = print ? calls.size() : 0;
  XLA_FFI_Error *err = arc_ffi_allreduce(reinterpret_cast<XLA_FFI_CallFrame *>(&f));
  if (!print) {
    delete err;
    return;
  }
  std::printf("%s: ", what);
  if (err != nullptr) {
    std::printf("error %d: %s\n", err->code, err->msg.c_str());
    delete err;
  } else {
    std::printf("ok\n");
  }
  for (size_t i = before; i < calls.size(); i++) std::printf("  %s\n", calls[i].c_str());
}

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
  std::printf("metadata: %s, api %d.%d, traits %u, calls %zu\n", err ? "error" : "ok", m.api_version.major_version,
              m.api_version.minor_version, m.traits, calls.size());
}

int main() {
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
  auto e = lowering_attrs("hier", "int4r", 2, {0, 1, 2, 3});
  call("two groups: device 3 in the second", e, 3, ARC_XLA_F16, ARC_XLA_F16, {64}, {64});
  auto e6 = lowering_attrs("twoshot", "int6", 4, {0, 1, 2, 3});
  call("int6, world 4", e6, 2);
  auto e4 = lowering_attrs("twoshot", "int4", 2, {0, 1});
  call("int4", e4, 0);

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
  call("s32 operand", a, 0, ARC_XLA_S32, ARC_XLA_S32);
  call("result shape differs", a, 0, ARC_XLA_F16, ARC_XLA_F16, {16, 512}, {16, 256});
  call("prepare stage", a, 0, ARC_XLA_F16, ARC_XLA_F16, {16, 512}, {16, 512}, 1);
  next_rc = ARC_ERR_TOO_LARGE;
  call("kernel refuses", a, 1);

  // Eight ranks of a new group arrive at once: one communicator is created.
  int before = comms_created;
  auto g = lowering_attrs("oneshot", "none", 8, {0, 1, 2, 3, 4, 5, 6, 7});
  std::vector<std::thread> ranks;
  for (int dev = 0; dev < 8; dev++) {
    ranks.emplace_back([&g, dev] {
      current_device = dev;
      call("", g, dev, ARC_XLA_F16, ARC_XLA_F16, {16, 512}, {16, 512}, ARC_XLA_STAGE_EXECUTE, false);
    });
  }
  for (auto &t : ranks) t.join();
  int devices_ok = 0;
  for (auto &line : calls) {
    if (line.find("comm=[0,1,2,3,4,5,6,7]") == std::string::npos) continue;
    int rank = -1, cur = -1;
    std::sscanf(line.c_str() + line.find("rank="), "rank=%d", &rank);
    std::sscanf(line.c_str() + line.find("current_device="), "current_device=%d", &cur);
    devices_ok += rank == cur;
  }
  std::printf("8 concurrent ranks: %d communicator(s) created, %d of 8 ran on their own device\n",
              comms_created - before, devices_ok);

  // While a new group's communicator is being created, a rank of an existing
  // group must get its own at once: its peers' kernels may be waiting for it.
  auto slow = lowering_attrs("oneshot", "none", 2, {8, 9});
  std::thread creator([&slow] { call("", slow, 9, ARC_XLA_F16, ARC_XLA_F16, {16}, {16}, ARC_XLA_STAGE_EXECUTE, false); });
  while (!creating_9) std::this_thread::yield();
  auto lookup = std::async(std::launch::async, [&a] {
    call("", a, 1, ARC_XLA_F16, ARC_XLA_F16, {16, 512}, {16, 512}, ARC_XLA_STAGE_EXECUTE, false);
  });
  bool blocked = lookup.wait_for(std::chrono::seconds(5)) != std::future_status::ready;
  release.set_value();
  creator.join();
  lookup.wait();
  std::printf("existing group during another group's creation: %s\n", blocked ? "blocked" : "not blocked");
  std::printf("communicators in all: %d\n", comms_created.load());
  return 0;
}
