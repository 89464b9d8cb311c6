/* proxy.c: arc's PJRT proxy (proxy.h). */
#define _GNU_SOURCE
#include "proxy.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "arc_ffi.h"
#include "arc_ffi_abi.h"
#include "compile_options.h"
#include "pjrt_abi.h"
#include "subprocess.h"

/* ---- errors the proxy makes ------------------------------------------------
 * A client hands every PJRT_Error back to the table it came from, so the proxy
 * wraps the error functions: its own errors are kept in a list, any other
 * error belongs to the real plugin and is forwarded. */

typedef struct arc_error {
  int code;
  char *msg;
  struct arc_error *next;
} arc_error;

static arc_error *live_errors;
static pthread_mutex_t errors_mu = PTHREAD_MUTEX_INITIALIZER;

static arc_pjrt_error *new_error(int code, char *msg) {
  arc_error *e = calloc(1, sizeof *e);
  if (e == NULL) abort();
  e->code = code;
  e->msg = msg ? msg : strdup("arc: out of memory");
  pthread_mutex_lock(&errors_mu);
  e->next = live_errors;
  live_errors = e;
  pthread_mutex_unlock(&errors_mu);
  return (arc_pjrt_error *)e;
}

/* find_error returns the proxy's error e, unlinked when take is set. */
static arc_error *find_error(const arc_pjrt_error *err, int take) {
  pthread_mutex_lock(&errors_mu);
  arc_error **link = &live_errors;
  while (*link != NULL && (const void *)*link != (const void *)err) link = &(*link)->next;
  arc_error *e = *link;
  if (e != NULL && take) *link = e->next;
  pthread_mutex_unlock(&errors_mu);
  return e;
}

static void error_destroy(const arc_pjrt_api *real, arc_pjrt_error_destroy_args *a) {
  arc_error *e = find_error(a->error, 1);
  if (e == NULL) {
    if (real != NULL) real->error_destroy(a);
    return;
  }
  free(e->msg);
  free(e);
}

static void error_message(const arc_pjrt_api *real, arc_pjrt_error_message_args *a) {
  arc_error *e = find_error(a->error, 0);
  if (e == NULL) {
    if (real != NULL) real->error_message(a);
    return;
  }
  a->message = e->msg;
  a->message_size = strlen(e->msg);
}

static arc_pjrt_error *error_get_code(const arc_pjrt_api *real, arc_pjrt_error_code_args *a) {
  arc_error *e = find_error(a->error, 0);
  if (e == NULL) return real != NULL ? real->error_get_code(a) : NULL;
  a->code = e->code;
  return NULL;
}

/* error_payloads answers PJRT_Error_ForEachPayload: the proxy's errors
 * carry no payload; a plugin error goes to the plugin. */
static arc_pjrt_error *error_payloads(const arc_pjrt_api *real, arc_pjrt_error_payload_args *a) {
  if (find_error(a->error, 0) != NULL || real == NULL) return NULL;
  arc_pjrt_error_payload_fn **f = arc_pjrt_payload_fn(real, real->struct_size);
  return f != NULL && *f != NULL ? (*f)(a) : NULL;
}

/* real_message returns a malloc'd copy of a plugin error's message and destroys it. */
static char *real_message(const arc_pjrt_api *real, arc_pjrt_error *err) {
  arc_pjrt_error_message_args m = {.struct_size = ARC_PJRT_STRUCT_SIZE(arc_pjrt_error_message_args, message_size),
                                   .error = err};
  real->error_message(&m);
  char *msg = arc_strdupf("%.*s", (int)m.message_size, m.message ? m.message : "");
  arc_pjrt_error_destroy_args d = {.struct_size = ARC_PJRT_STRUCT_SIZE(arc_pjrt_error_destroy_args, error),
                                   .error = err};
  real->error_destroy(&d);
  return msg;
}

/* ---- proxies ---------------------------------------------------------------- */

/* The client's key-value callbacks, as PJRT_Client_Create received them. */
typedef struct kv_ctx {
  arc_pjrt_kv_get_fn get;
  void *get_arg;
  arc_pjrt_kv_put_fn put;
  void *put_arg;
  arc_pjrt_kv_try_get_fn try_get;
  void *try_get_arg;
} kv_ctx;

/* One client the proxy created: its device table and store. */
typedef struct client_rec {
  arc_pjrt_client *client;
  arc_runtime_info info;    /* what arc_runtime_attach got */
  arc_device_entry *devices; /* info.devices */
  char *platform;           /* info.platform */
  char *device_coords;      /* arc_settings.device_coords, or NULL */
  char *device_processes;   /* arc_settings.device_processes, or NULL (one process) */
  int attached;             /* arc_runtime_attach accepted it */
  kv_ctx kv;
  struct client_rec *next;
} client_rec;

typedef struct proxy {
  int used;
  arc_proxy_config cfg; /* strings owned */
  const arc_pjrt_api *real;
  arc_pjrt_api *api; /* the copy handed to the client */
  pthread_mutex_t mu;
  int started;
  char *target;       /* resolved --target */
  char *target_err;   /* why no target could be found */
  char *target_found; /* what detection found, and why it picked the target */
  char *register_err; /* why arc's handlers are not registered; NULL when they are or need not be */
  void *gpu_lib;
  client_rec *clients;
  int programs;   /* the last program number used in dump names */
  int dump_fd;    /* ARC_DUMP_DIR, opened once; -1 before, -2 when off or unsafe */
} proxy;

static proxy slots[ARC_PROXY_MAX];
static pthread_mutex_t slots_mu = PTHREAD_MUTEX_INITIALIZER;

static int set(const char *s) { return s != NULL && *s != '\0'; }
static char *dup_or_null(const char *s) { return set(s) ? strdup(s) : NULL; }

void arc_proxy_config_from_env(arc_proxy_config *c) {
  memset(c, 0, sizeof *c);
  c->plugin = getenv("ARC_PJRT_PLUGIN");
  c->settings.target = getenv("ARC_TARGET");
  c->dump_dir = getenv("ARC_DUMP_DIR");
  const char *fb = getenv("ARC_FALLBACK");
  c->fallback_native = fb != NULL && strcmp(fb, "native") == 0;
  c->gpu_lib = getenv("ARC_GPU_LIB");
  c->mlir_to_text = getenv("ARC_MLIR_TO_TEXT");
  c->python = getenv("ARC_PYTHON");
  c->timeout_ms = arc_env_ms("ARC_COMPILE_TIMEOUT_MS", ARC_COMPILE_TIMEOUT_MS_DEFAULT);
}

static int file_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* open_gpu_lib loads libarc_gpu.so: ARC_GPU_LIB, else next to the proxy, else the loader's path. */
static void *open_gpu_lib(proxy *p, char **err) {
  if (p->gpu_lib != NULL) return p->gpu_lib;
  const arc_proxy_config *c = &p->cfg;
  if (set(c->gpu_lib)) {
    p->gpu_lib = dlopen(c->gpu_lib, RTLD_NOW | RTLD_LOCAL);
    if (p->gpu_lib == NULL) *err = arc_strdupf("cannot load ARC_GPU_LIB=%s: %s", c->gpu_lib, dlerror());
    return p->gpu_lib;
  }
  char *beside = set(c->home) ? arc_strdupf("%s/libarc_gpu.so", c->home) : NULL;
  if (beside != NULL && file_exists(beside)) {
    p->gpu_lib = dlopen(beside, RTLD_NOW | RTLD_LOCAL);
    if (p->gpu_lib == NULL) *err = arc_strdupf("cannot load %s: %s", beside, dlerror());
  } else {
    p->gpu_lib = dlopen("libarc_gpu.so", RTLD_NOW | RTLD_LOCAL);
    if (p->gpu_lib == NULL)
      *err = arc_strdupf("libarc_gpu.so is not built or not found (looked %s%s%sin the loader's path): "
                         "build it with `make gpu` and set ARC_GPU_LIB=/path/to/libarc_gpu.so",
                         beside ? "in " : "", beside ? c->home : "", beside ? " and " : "");
  }
  free(beside);
  return p->gpu_lib;
}

/* target_for maps the devices' topology to arc's --target, and says in
 * *found what it saw and why that target. A process that sees one GPU (one
 * process per GPU, CUDA_VISIBLE_DEVICES) has no pair to probe: it gets the
 * target that assumes neither peer access nor NVLink (docs/RUNTIME.md). */
static char *target_for(const arc_link_info *info, char **found, char **err) {
  const int n = info->devices;
  if (strncmp(info->arch, "gfx", 3) == 0) {
    const char *t = arc_amd_target(info->arch);
    if (t == NULL) {
      *err = arc_strdupf("arc has no target for AMD %s: set ARC_TARGET", info->arch);
      return NULL;
    }
    *found = arc_strdupf("%d visible GPU%s, %s", n, n == 1 ? "" : "s", info->arch);
    return strdup(t);
  }
  if (n < 1) {
    *err = strdup("no GPU is visible to detect the target: set ARC_TARGET");
    return NULL;
  }
  if (n == 1) {
    *found = arc_strdupf("1 visible GPU, %s: no pair of GPUs to probe for peer access or NVLink, so the target that "
                         "assumes neither; set ARC_TARGET where the processes' GPUs are joined", info->arch);
    return strdup(ARC_TARGET_HOST);
  }
  if (info->nvlink) {
    *found = arc_strdupf("%d visible GPUs, %s, every pair joined by NVLink", n, info->arch);
    return strdup(ARC_TARGET_NVLINK);
  }
  if (info->peer) {
    *found = arc_strdupf("%d visible GPUs, %s, peer access between every pair, not every pair by NVLink", n, info->arch);
    return strdup(ARC_TARGET_PEER);
  }
  *found = arc_strdupf("%d visible GPUs, %s, a pair without peer access", n, info->arch);
  return strdup(ARC_TARGET_HOST);
}

static void detect_target(proxy *p) {
  char *err = NULL;
  void *gpu = open_gpu_lib(p, &err);
  if (gpu == NULL) {
    p->target_err = arc_strdupf("ARC_TARGET is auto, so arc detects the topology through libarc_gpu.so, but %s", err);
    free(err);
    return;
  }
  int (*detect)(arc_link_info *) = (int (*)(arc_link_info *))dlsym(gpu, ARC_DETECT_LINK_SYMBOL);
  const char *(*why)(void) = (const char *(*)(void))dlsym(gpu, "arc_ffi_device_error");
  if (detect == NULL) {
    p->target_err = strdup("libarc_gpu.so has no arc_detect_link: rebuild it with `make gpu`, or set ARC_TARGET");
    return;
  }
  arc_link_info info;
  memset(&info, 0, sizeof info);
  if (detect(&info) != 0) {
    p->target_err = arc_strdupf("detecting the topology failed: %s", why ? why() : "unknown error");
    return;
  }
  p->target = target_for(&info, &p->target_found, &p->target_err);
}

char *arc_detect_target(const char *home, char **err) {
  proxy p;
  memset(&p, 0, sizeof p);
  p.cfg.gpu_lib = getenv("ARC_GPU_LIB");
  p.cfg.home = home;
  detect_target(&p);
  if (p.target == NULL) *err = p.target_err ? p.target_err : strdup("no target");
  else free(p.target_err);
  free(p.target_found);
  return p.target; /* the library stays loaded, as the proxy's does */
}

static const arc_pjrt_gpu_custom_call *find_custom_call_ext(const arc_pjrt_api *api) {
  for (const arc_pjrt_ext *e = api->extension_start; e != NULL; e = e->next) {
    if (e->type == ARC_PJRT_EXT_GPU_CUSTOM_CALL) return (const arc_pjrt_gpu_custom_call *)e;
  }
  return NULL;
}

/* register_handlers registers arc's typed-FFI handlers with the plugin;
 * it returns NULL or why it could not. */
static char *register_handlers(proxy *p) {
  char *err = NULL;
  void *gpu = open_gpu_lib(p, &err);
  if (gpu == NULL) {
    char *msg = arc_strdupf("target %s runs arc's GPU kernels, but %s", p->target, err);
    free(err);
    return msg;
  }
  void *handler = dlsym(gpu, ARC_FFI_ALLREDUCE_SYMBOL);
  if (handler == NULL) return strdup("libarc_gpu.so has no " ARC_FFI_ALLREDUCE_SYMBOL ": rebuild it with `make gpu`");
  const arc_pjrt_gpu_custom_call *ext = find_custom_call_ext(p->real);
  if (ext == NULL)
    return arc_strdupf("the PJRT plugin %s has no GPU custom-call extension, which target %s needs", p->cfg.plugin,
                       p->target);
  if (ext->base.struct_size < ARC_PJRT_STRUCT_SIZE(arc_pjrt_gpu_custom_call, custom_call))
    return arc_strdupf("the PJRT plugin %s is too old: its GPU custom-call extension has %zu bytes", p->cfg.plugin,
                       ext->base.struct_size);
  arc_pjrt_register_custom_call_args a = {
      .struct_size = ARC_PJRT_STRUCT_SIZE(arc_pjrt_register_custom_call_args, traits),
      .function_name = ARC_FFI_ALLREDUCE_TARGET,
      .function_name_size = strlen(ARC_FFI_ALLREDUCE_TARGET),
      .api_version = 1, /* typed FFI */
      .handler_execute = handler,
      .traits = ARC_XLA_TRAIT_COMMAND_BUFFER_COMPATIBLE, /* as the handler answers XLA's handshake */
  };
  arc_pjrt_error *e = ext->custom_call(&a);
  if (e == NULL) return NULL;
  char *msg = real_message(p->real, e);
  char *out = arc_strdupf("registering " ARC_FFI_ALLREDUCE_TARGET " with %s: %s", p->cfg.plugin, msg);
  free(msg);
  return out;
}

/* announce says once, on stderr, that arc is active: its target and where
 * the real plugin and the kernels were found, or what is missing. */
static void announce(proxy *p, int detected) {
  if (p->target == NULL) {
    fprintf(stderr, "arc: active on %s, but with no target: %s\n", p->cfg.plugin, p->target_err ? p->target_err : "?");
    return;
  }
  char how[512] = "from ARC_TARGET";
  if (detected) snprintf(how, sizeof how, "detected from the devices: %s", p->target_found ? p->target_found : "?");
  if (!arc_kernel_target(p->target)) {
    fprintf(stderr, "arc: active: target %s (%s), real plugin %s\n", p->target, how, p->cfg.plugin);
    return;
  }
  if (p->register_err != NULL) {
    fprintf(stderr, "arc: active: target %s (%s), real plugin %s; arc's kernels are not registered: %s\n", p->target,
            how, p->cfg.plugin, p->register_err);
    return;
  }
  Dl_info info;
  void *sym = dlsym(p->gpu_lib, ARC_FFI_ALLREDUCE_SYMBOL);
  const char *lib = sym != NULL && dladdr(sym, &info) != 0 && info.dli_fname != NULL ? info.dli_fname : "libarc_gpu.so";
  fprintf(stderr, "arc: active: target %s (%s), real plugin %s, kernels %s\n", p->target, how, p->cfg.plugin, lib);
}

/* start resolves the target and registers the handlers, once per proxy: at
 * the first client's creation, or the first compile of a client made
 * elsewhere. Nothing here fails the client: a program that needs what is
 * missing fails its compile with the reason. */
static void start(proxy *p) {
  pthread_mutex_lock(&p->mu);
  if (!p->started) {
    const char *t = p->cfg.settings.target;
    int detect = !set(t) || strcmp(t, "auto") == 0;
    if (detect) detect_target(p);
    else p->target = strdup(t);
    if (arc_kernel_target(p->target)) p->register_err = register_handlers(p);
    p->started = 1;
    announce(p, detect);
  }
  pthread_mutex_unlock(&p->mu);
}

/* ---- the client's key-value store, for libarc_gpu.so ----------------------- *
 * A callback reports failure through the callback_error its caller passes:
 * the proxy passes one that makes a proxy error, and reads it back. */

static arc_pjrt_error *kv_callback_error(int code, const char *message, size_t size) {
  return new_error(code, arc_strdupf("%.*s", (int)size, message ? message : ""));
}
static arc_pjrt_callback_error kv_error_fn = kv_callback_error;

/* kv_failure returns e's message (malloc'd) and its code in *code. */
static char *kv_failure(arc_pjrt_error *e, int *code) {
  arc_error *mine = find_error(e, 1);
  if (mine == NULL) { /* not made through callback_error: neither readable nor ours to free */
    *code = -1;
    return strdup("the key-value store failed without a message");
  }
  char *msg = mine->msg;
  *code = mine->code;
  free(mine);
  return msg;
}

static char *copy_value(const char *v, size_t n, void (*deleter)(char *)) {
  char *out = malloc(n + 1);
  if (out != NULL) {
    if (n > 0) memcpy(out, v, n);
    out[n] = '\0';
  }
  if (deleter != NULL && v != NULL) deleter((char *)v);
  return out;
}

static int kv_put(void *ctx, const char *key, size_t key_size, const char *value, size_t value_size, char **err) {
  kv_ctx *c = ctx;
  arc_pjrt_kv_put_args a = {.struct_size = ARC_PJRT_STRUCT_SIZE(arc_pjrt_kv_put_args, user_arg),
                            .key = key,
                            .key_size = key_size,
                            .value = value,
                            .value_size = value_size,
                            .callback_error = &kv_error_fn,
                            .user_arg = c->put_arg};
  arc_pjrt_error *e = c->put(&a);
  if (e == NULL) return 0;
  int code;
  *err = kv_failure(e, &code);
  return -1;
}

static int kv_get(void *ctx, const char *key, size_t key_size, int timeout_ms, char **value, size_t *value_size,
                  char **err) {
  kv_ctx *c = ctx;
  arc_pjrt_kv_get_args a = {.struct_size = ARC_PJRT_STRUCT_SIZE(arc_pjrt_kv_get_args, value_deleter_callback),
                            .key = key,
                            .key_size = key_size,
                            .timeout_in_ms = timeout_ms,
                            .callback_error = &kv_error_fn,
                            .user_arg = c->get_arg};
  arc_pjrt_error *e = c->get(&a);
  if (e != NULL) {
    int code;
    *err = kv_failure(e, &code);
    return -1;
  }
  *value = copy_value(a.value, a.value_size, a.value_deleter_callback);
  *value_size = a.value_size;
  if (*value == NULL) {
    *err = strdup("out of memory");
    return -1;
  }
  return 0;
}

static int kv_try_get(void *ctx, const char *key, size_t key_size, char **value, size_t *value_size, char **err) {
  kv_ctx *c = ctx;
  arc_pjrt_kv_try_get_args a = {.struct_size = ARC_PJRT_STRUCT_SIZE(arc_pjrt_kv_try_get_args, value_deleter_callback),
                                .key = key,
                                .key_size = key_size,
                                .callback_error = &kv_error_fn,
                                .user_arg = c->try_get_arg};
  arc_pjrt_error *e = c->try_get(&a);
  if (e != NULL) {
    int code;
    char *msg = kv_failure(e, &code);
    if (code == ARC_PJRT_NOT_FOUND) {
      free(msg);
      return 1;
    }
    *err = msg;
    return -1;
  }
  *value = copy_value(a.value, a.value_size, a.value_deleter_callback);
  *value_size = a.value_size;
  if (*value == NULL) {
    *err = strdup("out of memory");
    return -1;
  }
  return 0;
}

/* ---- the device table ---------------------------------------------------------- */

static char *describe(proxy *p, arc_pjrt_error *e, const char *what) {
  char *msg = real_message(p->real, e);
  char *out = arc_strdupf("%s: %s", what, msg);
  free(msg);
  return out;
}

/* read_attributes fills slice_index and coords from a device's attributes. */
static void read_attributes(const arc_pjrt_named_value *attrs, size_t n, arc_device_entry *d) {
  for (size_t i = 0; i < n; i++) {
    const arc_pjrt_named_value *a = &attrs[i];
    if (a->name == NULL) continue;
    if (a->name_size == 11 && memcmp(a->name, "slice_index", 11) == 0 && a->type == ARC_PJRT_NAMED_INT64)
      d->slice_index = (int)a->int64_value;
    if (a->name_size == 6 && memcmp(a->name, "coords", 6) == 0 && a->type == ARC_PJRT_NAMED_INT64_LIST &&
        a->int64_array_value != NULL) {
      d->ncoords = a->value_size < 4 ? (int)a->value_size : 4;
      for (int k = 0; k < d->ncoords; k++) d->coords[k] = (int)a->int64_array_value[k];
    }
  }
}

/* build_table asks the plugin for the client's devices; it returns NULL or why it could not. */
static char *build_table(proxy *p, client_rec *r) {
  const arc_pjrt_api *api = p->real;
  if (!ARC_PJRT_HAS(api, device_local_hardware_id) || !ARC_PJRT_HAS(api, client_devices))
    return strdup("the plugin's C API has no device descriptions");
  arc_pjrt_error *e;
  arc_pjrt_client_process_index_args pi = {
      .struct_size = ARC_PJRT_STRUCT_SIZE(arc_pjrt_client_process_index_args, process_index), .client = r->client};
  if ((e = api->client_process_index(&pi)) != NULL) return describe(p, e, "PJRT_Client_ProcessIndex");
  arc_pjrt_client_platform_name_args pn = {
      .struct_size = ARC_PJRT_STRUCT_SIZE(arc_pjrt_client_platform_name_args, platform_name_size),
      .client = r->client};
  if ((e = api->client_platform_name(&pn)) != NULL) return describe(p, e, "PJRT_Client_PlatformName");
  arc_pjrt_client_devices_args da = {.struct_size = ARC_PJRT_STRUCT_SIZE(arc_pjrt_client_devices_args, num_devices),
                                     .client = r->client};
  if ((e = api->client_devices(&da)) != NULL) return describe(p, e, "PJRT_Client_Devices");

  r->platform = arc_strdupf("%.*s", (int)pn.platform_name_size, pn.platform_name ? pn.platform_name : "");
  r->devices = calloc(da.num_devices ? da.num_devices : 1, sizeof *r->devices);
  if (r->platform == NULL || r->devices == NULL) return strdup("out of memory");
  int procs[64], nprocs = 0, more = 0;
  for (size_t i = 0; i < da.num_devices; i++) {
    arc_device_entry *d = &r->devices[i];
    d->slice_index = -1;
    d->local_hardware_id = -1;
    arc_pjrt_device_get_description_args gd = {
        .struct_size = ARC_PJRT_STRUCT_SIZE(arc_pjrt_device_get_description_args, device_description),
        .device = da.devices[i]};
    if ((e = api->device_get_description(&gd)) != NULL) return describe(p, e, "PJRT_Device_GetDescription");
    arc_pjrt_device_description_int_args id = {
        .struct_size = ARC_PJRT_STRUCT_SIZE(arc_pjrt_device_description_int_args, value),
        .device_description = gd.device_description};
    if ((e = api->device_description_id(&id)) != NULL) return describe(p, e, "PJRT_DeviceDescription_Id");
    d->global_id = id.value;
    id.value = 0;
    if ((e = api->device_description_process_index(&id)) != NULL)
      return describe(p, e, "PJRT_DeviceDescription_ProcessIndex");
    d->process_index = id.value;
    arc_pjrt_device_description_attributes_args at = {
        .struct_size = ARC_PJRT_STRUCT_SIZE(arc_pjrt_device_description_attributes_args, attributes),
        .device_description = gd.device_description};
    if ((e = api->device_description_attributes(&at)) != NULL)
      return describe(p, e, "PJRT_DeviceDescription_Attributes");
    read_attributes(at.attributes, at.num_attributes, d);
    arc_pjrt_device_is_addressable_args ad = {
        .struct_size = ARC_PJRT_STRUCT_SIZE(arc_pjrt_device_is_addressable_args, is_addressable),
        .device = da.devices[i]};
    if ((e = api->device_is_addressable(&ad)) != NULL) return describe(p, e, "PJRT_Device_IsAddressable");
    if (ad.is_addressable) {
      arc_pjrt_device_local_hardware_id_args hw = {
          .struct_size = ARC_PJRT_STRUCT_SIZE(arc_pjrt_device_local_hardware_id_args, local_hardware_id),
          .device = da.devices[i]};
      if ((e = api->device_local_hardware_id(&hw)) != NULL) return describe(p, e, "PJRT_Device_LocalHardwareId");
      d->local_hardware_id = hw.local_hardware_id;
    }
    int seen = 0;
    for (int k = 0; k < nprocs; k++) seen |= procs[k] == d->process_index;
    if (!seen && nprocs < 64) procs[nprocs++] = d->process_index;
    else if (!seen) more++;
  }
  r->info.struct_size = sizeof r->info;
  r->info.process_index = pi.process_index;
  r->info.process_count = nprocs + more;
  r->info.platform = r->platform;
  r->info.ndevices = (int)da.num_devices;
  r->info.devices = r->devices;
  /* TPU coordinates for the compile: "ID=X,Y,Z;..." */
  size_t cap = 1;
  for (size_t i = 0; i < da.num_devices; i++) cap += r->devices[i].ncoords ? 16 + 12 * 4 : 0;
  if (cap > 1 && (r->device_coords = calloc(1, cap)) != NULL) {
    size_t n = 0;
    for (size_t i = 0; i < da.num_devices; i++) {
      const arc_device_entry *d = &r->devices[i];
      if (d->ncoords == 0) continue;
      n += (size_t)snprintf(r->device_coords + n, cap - n, "%s%lld=", n ? ";" : "", d->global_id);
      for (int k = 0; k < d->ncoords; k++)
        n += (size_t)snprintf(r->device_coords + n, cap - n, "%s%d", k ? "," : "", d->coords[k]);
    }
  }
  /* The process of every device, for a client of several: "ID=P;..." */
  cap = 1 + da.num_devices * 48;
  if (r->info.process_count > 1 && (r->device_processes = calloc(1, cap)) != NULL) {
    size_t n = 0;
    for (size_t i = 0; i < da.num_devices; i++)
      n += (size_t)snprintf(r->device_processes + n, cap - n, "%s%lld=%d", i ? ";" : "", r->devices[i].global_id,
                            r->devices[i].process_index);
  }
  return NULL;
}

static void free_client(client_rec *r) {
  free(r->devices);
  free(r->platform);
  free(r->device_coords);
  free(r->device_processes);
  free(r);
}

/* attach_client records a new client: its device table and store, handed
 * to libarc_gpu.so when the target runs arc's kernels. */
/* num_nodes returns the create option num_nodes (JAX sets it, with node_id,
 * when the client is one of several processes), or 0. */
static long long num_nodes(const arc_pjrt_client_create_args *a) {
  for (size_t i = 0; a->create_options != NULL && i < a->num_options; i++) {
    const arc_pjrt_named_value *o = &a->create_options[i];
    if (o->name_size == 9 && memcmp(o->name, "num_nodes", 9) == 0 && o->type == ARC_PJRT_NAMED_INT64)
      return o->int64_value;
  }
  return 0;
}

static void attach_client(proxy *p, arc_pjrt_client_create_args *a) {
  client_rec *r = calloc(1, sizeof *r);
  if (r == NULL) return;
  r->client = a->client;
  /* The store is read only for a client of several processes: jaxlib leaves
   * the callbacks uninitialized (stack garbage) when it has no store, and
   * the plugins, which need none for one process, never look. */
  if (num_nodes(a) > 1) {
    r->kv.get = a->kv_get_callback;
    r->kv.get_arg = a->kv_get_user_arg;
    r->kv.put = a->kv_put_callback;
    r->kv.put_arg = a->kv_put_user_arg;
    if (a->struct_size >= ARC_PJRT_STRUCT_SIZE(arc_pjrt_client_create_args, kv_try_get_user_arg)) {
      r->kv.try_get = a->kv_try_get_callback;
      r->kv.try_get_arg = a->kv_try_get_user_arg;
    }
  }
  char *why = build_table(p, r);
  if (why != NULL) {
    fprintf(stderr, "arc: no device table for the client (%s): arc's kernels see one process only\n", why);
    free(why);
  }
  r->info.kv.ctx = &r->kv;
  r->info.kv.put = r->kv.put ? kv_put : NULL;
  r->info.kv.get = r->kv.get ? kv_get : NULL;
  r->info.kv.try_get = r->kv.try_get ? kv_try_get : NULL;
  if (p->gpu_lib != NULL && r->devices != NULL) {
    int (*attach)(const arc_runtime_info *) =
        (int (*)(const arc_runtime_info *))dlsym(p->gpu_lib, ARC_RUNTIME_ATTACH_SYMBOL);
    const char *(*why_gpu)(void) = (const char *(*)(void))dlsym(p->gpu_lib, "arc_ffi_device_error");
    if (attach != NULL) { /* absent: an older libarc_gpu.so, one process only */
      if (attach(&r->info) == 0) r->attached = 1;
      else fprintf(stderr, "arc: arc_runtime_attach refused the client: %s\n", why_gpu ? why_gpu() : "unknown error");
    }
  }
  pthread_mutex_lock(&p->mu);
  r->next = p->clients;
  p->clients = r;
  pthread_mutex_unlock(&p->mu);
}

static void detach_client(proxy *p, arc_pjrt_client *c) {
  pthread_mutex_lock(&p->mu);
  client_rec **link = &p->clients;
  while (*link != NULL && (*link)->client != c) link = &(*link)->next;
  client_rec *r = *link;
  if (r != NULL) *link = r->next;
  pthread_mutex_unlock(&p->mu);
  if (r == NULL) return;
  if (r->attached) {
    void (*detach)(const arc_runtime_info *) =
        (void (*)(const arc_runtime_info *))dlsym(p->gpu_lib, ARC_RUNTIME_DETACH_SYMBOL);
    if (detach != NULL) detach(&r->info);
  }
  free_client(r);
}

/* client_coords returns a copy of the client's device coordinates, or NULL;
 * client_processes its devices' processes (a client of several), or NULL. */
static char *client_coords(proxy *p, arc_pjrt_client *c) {
  char *out = NULL;
  pthread_mutex_lock(&p->mu);
  for (client_rec *r = p->clients; r != NULL; r = r->next)
    if (r->client == c && r->device_coords != NULL) out = strdup(r->device_coords);
  pthread_mutex_unlock(&p->mu);
  return out;
}

static char *client_processes(proxy *p, arc_pjrt_client *c) {
  char *out = NULL;
  pthread_mutex_lock(&p->mu);
  for (client_rec *r = p->clients; r != NULL; r = r->next)
    if (r->client == c && r->device_processes != NULL) out = strdup(r->device_processes);
  pthread_mutex_unlock(&p->mu);
  return out;
}

/* ---- dumps ------------------------------------------------------------------- *
 * ARC_DUMP_DIR is created when missing; arc writes into it only when it is a
 * directory (not a symbolic link) owned by the user and writable by no one
 * else, and only files it creates (O_EXCL | O_NOFOLLOW): a planted file or
 * link is never written through. Each file is written whole under a staging
 * name, then renamed without replacing: a failed write leaves nothing. A
 * program takes the first number whose first file does not exist yet, so
 * runs and processes sharing a directory never overwrite each other. */

static int mkdirs(const char *dir) {
  char *path = strdup(dir);
  for (char *s = path + 1; path != NULL && *s; s++) {
    if (*s != '/') continue;
    *s = '\0';
    mkdir(path, 0755);
    *s = '/';
  }
  int rc = path == NULL || (mkdir(path, 0755) != 0 && errno != EEXIST);
  free(path);
  return rc;
}

static int dump_dir(proxy *p) {
  pthread_mutex_lock(&p->mu);
  if (p->dump_fd == -1) {
    const char *dir = p->cfg.dump_dir;
    char *why = NULL;
    struct stat st;
    int fd = -1;
    if (mkdirs(dir) != 0) {
      why = arc_strdupf("cannot create it: %s", strerror(errno));
    } else if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
      why = errno == ELOOP || errno == ENOTDIR ? strdup("it is a symbolic link or not a directory")
                                               : arc_strdupf("cannot open it: %s", strerror(errno));
    } else if (fstat(fd, &st) != 0) {
      why = arc_strdupf("cannot stat it: %s", strerror(errno));
    } else if (st.st_uid != geteuid()) {
      why = arc_strdupf("it belongs to uid %u, not to this user", (unsigned)st.st_uid);
    } else if (st.st_mode & (S_IWGRP | S_IWOTH)) {
      why = strdup("others may write into it");
    }
    if (why != NULL) {
      fprintf(stderr, "arc: ARC_DUMP_DIR=%s: %s; no dumps are written\n", dir, why);
      free(why);
      if (fd >= 0) close(fd);
      fd = -2;
    }
    p->dump_fd = fd;
  }
  int fd = p->dump_fd;
  pthread_mutex_unlock(&p->mu);
  return fd;
}

/* publish gives the staged file tmp the name name in dir, unless name
 * exists: rename without replacing, or where the file system cannot
 * (EINVAL), a hard link and the stage's removal. */
static int publish(int dir, const char *tmp, const char *name) {
  if (syscall(SYS_renameat2, dir, tmp, dir, name, 1 /* RENAME_NOREPLACE */) == 0) return 0;
  if (errno != EINVAL && errno != ENOSYS) return -1;
  if (linkat(dir, tmp, dir, name, 0) != 0) return -1;
  unlinkat(dir, tmp, 0);
  return 0;
}

/* dump writes one file of program *n (0: not numbered yet, numbered here),
 * whole or not at all: it is written under a staging name of its own,
 * then given its name, which a file already there keeps. */
static void dump(proxy *p, int *n, const char *what, const char *data, size_t size) {
  if (!set(p->cfg.dump_dir)) return;
  int dir = dump_dir(p);
  if (dir < 0) return;
  static long staged;
  char tmp[64], name[64];
  snprintf(tmp, sizeof tmp, ".arc-%ld-%ld.tmp", (long)getpid(), __atomic_add_fetch(&staged, 1, __ATOMIC_RELAXED));
  snprintf(name, sizeof name, "arc-%04d-%s", *n, what);
  int fd = openat(dir, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  ssize_t w = 0;
  size_t done = 0;
  while (fd >= 0 && done < size && (w = write(fd, data + done, size - done)) > 0) done += (size_t)w;
  int ok = fd >= 0 && done == size;
  if (fd >= 0 && close(fd) != 0) ok = 0;
  for (int tries = 0; ok && tries < 100000; tries++) {
    int k = *n ? *n : __atomic_add_fetch(&p->programs, 1, __ATOMIC_RELAXED);
    snprintf(name, sizeof name, "arc-%04d-%s", k, what);
    if (publish(dir, tmp, name) == 0) {
      *n = k;
      return;
    }
    if (errno != EEXIST || *n) {
      *n = k;
      break;
    }
  }
  int e = errno;
  if (fd >= 0) unlinkat(dir, tmp, 0);
  fprintf(stderr, "arc: cannot write %s/%s: %s\n", p->cfg.dump_dir, name, strerror(e));
}

static int is_bytecode(const char *code, size_t size) { return size >= 4 && memcmp(code, "ML\xefR", 4) == 0; }

int arc_mentions_collective(const char *code, size_t size) {
  /* Text names the op stablehlo.all_reduce; bytecode keeps op names in its
   * string table (VHLO's all_reduce_v1). An arc_ custom call is already lowered. */
  return memmem(code, size, "all_reduce", 10) != NULL || memmem(code, size, "arc_allreduce", 13) != NULL;
}

/* uses_arc_kernels reports whether a program calls an arc_ custom call, in the generic or the pretty form. */
static int uses_arc_kernels(const char *text, size_t size) {
  return memmem(text, size, "call_target_name = \"arc_", 24) != NULL || memmem(text, size, "custom_call @arc_", 17) != NULL;
}

/* ---- the bytecode converter ---------------------------------------------------- *
 * One per process, kept alive (arc_mlir_to_text.py --serve): a Python start
 * and a jaxlib import cost about a second, a conversion milliseconds. */

static pthread_mutex_t converter_mu = PTHREAD_MUTEX_INITIALIZER;
static arc_worker converter;
static int converter_ready;

static int convert_with_worker(char *python, char *script, const char *in, size_t size, int timeout_ms, char **out,
                               size_t *out_size, char **err) {
  pthread_mutex_lock(&converter_mu);
  if (converter_ready && (strcmp(converter.argv[0], python) != 0 || strcmp(converter.argv[1], script) != 0)) {
    arc_worker_stop(&converter); /* another proxy's converter: one at a time */
    converter_ready = 0;
  }
  if (!converter_ready) {
    char *argv[] = {python, script, "--serve", NULL};
    arc_worker_init(&converter, "the bytecode converter (arc_mlir_to_text.py --serve)", argv);
    converter_ready = 1;
  }
  const char *frames[] = {in};
  size_t sizes[] = {size};
  int rc = arc_worker_call(&converter, frames, sizes, 1, timeout_ms, out, out_size, err);
  pthread_mutex_unlock(&converter_mu);
  return rc;
}

/* to_text turns MLIR bytecode (what JAX sends) into text with a converter program. */
static int to_text(proxy *p, const char *in, size_t size, char **out, size_t *out_size, char **err) {
  const arc_proxy_config *c = &p->cfg;
  char *script = NULL, *python = NULL, *e = NULL;
  int rc;
  if (set(c->mlir_to_text)) {
    char *argv[] = {"/bin/sh", "-c", (char *)c->mlir_to_text, NULL};
    rc = arc_run(argv, in, size, c->timeout_ms, out, out_size, &e);
  } else {
    script = set(c->home) ? arc_strdupf("%s/arc_mlir_to_text.py", c->home) : NULL;
    if (script == NULL || !file_exists(script)) {
      *err = strdup("the client sent MLIR bytecode (JAX does) and arc reads text: set ARC_MLIR_TO_TEXT to a "
                    "converter command, or keep arc_mlir_to_text.py next to the plugin");
      free(script);
      return -1;
    }
    const char *venv = getenv("VIRTUAL_ENV");
    char *venv_python = set(venv) ? arc_strdupf("%s/bin/python3", venv) : NULL;
    if (set(c->python)) python = strdup(c->python);
    else if (venv_python != NULL && access(venv_python, X_OK) == 0) python = strdup(venv_python);
    else python = arc_which("python3");
    free(venv_python);
    if (python == NULL) {
      *err = strdup("the client sent MLIR bytecode and no python3 was found to convert it: set ARC_PYTHON");
      free(script);
      return -1;
    }
    rc = convert_with_worker(python, script, in, size, c->timeout_ms, out, out_size, &e);
  }
  if (rc != 0) *err = arc_strdupf("converting MLIR bytecode to text: %s", e);
  free(e);
  free(script);
  free(python);
  return rc;
}

/* transform runs the pipeline on one program with its compile options co;
 * it returns the text the real compile gets (malloc'd) or NULL with *err set. */
static char *transform(proxy *p, int *n, arc_pjrt_compile_args *args, const arc_compile_options *co, const char *code,
                       size_t size, size_t *out_size, char **err) {
  char *text = NULL, *out = NULL;
  size_t text_size = size;
  if (is_bytecode(code, size)) {
    if (to_text(p, code, size, &text, &text_size, err) != 0) return NULL;
    code = text;
    dump(p, n, "before.mlir", code, text_size);
  }
  if (p->target == NULL) {
    *err = strdup(p->target_err ? p->target_err : "no target");
  } else {
    arc_settings s = p->cfg.settings;
    s.target = p->target;
    s.program = co->arc_settings;
    s.device_assignment = co->device_assignment;
    char *coords = client_coords(p, args->client);
    s.device_coords = coords;
    char *procs = client_processes(p, args->client);
    s.device_processes = procs;
    if (p->cfg.transform(p->cfg.transform_ctx, &s, code, text_size, &out, out_size, err) != 0) {
      if (*err == NULL) *err = strdup("the pipeline failed");
      out = NULL;
    } else if (p->register_err != NULL && uses_arc_kernels(out, *out_size)) {
      *err = strdup(p->register_err);
      free(out);
      out = NULL;
    }
    free(coords);
    free(procs);
  }
  free(text);
  return out;
}

/* real_compile compiles code with the real plugin. The client's structs may be
 * newer (larger) than arc's declarations: only the fields arc replaces change,
 * and the client's own are put back. */
static arc_pjrt_error *real_compile(proxy *p, arc_pjrt_compile_args *args, const arc_compile_options *co,
                                    const char *code, size_t size) {
  const arc_pjrt_program *prog = args->program;
  const char *options = args->compile_options;
  size_t options_size = args->compile_options_size;
  arc_pjrt_program *copy = NULL;
  if (code != prog->code) {
    copy = calloc(1, prog->struct_size > sizeof *copy ? prog->struct_size : sizeof *copy);
    if (copy == NULL) abort();
    memcpy(copy, prog, prog->struct_size);
    copy->code = (char *)code;
    copy->code_size = size;
    args->program = copy;
  }
  if (co->stripped != NULL) { /* without arc's keys, which XLA refuses */
    args->compile_options = co->stripped;
    args->compile_options_size = co->stripped_size;
  }
  arc_pjrt_error *e = p->real->client_compile(args);
  args->program = prog;
  args->compile_options = options;
  args->compile_options_size = options_size;
  free(copy);
  return e;
}

static arc_pjrt_error *proxy_compile(proxy *p, arc_pjrt_compile_args *args) {
  const arc_pjrt_program *prog = args->program;
  if (prog == NULL || prog->format_size != 4 || memcmp(prog->format, "mlir", 4) != 0)
    return p->real->client_compile(args); /* HLO protos pass through */
  start(p);
  int n = 0;
  int bytecode = is_bytecode(prog->code, prog->code_size);
  dump(p, &n, bytecode ? "before.mlirbc" : "before.mlir", prog->code, prog->code_size);
  arc_compile_options co;
  char *err = NULL;
  int options_ok = arc_read_compile_options(args->compile_options, args->compile_options_size, &co, &err) == 0;
  if (!arc_mentions_collective(prog->code, prog->code_size)) { /* nothing for arc: no conversion, no pipeline */
    free(err); /* options arc cannot read are the real compile's to refuse */
    arc_pjrt_error *e = options_ok ? real_compile(p, args, &co, prog->code, prog->code_size)
                                   : p->real->client_compile(args);
    if (options_ok) arc_compile_options_free(&co);
    return e;
  }
  size_t size = 0;
  char *out = options_ok ? transform(p, &n, args, &co, prog->code, prog->code_size, &size, &err) : NULL;
  arc_pjrt_error *e;
  if (out == NULL) {
    dump(p, &n, "error.txt", err, strlen(err));
    if (!p->cfg.fallback_native) {
      /* Also on stderr, where a client that loses errors still shows it. */
      fprintf(stderr, "arc: %s\n", err);
      e = new_error(ARC_PJRT_INVALID_ARGUMENT, arc_strdupf("arc: %s", err));
    } else {
      fprintf(stderr, "arc: %s; compiling the program unmodified (ARC_FALLBACK=native)\n", err);
      e = options_ok ? real_compile(p, args, &co, prog->code, prog->code_size) : p->real->client_compile(args);
    }
    free(err);
  } else {
    dump(p, &n, "after.mlir", out, size);
    e = real_compile(p, args, &co, out, size);
    free(out);
  }
  if (options_ok) arc_compile_options_free(&co);
  return e;
}

/* ---- client creation ----------------------------------------------------------- */

static arc_pjrt_error *proxy_client_create(proxy *p, arc_pjrt_client_create_args *a) {
  arc_pjrt_error *e = p->real->client_create(a);
  if (e != NULL || a->client == NULL) return e;
  start(p);
  attach_client(p, a);
  return NULL;
}

static arc_pjrt_error *proxy_client_destroy(proxy *p, arc_pjrt_client_destroy_args *a) {
  if (a->client != NULL) detach_client(p, a->client); /* while the client's store still works */
  return p->real->client_destroy(a);
}

/* Each slot has its own entry points: PJRT calls carry no user pointer. */
#define ARC_SLOT(i)                                                                                                \
  static arc_pjrt_error *compile_##i(arc_pjrt_compile_args *a) { return proxy_compile(&slots[i], a); }             \
  static arc_pjrt_error *create_##i(arc_pjrt_client_create_args *a) { return proxy_client_create(&slots[i], a); }  \
  static arc_pjrt_error *cdestroy_##i(arc_pjrt_client_destroy_args *a) { return proxy_client_destroy(&slots[i], a); } \
  static void destroy_##i(arc_pjrt_error_destroy_args *a) { error_destroy(slots[i].real, a); }                     \
  static void message_##i(arc_pjrt_error_message_args *a) { error_message(slots[i].real, a); }                     \
  static arc_pjrt_error *code_##i(arc_pjrt_error_code_args *a) { return error_get_code(slots[i].real, a); }    \
  static arc_pjrt_error *payload_##i(arc_pjrt_error_payload_args *a) { return error_payloads(slots[i].real, a); }
ARC_SLOT(0)
ARC_SLOT(1)
ARC_SLOT(2)
ARC_SLOT(3)
ARC_SLOT(4)
ARC_SLOT(5)
ARC_SLOT(6)
ARC_SLOT(7)

static const struct {
  arc_pjrt_compile_fn *compile;
  arc_pjrt_client_create_fn *create;
  arc_pjrt_client_destroy_fn *client_destroy;
  arc_pjrt_error_destroy_fn *destroy;
  arc_pjrt_error_message_fn *message;
  arc_pjrt_error_code_fn *code;
  arc_pjrt_error_payload_fn *payload;
} entries[ARC_PROXY_MAX] = {
#define ARC_ENTRY(i) {compile_##i, create_##i, cdestroy_##i, destroy_##i, message_##i, code_##i, payload_##i}
    ARC_ENTRY(0), ARC_ENTRY(1), ARC_ENTRY(2), ARC_ENTRY(3), ARC_ENTRY(4), ARC_ENTRY(5), ARC_ENTRY(6), ARC_ENTRY(7),
};

static const arc_pjrt_api *load_real(const char *path, char **err) {
  if (!set(path)) {
    *err = strdup("no PJRT plugin to wrap: set ARC_PJRT_PLUGIN to the real plugin's path "
                  "(for example .../jax_plugins/xla_cuda13/xla_cuda_plugin.so)");
    return NULL;
  }
  if (access(path, F_OK) != 0) {
    *err = arc_strdupf("PJRT plugin not found: %s (ARC_PJRT_PLUGIN)", path);
    return NULL;
  }
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (h == NULL) {
    *err = arc_strdupf("cannot load the PJRT plugin %s: %s", path, dlerror());
    return NULL;
  }
  const arc_pjrt_api *(*get)(void) = (const arc_pjrt_api *(*)(void))dlsym(h, "GetPjrtApi");
  const arc_pjrt_api *real = get ? get() : NULL;
  if (real == NULL) {
    *err = arc_strdupf("%s is not a PJRT plugin: %s", path, get ? "GetPjrtApi returned NULL" : "no GetPjrtApi");
    return NULL;
  }
  int major = real->pjrt_api_version.major_version, minor = real->pjrt_api_version.minor_version;
  if (major != 0) {
    *err = arc_strdupf("the PJRT plugin %s has C API %d.%d; arc supports major version 0", path, major, minor);
    return NULL;
  }
  if (real->struct_size < ARC_PJRT_STRUCT_SIZE(arc_pjrt_api, client_compile)) {
    *err = arc_strdupf("the PJRT plugin %s is too old: its C API %d.%d (%zu bytes) has no PJRT_Client_Compile", path,
                       major, minor, real->struct_size);
    return NULL;
  }
  return real;
}

/* flag_name finds the name an absl argument sets ("-name" or "--name", up
 * to any "="): it returns its length and sets *name, or returns 0. */
static size_t flag_name(const char *arg, size_t len, const char **name) {
  if (len == 0 || arg[0] != '-') return 0;
  size_t i = 1 + (len > 1 && arg[1] == '-');
  size_t n = 0;
  while (i + n < len && arg[i + n] != '=') n++;
  *name = arg + i;
  return n;
}

char *arc_merge_libtpu_args(const char *existing, const char *flag) {
  if (existing == NULL) existing = "";
  const char *fname;
  size_t fn = flag_name(flag, strlen(flag), &fname);
  int add = fn > 0 && strchr(flag, ' ') == NULL;
  /* libtpu splits on single spaces, with no quoting; absl stops at "--". */
  for (const char *s = existing; add;) {
    size_t len = strcspn(s, " ");
    if (len == 2 && memcmp(s, "--", 2) == 0) break;
    const char *name;
    size_t n = flag_name(s, len, &name);
    if (n > 0 && ((n == fn && memcmp(name, fname, n) == 0) ||
                  (n == fn + 2 && memcmp(name, "no", 2) == 0 && memcmp(name + 2, fname, fn) == 0)))
      add = 0;
    if (s[len] == '\0') break;
    s += len + 1;
  }
  if (!add) return strdup(existing);
  return *existing ? arc_strdupf("%s %s", flag, existing) : strdup(flag);
}

/* tpu_flags adds libtpu's ring flag to LIBTPU_INIT_ARGS for a TPU target,
 * before the plugin is loaded. */
static void tpu_flags(const char *target) {
  if (target == NULL || strncmp(target, ARC_LIBTPU_TARGET_PREFIX, strlen(ARC_LIBTPU_TARGET_PREFIX)) != 0) return;
  const char *old = getenv(ARC_LIBTPU_INIT_ARGS);
  char *merged = arc_merge_libtpu_args(old, ARC_LIBTPU_RING_FLAG);
  if (merged != NULL && (old == NULL || strcmp(merged, old) != 0)) setenv(ARC_LIBTPU_INIT_ARGS, merged, 1);
  free(merged);
}

const void *arc_proxy_open(const arc_proxy_config *c, char **err) {
  *err = NULL;
  if (c->transform == NULL) {
    *err = strdup("arc_proxy_open: no transform");
    return NULL;
  }
  tpu_flags(c->settings.target);
  const arc_pjrt_api *real = load_real(c->plugin, err);
  if (real == NULL) return NULL;
  arc_pjrt_api *api = calloc(1, real->struct_size > sizeof *api ? real->struct_size : sizeof *api);
  if (api == NULL) abort();
  memcpy(api, real, real->struct_size);

  pthread_mutex_lock(&slots_mu);
  int i = 0;
  while (i < ARC_PROXY_MAX && slots[i].used) i++;
  if (i == ARC_PROXY_MAX) {
    pthread_mutex_unlock(&slots_mu);
    free(api);
    *err = arc_strdupf("too many arc proxies in one process (at most %d)", ARC_PROXY_MAX);
    return NULL;
  }
  proxy *p = &slots[i];
  memset(p, 0, sizeof *p);
  p->used = 1;
  p->dump_fd = -1;
  pthread_mutex_init(&p->mu, NULL);
  p->cfg = *c;
  p->cfg.plugin = strdup(c->plugin);
  p->cfg.settings.target = dup_or_null(c->settings.target);
  p->cfg.settings.program = NULL;
  p->cfg.settings.device_assignment = NULL;
  p->cfg.settings.device_coords = NULL;
  p->cfg.dump_dir = dup_or_null(c->dump_dir);
  p->cfg.gpu_lib = dup_or_null(c->gpu_lib);
  p->cfg.mlir_to_text = dup_or_null(c->mlir_to_text);
  p->cfg.python = dup_or_null(c->python);
  p->cfg.home = dup_or_null(c->home);
  p->real = real;
  api->client_compile = entries[i].compile;
  if (real->client_create != NULL) api->client_create = entries[i].create;
  if (real->client_destroy != NULL) api->client_destroy = entries[i].client_destroy;
  api->error_destroy = entries[i].destroy;
  api->error_message = entries[i].message;
  api->error_get_code = entries[i].code;
  arc_pjrt_error_payload_fn **payload = arc_pjrt_payload_fn(api, real->struct_size);
  if (payload != NULL) *payload = entries[i].payload;
  p->api = api;
  pthread_mutex_unlock(&slots_mu);
  return api;
}

/* ---- a table that only fails ------------------------------------------------ */

static char *load_error;

static arc_pjrt_error *fail_call(void *args) {
  (void)args;
  return new_error(ARC_PJRT_FAILED_PRECONDITION, arc_strdupf("arc: %s", load_error));
}
static void fail_destroy(arc_pjrt_error_destroy_args *a) { error_destroy(NULL, a); }
static void fail_message(arc_pjrt_error_message_args *a) { error_message(NULL, a); }
static arc_pjrt_error *fail_code(arc_pjrt_error_code_args *a) { return error_get_code(NULL, a); }

const void *arc_proxy_error_api(const char *msg) {
  static arc_pjrt_api api;
  free(load_error);
  load_error = strdup(msg);
  api.struct_size = ARC_PJRT_STRUCT_SIZE(arc_pjrt_api, client_compile);
  api.pjrt_api_version.struct_size = ARC_PJRT_STRUCT_SIZE(arc_pjrt_version, minor_version);
  api.pjrt_api_version.major_version = 0;
  api.pjrt_api_version.minor_version = 1;
  api.error_destroy = fail_destroy;
  api.error_message = fail_message;
  api.error_get_code = fail_code;
  api.plugin_initialize = fail_call;
  api.plugin_attributes = fail_call;
  for (int i = 0; i < 5; i++) api.event_fns[i] = fail_call;
  api.client_create = (arc_pjrt_client_create_fn *)(void *)fail_call;
  api.client_destroy = (arc_pjrt_client_destroy_fn *)(void *)fail_call;
  api.client_platform_name = (void *)fail_call;
  api.client_process_index = (void *)fail_call;
  api.client_platform_version = fail_call;
  api.client_devices = (void *)fail_call;
  for (int i = 0; i < 4; i++) api.client_fns[i] = fail_call;
  api.client_compile = (arc_pjrt_compile_fn *)(void *)fail_call;
  return &api;
}
