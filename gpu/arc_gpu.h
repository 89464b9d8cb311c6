/* arc_gpu.h: the C API of arc's all-reduce kernels (libarc_gpu.so).
 *
 * A communicator spans world ranks; rank r runs on a device of this process
 * or of another process on the same host (arc_comm_create_config): through
 * CUDA IPC on the peer link, through POSIX shared memory on the host link. A device may appear more than once ("logical
 * ranks"), which lets one GPU test world sizes 2 to 8. Every rank must call
 * arc_allreduce with the same count, dtype, algo and codec, in the same order,
 * each on a stream of its own device; each call carries its sequence number
 * and that fingerprint, and a rank that sees a peer's call differ from its own
 * fails (ARC_ERR_MISMATCH). Numerics follow docs/FORMATS.md exactly.
 *
 * Failures are sticky: once a kernel of any rank timed out or saw a mismatch,
 * every kernel of the communicator skips its work and fills its output with
 * NaN, and arc_allreduce and arc_comm_status return the first failure's code
 * and message (arc_last_error) for every rank. Make a new communicator.
 */
#ifndef ARC_GPU_H
#define ARC_GPU_H

#include <stddef.h>

/* arc_dtype, arc_algo, arc_codec and arc_link, and their names: generated
 * from package abi's tables. */
#include "arc_vocab.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct arc_comm arc_comm;

/* Flags for arc_allreduce. */
enum { ARC_CAST_BF16_TO_FP16 = 1 };

/* Return codes: 0 is success; others name an error (arc_error_string). */
enum {
  ARC_OK = 0,
  ARC_ERR_INVALID = 1,     /* bad argument */
  ARC_ERR_UNSUPPORTED = 2, /* algorithm/codec/world/dtype combination not supported */
  ARC_ERR_CUDA = 3,        /* the GPU runtime failed; arc_last_error has its message */
  ARC_ERR_TOO_LARGE = 4,   /* count exceeds the communicator's max_bytes */
  ARC_ERR_TIMEOUT = 5,     /* a kernel gave up waiting for a peer; the communicator is unusable */
  ARC_ERR_MISMATCH = 6,    /* ranks made different calls (count, dtype, algo, codec or order); unusable */
  ARC_ERR_RENDEZVOUS = 7   /* ranks in other processes did not join, or joined with another plan */
};

/* The default limit of a kernel's wait for a peer, in milliseconds: ten
 * minutes, PyTorch's default for NCCL process groups, so that the first
 * call of a program may wait for a peer still compiling or loading. The
 * environment variable ARC_TIMEOUT_MS, read when a communicator is made,
 * overrides it; 0 waits forever. */
#define ARC_DEFAULT_TIMEOUT_MS 600000

/* arc_comm_config describes a communicator for arc_comm_create_config.
 * Set struct_size to sizeof(arc_comm_config); fields past a caller's size
 * read as zero. */
typedef struct arc_comm_config {
  size_t struct_size;
  int world;          /* ranks: 2, 4, 6 or 8 */
  const int *devices; /* [world]: rank r's local device ordinal, or -1 for a rank of another process */
  arc_link link;      /* either, with ranks of other processes too */
  size_t max_bytes;   /* the largest all-reduce; 0: 256 MiB */
  long long timeout_ms; /* kernel wait limit: < 0 ARC_TIMEOUT_MS or the default, 0 forever */
  const long long *ids; /* [world] or NULL: how messages name each rank's device (e.g. PJRT global ids);
                           NULL: the local ordinals */
  /* Ranks in other processes (some devices[r] < 0): they exchange CUDA IPC
   * handles of their exchange and flag memory (ARC_LINK_PEER), or the name of
   * one shared-memory segment holding every rank's (ARC_LINK_HOST, created by
   * rank 0's process, its name removed once every process mapped it),
   * through a key-value store under
   * key, which must be unique to this communicator in the job (include a
   * generation: the store has no overwrite and no delete), and the same in
   * every process. put fails when the key exists; get waits up to timeout_ms.
   * Both return 0, or nonzero with *err (malloc'd); *value from get is malloc'd. */
  const char *key;
  void *kv_ctx;
  int (*kv_put)(void *ctx, const char *key, size_t key_size, const char *value, size_t value_size, char **err);
  int (*kv_get)(void *ctx, const char *key, size_t key_size, int timeout_ms, char **value, size_t *value_size,
                char **err);
  long long rendezvous_ms; /* how long to wait for the other processes: <= 0 ARC_RENDEZVOUS_MS or the default
                              (ARC_DEFAULT_TIMEOUT_MS) */
} arc_comm_config;

/* arc_comm_create makes a communicator for world = ndevices ranks.
 * max_bytes bounds the largest all-reduce (0 picks the default, 256 MiB). */
int arc_comm_create(arc_comm **comm, const int *devices, int ndevices, arc_link link, size_t max_bytes);

/* arc_comm_create_config makes a communicator from a description; with ranks
 * in other processes it blocks until every process has joined (or fails with
 * ARC_ERR_RENDEZVOUS saying who did not, or whose plan differs). */
int arc_comm_create_config(arc_comm **comm, const arc_comm_config *config);

/* arc_allreduce reduces count elements of in (device memory of rank's device)
 * into out (may equal in) on stream (a cudaStream_t / hipStream_t of that device).
 * Asynchronous: it only enqueues work; safe to capture in a CUDA graph. */
int arc_allreduce(arc_comm *comm, int rank, const void *in, void *out, size_t count, arc_dtype dtype,
                  arc_algo algo, arc_codec codec, int flags, void *stream);

/* The fused kernels: the all-reduce, then h = residual + sum and each row's
 * norm, in one kernel (docs/KERNELS.md; reference/norm is the arithmetic,
 * bit for bit): RMSNorm, y = h * rsqrt(mean(h*h) + eps) * weight, or
 * LayerNorm, y = (h - mean(h)) * rsqrt(var + eps) * weight (+ bias), var the
 * mean of the squared deviations (ARC_NORM_KIND_LAYERNORM) or
 * max(0, mean(h*h) - mean(h)^2) (ARC_NORM_KIND_LAYERNORM_FAST). h is in the
 * I/O type, the norm in f32; a mean is a row's sum times or divided by
 * scale; the weight is applied in f32 before the convert back
 * (ARC_NORM_WEIGHT_F32) or after it, in the I/O type (ARC_NORM_WEIGHT_IO;
 * RMSNorm only), the bias in f32 after the weight. */
typedef enum { ARC_NORM_KIND_RMSNORM = 0, ARC_NORM_KIND_LAYERNORM = 1, ARC_NORM_KIND_LAYERNORM_FAST = 2 } arc_norm_kind;
typedef enum { ARC_NORM_MEAN_MUL = 0, ARC_NORM_MEAN_DIV = 1 } arc_norm_mean;
typedef enum { ARC_NORM_WEIGHT_F32 = 0, ARC_NORM_WEIGHT_IO = 1 } arc_norm_weight;

typedef struct arc_norm {
  const void *residual; /* count elements of the I/O type, on the rank's device */
  const void *weight;   /* row elements of the I/O type */
  void *y;              /* count elements: the normalised rows */
  size_t row;           /* elements of a row (the last dimension): count % row == 0; oneshot: row
                           bytes <= 64 KiB; twoshot: also row % 32 == 0 (rows are owned by one rank) */
  arc_norm_mean mean;
  float scale, eps;
  arc_norm_weight weight_mode;
  arc_norm_kind kind;
  const void *bias; /* row elements of the I/O type, or null: LayerNorm only */
  float init;       /* LayerNorm's row sum starts from it, +0 or -0: a row of -0s sums to it */
} arc_norm;

/* arc_allreduce_norm is arc_allreduce (oneshot or twoshot) that writes h =
 * residual + sum to out and the normalised rows to norm->y, on every rank
 * with its own residual. out must not alias in, the residual or y. */
int arc_allreduce_norm(arc_comm *comm, int rank, const void *in, void *out, size_t count, arc_dtype dtype,
                       arc_algo algo, arc_codec codec, int flags, const arc_norm *norm, void *stream);

/* arc_comm_destroy waits for the communicator's devices, and with ranks in
 * other processes on the peer link closes their memory and waits (briefly)
 * for them to close this process's before it frees it; on the host link it
 * unmaps the shared segment, which the peers' mappings keep alive. */
int arc_comm_destroy(arc_comm *comm);

/* arc_comm_release is arc_comm_destroy for a PJRT client that is going away,
 * whose key-value store may be gone already (JAX shuts its distributed client
 * down before it destroys the PJRT client: a store callback then crashes). It
 * says nothing through the store: it closes the peers' memory and leaves this
 * process's exported buffers to the driver, which frees them when the process
 * exits, since a peer may still map them. Local communicators, and those of
 * the host link (which say nothing through the store), are destroyed. */
int arc_comm_release(arc_comm *comm);

/* arc_comm_status reports the communicator's first failure (ARC_ERR_TIMEOUT,
 * ARC_ERR_MISMATCH) that a kernel of this process's ranks recorded or learnt
 * from a peer, with its message in arc_last_error, or ARC_OK. It does not
 * wait for the device: call it once the ranks' streams have finished to
 * know about their calls. */
int arc_comm_status(arc_comm *comm);

const char *arc_error_string(int code);
/* arc_last_error is the message of the calling thread's last failure. */
const char *arc_last_error(void);

#ifdef __cplusplus
}
#endif
#endif
