/* kbench: arc's all-reduce kernels against NCCL, in one process.
 *
 *   build/kbench [--link peer|host] [--world N] [--devices D,D,...] [--min BYTES]
 *                [--max BYTES] [--dtypes f16,bf16] [--reps R] [--only LOWERING,...]
 *                [--fill uniform|normal]
 *
 * For each dtype, size (powers of two from --min to --max) and lowering it
 * prints a CSV row (header first) on stdout:
 *
 *   link,world,dtype,bytes,lowering,mode,us,algbw_GBps,busbw_GBps,vs_nccl
 *
 * Lowerings: nccl (eager launches, as nccl-tests), nccl-graph (the same calls
 * captured in a CUDA graph, when NCCL allows it), nccl-symm and
 * nccl-symm-graph (both again on buffers from ncclMemAlloc registered as
 * symmetric windows, ncclCommWindowRegister with NCCL_WIN_COLL_SYMMETRIC,
 * NCCL 2.27+: NCCL's symmetric kernels, what XLA's
 * --xla_gpu_experimental_enable_nccl_symmetric_buffers asks for), oneshot,
 * twoshot-<codec>, hier-<codec> (--only lists those to run; without nccl,
 * NCCL is not run, as under ncu, which serializes kernels and would hang
 * NCCL's). arc's calls are timed in a captured graph of K calls per rank.
 * us is the median over --reps repetitions of (the slowest rank's CUDA-event
 * time for K calls) / K. algbw = bytes / us, busbw = algbw * 2(W-1)/W (as
 * nccl-tests), vs_nccl = the faster of nccl and nccl-graph's time / this
 * time. When the windows cannot be registered (older NCCL, no peer access),
 * kbench says why on stderr and prints no nccl-symm rows.
 * With --link host arc uses pinned host memory; run NCCL the same way with
 * NCCL_P2P_DISABLE=1 in the environment. --devices places rank r on the r-th
 * device listed (logical ranks: "0,0" is world 2 on one GPU, a figure of the
 * kernels' own cost, not of any link); NCCL refuses ranks sharing a GPU, so
 * name it in --only only with distinct devices. "launch" in --only (never
 * by default) adds a row of empty kernels of oneshot's grid, timed the same
 * way: a call's fixed cost before it moves a byte. Inputs are uniform in
 * [-4, 4) (arc_test_fill), or N(0, 1) with --fill normal: int4r's work
 * depends on the modes its blocks take, which depend on the values.
 *
 * floor_us is the HBM floor of the call: the bytes an arc lowering must move
 * through a rank's memory (read and written; hbm_bytes, docs/KERNELS.md),
 * times the ranks that share the device, over the device-to-device copy
 * bandwidth of cudaMemcpy measured on that device at the start of the run
 * (stderr: "copy bandwidth"); x_floor = us / floor_us. NCCL's rows have
 * neither (0). Logical ranks share one device's memory, so their floor
 * counts every rank's bytes. With --link host the floor is the larger of
 * that and the PCIe floor: the words a rank pushes (pcie_bytes), each way,
 * times the ranks on the device, over the least of cudaMemcpy's pinned
 * host-to-device and device-to-host bandwidths, alone and with both ways at
 * once (stderr: "PCIe bandwidth"): the two ways overlapping at best.
 *
 * --row N (the fused kernels, docs/KERNELS.md): for each of arc's oneshot
 * and twoshot lowerings L, two more rows: L+rmsnorm, the fused kernel
 * (arc_allreduce_norm: the all-reduce, the residual add and the RMSNorm of
 * rows of N elements in one kernel), and L-then-rmsnorm, the all-reduce
 * followed by the residual add and RMSNorm as a kernel of their own (one
 * block per row: what a compiler that cannot fuse across the collective
 * runs). Sizes are rounded down to whole rows.
 */
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <nccl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <string>
#include <vector>

#include "arc_gpu.h"
#include "arc_gpu_test.h"

#define CK(x)                                                                                      \
  do {                                                                                             \
    cudaError_t e_ = (x);                                                                          \
    if (e_ != cudaSuccess) {                                                                       \
      fprintf(stderr, "kbench: %s: %s (%s:%d)\n", #x, cudaGetErrorString(e_), __FILE__, __LINE__); \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)
#define NK(x)                                                                                      \
  do {                                                                                             \
    ncclResult_t r_ = (x);                                                                         \
    if (r_ != ncclSuccess) {                                                                       \
      fprintf(stderr, "kbench: %s: %s (%s:%d)\n", #x, ncclGetErrorString(r_), __FILE__, __LINE__); \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)
#define AK(x)                                                                           \
  do {                                                                                  \
    int r_ = (x);                                                                       \
    if (r_ != ARC_OK) {                                                                 \
      fprintf(stderr, "kbench: %s: %s (%s:%d)\n", #x, arc_last_error(), __FILE__, __LINE__); \
      exit(1);                                                                          \
    }                                                                                   \
  } while (0)

struct Lowering {
  std::string name;
  int algo, codec; /* algo < 0: NCCL */
  int norm = 0;    /* 1: the fused kernel; 2: the all-reduce, then norm_kernel */
};

/* The residual add and RMSNorm as a kernel of their own, after the
 * all-reduce: one block per row, the sum of squares in f32 (the baseline
 * of the fused kernels, not their arithmetic). */
template <class T>
__device__ float to_f(T v) { return (float)v; }
template <>
__device__ float to_f(__half v) { return __half2float(v); }
template <>
__device__ float to_f(__nv_bfloat16 v) { return __bfloat162float(v); }
template <class T>
__device__ T from_f(float v) { return (T)v; }
template <>
__device__ __half from_f(float v) { return __float2half_rn(v); }
template <>
__device__ __nv_bfloat16 from_f(float v) { return __float2bfloat16_rn(v); }

template <class T>
__global__ void norm_kernel(const T *sum, const T *res, const T *w, T *h, T *y, size_t row, float eps) {
  __shared__ float part[256];
  const size_t base = (size_t)blockIdx.x * row;
  float ss = 0.0f;
  for (size_t j = threadIdx.x; j < row; j += blockDim.x) {
    T hv = from_f<T>(to_f(res[base + j]) + to_f(sum[base + j]));
    h[base + j] = hv;
    float a = to_f(hv);
    ss += a * a;
  }
  part[threadIdx.x] = ss;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if ((int)threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  const float k = rsqrtf(part[0] / (float)row + eps);
  for (size_t j = threadIdx.x; j < row; j += blockDim.x) y[base + j] = from_f<T>(to_f(h[base + j]) * k * to_f(w[j]));
}

static void launch_norm(int dtype, const void *sum, const void *res, const void *w, void *h, void *y, size_t count,
                        size_t row, cudaStream_t s) {
  const unsigned rows = (unsigned)(count / row);
  if (dtype == ARC_F32)
    norm_kernel<float><<<rows, 256, 0, s>>>((const float *)sum, (const float *)res, (const float *)w, (float *)h, (float *)y, row, 1e-5f);
  else if (dtype == ARC_BF16)
    norm_kernel<__nv_bfloat16><<<rows, 256, 0, s>>>((const __nv_bfloat16 *)sum, (const __nv_bfloat16 *)res,
                                                    (const __nv_bfloat16 *)w, (__nv_bfloat16 *)h, (__nv_bfloat16 *)y, row, 1e-5f);
  else
    norm_kernel<__half><<<rows, 256, 0, s>>>((const __half *)sum, (const __half *)res, (const __half *)w, (__half *)h,
                                             (__half *)y, row, 1e-5f);
}

/* Bytes on the wire per 2048 elements (a tile) over their bytes in the I/O
 * type: a tile's codec blocks (arc_vocab.h), codes then scales. */
static double wire_ratio(int codec, size_t es) {
  const double raw = 2048.0 * es;
  const int block = arc_codec_block_bytes(codec);
  if (block == 0) return 1.0; /* fp: the values themselves */
  return (2048 / ARC_CODEC_BLOCK * block) / raw;
}

/* The bytes one rank's kernel must move through its device's memory, read
 * and written, for an all-reduce of S bytes (docs/KERNELS.md, "The HBM
 * floor"): its input read once, its output written once, every word it
 * pushes written once where it lands and read once there. The own input
 * that oneshot reads twice, and the exchange words that may stay in L2,
 * count once. */
static double hbm_bytes(const Lowering &l, int world, size_t es, double S, size_t row) {
  const double W = world, q = wire_ratio(l.codec, es);
  double b;
  if (l.algo == ARC_ONESHOT) b = 2 * W * S;                          /* in, W-1 copies out and in, out */
  else if (l.algo == ARC_TWOSHOT) b = 2 * S + 4 * (W - 1) / W * q * S; /* two exchanges of (W-1)/W of the words */
  else b = 2 * S + 4 * q * S;                                          /* hier: half, partner and half exchanges */
  const double w = (double)row * es;                                    /* the norm's weight */
  if (l.norm == 1) b += 2 * S + w;                                      /* residual read, y written (h is the output) */
  if (l.norm == 2) b += 4 * S + w;                                      /* sum and residual read, h and y written */
  return b;
}

/* The bytes one rank's kernel must carry over PCIe with --link host, each
 * way: every word it pushes is written to pinned host memory and read back
 * by the rank it is for (docs/KERNELS.md, "The PCIe floor"). The exchanges
 * of hbm_bytes are these words, written and read. */
static double pcie_bytes(const Lowering &l, int world, size_t es, double S) {
  const double W = world, q = wire_ratio(l.codec, es);
  if (l.algo == ARC_ONESHOT) return (W - 1) * S;
  if (l.algo == ARC_TWOSHOT) return 2 * (W - 1) / W * q * S;
  return 2 * q * S;
}

__global__ void empty_kernel() {} /* the launch row */

/* --fill normal: N(0, 1) values (Box-Muller of two splitmix64 draws), what
 * a codec whose work depends on the data (int4r's modes) meets in a model;
 * the default is arc_test_fill's uniform values in [-4, 4). */
template <class T>
__global__ void normal_fill(T *p, size_t n, unsigned long long seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    unsigned long long z = (i + 1) * 0x9E3779B97F4A7C15ull ^ seed;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    const float u1 = ((float)(z >> 40) + 1.0f) / 16777217.0f, u2 = (float)(z & 0xFFFFFFu) / 16777216.0f;
    p[i] = from_f<T>(sqrtf(-2.0f * logf(u1)) * cospif(2.0f * u2));
  }
}

struct Bench {
  int world;
  int link;
  int reps = 11;
  std::vector<int> dev;
  std::vector<cudaStream_t> s;
  std::vector<cudaEvent_t> start, stop;
  std::vector<void *> in, out, res, wgt, h, y; /* res, wgt, h, y: --row */
  size_t row = 0;
  std::vector<void *> sym_in, sym_out; /* ncclMemAlloc'd, registered as symmetric windows */
  std::vector<ncclComm_t> nccl;
  arc_comm *comm = nullptr;

  std::vector<double> copy_gbps; /* per rank: its device's cudaMemcpy bandwidth, GB/s (read + written) */
  /* --link host: cudaMemcpy between pinned host memory and the device, GB/s:
   * host to device alone, device to host alone, each way when both run */
  std::vector<double> h2d_gbps, d2h_gbps, both_gbps;

  /* The device-to-device copy bandwidth of cudaMemcpy on device d: bytes
   * read plus bytes written per second, median of reps batches of 10
   * copies of 256 MiB (several times the L2). */
  double copy_bandwidth(int d) {
    const size_t bytes = 256u << 20;
    void *src = nullptr, *dst = nullptr;
    cudaStream_t st;
    cudaEvent_t e0, e1;
    CK(cudaSetDevice(d));
    CK(cudaMalloc(&src, bytes));
    CK(cudaMalloc(&dst, bytes));
    CK(cudaMemset(src, 0x3c, bytes));
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    CK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, st)); /* warm up */
    std::vector<double> gbps;
    for (int rep = 0; rep < std::max(reps, 5); rep++) {
      CK(cudaEventRecord(e0, st));
      for (int i = 0; i < 10; i++) CK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, st));
      CK(cudaEventRecord(e1, st));
      CK(cudaEventSynchronize(e1));
      float ms = 0;
      CK(cudaEventElapsedTime(&ms, e0, e1));
      gbps.push_back(2.0 * bytes * 10 / (ms * 1e-3) / 1e9);
    }
    std::sort(gbps.begin(), gbps.end());
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
    CK(cudaStreamDestroy(st));
    CK(cudaFree(src));
    CK(cudaFree(dst));
    return gbps[gbps.size() / 2];
  }

  /* cudaMemcpy's bandwidth between pinned host memory and device d: each
   * way alone, and both ways at once (each way's share; two streams), the
   * median of reps batches of 10 copies of 64 MiB each way. */
  void pcie_bandwidth(int d, double *h2d, double *d2h, double *both) {
    const size_t bytes = 64u << 20;
    void *host[2] = {}, *buf[2] = {};
    cudaStream_t st[2];
    cudaEvent_t e0, e1, e2;
    CK(cudaSetDevice(d));
    for (int i = 0; i < 2; i++) {
      CK(cudaHostAlloc(&host[i], bytes, cudaHostAllocPortable));
      CK(cudaMalloc(&buf[i], bytes));
      memset(host[i], 0x3c, bytes);
      CK(cudaStreamCreateWithFlags(&st[i], cudaStreamNonBlocking));
    }
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    CK(cudaEventCreate(&e2));
    /* way 0: host to device on stream 0; way 1: device to host on stream 1 */
    auto copies = [&](int way) {
      for (int i = 0; i < 10; i++)
        CK(way == 0 ? cudaMemcpyAsync(buf[0], host[0], bytes, cudaMemcpyHostToDevice, st[0])
                    : cudaMemcpyAsync(host[1], buf[1], bytes, cudaMemcpyDeviceToHost, st[1]));
    };
    for (int mode = 0; mode < 3; mode++) { /* 0, 1: one way alone; 2: both */
      std::vector<double> gbps;
      for (int rep = -1; rep < std::max(reps, 5); rep++) { /* rep -1 warms up */
        CK(cudaEventRecord(e0, st[0]));
        CK(cudaStreamWaitEvent(st[1], e0, 0));
        if (mode != 1) copies(0);
        if (mode != 0) copies(1);
        CK(cudaEventRecord(e1, st[0]));
        CK(cudaEventRecord(e2, st[1]));
        CK(cudaEventSynchronize(e1));
        CK(cudaEventSynchronize(e2));
        float ms0 = 0, ms1 = 0;
        CK(cudaEventElapsedTime(&ms0, e0, e1));
        CK(cudaEventElapsedTime(&ms1, e0, e2));
        if (rep >= 0) gbps.push_back((double)bytes * 10 / (std::max(ms0, ms1) * 1e-3) / 1e9);
      }
      std::sort(gbps.begin(), gbps.end());
      *(mode == 0 ? h2d : mode == 1 ? d2h : both) = gbps[gbps.size() / 2];
    }
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
    CK(cudaEventDestroy(e2));
    for (int i = 0; i < 2; i++) {
      CK(cudaStreamDestroy(st[i]));
      CK(cudaFree(buf[i]));
      CK(cudaFreeHost(host[i]));
    }
  }

  /* The floor of a call whose ranks each move `bytes` through their
   * device's memory and `pcie` each way over its PCIe link (--link host):
   * the slowest device, counting every rank it holds. Over PCIe the two
   * ways may overlap at best, each at its rate when both run. */
  double floor_us(double bytes, double pcie) {
    double worst = 0;
    for (int r = 0; r < world; r++) {
      int shared = 0;
      for (int q = 0; q < world; q++) shared += dev[q] == dev[r];
      worst = std::max(worst, shared * bytes / (copy_gbps[r] * 1e3));
      if (link == ARC_LINK_HOST) {
        const double way = std::min({h2d_gbps[r], d2h_gbps[r], both_gbps[r]});
        worst = std::max(worst, shared * pcie / (way * 1e3));
      }
    }
    return worst;
  }

  /* calls per timed batch: enough to dwarf launch gaps, few for large sizes */
  static int batch(size_t bytes) { return bytes <= (1u << 20) ? 50 : bytes <= (16u << 20) ? 20 : 5; }

  /* Times `enqueue` (K calls on every rank) reps times; returns the median of
   * the slowest rank's time per call, in microseconds. */
  template <class F>
  double timed(int k, F enqueue) {
    enqueue(); /* warm up */
    sync();
    std::vector<double> per_call;
    for (int rep = 0; rep < reps; rep++) {
      for (int r = 0; r < world; r++) {
        CK(cudaSetDevice(dev[r]));
        CK(cudaEventRecord(start[r], s[r]));
      }
      enqueue();
      for (int r = 0; r < world; r++) {
        CK(cudaSetDevice(dev[r]));
        CK(cudaEventRecord(stop[r], s[r]));
      }
      sync();
      float worst = 0;
      for (int r = 0; r < world; r++) {
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, start[r], stop[r]));
        worst = std::max(worst, ms);
      }
      per_call.push_back(worst * 1000.0 / k);
    }
    std::sort(per_call.begin(), per_call.end());
    return per_call[per_call.size() / 2];
  }

  void sync() {
    for (int r = 0; r < world; r++) {
      CK(cudaSetDevice(dev[r]));
      CK(cudaStreamSynchronize(s[r]));
    }
  }

  void nccl_calls(size_t count, ncclDataType_t t, int k, bool symm) {
    const std::vector<void *> &src = symm ? sym_in : in, &dst = symm ? sym_out : out;
    for (int i = 0; i < k; i++) {
      NK(ncclGroupStart());
      for (int r = 0; r < world; r++) NK(ncclAllReduce(src[r], dst[r], count, t, ncclSum, nccl[r], s[r]));
      NK(ncclGroupEnd());
    }
  }

  double nccl_eager(size_t count, ncclDataType_t t, int k, bool symm) {
    return timed(k, [&] { nccl_calls(count, t, k, symm); });
  }

  /* symmetric allocates NCCL's buffers for nccl-symm and registers them as
   * symmetric windows on every rank (a collective call: one group); false,
   * with the reason on stderr, when NCCL cannot. */
  bool symmetric(size_t bytes) {
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 27, 0)
    sym_in.assign(world, nullptr);
    sym_out.assign(world, nullptr);
    std::vector<ncclWindow_t> win(2 * world, nullptr);
    for (int r = 0; r < world; r++) {
      CK(cudaSetDevice(dev[r]));
      ncclResult_t e = ncclMemAlloc(&sym_in[r], bytes);
      if (e == ncclSuccess) e = ncclMemAlloc(&sym_out[r], bytes);
      if (e != ncclSuccess) {
        fprintf(stderr, "kbench: nccl-symm: ncclMemAlloc of %zu bytes on GPU %d: %s\n", bytes, dev[r], ncclGetErrorString(e));
        sym_in.clear();
        return false;
      }
    }
    ncclResult_t e = ncclGroupStart();
    for (int r = 0; e == ncclSuccess && r < world; r++) {
      e = ncclCommWindowRegister(nccl[r], sym_in[r], bytes, &win[2 * r], NCCL_WIN_COLL_SYMMETRIC);
      if (e == ncclSuccess) e = ncclCommWindowRegister(nccl[r], sym_out[r], bytes, &win[2 * r + 1], NCCL_WIN_COLL_SYMMETRIC);
    }
    ncclResult_t end = ncclGroupEnd();
    if (e == ncclSuccess) e = end;
    if (e != ncclSuccess) {
      fprintf(stderr, "kbench: nccl-symm: ncclCommWindowRegister: %s (%s)\n", ncclGetErrorString(e), ncclGetLastError(nullptr));
      sym_in.clear();
      return false;
    }
    windows = win;
    return true;
#else
    (void)bytes;
    fprintf(stderr, "kbench: nccl-symm: NCCL %d has no symmetric windows (2.27+)\n", NCCL_VERSION_CODE);
    return false;
#endif
  }

#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 27, 0)
  std::vector<ncclWindow_t> windows;
#endif

  void release_symmetric() {
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 27, 0)
    if (sym_in.empty()) return;
    NK(ncclGroupStart());
    for (int r = 0; r < world; r++) {
      NK(ncclCommWindowDeregister(nccl[r], windows[2 * r]));
      NK(ncclCommWindowDeregister(nccl[r], windows[2 * r + 1]));
    }
    NK(ncclGroupEnd());
    for (int r = 0; r < world; r++) {
      CK(cudaSetDevice(dev[r]));
      NK(ncclMemFree(sym_in[r]));
      NK(ncclMemFree(sym_out[r]));
    }
    sym_in.clear();
#endif
  }

  /* NCCL captured in graphs, one per rank's stream; < 0 when NCCL or CUDA
   * refuses the capture. */
  double nccl_graph(size_t count, ncclDataType_t t, int k, bool symm) {
    const std::vector<void *> &src = symm ? sym_in : in, &dst = symm ? sym_out : out;
    std::vector<cudaGraphExec_t> exec(world, nullptr);
    bool ok = true;
    for (int r = 0; r < world; r++) {
      CK(cudaSetDevice(dev[r]));
      if (cudaStreamBeginCapture(s[r], cudaStreamCaptureModeThreadLocal) != cudaSuccess) ok = false;
    }
    for (int i = 0; ok && i < k; i++) {
      ok = ncclGroupStart() == ncclSuccess;
      for (int r = 0; ok && r < world; r++) ok = ncclAllReduce(src[r], dst[r], count, t, ncclSum, nccl[r], s[r]) == ncclSuccess;
      ok = ncclGroupEnd() == ncclSuccess && ok;
    }
    for (int r = 0; r < world; r++) {
      CK(cudaSetDevice(dev[r]));
      cudaGraph_t g = nullptr;
      if (cudaStreamEndCapture(s[r], &g) != cudaSuccess || g == nullptr) ok = false;
      if (g != nullptr) {
        if (ok && cudaGraphInstantiateWithFlags(&exec[r], g, 0) != cudaSuccess) ok = false;
        cudaGraphDestroy(g);
      }
    }
    (void)cudaGetLastError();
    double us = -1;
    if (ok) us = timed(k, [&] { launch(exec); });
    for (int r = 0; r < world; r++)
      if (exec[r]) cudaGraphExecDestroy(exec[r]);
    return us;
  }

  void launch(const std::vector<cudaGraphExec_t> &exec) {
    for (int r = 0; r < world; r++) {
      CK(cudaSetDevice(dev[r]));
      CK(cudaGraphLaunch(exec[r], s[r]));
    }
  }

  /* The launch row: k empty kernels per rank, of oneshot's grid for count
   * elements, captured and timed as arc's calls are: what a call costs
   * before it moves a byte. */
  double launch_only(size_t count, int k) {
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev[0]));
    const int blocks = (int)std::min<size_t>((count + 2047) / 2048, (size_t)sms);
    return captured(k, [&](int r) {
      for (int i = 0; i < k; i++) empty_kernel<<<blocks, 256, 0, s[r]>>>();
    });
  }

  /* Captures what enqueue(r) puts on rank r's stream (k calls) in a graph
   * per rank and times their replays: us per call. */
  template <class F>
  double captured(int k, F enqueue) {
    std::vector<cudaGraphExec_t> exec(world);
    for (int r = 0; r < world; r++) {
      CK(cudaSetDevice(dev[r]));
      CK(cudaStreamBeginCapture(s[r], cudaStreamCaptureModeThreadLocal));
      enqueue(r);
      cudaGraph_t g;
      CK(cudaStreamEndCapture(s[r], &g));
      CK(cudaGraphInstantiateWithFlags(&exec[r], g, 0));
      CK(cudaGraphDestroy(g));
    }
    double us = timed(k, [&] { launch(exec); });
    for (int r = 0; r < world; r++) CK(cudaGraphExecDestroy(exec[r]));
    return us;
  }

  double arc(size_t count, int dtype, const Lowering &l, int k) {
    return captured(k, [&](int r) {
      for (int i = 0; i < k; i++) {
        if (l.norm == 1) {
          arc_norm n = {res[r], wgt[r], y[r], row, ARC_NORM_MEAN_DIV, (float)row, 1e-5f, ARC_NORM_WEIGHT_F32};
          AK(arc_allreduce_norm(comm, r, in[r], h[r], count, (arc_dtype)dtype, (arc_algo)l.algo, (arc_codec)l.codec, 0, &n, s[r]));
          continue;
        }
        AK(arc_allreduce(comm, r, in[r], out[r], count, (arc_dtype)dtype, (arc_algo)l.algo, (arc_codec)l.codec, 0, s[r]));
        if (l.norm == 2) {
          launch_norm(dtype, out[r], res[r], wgt[r], h[r], y[r], count, row, s[r]);
          CK(cudaGetLastError());
        }
      }
    });
  }
};

static size_t parse_bytes(const char *v) {
  char *end;
  double x = strtod(v, &end);
  switch (*end) {
  case 'K': case 'k': x *= 1 << 10; break;
  case 'M': case 'm': x *= 1 << 20; break;
  case 'G': case 'g': x *= 1 << 30; break;
  }
  return (size_t)x;
}

static std::vector<std::string> split(const std::string &s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i <= s.size()) {
    size_t j = s.find(',', i);
    if (j == std::string::npos) j = s.size();
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

int main(int argc, char **argv) {
  Bench b;
  std::string link = "peer", dtypes = "f16,bf16", only, devices, fill = "uniform";
  size_t min_bytes = 4 << 10, max_bytes = 256 << 20;
  int world = 0;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : "";
    if (a == "--link") link = v, i++;
    else if (a == "--world") world = atoi(v), i++;
    else if (a == "--devices") devices = v, i++;
    else if (a == "--min") min_bytes = parse_bytes(v), i++;
    else if (a == "--max") max_bytes = parse_bytes(v), i++;
    else if (a == "--dtypes") dtypes = v, i++;
    else if (a == "--fill") fill = v, i++;
    else if (a == "--reps") b.reps = atoi(v), i++;
    else if (a == "--only") only = v, i++;
    else if (a == "--row") b.row = (size_t)atol(v), i++;
    else {
      fprintf(stderr, "kbench: unknown argument %s (see the comment at the top of kbench.cu)\n", a.c_str());
      return 2;
    }
  }
  if (fill != "uniform" && fill != "normal") {
    fprintf(stderr, "kbench: --fill %s: want uniform or normal\n", fill.c_str());
    return 2;
  }
  int ndev = 0;
  CK(cudaGetDeviceCount(&ndev));
  if (!devices.empty()) {
    for (const std::string &d : split(devices)) b.dev.push_back(atoi(d.c_str()));
    b.world = (int)b.dev.size();
  } else {
    b.world = world > 0 ? world : ndev;
    if (b.world < 2 || b.world > ndev) {
      fprintf(stderr, "kbench: world %d needs as many GPUs (found %d); --devices 0,0 runs logical ranks\n", b.world, ndev);
      return 1;
    }
    for (int r = 0; r < b.world; r++) b.dev.push_back(r);
  }
  b.link = link == "host" ? ARC_LINK_HOST : ARC_LINK_PEER;
  AK(arc_comm_create(&b.comm, b.dev.data(), b.world, (arc_link)b.link, max_bytes));
  std::vector<std::string> keep = split(only);
  auto wanted = [&](const std::string &name) {
    return keep.empty() || std::find(keep.begin(), keep.end(), name) != keep.end();
  };
  const bool use_nccl = wanted("nccl") || wanted("nccl-graph") || wanted("nccl-symm") || wanted("nccl-symm-graph");
  b.nccl.resize(b.world);
  if (use_nccl) NK(ncclCommInitAll(b.nccl.data(), b.world, b.dev.data()));
  b.s.resize(b.world);
  b.start.resize(b.world);
  b.stop.resize(b.world);
  b.in.resize(b.world);
  b.out.resize(b.world);
  for (int r = 0; r < b.world; r++) {
    CK(cudaSetDevice(b.dev[r]));
    CK(cudaStreamCreateWithFlags(&b.s[r], cudaStreamNonBlocking));
    CK(cudaEventCreate(&b.start[r]));
    CK(cudaEventCreate(&b.stop[r]));
    CK(cudaMalloc(&b.in[r], max_bytes));
    CK(cudaMalloc(&b.out[r], max_bytes));
    if (b.row > 0) {
      for (auto *v : {&b.res, &b.wgt, &b.h, &b.y}) {
        v->resize(b.world);
        CK(cudaMalloc(&(*v)[r], max_bytes));
        CK(cudaMemset((*v)[r], 0, max_bytes));
      }
    }
  }

  /* Each device's bandwidths, measured once: ranks sharing it copy the first's. */
  for (auto *v : {&b.copy_gbps, &b.h2d_gbps, &b.d2h_gbps, &b.both_gbps}) v->resize(b.world);
  for (int r = 0; r < b.world; r++) {
    int first = 0;
    while (b.dev[first] != b.dev[r]) first++;
    if (first < r) {
      b.copy_gbps[r] = b.copy_gbps[first], b.h2d_gbps[r] = b.h2d_gbps[first];
      b.d2h_gbps[r] = b.d2h_gbps[first], b.both_gbps[r] = b.both_gbps[first];
      continue;
    }
    b.copy_gbps[r] = b.copy_bandwidth(b.dev[r]);
    fprintf(stderr, "kbench: copy bandwidth of device %d: %.0f GB/s (cudaMemcpy, read + written)\n", b.dev[r], b.copy_gbps[r]);
    if (b.link != ARC_LINK_HOST) continue;
    b.pcie_bandwidth(b.dev[r], &b.h2d_gbps[r], &b.d2h_gbps[r], &b.both_gbps[r]);
    fprintf(stderr,
            "kbench: PCIe bandwidth of device %d: %.1f GB/s host to device, %.1f GB/s device to host, %.1f GB/s each way "
            "at once (cudaMemcpy, pinned)\n",
            b.dev[r], b.h2d_gbps[r], b.d2h_gbps[r], b.both_gbps[r]);
  }

  std::vector<Lowering> lows;
  const int w = b.world;
  if (w == 2 || w == 4 || w == 6 || w == 8) lows.push_back({"oneshot", ARC_ONESHOT, ARC_CODEC_NONE});
  for (int algo : {ARC_TWOSHOT, ARC_HIER}) {
    if (algo == ARC_TWOSHOT && !(w == 2 || w == 4 || w == 8)) continue;
    if (algo == ARC_HIER && !(w == 4 || w == 8)) continue;
    for (int c = ARC_CODEC_FP; c < ARC_CODEC_COUNT; c++)
      lows.push_back({std::string(arc_algo_name(algo)) + "-" + arc_codec_name(c), algo, c});
  }
  if (b.row > 0) {
    std::vector<Lowering> fused;
    for (const Lowering &l : lows) {
      fused.push_back(l);
      if (l.algo != ARC_ONESHOT && l.algo != ARC_TWOSHOT) continue;
      fused.push_back({l.name + "+rmsnorm", l.algo, l.codec, 1});
      fused.push_back({l.name + "-then-rmsnorm", l.algo, l.codec, 2});
    }
    lows = fused;
  }
  bool symm = (wanted("nccl-symm") || wanted("nccl-symm-graph")) && b.symmetric(max_bytes);

  printf("link,world,dtype,bytes,lowering,mode,us,algbw_GBps,busbw_GBps,vs_nccl,floor_us,x_floor\n");
  const double bus = 2.0 * (w - 1) / w;
  for (const std::string &dt : split(dtypes)) {
    int dtype = dt == "f32" ? ARC_F32 : dt == "bf16" ? ARC_BF16 : ARC_F16;
    ncclDataType_t nt = dtype == ARC_F32 ? ncclFloat32 : dtype == ARC_BF16 ? ncclBfloat16 : ncclFloat16;
    size_t es = dtype == ARC_F32 ? 4 : 2;
    for (int r = 0; r < w; r++) {
      if (fill == "normal") {
        CK(cudaSetDevice(b.dev[r]));
        const size_t n = max_bytes / es;
        if (dtype == ARC_F32) normal_fill<<<264, 256, 0, b.s[r]>>>((float *)b.in[r], n, 0x5eed + r);
        if (dtype == ARC_F16) normal_fill<<<264, 256, 0, b.s[r]>>>((__half *)b.in[r], n, 0x5eed + r);
        if (dtype == ARC_BF16) normal_fill<<<264, 256, 0, b.s[r]>>>((__nv_bfloat16 *)b.in[r], n, 0x5eed + r);
        CK(cudaGetLastError());
      } else {
        AK(arc_test_fill(b.dev[r], b.in[r], max_bytes / es, (arc_dtype)dtype, 0x5eed + r, b.s[r]));
      }
      if (symm) CK(cudaMemcpyAsync(b.sym_in[r], b.in[r], max_bytes, cudaMemcpyDeviceToDevice, b.s[r]));
    }
    b.sync();
    for (size_t bytes = min_bytes; bytes <= max_bytes; bytes *= 2) {
      size_t count = bytes / es;
      if (b.row > 0) count = count / b.row * b.row;
      if (count == 0) continue;
      int k = Bench::batch(bytes);
      /* --only without nccl skips NCCL (ncu serializes kernels: NCCL's would hang) */
      double eager = wanted("nccl") ? b.nccl_eager(count, nt, k, false) : -1;
      double graph = wanted("nccl-graph") ? b.nccl_graph(count, nt, k, false) : -1;
      double sym_eager = symm && wanted("nccl-symm") ? b.nccl_eager(count, nt, k, true) : -1;
      double sym_graph = symm && wanted("nccl-symm-graph") ? b.nccl_graph(count, nt, k, true) : -1;
      double best = graph > 0 && eager > 0 ? std::min(eager, graph) : graph > 0 ? graph : eager;
      const double S = (double)count * es; /* what is reduced: whole rows under --row */
      auto row = [&](const std::string &name, const char *mode, double us, const Lowering *l) {
        double algbw = bytes / us / 1e3; /* GB/s */
        double fl = l ? b.floor_us(hbm_bytes(*l, w, es, S, b.row), pcie_bytes(*l, w, es, S)) : 0.0;
        printf("%s,%d,%s,%zu,%s,%s,%.2f,%.1f,%.1f,%.3f,%.4f,%.3f\n", link.c_str(), w, dt.c_str(), bytes, name.c_str(), mode, us,
               algbw, algbw * bus, best > 0 ? best / us : 0.0, fl, fl > 0 ? us / fl : 0.0);
        fflush(stdout);
      };
      if (eager > 0) row("nccl", "eager", eager, nullptr);
      if (graph > 0) row("nccl-graph", "graph", graph, nullptr);
      if (sym_eager > 0) row("nccl-symm", "eager", sym_eager, nullptr);
      if (sym_graph > 0) row("nccl-symm-graph", "graph", sym_graph, nullptr);
      if (!keep.empty() && wanted("launch")) row("launch", "graph", b.launch_only(count, k), nullptr);
      for (const Lowering &l : lows) {
        if (!wanted(l.name) && !(l.norm && wanted(l.name.substr(0, l.name.find(l.norm == 1 ? "+" : "-then")))))
          continue;
        if (l.norm && ((l.algo == ARC_TWOSHOT && b.row % 32 != 0) || b.row * es > 64 * 1024)) continue;
        row(l.name, "graph", b.arc(count, dtype, l, k), &l);
      }
    }
  }
  AK(arc_comm_status(b.comm));
  b.release_symmetric();
  if (use_nccl)
    for (int r = 0; r < w; r++) ncclCommDestroy(b.nccl[r]);
  AK(arc_comm_destroy(b.comm));
  return 0;
}
