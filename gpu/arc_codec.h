/* arc_codec.h: the arithmetic of docs/FORMATS.md's codecs, per lane.
 *
 * A codec block of 32 values is held by a group of 4 consecutive threads
 * ("lanes"), 8 consecutive values each: lane p holds values 8p..8p+7. The
 * steps below are what one lane computes; the few values a lane needs from
 * the other three (block maximum, cross-lane Hadamard stages) are combined
 * by the caller: shuffles in the kernels (arc_kernels.cuh), plain loops in
 * the CPU check (gputest). Every function compiles for CUDA, HIP and the host.
 *
 * A lane's 8 codes of BITS bits are packed least-significant bit first into
 * one 64-bit word (lo, hi halves), so the 4 lanes' words laid end to end are
 * the canonical code bytes of the block.
 */
#ifndef ARC_CODEC_H
#define ARC_CODEC_H

#include "arc_port.h"

#define ARC_LANE 8 /* values per lane */

/* ---- integer codecs (int8, int6, int4) ---- */

struct IntStats {
  float mx, mn; /* largest and smallest value; both NaN if a value is NaN */
};

ARC_FN IntStats int_stats(const float *x) {
  IntStats s = {x[0], x[0]};
  for (int i = 1; i < ARC_LANE; i++) {
    s.mx = fmax_nan(s.mx, x[i]);
    s.mn = fmin_nan(s.mn, x[i]);
  }
  return s;
}

ARC_FN IntStats int_stats_merge(IntStats a, IntStats b) {
  IntStats s = {fmax_nan(a.mx, b.mx), fmin_nan(a.mn, b.mn)};
  return s;
}

/* A value is NaN or +-Inf. mx and mn are read only where every value is
 * finite, where they are exact whatever the order; only the sign of a zero
 * maximum can differ, and a block whose largest magnitude is zero has scale
 * +0 either way. */
ARC_FN bool int_bad(IntStats s) { return !range_finite(s.mx, s.mn); }

/* The signed value of largest magnitude; a tie picks the negative one. */
ARC_FN float signed_max(IntStats st) { return st.mx > -st.mn ? st.mx : st.mn; }

/* f16 of v, rounded to nearest even and clamped to +-65504 (never Inf). */
ARC_FN uint16_t f16c(float v) { return f32_to_f16(v > 65504.0f ? 65504.0f : (v < -65504.0f ? -65504.0f : v)); }

/* rne(v) + B for v in [-B, B - 1] (B even), in floating-point adds: v + (B +
 * 1.5 * 2^23) rounds to an integer in the one IEEE add (nearest, ties to
 * even: B is even, so the parity is v's), and the code is the low bits of
 * the sum, whose exponent is fixed. The conversions (float)int and
 * (int)rne(v) go through a slower pipe. */
#define ARC_ROUND_BITS 0x4B400000u /* the sum's bits less the code: 1.5 * 2^23 */
ARC_FN uint32_t round_sum(float v, int B) { return f32_bits(fadd(v, 12582912.0f + (float)B)); }
ARC_FN uint32_t round_code(float v, int B) { return round_sum(v, B) - ARC_ROUND_BITS; }

/* (float)(c - B) for a code c < 2^23, exact: 2^23 + c minus 2^23 + B;
 * code_bits_value takes 2^23 + c as f32 bits. */
ARC_FN float code_bits_value(uint32_t bits, int B) { return fsub(bits_f32(bits), 8388608.0f + (float)B); }
ARC_FN float code_value(uint32_t c, int B) { return code_bits_value(0x4B000000u | c, B); }

/* int_scale turns the block's stats into the stored f16 scale (bits) and its
 * value. NaN scale (0x7E00) marks a non-finite block; a zero scale is +0. */
template <int BITS>
ARC_FN uint16_t int_scale(IntStats st, float *scale) {
  const float B = (float)(1 << (BITS - 1));
  const uint16_t s16 = f16c(fmul(signed_max(st), -1.0f / B)); /* m / -B: B is a power of two, the product exact */
  const float s = f16_to_f32(s16);
  const bool bad = int_bad(st), zero = s == 0.0f;
  *scale = bad ? f16_to_f32(0x7E00) : zero ? 0.0f : s;
  return bad ? (uint16_t)0x7E00 : zero ? (uint16_t)0 : s16;
}

/* Codes are packed from round_sum's sums as they are, ARC_ROUND_BITS + c: each
 * lane's constant part, shifted with it, adds the same K to the word (mod
 * 2^32 per half), which is subtracted once; the codes' fields do not overlap,
 * so no carry crosses them. sum[i] is the f32 bits of code i. */
template <int BITS>
ARC_FN uint64_t pack_codes(const uint32_t *sum) {
  const uint32_t c0 = ARC_ROUND_BITS;
  uint32_t lo = 0, hi = 0, klo = 0, khi = 0;
  for (int i = 0; i < ARC_LANE; i++) {
    const int at = BITS * i;
    if (at < 32) {
      lo += sum[i] << at;
      klo += c0 << at;
    }
    if (at + BITS > 32) { /* the high part of the code: c0's low bits are zero, so the shift keeps it whole */
      hi += at < 32 ? sum[i] >> (32 - at) : sum[i] << (at - 32);
      khi += at < 32 ? c0 >> (32 - at) : c0 << (at - 32);
    }
  }
  return (uint64_t)(lo - klo) | (uint64_t)(hi - khi) << 32;
}

/* int_codes packs a lane's 8 codes; s is the value int_scale returned. */
template <int BITS>
ARC_FN uint64_t int_codes(const float *x, float s) {
  const int B = 1 << (BITS - 1);
  const bool plain = s != 0.0f && s == s; /* zero or NaN scale: every code is B */
  const float r = plain ? frcp_normal(s) : 0.0f; /* s is an f16 value */
  const float lo = (float)(-B), hi = (float)(B - 1);
  uint32_t sum[ARC_LANE];
  for (int i = 0; i < ARC_LANE; i++) /* clamping first rounds the same */
    sum[i] = round_sum(fclamp(fmul(x[i], r), lo, hi), B);
  uint64_t all_b = 0;
  for (int i = 0; i < ARC_LANE; i++) all_b |= (uint64_t)B << (BITS * i);
  return plain ? pack_codes<BITS>(sum) : all_b;
}

/* 2^23 + c for code i of a lane's word, as f32 bits; int8's in one byte
 * permute (its code bytes and the exponent byte of 0x4B000000). */
template <int BITS>
ARC_FN uint32_t code_bits(uint64_t w, int i) {
  if (BITS == 8) {
    const uint32_t half = (uint32_t)(w >> (32 * (i >> 2)));
    return byte_perm(half, 0x4B000000u, (uint32_t)(i & 3) | 0x7440u);
  }
  return 0x4B000000u | ((uint32_t)(w >> (BITS * i)) & ((1u << BITS) - 1u));
}

template <int BITS>
ARC_FN void int_decode(uint64_t w, float s, float *y) {
  for (int i = 0; i < ARC_LANE; i++) y[i] = fmul(code_bits_value(code_bits<BITS>(w, i), 1 << (BITS - 1)), s);
}

/* ---- fp8: e4m3 codes with an f32 scale ---- */

/* ARC_E4M3_HW: e4m3 by the hardware's conversions, CUDA device code for
 * sm_89 and up (Ada, Hopper, Blackwell); the host pass of nvcc reads them
 * too. Device code for sm_80 and sm_86, and the compute_80 PTX the driver
 * compiles for GPUs without their own code (docs/KERNELS.md,
 * "Architectures"), take the integer code below, as HIP and the host do:
 * cuda_fp8.h would emulate the conversions there through f64, which GA10x
 * runs at 1/64 of the f32 rate. Both give the hardware's bits for every f32
 * and every code (checked exhaustively against cuda_fp8.h's emulation). */
#if ARC_CUDA && (!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 890)
#define ARC_E4M3_HW 1
#else
#define ARC_E4M3_HW 0
#endif

#if ARC_E4M3_HW
/* The hardware conversions (sm_89 and up) are the definition. */
ARC_FN uint32_t e4m3_from_f32(float f) { return __nv_cvt_float_to_fp8(f, __NV_SATFINITE, __NV_E4M3); }
ARC_FN float e4m3_to_f32(uint32_t c) {
  return __half2float(__half(__nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)c, __NV_E4M3)));
}
#else
/* e4m3 of f, nearest even, saturating to +-448, NaN to 0x7F. */
ARC_FN uint32_t e4m3_from_f32(float f) {
  uint32_t b = f32_bits(f);
  uint32_t sign = (b >> 24) & 0x80u;
  uint32_t a = b & 0x7FFFFFFFu;
  uint32_t e = a >> 23;
  if (a > 0x7F800000u) return 0x7Fu;
  if (a > 0x43E00000u) return sign | 0x7Eu; /* above 448, Inf included */
  if (e >= 121) {                             /* normal: rebias 127 -> 7, keep 3 bits */
    uint32_t m = a - (120u << 23);
    uint32_t q = (m + 0x7FFFFu + ((m >> 20) & 1u)) >> 20;
    return sign | q;
  }
  if (e >= 116) { /* subnormal k * 2^-9 */
    uint32_t m = (a & 0x7FFFFFu) | 0x800000u;
    uint32_t sh = 141u - e; /* 21..25 */
    uint32_t half = 1u << (sh - 1);
    uint32_t rest = m & ((1u << sh) - 1u);
    uint32_t q = m >> sh;
    if (rest > half || (rest == half && (q & 1u))) q++;
    return sign | q;
  }
  return sign;
}

ARC_FN float e4m3_to_f32(uint32_t c) {
  uint32_t sign = (c & 0x80u) << 24;
  uint32_t e = (c >> 3) & 0xFu, m = c & 7u;
  if (e == 0xFu && m == 7u) return bits_f32(0x7FC00000u);
  if (e == 0) { /* m * 2^-9, exact */
    float v = fmul((float)m, 0.001953125f);
    return bits_f32(f32_bits(v) | sign);
  }
  return bits_f32(sign | ((e + 120u) << 23) | (m << 20));
}
#endif

struct Fp8Stats {
  float a; /* largest magnitude; NaN if a value is NaN */
};

ARC_FN Fp8Stats fp8_stats(const float *x) {
  Fp8Stats s = {0.0f};
  for (int i = 0; i < ARC_LANE; i++) s.a = fmax_nan(s.a, bits_f32(f32_bits(x[i]) & 0x7FFFFFFFu));
  return s;
}

ARC_FN Fp8Stats fp8_stats_merge(Fp8Stats x, Fp8Stats y) {
  Fp8Stats s = {fmax_nan(x.a, y.a)};
  return s;
}

/* The block's scale: NaN for a non-finite block, 0 for zeros, else a/448,
 * at least 2^-126 so that 1/scale stays finite. */
ARC_FN float fp8_scale(Fp8Stats st) {
  if (!range_finite(st.a, 0.0f)) return bits_f32(0x7FC00000u);
  if (st.a == 0.0f) return 0.0f;
  float s = fdiv(st.a, 448.0f);
  const float min_scale = bits_f32(0x00800000u); /* 2^-126 */
  return s > min_scale ? s : min_scale;
}

ARC_FN uint64_t fp8_codes(const float *x, float s) {
  if (!(s > 0.0f)) return 0; /* zero or NaN scale: codes 0 */
  float r = frcp(s);
  uint64_t w = 0;
  for (int i = 0; i < ARC_LANE; i++) w |= (uint64_t)e4m3_from_f32(fmul(x[i], r)) << (8 * i);
  return w;
}

ARC_FN void fp8_decode(uint64_t w, float s, float *y) {
  for (int i = 0; i < ARC_LANE; i++) y[i] = fmul(e4m3_to_f32((uint32_t)(w >> (8 * i)) & 0xFFu), s);
}

/* ---- fp under the cast: bf16 as f16 scaled by 2^(E-127) per block ----
 * E comes from the block's largest finite nonzero magnitude, so that it
 * scales into [2^14, 2^15); E = 0 sends a block whose magnitudes span more
 * than ARC_CAST_SPAN binades as bf16. A lane packs its 8 values in pairs
 * into 4 words, as Elem does. */

#define ARC_CAST_SPAN 31

struct CastRange {
  uint32_t lo, hi; /* smallest and largest finite nonzero magnitude, as bits (lo > hi: none) */
};

ARC_FN CastRange cast_range(const float *x) {
  CastRange r = {0x7F800000u, 0u};
  for (int i = 0; i < ARC_LANE; i++) {
    uint32_t m = f32_bits(x[i]) & 0x7FFFFFFFu;
    if (m != 0u && m < 0x7F800000u) {
      r.lo = m < r.lo ? m : r.lo;
      r.hi = m > r.hi ? m : r.hi;
    }
  }
  return r;
}

ARC_FN CastRange cast_range_merge(CastRange a, CastRange b) {
  CastRange r;
  r.lo = b.lo < a.lo ? b.lo : a.lo;
  r.hi = b.hi > a.hi ? b.hi : a.hi;
  return r;
}

/* E of a block: 0 (bf16) for a span of more than ARC_CAST_SPAN binades, else
 * 1..240, which keeps 2^(E-127) and 2^(127-E) normal. */
ARC_FN uint32_t cast_exponent(CastRange r) {
  if (r.lo <= r.hi && (r.lo >> 23) + ARC_CAST_SPAN < (r.hi >> 23)) return 0u;
  const uint32_t ea = r.hi >> 23;
  return (ea > 15u ? ea : 15u) - 14u;
}

ARC_FN void cast_encode(const float *x, uint32_t e, uint32_t *w) {
  const float r = bits_f32((254u - e) << 23); /* 2^(127-E); unused for E = 0 */
  for (int i = 0; i < ARC_LANE; i += 2) {
    w[i >> 1] = e ? f32x2_to_f16x2(fmul(x[i], r), fmul(x[i + 1], r))
                  : (uint32_t)f32_to_bf16(x[i]) | (uint32_t)f32_to_bf16(x[i + 1]) << 16;
  }
}

ARC_FN void cast_decode(const uint32_t *w, uint32_t e, float *y) {
  const float s = bits_f32(e << 23); /* 2^(E-127) */
  for (int i = 0; i < ARC_LANE; i++) {
    uint16_t h = (uint16_t)(w[i >> 1] >> (16 * (i & 1)));
    y[i] = e ? fmul(f16_to_f32(h), s) : bf16_to_f32(h);
  }
}

/* ---- int4r: the best of plain, rotated and outlier-split 4-bit codes ----
 * Per block: a 16-bit header H (mode in its two low bits) and a 128-bit
 * payload P; lane l holds 32-bit word l of P. Modes 0 and 1 are int4 codes
 * (of x, of its rotation) under the truncated scale t(f16c(m / -8)); mode 2
 * keeps the two largest magnitudes as f16 and 30 3-bit codes. The encoder
 * keeps the mode whose decoded block has the least squared error. */

#define ARC_ROT_SIGNS 0x6A09E667u
#define ARC_NAN_WORD 0x88888888u /* every int4 code 8 */

ARC_FN uint16_t trunc_mode(uint16_t h) { return (uint16_t)(h & ~3u); }

/* Negate the values whose sign bit is set; lane p holds values 8p..8p+7. */
ARC_FN void rot_flip(float *u, int lane) {
  for (int i = 0; i < ARC_LANE; i++)
    if ((ARC_ROT_SIGNS >> (lane * ARC_LANE + i)) & 1u) u[i] = bits_f32(f32_bits(u[i]) ^ 0x80000000u);
}

/* The transform's stages h = 1, 2, 4 lie inside a lane. */
ARC_FN void fwht_in_lane(float *u) {
  for (int h = 1; h < ARC_LANE; h *= 2)
    for (int i = 0; i < ARC_LANE; i++)
      if ((i & h) == 0) {
        float a = u[i], b = u[i + h];
        u[i] = fadd(a, b);
        u[i + h] = fsub(a, b);
      }
}

/* Stages h = 8, 16 pair a lane with lane ^ 1 and lane ^ 2: the lower lane
 * keeps lo + hi, the upper one lo - hi, where other is the partner's values. */
ARC_FN void fwht_across(float *u, const float *other, bool upper) {
  for (int i = 0; i < ARC_LANE; i++) u[i] = upper ? fsub(other[i], u[i]) : fadd(u[i], other[i]);
}

ARC_FN void scale_all(float *u, float k) {
  for (int i = 0; i < ARC_LANE; i++) u[i] = fmul(u[i], k);
}

/* Modes 0 and 1: the truncated int4 scale of a block whose signed largest
 * value is m (bits without the mode; +0 for a zero scale) and its value. */
ARC_FN uint16_t int4r_scale(float m, float *s) {
  uint16_t h = trunc_mode(f16c(fmul(m, -0.125f))); /* m / -8, exact */
  *s = f16_to_f32(h);
  if (*s == 0.0f) {
    *s = 0.0f;
    return 0;
  }
  return h;
}

/* A lane's part of the squared error: ((d_0^2 + d_1^2) + ...) from +0. */
ARC_FN float sq_err_lane(const float *x, const float *y) {
  float e = 0.0f;
  for (int i = 0; i < ARC_LANE; i++) {
    float d = fsub(y[i], x[i]);
    e = fadd(e, fmul(d, d));
  }
  return e;
}

/* Mode 2 ranks magnitudes by key: |x| bits, then the lower index; a key is
 * never 0, so 0 means none. */
struct Top2 {
  uint64_t k1, k2;
  float v1, v2; /* the values at k1, k2 */
};

ARC_FN uint64_t mag_key(float v, int idx) {
  return (((uint64_t)(f32_bits(v) & 0x7FFFFFFFu) << 5) | (uint64_t)(31 - idx)) + 1u;
}
ARC_FN int key_index(uint64_t k) { return 31 - (int)((k - 1u) & 31u); }

ARC_FN Top2 top2_lane(const float *x, int lane) {
  Top2 t = {0, 0, 0.0f, 0.0f};
  for (int i = 0; i < ARC_LANE; i++) {
    uint64_t k = mag_key(x[i], lane * ARC_LANE + i);
    if (k > t.k1) {
      t.k2 = t.k1;
      t.v2 = t.v1;
      t.k1 = k;
      t.v1 = x[i];
    } else if (k > t.k2) {
      t.k2 = k;
      t.v2 = x[i];
    }
  }
  return t;
}

ARC_FN Top2 top2_merge(Top2 a, Top2 b) {
  if (b.k1 > a.k1) {
    Top2 t = b;
    b = a;
    a = t;
  }
  /* a holds the largest key; the second is the larger of a.k2 and b.k1 */
  if (b.k1 > a.k2) {
    a.k2 = b.k1;
    a.v2 = b.v1;
  }
  return a;
}

/* Mode 2's scale of the 30 small values: the top byte of f16c(m / -4),
 * rounded half up; an all-ones exponent steps back; zero is +0. */
ARC_FN uint32_t split_scale(float m, float *s) {
  uint32_t s16 = f16c(fmul(m, -0.25f)); /* m / -4, exact */
  uint32_t h8 = ((s16 + 0x80u) >> 8) & 0xFFu;
  if ((h8 & 0x7Cu) == 0x7Cu) h8--;
  *s = f16_to_f32((uint16_t)(h8 << 8));
  if (*s == 0.0f) {
    *s = 0.0f;
    return 0;
  }
  return h8;
}

/* Stats of a lane's values with positions k1, k2 counted as +0. */
ARC_FN IntStats rest_stats(const float *x, int lane, int k1, int k2) {
  float r[ARC_LANE];
  for (int i = 0; i < ARC_LANE; i++) {
    int idx = lane * ARC_LANE + i;
    r[i] = (idx == k1 || idx == k2) ? 0.0f : x[i];
  }
  return int_stats(r);
}

/* Mode 2, one lane: its 3-bit codes placed in the payload halves (lo, hi),
 * and its decoded values y. x1 and v2 are the kept f16 values. */
ARC_FN void split_lane(const float *x, int lane, int k1, int k2, float s, uint16_t x1, uint16_t v2, uint64_t *lo,
                       uint64_t *hi, float *y) {
  float r = s == 0.0f ? 0.0f : frcp(s);
  *lo = 0;
  *hi = 0;
  for (int i = 0; i < ARC_LANE; i++) {
    int idx = lane * ARC_LANE + i;
    if (idx == k1) {
      y[i] = f16_to_f32(x1);
      continue;
    }
    if (idx == k2) {
      y[i] = f16_to_f32(v2);
      continue;
    }
    int c = 4;
    if (s != 0.0f) {
      float v = fmul(x[i], r);
      v = v < -4.0f ? -4.0f : (v > 3.0f ? 3.0f : v);
      c = (int)round_code(v, 4);
    }
    y[i] = fmul(code_value((uint32_t)c, 4), s);
    int j = idx - (k1 < idx) - (k2 < idx); /* the code's number among the 30 */
    if (j < 10)
      *lo |= (uint64_t)c << (34 + 3 * j);
    else
      *hi |= (uint64_t)c << (3 * (j - 10));
  }
}

/* The payload fields that are not codes, in lo. */
ARC_FN uint64_t split_fields(int k1, int k2, uint16_t v2, uint32_t h8) {
  return (uint64_t)k1 | ((uint64_t)k2 << 5) | ((uint64_t)v2 << 10) | ((uint64_t)h8 << 26);
}

/* Mode 2 decode of one lane from the whole payload (lo, hi). */
ARC_FN void split_decode_lane(uint16_t h, uint64_t lo, uint64_t hi, int lane, float *y) {
  int k1 = (int)(lo & 31u), k2 = (int)((lo >> 5) & 31u);
  float s = f16_to_f32((uint16_t)(((lo >> 26) & 0xFFu) << 8));
  for (int i = 0; i < ARC_LANE; i++) {
    int idx = lane * ARC_LANE + i;
    if (k1 == k2) {
      y[i] = bits_f32(0x7FC00000u);
    } else if (idx == k1) {
      y[i] = f16_to_f32(trunc_mode(h));
    } else if (idx == k2) {
      y[i] = f16_to_f32((uint16_t)(lo >> 10));
    } else {
      int j = idx - (k1 < idx) - (k2 < idx);
      const uint32_t c = (uint32_t)(j < 10 ? (lo >> (34 + 3 * j)) & 7u : (hi >> (3 * (j - 10))) & 7u);
      y[i] = fmul(code_value(c, 4), s);
    }
  }
}

#endif
