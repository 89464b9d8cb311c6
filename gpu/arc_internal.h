/* arc_internal.h: what the communicator (arc_comm.cc) hands the kernels, and
 * the device runtime it runs on (arc_gpu.cu; faked by gpu/ffitest, so
 * arc_comm.cc and arc_ffi.cc are tested on a CPU). */
#ifndef ARC_INTERNAL_H
#define ARC_INTERNAL_H

#include <string>

#include "arc_gpu.h"
#include "arc_port.h"

#define ARC_MAX_WORLD 8

/* A block of ARC_THREADS threads handles tiles of one 8-element atom per
 * thread; ARC_BLOCKS_PER_SM of them fit on a multiprocessor at once (the
 * launch bounds cap registers so), and the grid is sized for that. */
#define ARC_THREADS 256
#ifndef ARC_BLOCKS_PER_SM
#define ARC_BLOCKS_PER_SM 2
#endif
#define ARC_TILE_ELEMS (ARC_THREADS * 8)
#define ARC_TILE_BLOCKS (ARC_THREADS / 4)

/* A failure record: what a kernel writes once when it gives up or learns
 * that a peer did (in its rank's flag memory, where peers read it, and in
 * mapped host memory), what the host turns into a message. Words: */
enum {
  ARC_REC_KIND = 0,      /* 0 none; else ARC_ERR_TIMEOUT or ARC_ERR_MISMATCH (written last) */
  ARC_REC_RANKS = 1,     /* detecting rank | peer << 8 (the rank it waited for, or whose call differs)
                            | block << 16 (the kernel block that gave up) */
  ARC_REC_MINE = 2,      /* 3 words: the detecting rank's call header (block's epoch, fingerprint) */
  ARC_REC_THEIRS = 5,    /* 3 words: the peer's call header (mismatch only) */
  ARC_REC_WORDS = 8
};

/* A call's header: x = the block's epoch (the calls it took part in; for
 * block 0, in every call, the call's sequence number: 1 for the first), y =
 * count's low 32 bits, z = count's bits 32-47 | dtype << 16 | algo << 18 |
 * codec << 20 | cast << 23, w = the block. The kernel fills in x and w; y and
 * z are the call's fingerprint, desc_hash a 32-bit hash of it that flags carry. */
#define ARC_DESC_Z(count_hi, dtype, algo, codec, cast) \
  ((uint32_t)(count_hi) | (uint32_t)(dtype) << 16 | (uint32_t)(algo) << 18 | (uint32_t)(codec) << 20 | (uint32_t)(cast) << 23)

/* Where one algorithm's regions lie in every rank's exchange memory (bytes)
 * and flags (uint32 index). Fixed for the communicator's life. A region is
 * [slot][block][cap]: slot = the sender (or half, parity), block = the kernel
 * block that owns those bytes, cap = one block's share at max_bytes. */
struct KernelLayout {
  uint64_t one_x, one_cap; /* oneshot: [parity 2][sender W][block] */
  uint64_t p1_x, p2_x, px_x, cap; /* twoshot/hier phases; px: [parity 2][half 2][block] */
  /* Flags. Shared by every algorithm: call_f, [sender W][block], the flags
   * of each call's first exchange (oneshot's, twoshot's and hier's phase 1),
   * which every rank posts to every other, so that a rank facing a call of
   * another algorithm sees its header; then nflag flags in all, each 64 bits
   * (two words; epoch and fingerprint hash), the flags' headers
   * [parity 2][nflag] x 4 words at hdr_f, and the rank's failure record
   * (ARC_REC_WORDS) at abort_f. Indices are of 64-bit flags. Per algorithm: p2_f [sender][block]
   * (twoshot: [rank], hier: [member of the half]), px_f [block]. */
  uint32_t call_f, p2_f, px_f;
  uint32_t nflag, hdr_f, abort_f;
};

/* Words of a rank's device state (KernelArgs::state): failed is set once,
 * by the rank's first block that gives up or adopts a peer's failure. */
enum { ARC_ST_FAILED = 0, ARC_ST_BAR_COUNT = 1, ARC_ST_BAR_GEN = 2, ARC_ST_WORDS = 4 };

/* The fused kernels' norm (arc_fused.cu; arc_gpu.h's arc_norm): out is h,
 * y the normalised rows; null y: no norm. */
struct NormArgs {
  const void *res, *w, *b; /* b: the bias, or null */
  void *y;
  uint64_t row;  /* elements of a row */
  float scale, eps, init; /* init: LayerNorm's row sum's, +0 or -0 */
  int mean, wmode, kind;  /* arc_norm_mean, arc_norm_weight, arc_norm_kind */
};

/* Bit 24 of a call's header word z marks a fused call, bits 25-31 hash its
 * norm (row, mean, weight, constants): ranks that fuse differently differ. */
#define ARC_DESC_FUSED (1u << 24)

struct KernelArgs {
  const void *in;
  void *out;
  uint64_t n; /* elements */
  int rank, world;
  int grid; /* the communicator's blocks per rank: the stride of region and flag slots */
  int vec;  /* in and out are 16-byte aligned */
  uint64_t timeout_ns; /* 0: wait for peers forever */
  int nowait;          /* profiling only: never wait for a peer (ARC_DEBUG_NOWAIT; results are wrong) */
  uint32_t *epochs;    /* this rank's per-block call counters */
  uint32_t *state;     /* this rank's device words (ARC_ST_*) */
  uint32_t *record;    /* this rank's failure record (ARC_REC_WORDS), mapped host memory the host reads */
  uint32_t desc_y, desc_z, desc_hash; /* this call's fingerprint (header words y, z) and its hash */
  char *x[ARC_MAX_WORLD];     /* every rank's exchange memory */
  uint32_t *f[ARC_MAX_WORLD]; /* every rank's flags */
  KernelLayout lay;
  NormArgs norm;
};

/* ---- the device runtime (arc_gpu.cu) ----
 * Each returns ARC_OK or an arc_gpu.h code with arc_set_error's message. */
int arc_set_error(int code, const std::string &msg);

struct arc_ipc_handle {
  unsigned char bytes[64];
};

int arc_dev_count(int *n);
/* The device's PCI bus id (ranks of one GPU in different processes share it) and multiprocessors. */
int arc_dev_describe(int dev, char *bus, size_t bus_size, int *sms);
/* Blocks of arc's kernels that fit on one multiprocessor at once. */
int arc_dev_blocks_per_sm(void);
int arc_dev_get(int *dev);
int arc_dev_set(int dev);
/* Relaxes the calling thread's stream-capture mode (XLA may be recording a
 * command buffer on it) and returns the old one, for arc_dev_restore_capture. */
int arc_dev_relax_capture(void);
void arc_dev_restore_capture(int mode);
/* Peer access from a to b, reference-counted per ordered pair. */
int arc_dev_peer_acquire(int a, int b);
void arc_dev_peer_release(int a, int b);
/* Loads every kernel on dev (see arc_gpu.cu). */
int arc_dev_preload(int dev);
/* Memory peers reach, zeroed if asked: device memory (ARC_LINK_PEER) or mapped, pinned host memory (ARC_LINK_HOST). */
int arc_dev_alloc_shared(int dev, arc_link link, size_t bytes, bool zero, void **p);
void arc_dev_free_shared(int dev, arc_link link, void *p);
/* Zeroed device memory of dev. */
int arc_dev_alloc(int dev, size_t bytes, void **p);
void arc_dev_free(int dev, void *p);
/* Zeroed, pinned host memory every device maps at the same address, which
 * stays readable until the process ends (the watchdog reads it). */
int arc_dev_alloc_host(size_t bytes, void **p);
void arc_dev_free_host(void *p);
/* Host memory mapped from elsewhere (arc_shm_*: a shared-memory segment other
 * processes map too), pinned and mapped for every device as
 * arc_dev_alloc_shared's host memory is; *dev is the address kernels use,
 * the same under unified addressing (anything else is refused). */
int arc_dev_host_register(void *p, size_t bytes, void **dev);
void arc_dev_host_unregister(void *p);
/* CUDA IPC of device memory from arc_dev_alloc_shared. */
int arc_dev_ipc_export(int dev, void *p, arc_ipc_handle *h);
int arc_dev_ipc_open(int dev, const arc_ipc_handle *h, void **p); /* lazy peer access */
void arc_dev_ipc_close(int dev, void *p);
int arc_dev_synchronize(int dev);
/* Launches one call's kernel (blocks > 0) on stream, with dev current. */
int arc_dev_launch(int dev, int algo, int dtype, int codec, bool cast, const KernelArgs &a, int blocks, void *stream);

/* ---- POSIX shared memory (arc_shm.cc): the host-staged link across processes ----
 * A segment every process of a group maps: rank 0's process creates it
 * (O_CREAT | O_EXCL, mode 0600, its space reserved up front), the others open
 * it by the name they read from the key-value store, and the name is removed
 * as soon as every process mapped it, so the memory lives only as long as the
 * mappings. Each returns ARC_OK or ARC_ERR_RENDEZVOUS with arc_set_error's message. */
struct arc_shm {
  std::string name; /* while the segment is linked under it (/dev/shm/...), else "" */
  void *base = nullptr;
  size_t bytes = 0;
};
/* Creates and maps a zeroed segment of bytes named from key, this process's
 * pid and a random nonce: a name no other live or dead process used. */
int arc_shm_create(arc_shm *s, const std::string &key, size_t bytes);
/* Maps the segment name: a regular file of this user, of bytes exactly,
 * that no one else can open. */
int arc_shm_open(arc_shm *s, const std::string &name, size_t bytes);
/* Removes the name (mappings stay); nothing once removed. */
void arc_shm_unlink(arc_shm *s);
/* Unmaps the segment. */
void arc_shm_unmap(arc_shm *s);
/* Whether name is one arc_shm_create makes: "/arc-", then [A-Za-z0-9._-]. */
bool arc_shm_name_ok(const std::string &name);

#if !ARC_HOST
/* Launchers, one per algorithm (arc_oneshot.cu, arc_twoshot.cu, arc_hier.cu). */
gpuError_t arc_launch_oneshot(int dtype, const KernelArgs &a, int blocks, gpuStream_t s);
gpuError_t arc_launch_twoshot(int dtype, int codec, bool cast, const KernelArgs &a, int blocks, gpuStream_t s);
gpuError_t arc_launch_hier(int dtype, int codec, bool cast, const KernelArgs &a, int blocks, gpuStream_t s);
/* The fused kernels (arc_fused.cu): oneshot or twoshot, then the norm of a.norm. */
gpuError_t arc_launch_fused(int algo, int dtype, int codec, bool cast, const KernelArgs &a, int blocks, gpuStream_t s);
#endif

#endif
