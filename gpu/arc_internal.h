/* arc_internal.h: what the C API (arc_gpu.cu) hands the kernels. */
#ifndef ARC_INTERNAL_H
#define ARC_INTERNAL_H

#include "arc_gpu.h"
#include "arc_port.h"

#define ARC_MAX_WORLD 8

/* A block of ARC_THREADS threads handles tiles of one 8-element atom per
 * thread; ARC_BLOCKS_PER_SM of them fit on a multiprocessor at once (the
 * launch bounds cap registers so), and the grid is sized for that. */
#define ARC_THREADS 256
#define ARC_BLOCKS_PER_SM 2
#define ARC_TILE_ELEMS (ARC_THREADS * 8)
#define ARC_TILE_BLOCKS (ARC_THREADS / 4)

/* Where one algorithm's regions lie in every rank's exchange memory (bytes)
 * and flags (uint32 index). Fixed for the communicator's life. A region is
 * [slot][block][cap]: slot = the sender (or half, parity), block = the kernel
 * block that owns those bytes, cap = one block's share at max_bytes. */
struct KernelLayout {
  uint64_t one_x, one_cap; /* oneshot: [parity 2][sender W][block] */
  uint64_t p1_x, p2_x, px_x, cap; /* twoshot/hier phases; px: [parity 2][half 2][block] */
  uint32_t one_f, p1_f, p2_f, px_f; /* flags: [sender][block], px: [block] */
};

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
  uint32_t *status;    /* this rank's error word: 1 after a timeout */
  char *x[ARC_MAX_WORLD];     /* every rank's exchange memory */
  uint32_t *f[ARC_MAX_WORLD]; /* every rank's flags */
  KernelLayout lay;
};

/* Launchers, one per algorithm (arc_oneshot.cu, arc_twoshot.cu, arc_hier.cu). */
gpuError_t arc_launch_oneshot(int dtype, const KernelArgs &a, int blocks, gpuStream_t s);
gpuError_t arc_launch_twoshot(int dtype, int codec, bool cast, const KernelArgs &a, int blocks, gpuStream_t s);
gpuError_t arc_launch_hier(int dtype, int codec, bool cast, const KernelArgs &a, int blocks, gpuStream_t s);

#endif
