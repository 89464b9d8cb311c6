/* proxy.c: arc's PJRT proxy (proxy.h). */
#define _GNU_SOURCE
#include "proxy.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arc_ffi.h"
#include "arc_ffi_abi.h"
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

typedef struct proxy {
  int used;
  arc_proxy_config cfg; /* strings owned */
  const arc_pjrt_api *real;
  arc_pjrt_api *api; /* the copy handed to the client */
  pthread_mutex_t mu;
  int started;
  char *target;       /* resolved --target */
  char *target_err;   /* why no target could be found */
  char *register_err; /* why arc's handlers are not registered; NULL when they are or need not be */
  void *gpu_lib;
  int programs; /* programs seen, for dump names */
} proxy;

static proxy slots[ARC_PROXY_MAX];
static pthread_mutex_t slots_mu = PTHREAD_MUTEX_INITIALIZER;

static int set(const char *s) { return s != NULL && *s != '\0'; }
static char *dup_or_null(const char *s) { return set(s) ? strdup(s) : NULL; }

void arc_proxy_config_from_env(arc_proxy_config *c) {
  memset(c, 0, sizeof *c);
  c->plugin = getenv("ARC_PJRT_PLUGIN");
  c->settings.target = getenv("ARC_TARGET");
  c->settings.quant = getenv("ARC_QUANT");
  c->settings.profile = getenv("ARC_PROFILE");
  c->settings.force = getenv("ARC_FORCE");
  c->dump_dir = getenv("ARC_DUMP_DIR");
  const char *fb = getenv("ARC_FALLBACK");
  c->fallback_native = fb != NULL && strcmp(fb, "native") == 0;
  c->gpu_lib = getenv("ARC_GPU_LIB");
  c->mlir_to_text = getenv("ARC_MLIR_TO_TEXT");
  c->python = getenv("ARC_PYTHON");
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

/* target_for maps the devices' topology to arc's --target. */
static char *target_for(const arc_link_info *info, char **err) {
  if (strcmp(info->arch, "gfx942") == 0) return strdup("rocm:mi300x");
  if (strcmp(info->arch, "gfx950") == 0) return strdup("rocm:mi355x");
  if (strncmp(info->arch, "gfx", 3) == 0) {
    *err = arc_strdupf("arc has no target for AMD %s: set ARC_TARGET", info->arch);
    return NULL;
  }
  if (info->devices < 1) {
    *err = strdup("no GPU is visible to detect the target: set ARC_TARGET");
    return NULL;
  }
  if (info->nvlink) return strdup("cuda:nvlink");
  if (info->peer) return strdup("cuda:pcie");
  return strdup("cuda:pcie-nop2p");
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
  p->target = target_for(&info, &p->target_err);
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

/* start resolves the target and registers the handlers, once per proxy. */
static void start(proxy *p) {
  pthread_mutex_lock(&p->mu);
  if (!p->started) {
    const char *t = p->cfg.settings.target;
    if (!set(t) || strcmp(t, "auto") == 0) detect_target(p);
    else p->target = strdup(t);
    if (p->target != NULL && (strncmp(p->target, "cuda:", 5) == 0 || strncmp(p->target, "rocm:", 5) == 0))
      p->register_err = register_handlers(p);
    p->started = 1;
  }
  pthread_mutex_unlock(&p->mu);
}

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

static void dump(proxy *p, int n, const char *what, const char *data, size_t size) {
  if (!set(p->cfg.dump_dir)) return;
  char *name = arc_strdupf("%s/arc-%04d-%s", p->cfg.dump_dir, n, what);
  FILE *f = NULL;
  if (name != NULL && mkdirs(p->cfg.dump_dir) == 0) f = fopen(name, "wb");
  if (f == NULL || fwrite(data, 1, size, f) != size || fclose(f) != 0)
    fprintf(stderr, "arc: cannot write %s: %s\n", name ? name : p->cfg.dump_dir, strerror(errno));
  free(name);
}

static int is_bytecode(const char *code, size_t size) { return size >= 4 && memcmp(code, "ML\xefR", 4) == 0; }

/* uses_arc_kernels reports whether a program calls an arc_ custom call, in the generic or the pretty form. */
static int uses_arc_kernels(const char *text, size_t size) {
  return memmem(text, size, "call_target_name = \"arc_", 24) != NULL || memmem(text, size, "custom_call @arc_", 17) != NULL;
}

/* to_text turns MLIR bytecode (what JAX sends) into text with a converter program. */
static int to_text(proxy *p, const char *in, size_t size, char **out, size_t *out_size, char **err) {
  const arc_proxy_config *c = &p->cfg;
  char *script = NULL, *python = NULL, *e = NULL;
  int rc;
  if (set(c->mlir_to_text)) {
    char *argv[] = {"/bin/sh", "-c", (char *)c->mlir_to_text, NULL};
    rc = arc_run(argv, in, size, out, out_size, &e);
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
    char *argv[] = {python, script, NULL};
    rc = arc_run(argv, in, size, out, out_size, &e);
  }
  if (rc != 0) *err = arc_strdupf("converting MLIR bytecode to text: %s", e);
  free(e);
  free(script);
  free(python);
  return rc;
}

/* transform runs the pipeline on one program; it returns the text the real
 * compile gets (malloc'd) or NULL with *err set. */
static char *transform(proxy *p, int n, const char *code, size_t size, size_t *out_size, char **err) {
  char *text = NULL, *out = NULL;
  size_t text_size = size;
  if (is_bytecode(code, size)) {
    dump(p, n, "before.mlirbc", code, size);
    if (to_text(p, code, size, &text, &text_size, err) != 0) return NULL;
    code = text;
  }
  dump(p, n, "before.mlir", code, text_size);
  if (p->target == NULL) {
    *err = strdup(p->target_err ? p->target_err : "no target");
  } else {
    arc_settings s = p->cfg.settings;
    s.target = p->target;
    if (p->cfg.transform(p->cfg.transform_ctx, &s, code, text_size, &out, out_size, err) != 0) {
      if (*err == NULL) *err = strdup("the pipeline failed");
      out = NULL;
    } else if (p->register_err != NULL && uses_arc_kernels(out, *out_size)) {
      *err = strdup(p->register_err);
      free(out);
      out = NULL;
    }
  }
  free(text);
  return out;
}

static arc_pjrt_error *proxy_compile(proxy *p, arc_pjrt_compile_args *args) {
  const arc_pjrt_program *prog = args->program;
  if (prog == NULL || prog->format_size != 4 || memcmp(prog->format, "mlir", 4) != 0)
    return p->real->client_compile(args); /* HLO protos pass through */
  start(p);
  int n = __atomic_add_fetch(&p->programs, 1, __ATOMIC_RELAXED);
  char *err = NULL;
  size_t size = 0;
  char *out = transform(p, n, prog->code, prog->code_size, &size, &err);
  if (out == NULL) {
    dump(p, n, "error.txt", err, strlen(err));
    if (!p->cfg.fallback_native) {
      /* Also on stderr: a client may lose the error (JAX 0.11 crashed on one). */
      fprintf(stderr, "arc: %s\n", err);
      arc_pjrt_error *e = new_error(ARC_PJRT_INVALID_ARGUMENT, arc_strdupf("arc: %s", err));
      free(err);
      return e;
    }
    fprintf(stderr, "arc: %s; compiling the program unmodified (ARC_FALLBACK=native)\n", err);
    free(err);
    return p->real->client_compile(args);
  }
  dump(p, n, "after.mlir", out, size);

  /* The client's program struct may be newer (larger) than arc's declaration: copy it whole. */
  arc_pjrt_program *copy = calloc(1, prog->struct_size > sizeof *copy ? prog->struct_size : sizeof *copy);
  if (copy == NULL) abort();
  memcpy(copy, prog, prog->struct_size);
  copy->code = out;
  copy->code_size = size;
  args->program = copy;
  arc_pjrt_error *e = p->real->client_compile(args);
  args->program = prog;
  free(copy);
  free(out);
  return e;
}

/* Each slot has its own entry points: PJRT calls carry no user pointer. */
#define ARC_SLOT(i)                                                                                          \
  static arc_pjrt_error *compile_##i(arc_pjrt_compile_args *a) { return proxy_compile(&slots[i], a); }       \
  static void destroy_##i(arc_pjrt_error_destroy_args *a) { error_destroy(slots[i].real, a); }               \
  static void message_##i(arc_pjrt_error_message_args *a) { error_message(slots[i].real, a); }               \
  static arc_pjrt_error *code_##i(arc_pjrt_error_code_args *a) { return error_get_code(slots[i].real, a); }
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
  arc_pjrt_error_destroy_fn *destroy;
  arc_pjrt_error_message_fn *message;
  arc_pjrt_error_code_fn *code;
} entries[ARC_PROXY_MAX] = {
#define ARC_ENTRY(i) {compile_##i, destroy_##i, message_##i, code_##i}
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

const void *arc_proxy_open(const arc_proxy_config *c, char **err) {
  *err = NULL;
  if (c->transform == NULL) {
    *err = strdup("arc_proxy_open: no transform");
    return NULL;
  }
  const arc_pjrt_api *real = load_real(c->plugin, err);
  if (real == NULL) return NULL;
  arc_pjrt_api *api = malloc(real->struct_size > sizeof *api ? real->struct_size : sizeof *api);
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
  pthread_mutex_init(&p->mu, NULL);
  p->cfg = *c;
  p->cfg.plugin = strdup(c->plugin);
  p->cfg.settings.target = dup_or_null(c->settings.target);
  p->cfg.settings.quant = dup_or_null(c->settings.quant);
  p->cfg.settings.profile = dup_or_null(c->settings.profile);
  p->cfg.settings.force = dup_or_null(c->settings.force);
  p->cfg.dump_dir = dup_or_null(c->dump_dir);
  p->cfg.gpu_lib = dup_or_null(c->gpu_lib);
  p->cfg.mlir_to_text = dup_or_null(c->mlir_to_text);
  p->cfg.python = dup_or_null(c->python);
  p->cfg.home = dup_or_null(c->home);
  p->real = real;
  api->client_compile = entries[i].compile;
  api->error_destroy = entries[i].destroy;
  api->error_message = entries[i].message;
  api->error_get_code = entries[i].code;
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
  api.struct_size = sizeof api;
  api.pjrt_api_version.struct_size = ARC_PJRT_STRUCT_SIZE(arc_pjrt_version, minor_version);
  api.pjrt_api_version.major_version = 0;
  api.pjrt_api_version.minor_version = 1;
  api.error_destroy = fail_destroy;
  api.error_message = fail_message;
  api.error_get_code = fail_code;
  api.plugin_initialize = fail_call;
  api.plugin_attributes = fail_call;
  for (int i = 0; i < 5; i++) api.event_fns[i] = fail_call;
  for (int i = 0; i < 10; i++) api.client_fns[i] = fail_call;
  api.client_compile = (arc_pjrt_compile_fn *)(void *)fail_call;
  return &api;
}
