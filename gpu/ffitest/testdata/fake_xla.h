// fake_xla.h: the XLA side of gpu/ffitest's drivers: an FFI API with
// error_create and stream_get, attribute sets built as XLA builds them, and
// call(), which runs the handler once on a device's stream and prints the
// outcome and the launches it made (fake_dev.h).
#ifndef FAKE_XLA_H
#define FAKE_XLA_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "arc_ffi.h"
#include "arc_ffi_abi.h"
#include "fake_dev.h"

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
  std::vector<float> float_values;

  // values and spans point into the vectors: they must never reallocate
  // (room() aborts first), or a later set's strings show through freed
  // memory.
  attrs() {
    spans.reserve(64);
    keep.reserve(64);
    scalars.reserve(16);
    arrays.reserve(16);
    ints.reserve(16);
    scalar_values.reserve(16);
    float_values.reserve(16);
  }
  void room() {
    if (spans.size() + 2 > spans.capacity() || keep.size() + 2 > keep.capacity() || scalars.size() + 1 > scalars.capacity() ||
        arrays.size() + 1 > arrays.capacity() || ints.size() + 1 > ints.capacity() ||
        scalar_values.size() + 1 > scalar_values.capacity() || float_values.size() + 1 > float_values.capacity()) {
      std::fprintf(stderr, "fake_xla.h: attrs holds too many attributes for its reserved vectors\n");
      std::abort();
    }
  }
  void name(const char *n) {
    room();
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
  attrs &f32(const char *n, float v) {
    name(n);
    float_values.push_back(v);
    scalars.push_back({ARC_XLA_F32, &float_values.back()});
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
                            const char *link = "peer", int64_t cast = 0, std::vector<int64_t> devices = {}) {
  attrs a;
  a.str("algo", algo).i64("cast", cast).str("codec", codec);
  if (!devices.empty()) a.array("devices", devices);
  a.array("groups", groups).str("link", link).i64("world", world);
  return a;
}

// The attributes with `devices`, the global ids of the groups (group-major).
[[maybe_unused]] static attrs global_attrs(const char *algo, const char *codec, int64_t world, std::vector<int64_t> groups,
                          std::vector<int64_t> devices) {
  return lowering_attrs(algo, codec, world, groups, "peer", 0, devices);
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
  size_t before = print ? fake_launches.size() : 0;
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
  for (size_t i = before; i < fake_launches.size(); i++) std::printf("  %s\n", fake_launches[i].c_str());
  std::fflush(stdout);
}

// call_fused runs the fused form once: the operand and the residual of
// dims, the weight (and, as a fourth operand, a bias) of weight_elems,
// results h and y of dims.
[[maybe_unused]] static void call_fused(const char *what, attrs &a, int device, std::vector<int64_t> dims, int64_t weight_elems,
                       int nargs = 3) {
  buffer in(ARC_XLA_BF16, dims), res(ARC_XLA_BF16, dims), w(ARC_XLA_BF16, {weight_elems}), b(ARC_XLA_BF16, {weight_elems});
  buffer h(ARC_XLA_BF16, dims), y(ARC_XLA_BF16, dims);
  int arg_types[4] = {ARC_XLA_ARG_BUFFER, ARC_XLA_ARG_BUFFER, ARC_XLA_ARG_BUFFER, ARC_XLA_ARG_BUFFER};
  int ret_types[2] = {ARC_XLA_RET_BUFFER, ARC_XLA_RET_BUFFER};
  void *args[4] = {&in.b, &res.b, &w.b, &b.b}, *rets[2] = {&h.b, &y.b};
  arc_xla_call_frame f;
  std::memset(&f, 0, sizeof f);
  f.struct_size = ARC_XLA_STRUCT_SIZE(arc_xla_call_frame, attrs);
  f.api = &api;
  f.ctx = reinterpret_cast<arc_xla_context *>(static_cast<intptr_t>(100 + device));
  f.stage = ARC_XLA_STAGE_EXECUTE;
  f.args = {ARC_XLA_STRUCT_SIZE(arc_xla_args, args), nullptr, nargs, arg_types, args};
  f.rets = {ARC_XLA_STRUCT_SIZE(arc_xla_rets, rets), nullptr, 2, ret_types, rets};
  f.attrs = a.build();
  size_t before = fake_launches.size();
  XLA_FFI_Error *err = arc_ffi_allreduce(reinterpret_cast<XLA_FFI_CallFrame *>(&f));
  std::printf("%s: ", what);
  if (err != nullptr) {
    std::printf("error %d: %s\n", err->code, err->msg.c_str());
    delete err;
  } else {
    std::printf("ok\n");
  }
  for (size_t i = before; i < fake_launches.size(); i++) std::printf("  %s\n", fake_launches[i].c_str());
  std::fflush(stdout);
}

// A device table as the proxy builds it at PJRT_Client_Create.
struct table {
  std::vector<arc_device_entry> devices;
  arc_runtime_info info;
  table(int process_index, std::vector<arc_device_entry> d, arc_kv_store kv = arc_kv_store{}) : devices(d) {
    std::memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    info.process_index = process_index;
    info.platform = "cuda";
    info.ndevices = static_cast<int>(devices.size());
    info.devices = devices.data();
    info.kv = kv;
    int procs = 0;
    for (auto &e : devices) procs = e.process_index + 1 > procs ? e.process_index + 1 : procs;
    info.process_count = procs;
  }
};

// A device entry: global id, process, local hardware id (-1 elsewhere), slice.
static arc_device_entry entry(long long id, int process, int hw, int slice = 0) {
  arc_device_entry e;
  std::memset(&e, 0, sizeof e);
  e.global_id = id;
  e.process_index = process;
  e.local_hardware_id = hw;
  e.slice_index = slice;
  return e;
}

#endif
