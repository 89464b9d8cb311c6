/* arc_ffi.h: what libarc_gpu.so exports for XLA and for arc's PJRT proxy.
 *
 * arc_ffi_allreduce is the XLA typed-FFI handler (api_version 1) of the
 * "arc_allreduce" custom call that arc's CUDA and ROCm lowerings print:
 *
 *   "stablehlo.custom_call"(%x) {call_target_name = "arc_allreduce", api_version = 4 : i32,
 *     backend_config = {algo = "twoshot", cast = 0 : i64, codec = "int8",
 *                       groups = array<i64: 0, 1>, link = "peer", world = 2 : i64}, ...}
 *
 * One operand, one result of the same type and shape (f16, bf16 or f32). groups
 * lists every group flattened, each of world device ids (local device ordinals);
 * a rank is the position of its stream's device in its group.
 *
 * arc_detect_link describes how the local devices reach each other, so the proxy
 * can pick arc's --target when ARC_TARGET is unset or "auto".
 */
#ifndef ARC_FFI_H
#define ARC_FFI_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct XLA_FFI_Error;
struct XLA_FFI_CallFrame;

/* The proxy finds these with dlsym: keep them visible under -fvisibility=hidden. */
#if defined(__GNUC__)
#define ARC_FFI_EXPORT __attribute__((visibility("default")))
#else
#define ARC_FFI_EXPORT
#endif

/* The handler XLA calls; registered by the proxy through the plugin's GPU
 * custom-call extension under the name ARC_FFI_ALLREDUCE_TARGET. */
#define ARC_FFI_ALLREDUCE_TARGET "arc_allreduce"
#define ARC_FFI_ALLREDUCE_SYMBOL "arc_ffi_allreduce"
ARC_FFI_EXPORT struct XLA_FFI_Error *arc_ffi_allreduce(struct XLA_FFI_CallFrame *frame);

/* arc_link_info describes the local devices. */
typedef struct arc_link_info {
  int devices;   /* number of visible devices */
  int peer;      /* 1 when every pair of devices has peer access */
  int nvlink;    /* 1 when every pair is joined by NVLink (or xGMI on AMD) */
  char arch[32]; /* "sm_90", "gfx942", ...: the first device's architecture */
} arc_link_info;

#define ARC_DETECT_LINK_SYMBOL "arc_detect_link"
/* Returns 0 on success; otherwise an arc_gpu.h error code (arc_ffi_device_error says why). */
ARC_FFI_EXPORT int arc_detect_link(arc_link_info *info);

/* Device-runtime helpers of the handler (arc_ffi_device.cc); they keep
 * arc_ffi.cc free of CUDA/HIP headers so it can be tested on a CPU. */
int arc_ffi_stream_device(void *stream, int *device);
int arc_ffi_get_device(int *device);
int arc_ffi_set_device(int device);
ARC_FFI_EXPORT const char *arc_ffi_device_error(void); /* message of the calling thread's last failure */

#ifdef __cplusplus
}
#endif
#endif
