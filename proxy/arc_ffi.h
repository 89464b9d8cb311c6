/* arc_ffi.h: what libarc_gpu.so exports for XLA and for arc's PJRT proxy.
 *
 * arc_ffi_allreduce is the XLA typed-FFI handler (api_version 1) of the
 * "arc_allreduce" custom call that arc's CUDA and ROCm lowerings print:
 *
 *   "stablehlo.custom_call"(%x) {call_target_name = "arc_allreduce", api_version = 4 : i32,
 *     backend_config = {algo = "twoshot", ..., world = 2 : i64}, ...}
 *
 * Package decision writes the call in both its forms (decision/call.go)
 * and owns their backend_config keys, which docs/LOWERINGS.md lists; its
 * test checks that gpu/arc_ffi.cc reads exactly those, with each form's
 * operand and result counts, and the target name below.
 *
 * One operand, one result of the same type and shape (f16, bf16 or f32).
 * groups lists every group flattened, each of world ids (flattened process
 * ids, replica * num_partitions + partition); devices, when present, lists
 * the same groups as PJRT global device ids. A rank is the position of its
 * stream's device (its global id through the table of arc_runtime_attach;
 * without one, its ordinal) in its group of devices (or groups, for modules
 * without devices).
 *
 * The fused form (backend_config also has norm = "rmsnorm") takes three
 * operands, the all-reduce's, the residual x of the same type and the
 * weight w (row elements), and returns two results of the operand's type,
 * h = x + sum and the RMSNorm of h's rows (arc_allreduce_norm); its other
 * keys are the norm's recipe.
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

/* arc_ipc_info says whether arc's kernels can reach GPUs of other processes
 * (one process per GPU): their memory is shared by CUDA IPC handles. When ipc
 * is 0, reason says why, for a program to be lowered natively with it. Set
 * struct_size to sizeof(arc_ipc_info). What this cannot tell: whether another
 * process's GPU is reachable by peer access (that shows when its memory is
 * opened) and whether processes sharing one GPU run under MPS (without it each
 * flag handshake between them takes milliseconds). */
typedef struct arc_ipc_info {
  size_t struct_size;
  int ipc;
  char reason[256];
} arc_ipc_info;

#define ARC_DETECT_IPC_SYMBOL "arc_detect_ipc"
/* Returns 0 with info filled (ipc 0 or 1); otherwise an arc_gpu.h error code. */
ARC_FFI_EXPORT int arc_detect_ipc(arc_ipc_info *info);

/* ---- the runtime's view of the PJRT client (arc_runtime_attach) ----------
 *
 * The proxy wraps PJRT_Client_Create: once the real client exists it builds
 * this table from the PJRT device descriptions and hands it, with the
 * client's key-value store, to libarc_gpu.so, before any program runs
 * (cached executables included). The handler maps its stream's device
 * (local hardware id) to a global device id through it; lowered calls name
 * devices by global id. Ranks in other processes rendezvous through the
 * key-value store. Strings and arrays are copied by the callee. */

typedef struct arc_device_entry {
  long long global_id;   /* PJRT_DeviceDescription_Id: unique across all processes */
  int process_index;     /* PJRT_DeviceDescription_ProcessIndex */
  int local_hardware_id; /* PJRT_Device_LocalHardwareId (the CUDA ordinal); -1 when not addressable here */
  int slice_index;       /* the "slice_index" attribute (one per host on GPU), or -1 */
  int coords[4];         /* TPU: the "coords" attribute; ncoords = 0 elsewhere */
  int ncoords;
} arc_device_entry;

/* The client's key-value store, as PJRT_Client_Create received it. A NULL
 * function is absent. put fails when the key exists (the store has no
 * overwrite and no delete); get blocks up to timeout_ms. Both return 0 on
 * success or nonzero with *err (malloc'd). *value from get is malloc'd. */
typedef struct arc_kv_store {
  void *ctx;
  int (*put)(void *ctx, const char *key, size_t key_size, const char *value, size_t value_size, char **err);
  int (*get)(void *ctx, const char *key, size_t key_size, int timeout_ms, char **value, size_t *value_size,
             char **err);
  /* try_get: like get without waiting; returns 0 found, 1 not found, other: error. */
  int (*try_get)(void *ctx, const char *key, size_t key_size, char **value, size_t *value_size, char **err);
} arc_kv_store;

typedef struct arc_runtime_info {
  size_t struct_size; /* sizeof(arc_runtime_info) of the caller */
  int process_index;  /* PJRT_Client_ProcessIndex */
  int process_count;  /* distinct process indices among the devices */
  const char *platform; /* "cuda", "rocm", "tpu", ... */
  int ndevices;
  const arc_device_entry *devices; /* every device of the client, addressable or not */
  arc_kv_store kv;                 /* all NULL when the client got no store (one process) */
} arc_runtime_info;

#define ARC_RUNTIME_ATTACH_SYMBOL "arc_runtime_attach"
#define ARC_RUNTIME_DETACH_SYMBOL "arc_runtime_detach"
/* arc_runtime_attach records the client's view; returns 0 or an arc_gpu.h
 * error code (arc_ffi_device_error says why). A process may attach several
 * clients; a call names its devices by global id, which the most recent
 * attached client that holds them resolves. */
ARC_FFI_EXPORT int arc_runtime_attach(const arc_runtime_info *info);
/* arc_runtime_detach forgets the client attached with the same devices (at
 * PJRT_Client_Destroy, before the real client is destroyed: communicators
 * that met other processes through its key-value store close their memory
 * through it). */
ARC_FFI_EXPORT void arc_runtime_detach(const arc_runtime_info *info);

/* Device-runtime helpers of the handler (arc_ffi_device.cc); they keep
 * arc_ffi.cc free of CUDA/HIP headers so it can be tested on a CPU. */
int arc_ffi_stream_device(void *stream, int *device);
int arc_ffi_get_device(int *device);
int arc_ffi_set_device(int device);
/* Waits for the stream: 0 when it finished, 1 when it is being captured (not waited for), else an error. */
int arc_ffi_stream_wait(void *stream);
ARC_FFI_EXPORT const char *arc_ffi_device_error(void); /* message of the calling thread's last failure */

#ifdef __cplusplus
}
#endif
#endif
