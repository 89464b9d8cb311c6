/* arc_gpu.h: the C API of arc's all-reduce kernels (libarc_gpu.so).
 *
 * One communicator spans a set of local devices in one process; rank r runs
 * on devices[r]. A device may appear more than once ("logical ranks"), which
 * lets two GPUs test world sizes 4 and 8. Every rank must call
 * arc_allreduce with the same count, dtype, algo and codec, in the same order,
 * each on a stream of its own device. Numerics follow docs/FORMATS.md exactly.
 */
#ifndef ARC_GPU_H
#define ARC_GPU_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct arc_comm arc_comm;

typedef enum { ARC_F16 = 0, ARC_BF16 = 1, ARC_F32 = 2 } arc_dtype;

typedef enum { ARC_ONESHOT = 0, ARC_TWOSHOT = 1, ARC_HIER = 2 } arc_algo;

typedef enum {
  ARC_CODEC_NONE = 0, /* oneshot only */
  ARC_CODEC_FP = 1,
  ARC_CODEC_INT8 = 2,
  ARC_CODEC_INT6 = 3,
  ARC_CODEC_INT4 = 4,
  ARC_CODEC_INT4R = 5,
  ARC_CODEC_FP8 = 6
} arc_codec;

/* How ranks reach each other's buffers. */
typedef enum {
  ARC_LINK_PEER = 0, /* device memory mapped by peer access (NVLink, PCIe P2P) */
  ARC_LINK_HOST = 1  /* pinned, mapped host memory: no peer access needed */
} arc_link;

/* Flags for arc_allreduce. */
enum { ARC_CAST_BF16_TO_FP16 = 1 };

/* Return codes: 0 is success; others name an error (arc_error_string). */
enum {
  ARC_OK = 0,
  ARC_ERR_INVALID = 1,     /* bad argument */
  ARC_ERR_UNSUPPORTED = 2, /* algorithm/codec/world/dtype combination not supported */
  ARC_ERR_CUDA = 3,        /* the GPU runtime failed; arc_last_error has its message */
  ARC_ERR_TOO_LARGE = 4,   /* count exceeds the communicator's max_bytes */
  ARC_ERR_TIMEOUT = 5      /* a kernel gave up waiting for a peer (ARC_TIMEOUT_MS); the communicator is unusable */
};

/* arc_comm_create makes a communicator for world = ndevices ranks.
 * max_bytes bounds the largest all-reduce (0 picks the default, 256 MiB). */
int arc_comm_create(arc_comm **comm, const int *devices, int ndevices, arc_link link, size_t max_bytes);

/* arc_allreduce reduces count elements of in (device memory of rank's device)
 * into out (may equal in) on stream (a cudaStream_t / hipStream_t of that device).
 * Asynchronous: it only enqueues work; safe to capture in a CUDA graph. */
int arc_allreduce(arc_comm *comm, int rank, const void *in, void *out, size_t count, arc_dtype dtype,
                  arc_algo algo, arc_codec codec, int flags, void *stream);

int arc_comm_destroy(arc_comm *comm);

/* arc_comm_status reports ARC_ERR_TIMEOUT when a kernel of any rank gave up
 * waiting for a peer since the communicator was made (only with the
 * environment variable ARC_TIMEOUT_MS set when it was created; without it,
 * kernels wait forever, as NCCL does). Call it once the ranks' streams have
 * finished; it reads each rank's status word synchronously. */
int arc_comm_status(arc_comm *comm);

const char *arc_error_string(int code);
/* arc_last_error is the message of the calling thread's last failure. */
const char *arc_last_error(void);

#ifdef __cplusplus
}
#endif
#endif
