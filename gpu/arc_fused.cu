/* arc_fused.cu: the fused kernels (docs/KERNELS.md, reference/norm): the
 * oneshot or twoshot all-reduce of in, then, in the same kernel, h = x + sum
 * in the I/O type (written to out) and each row's RMSNorm in f32 (written to
 * norm.y), y = h * rsqrt(mean(h*h) + eps) * w with the program's mean,
 * epsilon and weight placement.
 *
 * Rows are cut into segments of ARC_SEG elements from their start, one atom
 * of 8 per thread; a segment is the unit of work, as a tile is the unfused
 * kernels'. oneshot gives segment g of the buffer to block g % grid;
 * twoshot gives each rank whole rows (rows [o R/W, (o+1) R/W) to rank o: a
 * row is whole codec blocks, so the sum has the unfused kernel's bits) and
 * segment j of a rank's rows to block j % grid. A segment's codec tile is
 * the same layout: thread t holds atom t. Every block adds the sum to its
 * segments' residual, writes h and each segment's sum of squares (a tree
 * over the block, the reference's order), then waits for the rank's other
 * blocks (rank_barrier) and scales its segments by their rows' factor, the
 * sums of a row's segments added in order. */
#include "arc_kernels.cuh"

#define ARC_SEG ARC_TILE_ELEMS
#define ARC_FUSED_UNROLL 2 /* segments whose loads are in flight together */

/* 1/sqrt(x) correctly rounded (reference/norm.RSqrt). */
ARC_D float rsqrt_rn(float x) {
#if ARC_CUDA
  return __frsqrt_rn(x);
#else
  /* Within an ulp; one step to the right side of a midpoint m, where
   * 1/sqrt(x) > m exactly when m*m*x < 1: m*m is exact in f64 and the
   * fused multiply-add has the exact sign. */
  if (x != x || x < 0.0f) return bits_f32(0x7FC00000u);
  if (x == 0.0f) return bits_f32((f32_bits(x) & 0x80000000u) | 0x7F800000u);
  if (f32_bits(x) == 0x7F800000u) return 0.0f;
  const double xd = (double)x;
  const float r = (float)(1.0 / sqrt(xd));
  const float up = nextafterf(r, bits_f32(0x7F800000u)), down = nextafterf(r, 0.0f);
  const double mu = ((double)r + (double)up) * 0.5, md = ((double)r + (double)down) * 0.5;
  if (fma(mu * mu, xd, -1.0) < 0.0) return up;
  if (fma(md * md, xd, -1.0) > 0.0) return down;
  return r;
#endif
}

/* One segment: its first element, its elements and its row. */
struct Seg {
  uint64_t e0, len, row, q;
};

ARC_D Seg seg_of(uint64_t N, uint64_t Q, uint64_t row, uint64_t q) {
  Seg s;
  s.row = row;
  s.q = q;
  s.e0 = row * N + q * ARC_SEG;
  s.len = N - q * ARC_SEG < ARC_SEG ? N - q * ARC_SEG : ARC_SEG;
  return s;
}

/* The block's sum of one value per thread, in the tree p[t] += p[t + s] for
 * s = 128, ..., 1 (the reference's order), valid in thread 0. One barrier:
 * the first warp does every level, 128 to 32 from shared memory in
 * registers (lane l holds p[l + 32 w]), 16 to 1 with shuffles (lane l < s
 * adds lane l + s's, as the tree does). The two buffers alternate by call
 * (n): a thread writes buffer n & 1 only after the barrier of call n - 1,
 * which the first warp passed after its last read of call n - 2. */
ARC_D float block_sum(float v, uint32_t n) {
  __shared__ float p[2][ARC_THREADS];
  const int t = threadIdx.x;
  float *q = p[n & 1u];
  q[t] = v;
  __syncthreads();
  float r = 0.0f;
  if (t < 32) {
    float u[ARC_THREADS / 32];
    for (int w = 0; w < ARC_THREADS / 32; w++) u[w] = q[t + 32 * w];
    for (int h = ARC_THREADS / 64; h >= 1; h >>= 1)
      for (int w = 0; w < h; w++) u[w] = fadd(u[w], u[w + h]);
    r = u[0];
    for (int d = 16; d >= 1; d >>= 1) r = fadd(r, shfl_down32(r, d));
  }
  return r;
}

/* Every block of the rank arrives before any goes on: the rank's blocks are
 * all resident (the grid is sized for it), the count and generation words
 * live in the rank's device state, and the last to arrive resets the count,
 * so a captured graph replays correctly. Stores before it are visible to
 * every block after it. */
ARC_D void rank_barrier(const KernelArgs &a) {
  __syncthreads();
  if (threadIdx.x == 0) {
    volatile uint32_t *gen = &a.state[ARC_ST_BAR_GEN];
    const uint32_t g = *gen;
    __threadfence();
    if (atomicAdd(&a.state[ARC_ST_BAR_COUNT], 1u) == gridDim.x - 1u) {
      atomicExch(&a.state[ARC_ST_BAR_COUNT], 0u);
      __threadfence();
      atomicAdd(&a.state[ARC_ST_BAR_GEN], 1u);
    } else {
      while (*gen == g) pause_briefly();
    }
    __threadfence();
  }
  __syncthreads();
}

/* The residual of thread t's atom of segment sg, loaded before the sum's
 * words so that the loads are in flight together. */
template <int DT>
ARC_D typename Elem<DT>::Raw load_residual(const KernelArgs &a, const Seg &sg) {
  const uint64_t t = threadIdx.x, end = sg.e0 + sg.len, e = sg.e0 + t * ARC_LANE;
  return Elem<DT>::load(a.norm.res, e, t * ARC_LANE < sg.len ? end : 0, a.vec != 0);
}

/* Thread t's atom of segment sg gets the sum s (raw, the I/O type) added to
 * its residual x: h = x + s is written, and the atom's sum of squares of
 * f32(h) returned, from +0 in element order. */
template <int DT>
ARC_D float add_residual(const KernelArgs &a, const Seg &sg, const typename Elem<DT>::Raw &res,
                         const typename Elem<DT>::Raw &s) {
  typedef Elem<DT> E;
  const uint64_t t = threadIdx.x, end = sg.e0 + sg.len, e = sg.e0 + t * ARC_LANE;
  if (t * ARC_LANE >= sg.len) return 0.0f;
  float x[ARC_LANE], v[ARC_LANE];
  E::widen(res, x);
  E::widen(s, v);
  for (int i = 0; i < ARC_LANE; i++) v[i] = fadd(x[i], v[i]);
  typename E::Raw h;
  E::narrow(v, h);
  E::store(a.out, e, end, a.vec != 0, h);
  E::widen(h, v);
  float p = 0.0f;
  for (int i = 0; i < ARC_LANE; i++)
    if (t * ARC_LANE + i < sg.len) p = fadd(p, fmul(v[i], v[i]));
  return p;
}

/* Where the rank keeps segment g's sum of squares: a region of its own
 * exchange memory no peer writes (base: block 0's; stride: a block's). */
ARC_D float *partial(char *base, uint64_t stride, uint64_t g) {
  return (float *)(base + (g % gridDim.x) * stride + (g / gridDim.x) * 4);
}

/* The row's factor rsqrt(mean + eps), from its segments' sums in order. */
ARC_D float row_factor(const KernelArgs &a, char *base, uint64_t stride, uint64_t row, uint64_t Q) {
  __shared__ float s_k;
  if (threadIdx.x == 0) {
    float ss = 0.0f;
    for (uint64_t q = 0; q < Q; q++) ss = fadd(ss, bits_f32(ldx4(partial(base, stride, row * Q + q))));
    const float m = a.norm.mean == ARC_NORM_MEAN_DIV ? fdiv(ss, a.norm.scale) : fmul(ss, a.norm.scale);
    s_k = rsqrt_rn(fadd(m, a.norm.eps));
  }
  __syncthreads();
  const float k = s_k;
  __syncthreads();
  return k;
}

/* z rounded to the I/O type and widened back. */
template <int DT>
ARC_D float round_io(float z) {
  if (DT == ARC_F16) return f16_to_f32(f32_to_f16(z));
  if (DT == ARC_BF16) return bf16_to_f32(f32_to_bf16(z));
  return z;
}

/* y of thread t's atom of segment sg: h (this thread's own store) times the
 * factor, times the weight before or after the convert back. */
template <int DT>
ARC_D void scale_atom(const KernelArgs &a, const Seg &sg, float k) {
  typedef Elem<DT> E;
  const uint64_t t = threadIdx.x, end = sg.e0 + sg.len, e = sg.e0 + t * ARC_LANE;
  if (t * ARC_LANE >= sg.len) return;
  float h[ARC_LANE], w[ARC_LANE];
  E::widen(E::load(a.out, e, end, a.vec != 0), h);
  E::widen(E::load(a.norm.w, sg.q * ARC_SEG + t * ARC_LANE, a.norm.row, a.vec != 0), w);
  for (int i = 0; i < ARC_LANE; i++) {
    float z = fmul(h[i], k);
    if (a.norm.wmode == ARC_NORM_WEIGHT_IO) z = round_io<DT>(z);
    h[i] = fmul(z, w[i]);
  }
  typename E::Raw y;
  E::narrow(h, y);
  E::store(a.norm.y, e, end, a.vec != 0, y);
}

/* A failed call's h and y over the block's segments: NaN. */
template <int DT>
ARC_D void nan_atom(const KernelArgs &a, const Seg &sg) {
  typedef Elem<DT> E;
  const uint64_t t = threadIdx.x, end = sg.e0 + sg.len, e = sg.e0 + t * ARC_LANE;
  if (t * ARC_LANE >= sg.len) return;
  float v[ARC_LANE];
  for (int i = 0; i < ARC_LANE; i++) v[i] = bits_f32(0x7FC00000u);
  typename E::Raw r;
  E::narrow(v, r);
  E::store(a.out, e, end, a.vec != 0, r);
  E::store(a.norm.y, e, end, a.vec != 0, r);
}

/* After the barrier: whether the rank failed (a block's wait, or a peer's
 * record adopted), the same answer for every thread of the block. */
ARC_D bool rank_ok(const KernelArgs &a, bool ok) {
  __shared__ uint32_t s_failed;
  if (threadIdx.x == 0) s_failed = *(volatile uint32_t *)&a.state[ARC_ST_FAILED];
  __syncthreads();
  const bool r = ok && s_failed == 0u;
  __syncthreads();
  return r;
}

/* ---- oneshot + norm ---- */

template <int DT>
__global__ void __launch_bounds__(ARC_THREADS, ARC_BLOCKS_PER_SM) oneshot_norm_kernel(KernelArgs a) {
  typedef Elem<DT> E;
  const int t = threadIdx.x, b = blockIdx.x, G = gridDim.x, W = a.world, me = a.rank;
  const Call c = begin_call(a);
  bool ok = !c.dead;
  const uint64_t par = c.e & 1u;
  const uint64_t N = a.norm.row, Q = cdiv(N, ARC_SEG), S = a.n / N * Q;
  const uint64_t seg_bytes = cdiv(N < ARC_SEG ? N : ARC_SEG, ARC_LANE) * ARC_LANE * E::kBytes;
  auto slot = [&](int r, int s, int blk) {
    return a.x[r] + a.lay.one_x + ((par * W + s) * a.grid + blk) * a.lay.one_cap;
  };
  /* The segments' sums of squares: the rank's own slots, which no peer
   * writes, at parity 0 whatever the call's. Another block of the rank reads
   * a segment's sum, and a block's parity is its own epoch's: blocks that
   * took part in different numbers of calls (a call of fewer blocks) differ
   * in it, so the region must not depend on it. */
  char *sums = a.x[me] + a.lay.one_x + (uint64_t)me * a.grid * a.lay.one_cap;

  if (ok) {
    for (uint64_t g = b, k = 0; g < S; g += G, k++) {
      const Seg sg = seg_of(N, Q, g / Q, g % Q);
      if ((uint64_t)t * ARC_LANE >= sg.len) continue;
      const typename E::Raw raw = E::load(a.in, sg.e0 + (uint64_t)t * ARC_LANE, sg.e0 + sg.len, a.vec != 0);
      for (int d = 1; d < W; d++) E::put(slot((me + d) % W, me, b) + k * seg_bytes, t, raw);
    }
    __syncthreads();
    if (t < W && t != me) post(a, c, t, a.lay.call_f + (uint32_t)(me * a.grid + b));
    ok = wait_all(a, c, a.lay.call_f + b, W, me, 0);
  }
  if (ok) {
    /* ARC_FUSED_UNROLL segments at a time: their residuals and each
     * sender's words are loaded together, before the sums */
    for (uint64_t g0 = b, k0 = 0; g0 < S; g0 += ARC_FUSED_UNROLL * G, k0 += ARC_FUSED_UNROLL) {
      const int U = g0 + G < S ? ARC_FUSED_UNROLL : 1; /* uniform in the block */
      Seg sg[ARC_FUSED_UNROLL];
      bool has[ARC_FUSED_UNROLL];
      typename E::Raw res[ARC_FUSED_UNROLL];
      float acc[ARC_FUSED_UNROLL][ARC_LANE];
#pragma unroll
      for (int u = 0; u < ARC_FUSED_UNROLL; u++) {
        const uint64_t g = u < U ? g0 + u * G : g0;
        sg[u] = seg_of(N, Q, g / Q, g % Q);
        has[u] = (uint64_t)t * ARC_LANE < sg[u].len;
        res[u] = load_residual<DT>(a, sg[u]);
      }
#pragma unroll
      for (int s = 0; s < ARC_MAX_WORLD; s++) {
        if (s >= W) break;
        typename E::Raw raw[ARC_FUSED_UNROLL];
#pragma unroll
        for (int u = 0; u < ARC_FUSED_UNROLL; u++) {
          if (u >= U || !has[u]) continue;
          const uint64_t e = sg[u].e0 + (uint64_t)t * ARC_LANE;
          raw[u] = s == me ? E::load(a.in, e, sg[u].e0 + sg[u].len, a.vec != 0)
                           : E::fetch(slot(me, s, b) + (k0 + u) * seg_bytes, t);
        }
#pragma unroll
        for (int u = 0; u < ARC_FUSED_UNROLL; u++) {
          if (u >= U || !has[u]) continue;
          float v[ARC_LANE];
          E::widen(raw[u], s == 0 ? acc[u] : v);
          if (s > 0)
            for (int i = 0; i < ARC_LANE; i++) acc[u][i] = fadd(acc[u][i], v[i]);
        }
      }
#pragma unroll
      for (int u = 0; u < ARC_FUSED_UNROLL; u++) {
        if (u >= U) break;
        typename E::Raw sum;
        if (has[u]) E::narrow(acc[u], sum);
        const float ps = block_sum(add_residual<DT>(a, sg[u], res[u], sum), (uint32_t)u);
        if (t == 0) *partial(sums, a.lay.one_cap, g0 + u * G) = ps;
      }
    }
  }
  rank_barrier(a);
  ok = rank_ok(a, ok);
  for (uint64_t g = b; g < S; g += G) {
    const Seg sg = seg_of(N, Q, g / Q, g % Q);
    if (!ok) {
      nan_atom<DT>(a, sg);
      continue;
    }
    scale_atom<DT>(a, sg, row_factor(a, sums, a.lay.one_cap, sg.row, Q));
  }
  end_call(a, c);
}

/* ---- twoshot + norm: rows owned by ranks ---- */

template <int DT, class C>
__global__ void __launch_bounds__(ARC_THREADS, ARC_BLOCKS_PER_SM) twoshot_norm_kernel(KernelArgs a) {
  typedef Elem<DT> E;
  const int t = threadIdx.x, b = blockIdx.x, G = gridDim.x, W = a.world, me = a.rank, lane = t & 3;
  const Call c = begin_call(a);
  bool ok = !c.dead;
  const uint64_t N = a.norm.row, Q = cdiv(N, ARC_SEG), R = a.n / N;
  auto rlo = [&](int o) { return R * (uint64_t)o / (uint64_t)W; };
  auto p1 = [&](int r, int s) { return a.x[r] + a.lay.p1_x + ((uint64_t)s * a.grid + b) * a.lay.cap; };
  auto p2 = [&](int r, int s) { return a.x[r] + a.lay.p2_x + ((uint64_t)s * a.grid + b) * a.lay.cap; };
  auto seg = [&](int o, uint64_t j) { return seg_of(N, Q, rlo(o) + j / Q, j % Q); };
  auto segs = [&](int o) { return (rlo(o + 1) - rlo(o)) * Q; };
  char *sums = a.x[me] + a.lay.p1_x + (uint64_t)me * a.grid * a.lay.cap; /* the rank's own phase-1 slot */
  /* thread t: codec block t/4 of the segment, lane t%4: elements 8t..8t+7 */
  auto mine = [&](const Seg &sg) { return (uint64_t)t * ARC_LANE < sg.len; };
  uint32_t nsum = 0; /* block_sum's calls */

  if (ok) {
    /* 1. each owner's rows, encoded, into its slot for this rank */
    for (int d = 1; d < W; d++) {
      const int o = (me + d) % W;
      for (uint64_t j = b, k = 0; j < segs(o); j += G, k++) {
        const Seg sg = seg(o, j);
        float x[ARC_LANE];
        E::widen(E::load(a.in, sg.e0 + (uint64_t)t * ARC_LANE, mine(sg) ? a.n : 0, a.vec != 0), x);
        typename C::Word w;
        C::encode(x, lane, w);
        if (mine(sg)) C::store(p1(o, me) + k * C::kTileBytes, t, w);
      }
    }
    __syncthreads();
    if (t < W && t != me) post(a, c, t, a.lay.call_f + (uint32_t)(me * a.grid + b));
    ok = wait_all(a, c, a.lay.call_f + b, W, me, 0);
  }
  if (ok) {
    /* 2. the own rows: the senders' words and the own input summed in rank
     * order, encoded for the peers and decoded here, as every rank decodes */
    for (uint64_t j = b, k = 0; j < segs(me); j += G, k++) {
      const Seg sg = seg(me, j);
      const typename E::Raw res = load_residual<DT>(a, sg);
      typename C::Word w[ARC_MAX_WORLD] = {};
#pragma unroll
      for (int s = 0; s < ARC_MAX_WORLD; s++) {
        if (s >= W) break;
        if (s == me) {
          float x[ARC_LANE];
          E::widen(E::load(a.in, sg.e0 + (uint64_t)t * ARC_LANE, mine(sg) ? a.n : 0, a.vec != 0), x);
          C::encode(x, lane, w[s]);
        } else if (mine(sg)) {
          C::load(p1(me, s) + k * C::kTileBytes, t, w[s]);
        }
      }
      float acc[ARC_LANE], v[ARC_LANE];
#pragma unroll
      for (int s = 0; s < ARC_MAX_WORLD; s++) {
        if (s >= W) break;
        C::decode(w[s], lane, s == 0 ? acc : v);
        if (s > 0)
          for (int i = 0; i < ARC_LANE; i++) acc[i] = fadd(acc[i], v[i]);
      }
      typename C::Word o;
      C::encode(acc, lane, o);
      if (mine(sg))
        for (int d = 1; d < W; d++) C::store(p2((me + d) % W, me) + k * C::kTileBytes, t, o);
      C::decode(o, lane, v);
      typename E::Raw sum;
      E::narrow(v, sum);
      const float ps = block_sum(add_residual<DT>(a, sg, res, sum), nsum++);
      if (t == 0) *partial(sums, a.lay.cap, sg.row * Q + sg.q) = ps;
    }
    __syncthreads();
    if (t < W && t != me) post(a, c, t, a.lay.p2_f + (uint32_t)(me * a.grid + b));
    ok = wait_all(a, c, a.lay.p2_f + b, W, me, 0);
  }
  if (ok) {
    /* 3. the other owners' rows, decoded, ARC_FUSED_UNROLL segments at a
     * time: their words and residuals are loaded together */
    for (int d = 1; d < W; d++) {
      const int o = (me + d) % W;
      for (uint64_t j0 = b, k0 = 0; j0 < segs(o); j0 += ARC_FUSED_UNROLL * G, k0 += ARC_FUSED_UNROLL) {
        const int U = j0 + G < segs(o) ? ARC_FUSED_UNROLL : 1; /* uniform in the block */
        Seg sg[ARC_FUSED_UNROLL];
        typename E::Raw res[ARC_FUSED_UNROLL];
        typename C::Word w[ARC_FUSED_UNROLL] = {};
#pragma unroll
        for (int u = 0; u < ARC_FUSED_UNROLL; u++) {
          sg[u] = seg(o, u < U ? j0 + u * G : j0);
          res[u] = load_residual<DT>(a, sg[u]);
          if (u < U && mine(sg[u])) C::load(p2(me, o) + (k0 + u) * C::kTileBytes, t, w[u]);
        }
#pragma unroll
        for (int u = 0; u < ARC_FUSED_UNROLL; u++) {
          if (u >= U) break;
          float v[ARC_LANE];
          C::decode(w[u], lane, v); /* every lane decodes: int4r shuffles */
          typename E::Raw sum;
          E::narrow(v, sum);
          const float ps = block_sum(add_residual<DT>(a, sg[u], res[u], sum), nsum++);
          if (t == 0) *partial(sums, a.lay.cap, sg[u].row * Q + sg[u].q) = ps;
        }
      }
    }
  }
  rank_barrier(a);
  ok = rank_ok(a, ok);
  for (int o = 0; o < W; o++) {
    for (uint64_t j = b; j < segs(o); j += G) {
      const Seg sg = seg(o, j);
      if (!ok) {
        nan_atom<DT>(a, sg);
        continue;
      }
      scale_atom<DT>(a, sg, row_factor(a, sums, a.lay.cap, sg.row, Q));
    }
  }
  end_call(a, c);
}

/* ---- dispatch ---- */

template <int DT, class C>
struct FusedTwoShot {
  static gpuError_t run(const KernelArgs &a, int blocks, gpuStream_t s) {
    return launch_or_load(twoshot_norm_kernel<DT, C>, a, blocks, s);
  }
};

gpuError_t arc_launch_fused(int algo, int dtype, int codec, bool cast, const KernelArgs &a, int blocks, gpuStream_t s) {
  if (algo == ARC_TWOSHOT) return dispatch<FusedTwoShot>(dtype, codec, cast, a, blocks, s);
  if (algo != ARC_ONESHOT) return gpuErrorInvalidValue;
  switch (dtype) {
  case ARC_F16:
    return launch_or_load(oneshot_norm_kernel<ARC_F16>, a, blocks, s);
  case ARC_BF16:
    return launch_or_load(oneshot_norm_kernel<ARC_BF16>, a, blocks, s);
  case ARC_F32:
    return launch_or_load(oneshot_norm_kernel<ARC_F32>, a, blocks, s);
  }
  return gpuErrorInvalidValue;
}
