// arc_ffi.cc: the XLA typed-FFI handler of arc's "arc_allreduce" custom call,
// and arc_runtime_attach/detach, the PJRT client's view the proxy hands it.
//
// XLA runs one handler call per device, each on its own thread and stream. The
// handler reads the call's attributes (algo, cast, codec, devices, groups,
// link, world), finds its rank from the stream's device, and enqueues
// arc_allreduce on that stream:
//   stream -> its device ordinal (the local hardware id, PJRT's CUDA ordinal)
//   -> the global device id, through the most recent attached client's table
//      that holds the ordinal (without a table: the ordinal, one process)
//   -> the group holding that id in `devices` (global ids, group-major; older
//      modules without it: `groups`) and the rank, its position there.
// A group whose devices are all in this process gets a communicator over
// their ordinals; one with devices of other processes (one process per GPU)
// meets them through the client's key-value store (arc_comm_create_config)
// under "arc/v1/<hash of the group>/<generation>". Communicators are created
// once per group and kept; all ranks of a group in this process share one.
//
// No CUDA/HIP header here: device calls go through arc_ffi_device.cc and
// arc_comm.cc's device layer, so this file also builds with a host compiler
// for the CPU tests (gpu/ffitest).

#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "arc_ffi.h"
#include "arc_ffi_abi.h"
#include "arc_gpu.h"

namespace {

const int kStageInitialize = 2;  // XLA_FFI_ExecutionStage_INITIALIZE

// One all-reduce as the lowering described it.
struct call_config {
  arc_algo algo = ARC_ONESHOT;
  arc_codec codec = ARC_CODEC_NONE;
  arc_link link = ARC_LINK_PEER;
  int flags = 0;
  int64_t world = 0;
  std::vector<int64_t> groups, devices;
  bool have_algo = false, have_codec = false, have_world = false, have_groups = false, have_devices = false;
  // the fused form: norm = "rmsnorm", "layernorm" or "layernorm_fast" and its recipe
  bool norm = false;
  arc_norm rms = {};
  int have_norm_keys = 0;  // of row, mean, scale, eps, weight
};

arc_xla_error *fail(const arc_xla_api *api, int code, const char *fmt, ...) {
  char msg[1024];
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

// lookup over a generated name table (arc_vocab.h): arc_codec_name, ...
template <typename E>
bool lookup(const char *(*name)(int), int n, const std::string &s, E *out) {
  for (int i = 0; i < n; i++) {
    if (s == name(i)) {
      *out = static_cast<E>(i);
      return true;
    }
  }
  return false;
}

const char *const kNormKinds[] = {"rmsnorm", "layernorm", "layernorm_fast"};
const char *const kNormMeans[] = {"mul", "div"};
const char *const kNormWeights[] = {"f32", "io"};

bool read_f32(const void *value, float *f) {
  const auto *sc = static_cast<const arc_xla_scalar *>(value);
  if (sc->dtype != ARC_XLA_F32) return false;
  std::memcpy(f, sc->value, 4);
  return true;
}

std::string read_ids(const arc_xla_attrs &attrs, int64_t i, const std::string &key, std::vector<int64_t> *out) {
  if (attrs.types[i] != ARC_XLA_ATTR_ARRAY) return "attribute " + key + " must be an integer array";
  const auto *a = static_cast<const arc_xla_array *>(attrs.attrs[i]);
  out->resize(a->size);
  for (size_t j = 0; j < a->size; j++) {
    if (!read_int(a->dtype, a->data, j, &(*out)[j])) return "attribute " + key + " must be an integer array";
  }
  return "";
}

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
      bool ok = key == "algo"    ? (c->have_algo = lookup(arc_algo_name, ARC_ALGO_COUNT, s, &c->algo))
                : key == "codec" ? (c->have_codec = lookup(arc_codec_name, ARC_CODEC_COUNT, s, &c->codec))
                                 : lookup(arc_link_name, ARC_LINK_COUNT, s, &c->link);
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
    } else if (key == "norm" || key == "mean" || key == "weight") {
      if (type != ARC_XLA_ATTR_STRING) return "attribute " + key + " must be a string";
      const std::string v = span_str(static_cast<const arc_xla_byte_span *>(value));
      bool ok = key == "norm"   ? (c->norm = lookup(kNormKinds, 3, v, &c->rms.kind))
                : key == "mean" ? lookup(kNormMeans, 2, v, &c->rms.mean)
                                : lookup(kNormWeights, 2, v, &c->rms.weight_mode);
      if (!ok) return "unknown " + key + " \"" + v + "\"";
      if (key != "norm") c->have_norm_keys++;
    } else if (key == "scale" || key == "eps") {
      if (type != ARC_XLA_ATTR_SCALAR || !read_f32(value, key == "scale" ? &c->rms.scale : &c->rms.eps))
        return "attribute " + key + " must be an f32";
      c->have_norm_keys++;
    } else if (key == "init") {  // optional: +0 without it (RMSNorm's calls)
      if (type != ARC_XLA_ATTR_SCALAR || !read_f32(value, &c->rms.init)) return "attribute init must be an f32";
    } else if (key == "row") {
      int64_t v;
      if (type != ARC_XLA_ATTR_SCALAR) return "attribute row must be an integer";
      const auto *sc = static_cast<const arc_xla_scalar *>(value);
      if (!read_int(sc->dtype, sc->value, 0, &v) || v <= 0) return "attribute row must be a positive integer";
      c->rms.row = static_cast<size_t>(v);
      c->have_norm_keys++;
    } else if (key == "groups") {
      std::string bad = read_ids(attrs, i, key, &c->groups);
      if (!bad.empty()) return bad;
      c->have_groups = true;
    } else if (key == "devices") {
      std::string bad = read_ids(attrs, i, key, &c->devices);
      if (!bad.empty()) return bad;
      c->have_devices = true;
    }
    // Other attributes (a newer lowering's) are ignored on purpose.
  }
  if (!c->have_algo) return "missing attribute algo";
  if (!c->have_codec) return "missing attribute codec";
  if (!c->have_world || c->world < 1 || c->world > 64) return "missing or bad attribute world";
  if (!c->have_groups || c->groups.empty() || c->groups.size() % c->world != 0)
    return "attribute groups must hold whole groups of world ids";
  if (c->norm && c->have_norm_keys != 5) return "the fused call needs row, mean, scale, eps and weight";
  if (c->have_devices && c->devices.size() != c->groups.size())
    return "attribute devices must list as many ids as groups (" + std::to_string(c->groups.size()) + "), got " +
           std::to_string(c->devices.size());
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

std::string ids_str(const std::vector<long long> &ids) {
  std::string s = "[";
  for (size_t i = 0; i < ids.size(); i++) s += (i ? "," : "") + std::to_string(ids[i]);
  return s + "]";
}

// ---- attached clients ----------------------------------------------------

struct client {
  uint64_t serial = 0;
  int process_index = 0;
  std::vector<arc_device_entry> devices;
  arc_kv_store kv;
  bool has_kv = false;

  const arc_device_entry *by_id(long long id) const {
    for (const auto &d : devices)
      if (d.global_id == id) return &d;
    return nullptr;
  }
};

std::mutex clients_mu;
std::vector<std::shared_ptr<client>> clients;  // most recent last
uint64_t next_serial = 1;

bool same_devices(const client &c, const arc_runtime_info *info) {
  if (c.process_index != info->process_index || c.devices.size() != static_cast<size_t>(info->ndevices)) return false;
  for (int i = 0; i < info->ndevices; i++) {
    if (c.devices[i].global_id != info->devices[i].global_id ||
        c.devices[i].process_index != info->devices[i].process_index)
      return false;
  }
  return true;
}

// The stream's device: the client whose table holds it, and its global id.
// Without any attached client the ordinal is the id (one process, XLA's
// numbering).
std::string resolve_self(int ordinal, std::shared_ptr<client> *cl, long long *gid) {
  std::lock_guard<std::mutex> lock(clients_mu);
  cl->reset();
  *gid = ordinal;
  if (clients.empty()) return "";
  for (auto it = clients.rbegin(); it != clients.rend(); ++it) {
    for (const auto &d : (*it)->devices) {
      if (d.process_index == (*it)->process_index && d.local_hardware_id == ordinal) {
        *cl = *it;
        *gid = d.global_id;
        return "";
      }
    }
  }
  return "device ordinal " + std::to_string(ordinal) + " is in no attached PJRT client's device table";
}

// ---- communicators ---------------------------------------------------------

// Communicators, one per (devices of a group, link, client for groups that
// span processes), created on first use and kept for the life of the process
// (or of the client, for those that span processes).
struct comm_key {
  std::vector<long long> ids;  // local ordinals, or global ids when the group spans processes
  int link;
  uint64_t client;  // 0: every device in this process
  bool operator<(const comm_key &o) const {
    return std::tie(ids, link, client) < std::tie(o.ids, o.link, o.client);
  }
};
struct comm_entry {
  std::once_flag once;
  arc_comm *comm = nullptr;
  int rc = ARC_OK;
  std::string msg;  // the creation's failure, for every rank that asks
};
std::mutex comms_mu;
std::map<comm_key, std::unique_ptr<comm_entry>> comms;
std::map<std::pair<std::vector<long long>, int>, int> generations;  // creations of each group that spans processes

// The library's message for rc: what arc_last_error says, else the code's name.
std::string arc_message(int rc) {
  const char *last = arc_last_error();
  std::string m = last != nullptr && *last != '\0' ? std::string(last) : std::string(arc_error_string(rc));
  const std::string own = "arc_allreduce: ";  // the handler says it once
  return m.compare(0, own.size(), own) == 0 ? m.substr(own.size()) : m;
}

// 64-bit FNV-1a of the group: the key names the group without spelling out
// every id, the same in every process (the plan is not in it, so that
// processes that plan differently meet and say so).
std::string group_hash(const std::vector<long long> &ids, int link) {
  uint64_t h = 1469598103934665603ull;
  auto mix = [&](uint64_t v) {
    for (int i = 0; i < 8; i++) {
      h ^= (v >> (8 * i)) & 0xFF;
      h *= 1099511628211ull;
    }
  };
  for (long long id : ids) mix(static_cast<uint64_t>(id));
  mix(static_cast<uint64_t>(link));
  char s[17];
  std::snprintf(s, sizeof s, "%016llx", static_cast<unsigned long long>(h));
  return s;
}

size_t max_bytes_setting() {
  const char *v = std::getenv("ARC_MAX_BYTES");
  if (v == nullptr || *v == '\0') return 0;
  return static_cast<size_t>(std::strtoull(v, nullptr, 10));
}

// A group to run: its ranks' local ordinals (-1: another process) and ids.
struct group_plan {
  std::vector<int> ordinals;
  std::vector<long long> ids;
  bool remote = false;
  std::shared_ptr<client> cl;
};

// comm_for returns the group's communicator, creating it once: concurrent
// ranks of a new group wait for the one that creates it, and only for it.
// The map lock is never held while creating, so a rank looking up another,
// existing group's communicator is not held up: its peers' kernels may be
// waiting for it, and creation may synchronize their devices. The creator's
// current device is restored afterwards. A failure sticks to the group.
int comm_for(const group_plan &g, arc_link link, arc_comm **out, std::string *msg) {
  comm_key key;
  key.link = static_cast<int>(link);
  key.client = g.remote ? g.cl->serial : 0;
  if (g.remote)
    key.ids = g.ids;
  else
    key.ids.assign(g.ordinals.begin(), g.ordinals.end());
  comm_entry *e;
  int gen = 0;
  {
    std::lock_guard<std::mutex> lock(comms_mu);
    auto &slot = comms[key];
    if (!slot) {
      slot.reset(new comm_entry);
      if (g.remote) gen = generations[std::make_pair(g.ids, key.link)]++;
    }
    e = slot.get();
  }
  std::call_once(e->once, [&] {
    int saved = -1;
    arc_ffi_get_device(&saved);
    const size_t max_bytes = max_bytes_setting();
    arc_comm_config cfg;
    std::memset(&cfg, 0, sizeof cfg);
    cfg.struct_size = sizeof cfg;
    cfg.world = static_cast<int>(g.ordinals.size());
    cfg.devices = g.ordinals.data();
    cfg.link = link;
    cfg.max_bytes = max_bytes;
    cfg.timeout_ms = -1;
    cfg.ids = g.ids.data();
    std::string kv_key;
    if (g.remote) {
      kv_key = "arc/v1/" + group_hash(g.ids, key.link) + "/" + std::to_string(gen);
      cfg.key = kv_key.c_str();
      cfg.kv_ctx = g.cl->kv.ctx;
      cfg.kv_put = g.cl->kv.put;
      cfg.kv_get = g.cl->kv.get;
    }
    e->rc = arc_comm_create_config(&e->comm, &cfg);
    if (e->rc != ARC_OK) e->msg = arc_message(e->rc);
    if (saved >= 0) arc_ffi_set_device(saved);
  });
  *out = e->comm;
  *msg = e->msg;
  return e->rc;
}

// plan_group maps the group's ids to this process's devices.
std::string plan_group(const std::vector<int64_t> &members, const std::shared_ptr<client> &cl, group_plan *g) {
  g->cl = cl;
  const arc_device_entry *self = nullptr;
  for (int64_t id : members) {
    g->ids.push_back(id);
    if (!cl) {  // one process, ids are ordinals
      if (id < 0 || id > 1 << 20) return "device id " + std::to_string(id) + " is not a device ordinal";
      g->ordinals.push_back(static_cast<int>(id));
      continue;
    }
    const arc_device_entry *d = cl->by_id(id);
    if (d == nullptr) return "global device id " + std::to_string(id) + " of the call's group is not a device of the PJRT client";
    if (d->process_index == cl->process_index) {
      if (d->local_hardware_id < 0)
        return "global device " + std::to_string(id) + " has no local hardware id in this process";
      g->ordinals.push_back(d->local_hardware_id);
      if (self == nullptr) self = d;
    } else {
      g->ordinals.push_back(-1);
      g->remote = true;
    }
  }
  if (!g->remote) return "";
  for (int64_t id : members) {
    const arc_device_entry *d = cl->by_id(id);
    if (self != nullptr && d->slice_index != self->slice_index)
      return "group " + ids_str(g->ids) + " spans hosts (global device " + std::to_string(id) + " is in slice " +
             std::to_string(d->slice_index) + ", this process's in slice " + std::to_string(self->slice_index) +
             "): arc's kernels reach only the GPUs of one host";
  }
  if (!cl->has_kv) {
    for (int64_t id : members) {
      const arc_device_entry *d = cl->by_id(id);
      if (d->process_index != cl->process_index)
        return "group " + ids_str(g->ids) + " spans processes (global device " + std::to_string(id) + " is in process " +
               std::to_string(d->process_index) + ") but the PJRT client has no key-value store";
    }
  }
  return "";
}

bool sync_calls() {
  const char *v = std::getenv("ARC_SYNC_CALLS");
  return v != nullptr && v[0] == '1';
}

int xla_code(int rc) {
  return rc == ARC_ERR_INVALID || rc == ARC_ERR_UNSUPPORTED || rc == ARC_ERR_TOO_LARGE ? ARC_XLA_INVALID_ARGUMENT
                                                                                      : ARC_XLA_INTERNAL;
}

}  // namespace

extern "C" int arc_runtime_attach(const arc_runtime_info *info) {
  const size_t need = offsetof(arc_runtime_info, devices) + sizeof(info->devices);
  if (info == nullptr || info->struct_size < need || (info->ndevices > 0 && info->devices == nullptr) ||
      info->ndevices < 0)
    return ARC_ERR_INVALID;
  auto cl = std::make_shared<client>();
  cl->process_index = info->process_index;
  cl->devices.assign(info->devices, info->devices + info->ndevices);
  std::memset(&cl->kv, 0, sizeof cl->kv);
  if (info->struct_size >= offsetof(arc_runtime_info, kv) + sizeof(info->kv)) cl->kv = info->kv;
  cl->has_kv = cl->kv.put != nullptr && cl->kv.get != nullptr;
  std::lock_guard<std::mutex> lock(clients_mu);
  cl->serial = next_serial++;
  clients.push_back(cl);
  return ARC_OK;
}

extern "C" void arc_runtime_detach(const arc_runtime_info *info) {
  if (info == nullptr) return;
  std::shared_ptr<client> gone;
  {
    std::lock_guard<std::mutex> lock(clients_mu);
    for (auto it = clients.rbegin(); it != clients.rend(); ++it) {
      if (same_devices(**it, info)) {
        gone = *it;
        clients.erase(std::next(it).base());
        break;
      }
    }
  }
  if (!gone) return;
  // The client's communicators go with it: those that met other processes
  // without its store, which may be gone (arc_comm_release).
  std::vector<std::unique_ptr<comm_entry>> drop;
  {
    std::lock_guard<std::mutex> lock(comms_mu);
    for (auto it = comms.begin(); it != comms.end();) {
      if (it->first.client == gone->serial) {
        drop.push_back(std::move(it->second));
        it = comms.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (auto &e : drop)
    if (e->comm != nullptr) arc_comm_release(e->comm);
}

extern "C" XLA_FFI_Error *arc_ffi_allreduce(XLA_FFI_CallFrame *opaque) {
  auto *frame = reinterpret_cast<arc_xla_call_frame *>(opaque);
  if (answer_metadata(frame)) return nullptr;
  const arc_xla_api *api = frame->api;
  if (frame->stage != ARC_XLA_STAGE_EXECUTE && frame->stage != kStageInitialize)
    return fail(api, ARC_XLA_INVALID_ARGUMENT, "called at stage %d; only initialize and execute are registered",
                frame->stage);

  call_config c;
  std::string bad = parse_attrs(frame->attrs, &c);
  if (!bad.empty()) return fail(api, ARC_XLA_INVALID_ARGUMENT, "%s", bad.c_str());

  // One operand and one result; the fused form: operand, residual, weight
  // (and a LayerNorm's bias, a fourth operand) -> h, y.
  const bool bias = c.norm && c.rms.kind != ARC_NORM_KIND_RMSNORM && frame->args.size == 4;
  const int64_t nargs = c.norm ? (bias ? 4 : 3) : 1, nrets = c.norm ? 2 : 1;
  bool buffers = frame->args.size == nargs && frame->rets.size == nrets;
  for (int64_t i = 0; buffers && i < nargs; i++) buffers = frame->args.types[i] == ARC_XLA_ARG_BUFFER;
  for (int64_t i = 0; buffers && i < nrets; i++) buffers = frame->rets.types[i] == ARC_XLA_RET_BUFFER;
  if (!buffers)
    return fail(api, ARC_XLA_INVALID_ARGUMENT, "expects %lld buffer operand(s) and %lld buffer result(s), got %lld and %lld",
                static_cast<long long>(nargs), static_cast<long long>(nrets), static_cast<long long>(frame->args.size),
                static_cast<long long>(frame->rets.size));
  const auto *in = static_cast<const arc_xla_buffer *>(frame->args.args[0]);
  const auto *out = static_cast<const arc_xla_buffer *>(frame->rets.rets[0]);
  arc_dtype dtype;
  if (!dtype_of(in->dtype, &dtype))
    return fail(api, ARC_XLA_UNIMPLEMENTED, "element type %d is not f16, bf16 or f32", in->dtype);
  const size_t count = elements(in);
  if (out->dtype != in->dtype || elements(out) != count)
    return fail(api, ARC_XLA_INVALID_ARGUMENT, "result type differs from the operand's");
  if (c.norm) {
    const auto *res = static_cast<const arc_xla_buffer *>(frame->args.args[1]);
    const auto *w = static_cast<const arc_xla_buffer *>(frame->args.args[2]);
    const auto *y = static_cast<const arc_xla_buffer *>(frame->rets.rets[1]);
    const auto *b = bias ? static_cast<const arc_xla_buffer *>(frame->args.args[3]) : w;
    if (res->dtype != in->dtype || elements(res) != count || y->dtype != in->dtype || elements(y) != count ||
        w->dtype != in->dtype || elements(w) != c.rms.row || b->dtype != in->dtype || elements(b) != c.rms.row)
      return fail(api, ARC_XLA_INVALID_ARGUMENT, "the fused call's residual, weight, bias or y differ from its types");
    c.rms.bias = bias ? b->data : nullptr;
    c.rms.residual = res->data;
    c.rms.weight = w->data;
    c.rms.y = y->data;
  }

  arc_xla_stream_get_args sargs;
  std::memset(&sargs, 0, sizeof sargs);
  sargs.struct_size = ARC_XLA_STRUCT_SIZE(arc_xla_stream_get_args, stream);
  sargs.ctx = frame->ctx;
  if (arc_xla_error *err = api->stream_get(&sargs)) return err;
  int device = -1;
  if (arc_ffi_stream_device(sargs.stream, &device) != 0)
    return fail(api, ARC_XLA_INTERNAL, "cannot read the stream's device: %s", arc_ffi_device_error());

  std::shared_ptr<client> cl;
  long long gid = -1;
  bad = resolve_self(device, &cl, &gid);
  if (!bad.empty()) return fail(api, ARC_XLA_INVALID_ARGUMENT, "%s", bad.c_str());

  // Find the group holding this device; the rank is its position in it.
  const std::vector<int64_t> &ids = c.have_devices ? c.devices : c.groups;
  std::vector<int64_t> members;
  int rank = -1;
  for (size_t g = 0; g < ids.size() && rank < 0; g += c.world) {
    for (int64_t r = 0; r < c.world; r++) {
      if (ids[g + r] == gid) {
        rank = static_cast<int>(r);
        members.assign(ids.begin() + g, ids.begin() + g + c.world);
      }
    }
  }
  if (rank < 0) {
    if (cl)
      return fail(api, ARC_XLA_INVALID_ARGUMENT, "global device %lld (ordinal %d) is in none of the call's groups", gid,
                  device);
    return fail(api, ARC_XLA_INVALID_ARGUMENT, "device %d is in none of the call's groups", device);
  }
  for (size_t i = 0; i < members.size(); i++) {
    for (size_t j = i + 1; j < members.size(); j++) {
      if (members[i] == members[j])
        return fail(api, ARC_XLA_INVALID_ARGUMENT, "device %lld appears twice in its group",
                    static_cast<long long>(members[i]));
    }
  }
  group_plan g;
  bad = plan_group(members, cl, &g);
  if (!bad.empty()) return fail(api, ARC_XLA_INVALID_ARGUMENT, "%s", bad.c_str());

  arc_comm *comm = nullptr;
  std::string msg;
  int rc = comm_for(g, c.link, &comm, &msg);
  if (rc != ARC_OK) {
    const std::string group = "group " + ids_str(g.ids), said = group + ": ";
    if (msg.compare(0, said.size(), said) == 0) msg = msg.substr(said.size());
    return fail(api, xla_code(rc), "creating the communicator of %s: %s", group.c_str(), msg.c_str());
  }
  if (frame->stage == kStageInitialize) return nullptr;  // the communicator is ready; execute launches

  // Launch on the stream's device, then leave the thread's device as XLA set it.
  int saved = -1;
  arc_ffi_get_device(&saved);
  if (saved != device) arc_ffi_set_device(device);
  rc = c.norm ? arc_allreduce_norm(comm, rank, in->data, out->data, count, dtype, c.algo, c.codec, c.flags, &c.rms,
                                   sargs.stream)
              : arc_allreduce(comm, rank, in->data, out->data, count, dtype, c.algo, c.codec, c.flags, sargs.stream);
  // ARC_SYNC_CALLS=1: wait for this call's kernel, so that its own failure
  // fails it (otherwise the next call on the communicator reports it).
  if (rc == ARC_OK && sync_calls() && arc_ffi_stream_wait(sargs.stream) == 0) rc = arc_comm_status(comm);
  if (saved >= 0 && saved != device) arc_ffi_set_device(saved);
  if (rc != ARC_OK) return fail(api, xla_code(rc), "%s", arc_message(rc).c_str());
  return nullptr;
}
