/* arc_kernels.cuh: arc's all-reduce kernels (docs/KERNELS.md explains them).
 *
 * Work unit: a tile of ARC_THREADS atoms of 8 elements (arc_internal.h);
 * thread t of a block holds atom t, the 4 threads of a
 * codec block are lanes 0..3 of a group. Tile j of a chunk belongs to block
 * j % gridDim.x; block b keeps its k-th tile at offset k * tile bytes of its
 * own fixed region of every exchange slot, so calls of any size reuse the
 * same bytes for the same block and never overlap another block's.
 *
 * Synchronisation: block b of every rank counts its calls in epochs[b]
 * (device memory, bumped by the kernel itself). A sender writes its data,
 * then releases flag[slot][b] = epoch at the receiver, with the call's header
 * (sequence number, fingerprint) beside it; the receiver acquires
 * flag >= epoch and checks the header before it reads the data. No host
 * state changes between calls, so a captured graph replays correctly. A
 * timeout or a header that differs fails the communicator for good: the
 * record goes to every rank, every block gives up and writes NaN.
 */
#ifndef ARC_KERNELS_CUH
#define ARC_KERNELS_CUH

#include <type_traits>

#include "arc_codec.h"
#include "arc_internal.h"

#define ARC_UNROLL 4 /* tiles loaded before any is processed: loads in flight */

ARC_FN uint64_t cdiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/* First codec block of chunk c when nb blocks are split into parts chunks. */
ARC_FN uint64_t chunk_lo(uint64_t nb, int parts, int c) { return nb * (uint64_t)c / (uint64_t)parts; }

/* ---- element types: 8 raw elements of an atom ---- */

template <int DT>
struct Elem {
  static constexpr int kBytes = DT == ARC_F32 ? 4 : 2;
  static constexpr int kVec = kBytes / 2; /* 16-byte words per atom */
  struct Raw {
    uint4 v[kVec];
  };
  ARC_D static float get(const Raw &r, int i) {
    const uint32_t *w = (const uint32_t *)r.v;
    if (DT == ARC_F32) return bits_f32(w[i]);
    uint16_t h = (uint16_t)(w[i >> 1] >> (16 * (i & 1)));
    return DT == ARC_F16 ? f16_to_f32(h) : bf16_to_f32(h);
  }
  ARC_D static void widen(const Raw &r, float *x) {
    for (int i = 0; i < ARC_LANE; i++) x[i] = get(r, i);
  }
  ARC_D static void narrow(const float *x, Raw &r) {
    uint32_t *w = (uint32_t *)r.v;
    if constexpr (DT == ARC_F32) {
      for (int i = 0; i < ARC_LANE; i++) w[i] = f32_bits(x[i]);
    } else {
      for (int i = 0; i < ARC_LANE; i += 2)
        w[i >> 1] = DT == ARC_F16 ? f32x2_to_f16x2(x[i], x[i + 1])
                                  : (uint32_t)f32_to_bf16(x[i]) | (uint32_t)f32_to_bf16(x[i + 1]) << 16;
    }
  }
  /* The atom at element e0 of a buffer of n; elements past n read as +0. */
  ARC_D static Raw load(const void *base, uint64_t e0, uint64_t n, bool vec) {
    Raw r;
    const char *p = (const char *)base + e0 * kBytes;
    if (vec && e0 + ARC_LANE <= n) {
      for (int k = 0; k < kVec; k++) r.v[k] = ((const uint4 *)p)[k];
      return r;
    }
    for (int k = 0; k < kVec; k++) r.v[k] = make_uint4(0, 0, 0, 0);
    char *d = (char *)r.v;
    for (int i = 0; i < ARC_LANE; i++)
      if (e0 + i < n)
        for (int c = 0; c < kBytes; c++) d[i * kBytes + c] = p[i * kBytes + c];
    return r;
  }
  ARC_D static void store(void *base, uint64_t e0, uint64_t n, bool vec, const Raw &r) {
    char *p = (char *)base + e0 * kBytes;
    if (vec && e0 + ARC_LANE <= n) {
      for (int k = 0; k < kVec; k++) ((uint4 *)p)[k] = r.v[k];
      return;
    }
    const char *s = (const char *)r.v;
    for (int i = 0; i < ARC_LANE; i++)
      if (e0 + i < n)
        for (int c = 0; c < kBytes; c++) p[i * kBytes + c] = s[i * kBytes + c];
  }
  /* Exchange copies: whole atoms, 16-byte aligned. */
  ARC_D static void put(char *tile, int t, const Raw &r) {
    for (int k = 0; k < kVec; k++) ((uint4 *)tile)[t * kVec + k] = r.v[k];
  }
  ARC_D static Raw fetch(const char *tile, int t) {
    Raw r;
    for (int k = 0; k < kVec; k++) r.v[k] = ldx16(tile + (size_t)(t * kVec + k) * 16);
    return r;
  }
};

/* ---- codecs: encode/decode one lane, store/load it in a tile ---- */

ARC_D IntStats shfl_stats(IntStats s, int m) {
  IntStats o;
  o.mx = shfl_xor(s.mx, m);
  o.mn = shfl_xor(s.mn, m);
  return o;
}

ARC_D Fp8Stats shfl_stats(Fp8Stats s, int m) {
  Fp8Stats o;
  o.a = shfl_xor(s.a, m);
  return o;
}

/* Integer codec tile: [codes: 512 lanes][f16 scales: 128 blocks]; int6's
 * 48-bit lanes are split into a 32-bit plane and a 16-bit plane. */
template <int BITS>
struct IntCodec {
  struct Word {
    uint64_t w;
    float s;
    uint16_t s16;
  };
  static constexpr uint32_t kCodeBytes = ARC_THREADS * BITS;
  static constexpr uint32_t kTileBytes = kCodeBytes + ARC_TILE_BLOCKS * 2;
  ARC_D static void encode(const float *x, int lane, Word &o) {
    (void)lane;
    IntStats st = int_stats(x);
    st = int_stats_merge(st, shfl_stats(st, 1));
    st = int_stats_merge(st, shfl_stats(st, 2));
    o.s16 = int_scale<BITS>(st, &o.s);
    o.w = int_codes<BITS>(x, o.s);
  }
  ARC_D static void decode(const Word &o, int lane, float *y) {
    (void)lane;
    int_decode<BITS>(o.w, o.s, y);
  }
  ARC_D static void store(char *tile, int t, const Word &o) {
    uint32_t lo = (uint32_t)o.w, hi = (uint32_t)(o.w >> 32);
    if (BITS == 8) {
      ((uint2 *)tile)[t] = make_uint2(lo, hi);
    } else if (BITS == 4) {
      ((uint32_t *)tile)[t] = lo;
    } else {
      ((uint32_t *)tile)[t] = lo;
      ((uint16_t *)(tile + ARC_THREADS * 4))[t] = (uint16_t)hi;
    }
    if ((t & 3) == 0) ((uint16_t *)(tile + kCodeBytes))[t >> 2] = o.s16;
  }
  ARC_D static void load(const char *tile, int t, Word &o) {
    if (BITS == 8) {
      uint2 v = ldx8(tile + (size_t)t * 8);
      o.w = (uint64_t)v.x | ((uint64_t)v.y << 32);
    } else if (BITS == 4) {
      o.w = ldx4(tile + (size_t)t * 4);
    } else {
      o.w = (uint64_t)ldx4(tile + (size_t)t * 4) | ((uint64_t)ldx2(tile + ARC_THREADS * 4 + (size_t)t * 2) << 32);
    }
    o.s16 = ldx2(tile + kCodeBytes + (size_t)(t >> 2) * 2);
    o.s = f16_to_f32(o.s16);
  }
};

/* The Walsh-Hadamard transform of a block held by 4 lanes. */
ARC_D void fwht_block(float *u, int lane) {
  float other[ARC_LANE];
  fwht_in_lane(u);
  for (int i = 0; i < ARC_LANE; i++) other[i] = shfl_xor(u[i], 1);
  fwht_across(u, other, (lane & 1) != 0);
  for (int i = 0; i < ARC_LANE; i++) other[i] = shfl_xor(u[i], 2);
  fwht_across(u, other, (lane & 2) != 0);
}

ARC_D uint64_t shfl_xor64(uint64_t v, int m) {
  return (uint64_t)shfl_xor((uint32_t)v, m) | ((uint64_t)shfl_xor((uint32_t)(v >> 32), m) << 32);
}

ARC_D IntStats group_stats(IntStats st) {
  st = int_stats_merge(st, shfl_stats(st, 1));
  return int_stats_merge(st, shfl_stats(st, 2));
}

/* (E_0 + E_1) + (E_2 + E_3) of the lanes' parts, the same bits on every lane. */
ARC_D float group_err(float e) {
  e = fadd(e, shfl_xor(e, 1));
  return fadd(e, shfl_xor(e, 2));
}

ARC_D Top2 shfl_top2(Top2 t, int m) {
  Top2 o;
  o.k1 = shfl_xor64(t.k1, m);
  o.k2 = shfl_xor64(t.k2, m);
  o.v1 = shfl_xor(t.v1, m);
  o.v2 = shfl_xor(t.v2, m);
  return o;
}

/* int4r tile: as int4's, [payload: 512 lanes x 32 bits][headers: 128 x 16
 * bits]; lane l of a block holds word l of its payload. Every lane runs every
 * step (shuffles need the whole warp), whatever its block's mode. */
struct Int4RCodec {
  struct Word {
    uint32_t p;
    uint16_t h;
  };
  static constexpr uint32_t kTileBytes = IntCodec<4>::kTileBytes;
  ARC_D static void encode(const float *x, int lane, Word &o) {
    float y[ARC_LANE];
    const IntStats st = group_stats(int_stats(x));
    /* mode 0: plain */
    float s0;
    const uint16_t h0 = int4r_scale(signed_max(st), &s0);
    const uint32_t c0 = (uint32_t)int_codes<4>(x, s0);
    int_decode<4>(c0, s0, y);
    const float e0 = group_err(sq_err_lane(x, y));
    /* mode 1: rotated */
    float w[ARC_LANE];
    for (int i = 0; i < ARC_LANE; i++) w[i] = x[i];
    rot_flip(w, lane);
    fwht_block(w, lane);
    scale_all(w, 0.125f);
    const IntStats sw = group_stats(int_stats(w));
    float s1;
    const uint16_t h1 = int4r_scale(signed_max(sw), &s1);
    const uint32_t c1 = (uint32_t)int_codes<4>(w, s1);
    int_decode<4>(c1, s1, y);
    fwht_block(y, lane);
    scale_all(y, 0.25f);
    rot_flip(y, lane);
    float e1 = group_err(sq_err_lane(x, y));
    if (int_bad(sw)) e1 = bits_f32(0x7FC00000u); /* the rotation overflowed: never chosen */
    /* mode 2: split */
    Top2 tp = top2_lane(x, lane);
    tp = top2_merge(tp, shfl_top2(tp, 1));
    tp = top2_merge(tp, shfl_top2(tp, 2));
    const int k1 = key_index(tp.k1), k2 = key_index(tp.k2);
    const uint16_t x1 = trunc_mode(f16c(tp.v1)), v2 = f16c(tp.v2);
    const IntStats rs = group_stats(rest_stats(x, lane, k1, k2));
    float s2;
    const uint32_t h8 = split_scale(signed_max(rs), &s2);
    uint64_t lo, hi;
    split_lane(x, lane, k1, k2, s2, x1, v2, &lo, &hi, y);
    const float e2 = group_err(sq_err_lane(x, y));
    lo |= shfl_xor64(lo, 1);
    lo |= shfl_xor64(lo, 2);
    hi |= shfl_xor64(hi, 1);
    hi |= shfl_xor64(hi, 2);
    lo |= split_fields(k1, k2, v2, h8);
    const uint32_t c2 = (uint32_t)((lane & 2 ? hi : lo) >> (32 * (lane & 1)));
    /* the least error wins; ties keep the lower mode, NaN never wins */
    int best = 0;
    float eb = e0;
    if (e1 < eb) {
      best = 1;
      eb = e1;
    }
    if (e2 < eb) best = 2;
    if (int_bad(st)) {
      o.h = 0x7E00;
      o.p = ARC_NAN_WORD;
    } else {
      o.h = best == 0 ? h0 : best == 1 ? (uint16_t)(h1 | 1u) : (uint16_t)(x1 | 2u);
      o.p = best == 0 ? c0 : best == 1 ? c1 : c2;
    }
  }
  /* Each mode's decoding runs only where a block of the warp has that
   * mode: the branches are warp-wide, so their shuffles see every lane, and
   * a lane keeps its own mode's values (the bits of decoding all three). */
  ARC_D static void decode(const Word &o, int lane, float *y) {
    const int mode = o.h & 3;
    const float s = f16_to_f32(trunc_mode(o.h));
    int_decode<4>(o.p, s, y);
    if (warp_any(mode == 1)) {
      float yr[ARC_LANE];
      for (int i = 0; i < ARC_LANE; i++) yr[i] = y[i];
      fwht_block(yr, lane);
      scale_all(yr, 0.25f);
      rot_flip(yr, lane);
      if (mode == 1)
        for (int i = 0; i < ARC_LANE; i++) y[i] = yr[i];
    }
    if (warp_any(mode >= 2)) {
      /* mode 2 needs the whole payload: word k is lane k's */
      uint32_t q[4];
      q[0] = o.p;
      q[1] = shfl_xor(o.p, 1);
      q[2] = shfl_xor(o.p, 2);
      q[3] = shfl_xor(o.p, 3);
      uint32_t wk[4];
      for (int k = 0; k < 4; k++) {
        int m = lane ^ k;
        wk[k] = m == 0 ? q[0] : m == 1 ? q[1] : m == 2 ? q[2] : q[3];
      }
      float ys[ARC_LANE];
      split_decode_lane(o.h, (uint64_t)wk[0] | ((uint64_t)wk[1] << 32), (uint64_t)wk[2] | ((uint64_t)wk[3] << 32),
                        lane, ys);
      for (int i = 0; i < ARC_LANE; i++)
        if (mode >= 2) y[i] = mode == 2 ? ys[i] : bits_f32(0x7FC00000u);
    }
  }
  ARC_D static void store(char *tile, int t, const Word &o) {
    ((uint32_t *)tile)[t] = o.p;
    if ((t & 3) == 0) ((uint16_t *)(tile + ARC_THREADS * 4))[t >> 2] = o.h;
  }
  ARC_D static void load(const char *tile, int t, Word &o) {
    o.p = ldx4(tile + (size_t)t * 4);
    o.h = ldx2(tile + ARC_THREADS * 4 + (size_t)(t >> 2) * 2);
  }
};

/* fp8 tile: [e4m3 codes: 512 lanes x 8][f32 scales: 128 blocks]. */
struct Fp8Codec {
  struct Word {
    uint64_t w;
    float s;
  };
  static constexpr uint32_t kCodeBytes = ARC_THREADS * 8;
  static constexpr uint32_t kTileBytes = kCodeBytes + ARC_TILE_BLOCKS * 4;
  ARC_D static void encode(const float *x, int lane, Word &o) {
    (void)lane;
    Fp8Stats st = fp8_stats(x);
    st = fp8_stats_merge(st, shfl_stats(st, 1));
    st = fp8_stats_merge(st, shfl_stats(st, 2));
    o.s = fp8_scale(st);
    o.w = fp8_codes(x, o.s);
  }
  ARC_D static void decode(const Word &o, int lane, float *y) {
    (void)lane;
    fp8_decode(o.w, o.s, y);
  }
  ARC_D static void store(char *tile, int t, const Word &o) {
    ((uint2 *)tile)[t] = make_uint2((uint32_t)o.w, (uint32_t)(o.w >> 32));
    if ((t & 3) == 0) ((uint32_t *)(tile + kCodeBytes))[t >> 2] = f32_bits(o.s);
  }
  ARC_D static void load(const char *tile, int t, Word &o) {
    uint2 v = ldx8(tile + (size_t)t * 8);
    o.w = (uint64_t)v.x | ((uint64_t)v.y << 32);
    o.s = bits_f32(ldx4(tile + kCodeBytes + (size_t)(t >> 2) * 4));
  }
};

/* fp: the values themselves in the wire type WDT. */
template <int WDT>
struct FpCodec {
  typedef Elem<WDT> E;
  typedef typename E::Raw Word;
  static constexpr uint32_t kTileBytes = ARC_TILE_ELEMS * E::kBytes;
  ARC_D static void encode(const float *x, int lane, Word &o) {
    (void)lane;
    E::narrow(x, o);
  }
  ARC_D static void decode(const Word &o, int lane, float *y) {
    (void)lane;
    E::widen(o, y);
  }
  ARC_D static void store(char *tile, int t, const Word &o) { E::put(tile, t, o); }
  ARC_D static void load(const char *tile, int t, Word &o) { o = E::fetch(tile, t); }
};

/* fp of bf16 data under the cast: tile [scaled f16 (or bf16) values: 256
 * lanes x 16 bytes][E: 64 blocks x 1 byte]. */
struct CastCodec {
  struct Word {
    uint4 v;
    uint32_t e;
  };
  static constexpr uint32_t kCodeBytes = ARC_TILE_ELEMS * 2;
  static constexpr uint32_t kTileBytes = kCodeBytes + ARC_TILE_BLOCKS;
  ARC_D static CastRange shfl_range(CastRange r, int m) {
    CastRange o;
    o.lo = shfl_xor(r.lo, m);
    o.hi = shfl_xor(r.hi, m);
    return o;
  }
  ARC_D static void encode(const float *x, int lane, Word &o) {
    (void)lane;
    CastRange r = cast_range(x);
    r = cast_range_merge(r, shfl_range(r, 1));
    r = cast_range_merge(r, shfl_range(r, 2));
    o.e = cast_exponent(r);
    cast_encode(x, o.e, (uint32_t *)&o.v);
  }
  ARC_D static void decode(const Word &o, int lane, float *y) {
    (void)lane;
    cast_decode((const uint32_t *)&o.v, o.e, y);
  }
  ARC_D static void store(char *tile, int t, const Word &o) {
    ((uint4 *)tile)[t] = o.v;
    if ((t & 3) == 0) ((uint8_t *)(tile + kCodeBytes))[t >> 2] = (uint8_t)o.e;
  }
  ARC_D static void load(const char *tile, int t, Word &o) {
    o.v = ldx16(tile + (size_t)t * 16);
    const uint32_t b = (uint32_t)(t >> 2); /* the codec block; its byte is read in the aligned word */
    o.e = (ldx4(tile + kCodeBytes + (b & ~3u)) >> (8 * (b & 3u))) & 0xFFu;
  }
};

/* ---- calls, epochs, flags and failures ---- */

/* What a block knows of its call: its epoch (the number of calls it took
 * part in: for block 0, which takes part in every call, the call's sequence
 * number) and whether the communicator has already failed. */
struct Call {
  uint32_t e;
  bool dead;
};

/* The header every flag of the call carries beside it: the block's epoch,
 * the call's fingerprint (arc_internal.h) and the block. */
ARC_D uint4 call_header(const KernelArgs &a, const Call &c) {
  return make_uint4(c.e, a.desc_y, a.desc_z, blockIdx.x);
}

ARC_D Call begin_call(const KernelArgs &a) {
  __shared__ uint32_t s_epoch, s_dead;
  if (threadIdx.x == 0) {
    s_epoch = a.epochs[blockIdx.x] + 1u;
    s_dead = *(volatile uint32_t *)&a.state[ARC_ST_FAILED];
  }
  __syncthreads();
  Call c;
  c.e = s_epoch;
  c.dead = s_dead != 0;
  return c;
}

/* The block's epoch is kept on the device, by the kernel: a captured graph
 * replays correctly. */
ARC_D void end_call(const KernelArgs &a, const Call &c) {
  if (threadIdx.x == 0) a.epochs[blockIdx.x] = c.e;
}

/* Failures. Every rank keeps its failure record (ARC_REC_WORDS) in its own
 * flag memory at abort_f, where its peers can read it, and a copy in mapped
 * host memory for the host (a.record). A rank that gives up (a timeout, a
 * peer's call that differs) writes both once; a rank waiting for a peer
 * reads, now and then, the record of the peer it waits for and adopts it,
 * so a failure spreads along the waits to every rank, with the same
 * message. These run rarely: out of line, with plain pointers (a reference
 * to the kernel's arguments would copy them to the stack in every kernel). */
static __device__ __noinline__ void publish(uint32_t *slot, uint32_t *host, const uint32_t *rec) {
  for (int i = 1; i < ARC_REC_WORDS; i++) {
    ((volatile uint32_t *)slot)[i] = rec[i];
    ((volatile uint32_t *)host)[i] = rec[i];
  }
  __threadfence_system();
  st_release_sys(slot, rec[ARC_REC_KIND]);
  ((volatile uint32_t *)host)[ARC_REC_KIND] = rec[ARC_REC_KIND];
  __threadfence_system();
}

/* This rank failed: the first failure of the rank's blocks wins and is published. */
static __device__ __noinline__ void fail_call(uint32_t *state, uint32_t *slot, uint32_t *host, uint32_t kind,
                                              uint32_t ranks, uint4 mine, uint4 theirs) {
  if (atomicCAS(&state[ARC_ST_FAILED], 0u, kind) != 0u) return;
  const uint32_t rec[ARC_REC_WORDS] = {kind, ranks, mine.x, mine.y, mine.z, theirs.x, theirs.y, theirs.z};
  publish(slot, host, rec);
}

/* Whether the communicator failed: this rank's word, or the record of the
 * peer it waits for, which this rank then adopts as its own. */
static __device__ __noinline__ bool failed(uint32_t *state, uint32_t *slot, uint32_t *host, const uint32_t *peer_slot) {
  if (*(volatile uint32_t *)&state[ARC_ST_FAILED] != 0u) return true;
  const uint32_t kind = ld_acquire_sys(peer_slot);
  if (kind == 0u) return false;
  if (atomicCAS(&state[ARC_ST_FAILED], 0u, kind) == 0u) {
    uint32_t rec[ARC_REC_WORDS];
    rec[ARC_REC_KIND] = kind;
    for (int i = 1; i < ARC_REC_WORDS; i++) rec[i] = ((const volatile uint32_t *)peer_slot)[i];
    publish(slot, host, rec);
  }
  return true;
}

/* A peer's call differs from this one. Block 0 reports it; another block
 * waits up to 1 ms for a report (block 0's, or one this rank adopted)
 * before it reports its own. */
static __device__ __noinline__ void mismatch(uint32_t *state, uint32_t *slot, uint32_t *host, uint32_t ranks, uint4 mine,
                                             uint4 theirs) {
  if (blockIdx.x != 0) {
    const uint64_t start = clock_ns();
    while (*(volatile uint32_t *)&state[ARC_ST_FAILED] == 0u && clock_ns() - start < 1000000u) pause_briefly();
  }
  fail_call(state, slot, host, ARC_ERR_MISMATCH, ranks, mine, theirs);
}

/* The header of flag idx (an index into a rank's flags) for epoch e. Headers
 * alternate by epoch parity: a sender is at most one epoch of the block ahead
 * of a receiver still reading (docs/KERNELS.md), so a header is never
 * overwritten before it is read. */
ARC_D uint32_t *header(const KernelArgs &a, uint32_t *flags, uint32_t idx, uint32_t e) {
  return flags + a.lay.hdr_f + ((e & 1u) * a.lay.nflag + idx) * 4u;
}

/* Flags are 64 bits: the epoch, and in the high word a hash of the call's
 * fingerprint (desc_hash), so that a receiver that finds the epoch it waits
 * for and the hash of its own call needs no further load. */
ARC_D uint64_t *flag(uint32_t *flags, uint32_t idx) { return (uint64_t *)flags + idx; }

/* Post epoch e at rank r's flag idx after the block's stores, with this
 * call's header beside it. The block's barrier before the call orders the
 * other threads' stores before this thread's release at system scope (the PTX
 * memory model's causality order is transitive), so CUDA needs no separate
 * __threadfence_system(); dropping it took oneshot at 4 KB from 4.5 to 3.9 us
 * and twoshot fp at 64 MB from 212 to 206 us (docs/KERNELS.md). HIP keeps one
 * in st_release_sys (arc_port.h). The header is this thread's own store
 * before the release. */
ARC_D void post(const KernelArgs &a, const Call &c, int r, uint32_t idx) {
  *(uint4 *)header(a, a.f[r], idx, c.e) = call_header(a, c);
  st_release_sys64(flag(a.f[r], idx), (uint64_t)c.e | (uint64_t)a.desc_hash << 32);
}

/* Wait until this rank's flag idx, posted by peer, has reached epoch e
 * (wrap-safe), then check the peer's call against this one: the hash in the
 * flag when it holds exactly e, else (the peer is a call ahead, or the hash
 * differs) the header. Returns false when the communicator failed: a
 * timeout, a call that differs, or a failure the peer recorded or adopted.
 * Block 0, in every call, reports failures: other blocks give it a little
 * time (its record names the call by its sequence number). */
ARC_D bool wait_peer(const KernelArgs &a, const Call &c, int peer, uint32_t idx) {
  if (a.nowait) return true; /* profiling only (ARC_DEBUG_NOWAIT) */
  uint32_t *mine = a.f[a.rank];
  const uint64_t *f = flag(mine, idx);
  const uint32_t ranks = (uint32_t)a.rank | (uint32_t)peer << 8 | blockIdx.x << 16;
  const uint64_t limit = a.timeout_ns + (blockIdx.x ? 2000000u : 0u);
  uint32_t spins = 0;
  uint64_t start = 0, v;
  while ((int32_t)((uint32_t)(v = ld_acquire_sys64(f)) - c.e) < 0) {
    if (++spins < 256) continue;
    pause_briefly();
    if ((spins & 255u) != 0) continue;
    if (failed(a.state, mine + a.lay.abort_f, a.record, a.f[peer] + a.lay.abort_f)) return false;
    if (a.timeout_ns == 0) continue;
    uint64_t now = clock_ns();
    if (start == 0) start = now;
    if (now - start > limit) {
      fail_call(a.state, mine + a.lay.abort_f, a.record, ARC_ERR_TIMEOUT, ranks, call_header(a, c),
                make_uint4(0u, 0u, 0u, 0u));
      return false;
    }
  }
  if ((uint32_t)v == c.e && (uint32_t)(v >> 32) == a.desc_hash) return true;
  const uint4 h = ldx16(header(a, mine, idx, c.e));
  if (h.x == c.e && h.y == a.desc_y && h.z == a.desc_z) return true;
  mismatch(a.state, mine + a.lay.abort_f, a.record, ranks, call_header(a, c), h);
  return false;
}

/* Thread i < count (skipping `skip`) waits for peer0 + i at flag
 * idx0 + i * grid; the block proceeds together, or learns together that the
 * call failed. */
ARC_D bool wait_all(const KernelArgs &a, const Call &c, uint32_t idx0, int count, int skip, int peer0) {
  const int i = threadIdx.x;
  bool ok = true;
  if (i < count && i != skip) ok = wait_peer(a, c, peer0 + i, idx0 + (uint32_t)i * (uint32_t)a.grid);
  return __syncthreads_and(ok) != 0;
}

/* A failed call's output: the block fills the elements it would have written
 * with NaN, so no result of a failed call passes for a sum. parts is the
 * number of owner chunks (0: oneshot's tiles of the whole buffer). */
template <int DT>
__device__ __noinline__ void fill_nan(void *out, uint64_t n, bool vec, int parts) {
  typedef Elem<DT> E;
  typename E::Raw r;
  uint32_t *w = (uint32_t *)r.v;
  const uint32_t nan = DT == ARC_F32 ? 0x7FC00000u : DT == ARC_F16 ? 0x7E007E00u : 0x7FC07FC0u;
  for (int k = 0; k < E::kVec * 4; k++) w[k] = nan;
  const int t = threadIdx.x, b = blockIdx.x, G = gridDim.x;
  if (parts == 0) {
    const uint64_t tiles = cdiv(n, ARC_TILE_ELEMS);
    for (uint64_t j = b; j < tiles; j += G) {
      const uint64_t e0 = j * ARC_TILE_ELEMS + (uint64_t)t * ARC_LANE;
      if (e0 < n) E::store(out, e0, n, vec, r);
    }
    return;
  }
  const uint64_t nb = cdiv(n, 32);
  for (int p = 0; p < parts; p++) {
    const uint64_t lo = chunk_lo(nb, parts, p), hi = chunk_lo(nb, parts, p + 1);
    const uint64_t tiles = cdiv(hi - lo, ARC_TILE_BLOCKS);
    for (uint64_t j = b; j < tiles; j += G) {
      const uint64_t cb = lo + j * ARC_TILE_BLOCKS + (t >> 2), e0 = cb * 32 + (t & 3) * ARC_LANE;
      if (cb < hi && e0 < n) E::store(out, e0, n, vec, r);
    }
  }
}

/* The end of a failed call's block. */
template <int DT>
ARC_D void give_up(const KernelArgs &a, const Call &c, int parts) {
  fill_nan<DT>(a.out, a.n, a.vec != 0, parts);
  end_call(a, c);
}

/* ---- oneshot: push the raw input to every peer, reduce all in rank order ---- */

template <int DT>
__global__ void __launch_bounds__(ARC_THREADS, ARC_BLOCKS_PER_SM) oneshot_kernel(KernelArgs a) {
  typedef Elem<DT> E;
  const int t = threadIdx.x, b = blockIdx.x, G = gridDim.x, W = a.world, me = a.rank;
  const Call c = begin_call(a);
  if (c.dead) return give_up<DT>(a, c, 0);
  const uint64_t par = c.e & 1u;
  const uint64_t tiles = cdiv(a.n, ARC_TILE_ELEMS);
  const uint64_t tile_bytes = (uint64_t)ARC_TILE_ELEMS * E::kBytes;
  /* slot s of rank r, this block: where sender s puts its tiles */
  auto slot = [&](int r, int s) {
    return a.x[r] + a.lay.one_x + ((par * W + s) * a.grid + b) * a.lay.one_cap;
  };

  for (uint64_t j0 = b; j0 < tiles; j0 += (uint64_t)ARC_UNROLL * G) {
    typename E::Raw raw[ARC_UNROLL];
    for (int u = 0; u < ARC_UNROLL; u++) {
      uint64_t j = j0 + (uint64_t)u * G;
      if (j < tiles) raw[u] = E::load(a.in, j * ARC_TILE_ELEMS + (uint64_t)t * ARC_LANE, a.n, a.vec);
    }
    for (int d = 1; d < W; d++) {
      int r = (me + d) % W;
      for (int u = 0; u < ARC_UNROLL; u++) {
        uint64_t j = j0 + (uint64_t)u * G;
        if (j < tiles) E::put(slot(r, me) + (j / G) * tile_bytes, t, raw[u]);
      }
    }
  }
  __syncthreads();
  if (t < W && t != me) post(a, c, t, a.lay.call_f + (uint32_t)(me * a.grid + b));
  if (!wait_all(a, c, a.lay.call_f + b, W, me, 0)) return give_up<DT>(a, c, 0);

  for (uint64_t j = b; j < tiles; j += G) {
    const uint64_t e0 = j * ARC_TILE_ELEMS + (uint64_t)t * ARC_LANE;
    typename E::Raw raw[8];
#pragma unroll
    for (int s = 0; s < 8; s++) {
      if (s >= W) break;
      raw[s] = s == me ? E::load(a.in, e0, a.n, a.vec) : E::fetch(slot(me, s) + (j / G) * tile_bytes, t);
    }
    float acc[ARC_LANE], v[ARC_LANE];
    E::widen(raw[0], acc);
#pragma unroll
    for (int s = 1; s < 8; s++) {
      if (s >= W) break;
      E::widen(raw[s], v);
      for (int i = 0; i < ARC_LANE; i++) acc[i] = fadd(acc[i], v[i]);
    }
    typename E::Raw o;
    E::narrow(acc, o);
    if (e0 < a.n) E::store(a.out, e0, a.n, a.vec, o);
  }
  end_call(a, c);
}

/* ---- shared steps of the codec algorithms ---- */

/* How many tiles of chunk [lo, hi) block b handles: tiles j = b + k G. */
ARC_D uint64_t block_tiles(uint64_t lo, uint64_t hi) {
  const uint64_t tiles = cdiv(hi - lo, ARC_TILE_BLOCKS), b = blockIdx.x, G = gridDim.x;
  return tiles > b ? (tiles - b + G - 1) / G : 0;
}

/* Encode this rank's input for block b's tiles of chunk [lo, hi) and put
 * them in dst (the block's region of a peer's slot), its k-th at k tiles. */
template <int DT, class C>
ARC_D void push_chunk(const KernelArgs &a, uint64_t lo, uint64_t hi, char *dst) {
  typedef Elem<DT> E;
  const int t = threadIdx.x, b = blockIdx.x, G = gridDim.x, lane = t & 3;
  const uint64_t k1 = block_tiles(lo, hi);
  for (uint64_t k = 0; k < k1; k += ARC_UNROLL) {
    typename E::Raw raw[ARC_UNROLL];
    for (int u = 0; u < ARC_UNROLL; u++) {
      uint64_t cb = lo + (b + (k + u) * G) * ARC_TILE_BLOCKS + (t >> 2);
      if (k + u < k1) raw[u] = E::load(a.in, cb * 32 + lane * ARC_LANE, cb < hi ? a.n : 0, a.vec);
    }
    for (int u = 0; u < ARC_UNROLL; u++) {
      uint64_t cb = lo + (b + (k + u) * G) * ARC_TILE_BLOCKS + (t >> 2);
      if (k + u >= k1) break; /* uniform across the block */
      float x[ARC_LANE];
      E::widen(raw[u], x);
      typename C::Word w;
      C::encode(x, lane, w);
      if (cb < hi) C::store(dst + (k + u) * C::kTileBytes, t, w);
    }
  }
}

/* Decode block b's tiles of chunk [lo, hi) that src (this block's region of
 * a slot) holds and write them to the output. */
template <int DT, class C>
ARC_D void pull_chunk(const KernelArgs &a, uint64_t lo, uint64_t hi, const char *src) {
  typedef Elem<DT> E;
  const int t = threadIdx.x, b = blockIdx.x, G = gridDim.x, lane = t & 3;
  const uint64_t k1 = block_tiles(lo, hi);
  for (uint64_t k = 0; k < k1; k += ARC_UNROLL) {
    typename C::Word w[ARC_UNROLL];
    for (int u = 0; u < ARC_UNROLL; u++) {
      uint64_t cb = lo + (b + (k + u) * G) * ARC_TILE_BLOCKS + (t >> 2);
      if (k + u < k1 && cb < hi) C::load(src + (k + u) * C::kTileBytes, t, w[u]);
    }
    for (int u = 0; u < ARC_UNROLL; u++) {
      uint64_t cb = lo + (b + (k + u) * G) * ARC_TILE_BLOCKS + (t >> 2);
      if (k + u >= k1) break;
      float y[ARC_LANE];
      C::decode(w[u], lane, y); /* every lane decodes: int4r shuffles */
      typename E::Raw o;
      E::narrow(y, o);
      uint64_t e0 = cb * 32 + lane * ARC_LANE;
      if (cb < hi && e0 < a.n) E::store(a.out, e0, a.n, a.vec, o);
    }
  }
}

/* Sum, in rank order, the decoded contributions of `count` senders to tile j
 * of chunk [lo, hi): slot(s) is sender s's region, or null for this rank's
 * own input, which is encoded and decoded here. */
template <int DT, class C, class Slot>
ARC_D void reduce_tile(const KernelArgs &a, uint64_t lo, uint64_t hi, uint64_t j, int count, Slot slot,
                       float *acc) {
  typedef Elem<DT> E;
  const int t = threadIdx.x, G = gridDim.x, lane = t & 3;
  const uint64_t cb = lo + j * ARC_TILE_BLOCKS + (t >> 2);
  /* Fixed trip counts keep w[] in registers; count is uniform in the block. */
  typename C::Word w[8];
#pragma unroll
  for (int s = 0; s < 8; s++) {
    if (s >= count) break;
    const char *src = slot(s);
    if (src == nullptr) {
      float x[ARC_LANE];
      E::widen(E::load(a.in, cb * 32 + lane * ARC_LANE, cb < hi ? a.n : 0, a.vec), x);
      C::encode(x, lane, w[s]);
    } else if (cb < hi) {
      C::load(src + (j / G) * C::kTileBytes, t, w[s]);
    }
  }
  float v[ARC_LANE];
  C::decode(w[0], lane, acc);
#pragma unroll
  for (int s = 1; s < 8; s++) {
    if (s >= count) break;
    C::decode(w[s], lane, v);
    for (int i = 0; i < ARC_LANE; i++) acc[i] = fadd(acc[i], v[i]);
  }
}

/* A short last block encodes its missing positions as +0, whatever a decode
 * left there (int4r's inverse rotation spreads values into them). */
ARC_D void clear_padding(float *v, uint64_t e0, uint64_t n) {
  if (e0 + ARC_LANE <= n) return; /* every atom but the last */
  for (int i = 0; i < ARC_LANE; i++)
    if (e0 + i >= n) v[i] = 0.0f;
}

/* Encode a reduced tile, write its decoded value to the output and return the
 * encoded word for the peers: every rank decodes the same bytes. */
template <int DT, class C>
ARC_D typename C::Word finish_tile(const KernelArgs &a, uint64_t lo, uint64_t hi, uint64_t j, float *acc) {
  typedef Elem<DT> E;
  const int t = threadIdx.x, lane = t & 3;
  const uint64_t cb = lo + j * ARC_TILE_BLOCKS + (t >> 2);
  clear_padding(acc, cb * 32 + lane * ARC_LANE, a.n);
  typename C::Word w;
  C::encode(acc, lane, w);
  float y[ARC_LANE];
  C::decode(w, lane, y);
  typename E::Raw o;
  E::narrow(y, o);
  uint64_t e0 = cb * 32 + lane * ARC_LANE;
  if (cb < hi && e0 < a.n) E::store(a.out, e0, a.n, a.vec, o);
  return w;
}

/* ---- twoshot: reduce-scatter and all-gather, each through the codec ---- */

/* Tiles a twoshot block reduces at once: their loads are in flight together.
 * The world-2 kernel (WT = 2) has registers for 4 (2 for f32 and int4r);
 * the any-world one (WT = 0) keeps one tile of up to 8 senders. */
template <int DT, class C, int WT>
struct ReduceShape {
  static constexpr int kWorld = WT ? WT : ARC_MAX_WORLD;
  static constexpr int kTiles = WT != 2 ? 1 : (DT == ARC_F32 || std::is_same<C, Int4RCodec>::value) ? 2 : 4;
};

/* Reduce block b's tiles of the own chunk [lo, hi): the senders' phase-1
 * words (p1(s)) and the own input, encoded here, decoded and summed in rank
 * order; the sum goes to the output, and encoded to every peer (p2(r)). */
template <int DT, class C, int WT, class P1, class P2>
ARC_D void reduce_own(const KernelArgs &a, uint64_t lo, uint64_t hi, P1 p1, P2 p2) {
  typedef Elem<DT> E;
  typedef ReduceShape<DT, C, WT> R;
  const int t = threadIdx.x, b = blockIdx.x, G = gridDim.x, lane = t & 3, W = WT ? WT : a.world, me = a.rank;
  const uint64_t k1 = block_tiles(lo, hi);
  for (uint64_t k = 0; k < k1; k += R::kTiles) {
    /* Fixed trip counts keep these in registers; k1 and W are uniform in the block. */
    typename E::Raw own[R::kTiles];
    typename C::Word w[R::kTiles][R::kWorld];
#pragma unroll
    for (int u = 0; u < R::kTiles; u++) {
      if (k + u >= k1) break;
      const uint64_t cb = lo + (b + (k + u) * G) * ARC_TILE_BLOCKS + (t >> 2);
      own[u] = E::load(a.in, cb * 32 + lane * ARC_LANE, cb < hi ? a.n : 0, a.vec);
#pragma unroll
      for (int s = 0; s < R::kWorld; s++) {
        if (s >= W) break;
        if (s != me && cb < hi) C::load(p1(s) + (k + u) * C::kTileBytes, t, w[u][s]);
      }
    }
#pragma unroll
    for (int u = 0; u < R::kTiles; u++) {
      if (k + u >= k1) break;
      const uint64_t j = b + (k + u) * G, cb = lo + j * ARC_TILE_BLOCKS + (t >> 2);
      float acc[ARC_LANE], v[ARC_LANE];
#pragma unroll
      for (int s = 0; s < R::kWorld; s++) {
        if (s >= W) break;
        if (s == me) {
          float x[ARC_LANE];
          E::widen(own[u], x);
          C::encode(x, lane, w[u][s]);
        }
        C::decode(w[u][s], lane, s == 0 ? acc : v);
        if (s > 0)
          for (int i = 0; i < ARC_LANE; i++) acc[i] = fadd(acc[i], v[i]);
      }
      typename C::Word o = finish_tile<DT, C>(a, lo, hi, j, acc);
      if (cb < hi)
        for (int d = 1; d < W; d++) C::store(p2((me + d) % W) + (k + u) * C::kTileBytes, t, o);
    }
  }
}

template <int DT, class C, int WT>
__global__ void __launch_bounds__(ARC_THREADS, ARC_BLOCKS_PER_SM) twoshot_kernel(KernelArgs a) {
  const int t = threadIdx.x, b = blockIdx.x, W = WT ? WT : a.world, me = a.rank;
  const Call c = begin_call(a);
  if (c.dead) return give_up<DT>(a, c, W);
  const uint64_t nb = cdiv(a.n, 32);
  auto lo = [&](int c) { return chunk_lo(nb, W, c); };
  auto p1 = [&](int r, int s) { return a.x[r] + a.lay.p1_x + ((uint64_t)s * a.grid + b) * a.lay.cap; };
  auto p2 = [&](int r, int s) { return a.x[r] + a.lay.p2_x + ((uint64_t)s * a.grid + b) * a.lay.cap; };

  /* 1. each peer's chunk, encoded, into the peer's slot for this rank */
  for (int d = 1; d < W; d++) {
    const int r = (me + d) % W;
    push_chunk<DT, C>(a, lo(r), lo(r + 1), p1(r, me));
  }
  __syncthreads();
  if (t < W && t != me) post(a, c, t, a.lay.call_f + (uint32_t)(me * a.grid + b));
  if (!wait_all(a, c, a.lay.call_f + b, W, me, 0)) return give_up<DT>(a, c, W);

  /* 2. reduce the own chunk in rank order, send it encoded to every peer */
  reduce_own<DT, C, WT>(a, lo(me), lo(me + 1), [&](int s) { return p1(me, s); }, [&](int r) { return p2(r, me); });
  __syncthreads();
  if (t < W && t != me) post(a, c, t, a.lay.p2_f + (uint32_t)(me * a.grid + b));
  if (!wait_all(a, c, a.lay.p2_f + b, W, me, 0)) return give_up<DT>(a, c, W);

  /* 3. decode every other owner's chunk */
  for (int d = 1; d < W; d++) {
    const int r = (me + d) % W;
    pull_chunk<DT, C>(a, lo(r), lo(r + 1), p2(me, r));
  }
  end_call(a, c);
}

/* ---- hier: reduce-scatter in each half, swap half sums with the partner in
 * the other half, all-gather in each half ---- */

template <int DT, class C>
__global__ void __launch_bounds__(ARC_THREADS, ARC_BLOCKS_PER_SM) hier_kernel(KernelArgs a) {
  const int t = threadIdx.x, b = blockIdx.x, G = gridDim.x, W = a.world, me = a.rank;
  const int H = W / 2, g = me / H, i = me % H, partner = (me + H) % W;
  const Call c = begin_call(a);
  if (c.dead) return give_up<DT>(a, c, H);
  const uint64_t par = c.e & 1u;
  const uint64_t nb = cdiv(a.n, 32);
  auto p1 = [&](int r, int s) { return a.x[r] + a.lay.p1_x + ((uint64_t)s * a.grid + b) * a.lay.cap; };
  auto px = [&](int r, int half) {
    return a.x[r] + a.lay.px_x + ((par * 2 + half) * a.grid + b) * a.lay.cap;
  };
  auto p2 = [&](int r, int s) { return a.x[r] + a.lay.p2_x + ((uint64_t)s * a.grid + b) * a.lay.cap; };

  /* 1. reduce-scatter inside the half: chunk m goes to member m */
  for (int d = 1; d < H; d++) {
    int m = (i + d) % H;
    push_chunk<DT, C>(a, chunk_lo(nb, H, m), chunk_lo(nb, H, m + 1), p1(g * H + m, i));
  }
  __syncthreads();
  /* the call flag goes to every rank (the other half's only check the
   * header: a rank there running another algorithm waits for it) */
  if (t < W && t != me) post(a, c, t, a.lay.call_f + (uint32_t)(me * a.grid + b));
  if (!wait_all(a, c, a.lay.call_f + (uint32_t)(g * H * a.grid + b), H, i, g * H)) return give_up<DT>(a, c, H);

  /* 2. the half's sum of chunk i, encoded, to the own and the partner's slot */
  const uint64_t lo = chunk_lo(nb, H, i), hi = chunk_lo(nb, H, i + 1);
  const uint64_t tiles = cdiv(hi - lo, ARC_TILE_BLOCKS);
  for (uint64_t j = b; j < tiles; j += G) {
    float acc[ARC_LANE];
    reduce_tile<DT, C>(a, lo, hi, j, H, [&](int s) -> const char * { return s == i ? nullptr : p1(me, s); }, acc);
    typename C::Word w;
    clear_padding(acc, (lo + j * ARC_TILE_BLOCKS + (t >> 2)) * 32 + (t & 3) * ARC_LANE, a.n);
    C::encode(acc, t & 3, w);
    if (lo + j * ARC_TILE_BLOCKS + (t >> 2) < hi) {
      C::store(px(me, g) + (j / G) * C::kTileBytes, t, w);
      C::store(px(partner, g) + (j / G) * C::kTileBytes, t, w);
    }
  }
  __syncthreads();
  if (t == 0) post(a, c, partner, a.lay.px_f + b);
  if (!wait_all(a, c, a.lay.px_f + b, 1, -1, partner)) return give_up<DT>(a, c, H);

  /* 3. both halves' sums in half order; the result to the half */
  for (uint64_t j = b; j < tiles; j += G) {
    float acc[ARC_LANE];
    reduce_tile<DT, C>(a, lo, hi, j, 2, [&](int half) -> const char * { return px(me, half); }, acc);
    typename C::Word w = finish_tile<DT, C>(a, lo, hi, j, acc);
    if (lo + j * ARC_TILE_BLOCKS + (t >> 2) < hi)
      for (int d = 1; d < H; d++) C::store(p2(g * H + (i + d) % H, i) + (j / G) * C::kTileBytes, t, w);
  }
  __syncthreads();
  if (t < H && t != i) post(a, c, g * H + t, a.lay.p2_f + (uint32_t)(i * a.grid + b));
  if (!wait_all(a, c, a.lay.p2_f + b, H, i, g * H)) return give_up<DT>(a, c, H);

  /* 4. decode the half's other chunks */
  for (int d = 1; d < H; d++) {
    int m = (i + d) % H;
    pull_chunk<DT, C>(a, chunk_lo(nb, H, m), chunk_lo(nb, H, m + 1), p2(me, m));
  }
  end_call(a, c);
}

/* ---- dispatch: dtype x codec to one instantiation of Launch<DT, Codec> ---- */

template <template <int, class> class Launch, int DT>
gpuError_t dispatch_codec(int codec, bool cast, const KernelArgs &a, int blocks, gpuStream_t s) {
  switch (codec) {
  case ARC_CODEC_FP:
    if constexpr (DT == ARC_BF16) {
      if (cast) return Launch<DT, CastCodec>::run(a, blocks, s);
    }
    return Launch<DT, FpCodec<DT> >::run(a, blocks, s);
  case ARC_CODEC_INT8:
    return Launch<DT, IntCodec<8> >::run(a, blocks, s);
  case ARC_CODEC_INT6:
    return Launch<DT, IntCodec<6> >::run(a, blocks, s);
  case ARC_CODEC_INT4:
    return Launch<DT, IntCodec<4> >::run(a, blocks, s);
  case ARC_CODEC_INT4R:
    return Launch<DT, Int4RCodec>::run(a, blocks, s);
  case ARC_CODEC_FP8:
    return Launch<DT, Fp8Codec>::run(a, blocks, s);
  }
  return gpuErrorInvalidValue;
}

/* Launch<DT, C>::run launches with blocks > 0; with blocks == 0 it only
 * loads the kernel (see arc_preload in arc_gpu.cu). */
template <class K>
gpuError_t launch_or_load(K kernel, const KernelArgs &a, int blocks, gpuStream_t s) {
  if (blocks == 0) {
    gpuFuncAttributes attr;
    return gpuFuncGetAttributes(&attr, (const void *)kernel);
  }
  kernel<<<blocks, ARC_THREADS, 0, s>>>(a);
  return gpuGetLastError();
}

template <template <int, class> class Launch>
gpuError_t dispatch(int dtype, int codec, bool cast, const KernelArgs &a, int blocks, gpuStream_t s) {
  switch (dtype) {
  case ARC_F16:
    return dispatch_codec<Launch, ARC_F16>(codec, cast, a, blocks, s);
  case ARC_BF16:
    return dispatch_codec<Launch, ARC_BF16>(codec, cast, a, blocks, s);
  case ARC_F32:
    return dispatch_codec<Launch, ARC_F32>(codec, cast, a, blocks, s);
  }
  return gpuErrorInvalidValue;
}

#endif
