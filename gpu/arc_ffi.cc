// arc_ffi.cc: the XLA typed-FFI handler of arc's "arc_allreduce" custom call.
//
// XLA runs one handler call per device, each on its own thread and stream. The
// handler reads the call's attributes (algo, cast, codec, groups, link, world),
// finds its rank from the stream's device, and enqueues arc_allreduce on that
// stream. Communicators are created once per (group, link) and kept for the
// life of the process; all ranks of a group share one.
//
// No CUDA/HIP header here: device calls go through arc_ffi_device.cc, so this
// file also builds with a host compiler for the CPU tests (runtime/pjrt/ffitest).

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "arc_ffi.h"
#include "arc_ffi_abi.h"
#include "arc_gpu.h"

namespace {

// One all-reduce as the lowering described it.
struct call_config {
  arc_algo algo = ARC_ONESHOT;
  arc_codec codec = ARC_CODEC_NONE;
  arc_link link = ARC_LINK_PEER;
  int flags = 0;
  int64_t world = 0;
  std::vector<int64_t> groups;
  bool have_algo = false, have_codec = false, have_world = false, have_groups = false;
};

arc_xla_error *fail(const arc_xla_api *api, int code, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  int n = std::snprintf(msg, sizeof msg, "arc_allreduce: ");
  std::vsnprintf(msg + n, sizeof msg - n, fmt, ap);
  va_end(ap);
  arc_xla_error_create_args args;
  std::memset(&args, 0, sizeof args);
  args.struct_size = ARC_XLA_STRUCT_SIZE(arc_xla_error_create_args, errc);
  args.message = msg;
  args.errc = code;
  return api->error_create(&args);
}

// The registration handshake: XLA asks which FFI API version the handler was
// built against and which traits it has. arc's kernels are graph-safe (their
// epochs live on the device; docs/KERNELS.md), so XLA may record the call into
// its command buffers (CUDA graphs), which takes the launch cost off each call.
bool answer_metadata(arc_xla_call_frame *frame) {
  arc_xla_extension *ext = frame->extension_start;
  if (ext == nullptr || ext->type != ARC_XLA_EXTENSION_METADATA) return false;
  auto *meta_ext = reinterpret_cast<arc_xla_metadata_extension *>(ext);
  if (meta_ext->metadata != nullptr) {
    arc_xla_metadata *m = meta_ext->metadata;
    m->api_version.struct_size = ARC_XLA_STRUCT_SIZE(arc_xla_api_version, minor_version);
    m->api_version.extension_start = nullptr;
    m->api_version.major_version = ARC_XLA_API_MAJOR;
    m->api_version.minor_version = ARC_XLA_API_MINOR;
    m->traits = ARC_XLA_TRAIT_COMMAND_BUFFER_COMPATIBLE;
  }
  return true;
}

std::string span_str(const arc_xla_byte_span *s) { return std::string(s->ptr, s->len); }

bool read_int(int dtype, const void *p, size_t i, int64_t *v) {
  switch (dtype) {
    case ARC_XLA_S8: *v = static_cast<const int8_t *>(p)[i]; return true;
    case ARC_XLA_S16: *v = static_cast<const int16_t *>(p)[i]; return true;
    case ARC_XLA_S32: *v = static_cast<const int32_t *>(p)[i]; return true;
    case ARC_XLA_S64: *v = static_cast<const int64_t *>(p)[i]; return true;
    case ARC_XLA_U8: *v = static_cast<const uint8_t *>(p)[i]; return true;
    case ARC_XLA_U16: *v = static_cast<const uint16_t *>(p)[i]; return true;
    case ARC_XLA_U32: *v = static_cast<const uint32_t *>(p)[i]; return true;
    case ARC_XLA_U64: *v = static_cast<int64_t>(static_cast<const uint64_t *>(p)[i]); return true;
  }
  return false;
}

template <typename E>
bool lookup(const char *const *names, int n, const std::string &s, E *out) {
  for (int i = 0; i < n; i++) {
    if (s == names[i]) {
      *out = static_cast<E>(i);
      return true;
    }
  }
  return false;
}

const char *const kAlgos[] = {"oneshot", "twoshot", "hier"};
const char *const kCodecs[] = {"none", "fp", "int8", "int6", "int4", "int4r", "fp8"};
const char *const kLinks[] = {"peer", "host"};

// parse_attrs reads the backend_config dictionary; returns "" or what is wrong.
std::string parse_attrs(const arc_xla_attrs &attrs, call_config *c) {
  for (int64_t i = 0; i < attrs.size; i++) {
    const arc_xla_byte_span *name = attrs.names[i];
    const int type = attrs.types[i];
    const void *value = attrs.attrs[i];
    const std::string key = span_str(name);
    if (key == "algo" || key == "codec" || key == "link") {
      if (type != ARC_XLA_ATTR_STRING) return "attribute " + key + " must be a string";
      const std::string s = span_str(static_cast<const arc_xla_byte_span *>(value));
      bool ok = key == "algo"    ? (c->have_algo = lookup(kAlgos, 3, s, &c->algo))
                : key == "codec" ? (c->have_codec = lookup(kCodecs, 7, s, &c->codec))
                                 : lookup(kLinks, 2, s, &c->link);
      if (!ok) return "unknown " + key + " \"" + s + "\"";
    } else if (key == "cast" || key == "world") {
      if (type != ARC_XLA_ATTR_SCALAR) return "attribute " + key + " must be an integer";
      const auto *sc = static_cast<const arc_xla_scalar *>(value);
      int64_t v;
      if (!read_int(sc->dtype, sc->value, 0, &v)) return "attribute " + key + " must be an integer";
      if (key == "cast") {
        if (v != 0 && v != 1) return "attribute cast must be 0 or 1";
        c->flags = v ? ARC_CAST_BF16_TO_FP16 : 0;
      } else {
        c->world = v;
        c->have_world = true;
      }
    } else if (key == "groups") {
      if (type != ARC_XLA_ATTR_ARRAY) return "attribute groups must be an integer array";
      const auto *a = static_cast<const arc_xla_array *>(value);
      c->groups.resize(a->size);
      for (size_t j = 0; j < a->size; j++) {
        if (!read_int(a->dtype, a->data, j, &c->groups[j])) return "attribute groups must be an integer array";
      }
      c->have_groups = true;
    }
    // Other attributes (a newer lowering's) are ignored on purpose.
  }
  if (!c->have_algo) return "missing attribute algo";
  if (!c->have_codec) return "missing attribute codec";
  if (!c->have_world || c->world < 1) return "missing or bad attribute world";
  if (!c->have_groups || c->groups.empty() || c->groups.size() % c->world != 0)
    return "attribute groups must hold whole groups of world ids";
  return "";
}

bool dtype_of(int xla, arc_dtype *d) {
  switch (xla) {
    case ARC_XLA_F16: *d = ARC_F16; return true;
    case ARC_XLA_BF16: *d = ARC_BF16; return true;
    case ARC_XLA_F32: *d = ARC_F32; return true;
  }
  return false;
}

size_t elements(const arc_xla_buffer *b) {
  size_t n = 1;
  for (int64_t i = 0; i < b->rank; i++) n *= static_cast<size_t>(b->dims[i]);
  return n;
}

// Communicators, one per (devices of a group, link), created on first use
// and kept for the life of the process.
struct comm_entry {
  std::once_flag once;
  arc_comm *comm = nullptr;
  int rc = ARC_OK;
};
std::mutex comms_mu;
std::map<std::pair<std::vector<int>, int>, std::unique_ptr<comm_entry>> comms;

// comm_for returns the group's communicator, creating it once: concurrent
// ranks of a new group wait for the one that creates it, and only for it.
// The map lock is never held while creating, so a rank looking up another,
// existing group's communicator is not held up: its peers' kernels may be
// waiting for it, and creation may synchronize their devices. The creator's
// current device is restored afterwards. A failure sticks to the group.
int comm_for(const std::vector<int> &devices, arc_link link, arc_comm **out) {
  comm_entry *e;
  {
    std::lock_guard<std::mutex> lock(comms_mu);
    auto &slot = comms[std::make_pair(devices, static_cast<int>(link))];
    if (!slot) slot.reset(new comm_entry);
    e = slot.get();
  }
  std::call_once(e->once, [&] {
    int saved = -1;
    arc_ffi_get_device(&saved);
    e->rc = arc_comm_create(&e->comm, devices.data(), static_cast<int>(devices.size()), link, 0);
    if (saved >= 0) arc_ffi_set_device(saved);
  });
  *out = e->comm;
  return e->rc;
}

std::string arc_message(int rc) {
  std::string m = arc_error_string(rc);
  const char *last = arc_last_error();
  if (last != nullptr && *last != '\0') m += std::string(": ") + last;
  return m;
}

}  // namespace

extern "C" XLA_FFI_Error *arc_ffi_allreduce(XLA_FFI_CallFrame *opaque) {
  auto *frame = reinterpret_cast<arc_xla_call_frame *>(opaque);
  if (answer_metadata(frame)) return nullptr;
  const arc_xla_api *api = frame->api;
  if (frame->stage != ARC_XLA_STAGE_EXECUTE)
    return fail(api, ARC_XLA_INVALID_ARGUMENT, "called at stage %d; only execute is registered", frame->stage);

  call_config c;
  std::string bad = parse_attrs(frame->attrs, &c);
  if (!bad.empty()) return fail(api, ARC_XLA_INVALID_ARGUMENT, "%s", bad.c_str());

  if (frame->args.size != 1 || frame->args.types[0] != ARC_XLA_ARG_BUFFER || frame->rets.size != 1 ||
      frame->rets.types[0] != ARC_XLA_RET_BUFFER)
    return fail(api, ARC_XLA_INVALID_ARGUMENT, "expects one buffer operand and one buffer result, got %lld and %lld",
                static_cast<long long>(frame->args.size), static_cast<long long>(frame->rets.size));
  const auto *in = static_cast<const arc_xla_buffer *>(frame->args.args[0]);
  const auto *out = static_cast<const arc_xla_buffer *>(frame->rets.rets[0]);
  arc_dtype dtype;
  if (!dtype_of(in->dtype, &dtype))
    return fail(api, ARC_XLA_UNIMPLEMENTED, "element type %d is not f16, bf16 or f32", in->dtype);
  const size_t count = elements(in);
  if (out->dtype != in->dtype || elements(out) != count)
    return fail(api, ARC_XLA_INVALID_ARGUMENT, "result type differs from the operand's");

  arc_xla_stream_get_args sargs;
  std::memset(&sargs, 0, sizeof sargs);
  sargs.struct_size = ARC_XLA_STRUCT_SIZE(arc_xla_stream_get_args, stream);
  sargs.ctx = frame->ctx;
  if (arc_xla_error *err = api->stream_get(&sargs)) return err;
  int device = -1;
  if (arc_ffi_stream_device(sargs.stream, &device) != 0)
    return fail(api, ARC_XLA_INTERNAL, "cannot read the stream's device: %s", arc_ffi_device_error());

  // Find the group holding this device; the rank is the device's position in it.
  std::vector<int> group;
  int rank = -1;
  for (size_t g = 0; g < c.groups.size() && rank < 0; g += c.world) {
    for (int64_t r = 0; r < c.world; r++) {
      if (c.groups[g + r] == device) {
        rank = static_cast<int>(r);
        group.assign(c.groups.begin() + g, c.groups.begin() + g + c.world);
      }
    }
  }
  if (rank < 0) return fail(api, ARC_XLA_INVALID_ARGUMENT, "device %d is in none of the call's groups", device);
  for (size_t i = 0; i < group.size(); i++) {
    for (size_t j = i + 1; j < group.size(); j++) {
      if (group[i] == group[j])
        return fail(api, ARC_XLA_INVALID_ARGUMENT, "device %d appears twice in its group", group[i]);
    }
  }

  arc_comm *comm = nullptr;
  int rc = comm_for(group, c.link, &comm);
  if (rc != ARC_OK)
    return fail(api, ARC_XLA_INTERNAL, "creating the communicator of %zu devices: %s", group.size(),
                arc_message(rc).c_str());

  // Launch on the stream's device, then leave the thread's device as XLA set it.
  int saved = -1;
  arc_ffi_get_device(&saved);
  if (saved != device) arc_ffi_set_device(device);
  rc = arc_allreduce(comm, rank, in->data, out->data, count, dtype, c.algo, c.codec, c.flags, sargs.stream);
  if (saved >= 0 && saved != device) arc_ffi_set_device(saved);
  if (rc != ARC_OK)
    return fail(api, rc == ARC_ERR_CUDA ? ARC_XLA_INTERNAL : ARC_XLA_INVALID_ARGUMENT, "%s", arc_message(rc).c_str());
  return nullptr;
}
