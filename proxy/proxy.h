/* proxy.h: arc's PJRT proxy, the C core of both runtime forms.
 *
 * arc_proxy_open loads a real PJRT plugin (dlopen + GetPjrtApi), copies its
 * PJRT_Api table by its struct_size (extension chain kept) and returns the
 * copy with PJRT_Client_Compile replaced: a program in format "mlir" goes
 * through a transform (arc's pipeline) and the real compile gets the result.
 * Before the first compile the proxy resolves the target (detecting the
 * topology through libarc_gpu.so when it is "auto") and, for GPU targets,
 * registers arc's FFI handlers through the plugin's GPU custom-call extension.
 *
 * The in-process form (arcgomlx) passes a Go transform; the standalone
 * plugin (standalone.c) passes one that runs the arc binary.
 */
#ifndef ARC_PROXY_H
#define ARC_PROXY_H

#include <stddef.h>

/* How arc rewrites programs; a NULL or empty string is unset. */
typedef struct arc_settings {
  const char *target;  /* arc --target; unset or "auto": detected from the devices */
  const char *quant;   /* arc --quant */
  const char *profile; /* arc --profile FILE.json */
  const char *force;   /* arc --force overrides, comma-separated INDEX=LOWERING[:CODEC] */
} arc_settings;

/* A transform runs arc's pipeline on program text for s->target (resolved,
 * never "auto"). It returns 0 with *out (malloc'd) and *out_size set, or
 * nonzero with *err (malloc'd) saying why. It may be called concurrently. */
typedef int arc_transform_fn(void *ctx, const arc_settings *s, const char *in, size_t in_size, char **out,
                             size_t *out_size, char **err);

typedef struct arc_proxy_config {
  const char *plugin;       /* the real PJRT plugin (ARC_PJRT_PLUGIN) */
  arc_settings settings;    /* ARC_TARGET, ARC_QUANT, ARC_PROFILE, ARC_FORCE */
  const char *dump_dir;     /* ARC_DUMP_DIR: each program before and after, numbered */
  int fallback_native;      /* ARC_FALLBACK=native: on a pipeline error compile the program unmodified */
  const char *gpu_lib;      /* ARC_GPU_LIB: path of libarc_gpu.so */
  const char *mlir_to_text; /* ARC_MLIR_TO_TEXT: shell command turning MLIR bytecode (stdin) into text */
  const char *python;       /* ARC_PYTHON: python with jaxlib, for the default bytecode converter */
  const char *home;         /* directory searched for libarc_gpu.so and arc_mlir_to_text.py */
  arc_transform_fn *transform;
  void *transform_ctx;
} arc_proxy_config;

/* arc_proxy_config_from_env fills c from the ARC_* environment variables;
 * the strings point into the environment. */
void arc_proxy_config_from_env(arc_proxy_config *c);

/* arc_proxy_open returns the proxy's PJRT_Api (never freed), or NULL with *err
 * (malloc'd) naming what is missing. A process may hold a few proxies at once
 * (ARC_PROXY_MAX); the config's strings are copied. */
#define ARC_PROXY_MAX 8
const void *arc_proxy_open(const arc_proxy_config *c, char **err);

/* arc_proxy_error_api returns a PJRT_Api whose every call fails with msg, for
 * a plugin entry point that must return a table even when loading failed. */
const void *arc_proxy_error_api(const char *msg);

#endif
