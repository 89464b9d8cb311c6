/* proxy.h: arc's PJRT proxy, the C core of both runtime forms.
 *
 * arc_proxy_open loads a real PJRT plugin (dlopen + GetPjrtApi), copies its
 * PJRT_Api table by its struct_size (extension chain kept) and returns the
 * copy with PJRT_Client_Create, PJRT_Client_Destroy and PJRT_Client_Compile
 * replaced.
 *
 * At client creation the proxy resolves the target (detecting the topology
 * through libarc_gpu.so when it is "auto"), registers arc's FFI handlers
 * through the plugin's GPU custom-call extension for GPU targets, builds the
 * client's device table (global id, process, local hardware id, slice, TPU
 * coordinates) and hands it, with the client's key-value store, to
 * libarc_gpu.so (arc_runtime_attach). Executables that never pass
 * PJRT_Client_Compile (JAX's persistent cache, deserialized ones) so find
 * arc's handlers too.
 *
 * At compile a program in format "mlir" that mentions no all-reduce passes
 * through untouched; one that does goes through a transform (arc's pipeline)
 * with the device assignment read from the compile options, and the real
 * compile gets the result. Either way the proxy takes arc's own compiler
 * options (keys arc_NAME) out of the compile options, which XLA would refuse,
 * and hands them to the transform.
 *
 * The in-process form (arcgomlx) passes a Go transform; the standalone
 * plugin (standalone.c) passes one that runs the arc binary.
 */
#ifndef ARC_PROXY_H
#define ARC_PROXY_H

#include <stddef.h>

/* How arc rewrites one program; a NULL or empty string is unset. The proxy
 * knows only what it needs itself: the target (to register arc's kernels)
 * and what each compile brings. Every other option is the transform's: it
 * reads the ARC_* variables, then the program's own settings over them. */
typedef struct arc_settings {
  const char *target; /* arc --target; unset or "auto": detected from the devices */
  /* Per compile, from the compile options and the client's devices: */
  const char *program;           /* the program's arc_NAME compiler options, "NAME=VALUE\n" lines (arc compile's flag names) */
  const char *device_assignment; /* "a,b;c,d": replicas by ';', partitions by ',', PJRT global ids */
  const char *device_coords;     /* TPU: "ID=X,Y,Z;ID=X,Y,Z..." for every device of the client */
  const char *device_processes;  /* "ID=P;ID=P..." for every device of a client of several processes */
} arc_settings;

/* A transform runs arc's pipeline on program text for s->target (resolved,
 * never "auto"). It returns 0 with *out (malloc'd) and *out_size set, or
 * nonzero with *err (malloc'd) saying why. It may be called concurrently. */
typedef int arc_transform_fn(void *ctx, const arc_settings *s, const char *in, size_t in_size, char **out,
                             size_t *out_size, char **err);

typedef struct arc_proxy_config {
  const char *plugin;       /* the real PJRT plugin (ARC_PJRT_PLUGIN) */
  arc_settings settings;    /* ARC_TARGET */
  const char *dump_dir;     /* ARC_DUMP_DIR: each program before and after, numbered */
  int fallback_native;      /* ARC_FALLBACK=native: on a pipeline error compile the program unmodified */
  const char *gpu_lib;      /* ARC_GPU_LIB: path of libarc_gpu.so */
  const char *mlir_to_text; /* ARC_MLIR_TO_TEXT: shell command turning MLIR bytecode (stdin) into text */
  const char *python;       /* ARC_PYTHON: python with jaxlib, for the default bytecode converter */
  const char *home;         /* directory searched for libarc_gpu.so and arc_mlir_to_text.py */
  int timeout_ms;           /* ARC_COMPILE_TIMEOUT_MS: limit of each child's work per compile; 0: none */
  arc_transform_fn *transform;
  void *transform_ctx;
} arc_proxy_config;

#define ARC_COMPILE_TIMEOUT_MS_DEFAULT 120000

/* arc_proxy_config_from_env fills c from the ARC_* environment variables;
 * the strings point into the environment. */
void arc_proxy_config_from_env(arc_proxy_config *c);

/* arc_proxy_open returns the proxy's PJRT_Api (never freed), or NULL with *err
 * (malloc'd) naming what is missing. A process may hold a few proxies at once
 * (ARC_PROXY_MAX); the config's strings are copied. */
#define ARC_PROXY_MAX 8
const void *arc_proxy_open(const arc_proxy_config *c, char **err);

/* arc_detect_target returns the --target the visible devices call for, as
 * ARC_TARGET=auto picks it, asking libarc_gpu.so (ARC_GPU_LIB, else the one
 * in home, else the loader's): malloc'd, or NULL with *err (malloc'd). */
char *arc_detect_target(const char *home, char **err);

/* arc_mentions_collective reports whether a program (MLIR text or
 * bytecode, whose strings hold every op name) may hold an all-reduce or
 * already calls arc's kernels: only those go through arc. */
int arc_mentions_collective(const char *code, size_t size);

/* libtpu reads LIBTPU_INIT_ARGS when its client starts: for a TPU target
 * arc_proxy_open adds ARC_LIBTPU_RING_FLAG (tpu.LibtpuRingFlag in Go) before
 * it loads the plugin. The targets' facts: generated from their packages. */
#include "arc_targets.h"

/* arc_merge_libtpu_args returns (malloc'd) existing with flag added in
 * front, unless existing already sets that flag in any form absl reads
 * (--name, -name, --name=..., --noname, before a bare "--") or flag is not
 * one flag; then existing unchanged. As tpu.MergeLibtpuArgs does. */
char *arc_merge_libtpu_args(const char *existing, const char *flag);

/* arc_proxy_error_api returns a PJRT_Api whose every call fails with msg, for
 * a plugin entry point that must return a table even when loading failed. */
const void *arc_proxy_error_api(const char *msg);

#endif
