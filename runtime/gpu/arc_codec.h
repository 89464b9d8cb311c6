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
  float mx, mn;  /* largest and smallest value */
  uint32_t bad;  /* a value is NaN or +-Inf */
};

ARC_FN IntStats int_stats(const float *x) {
  IntStats s = {x[0], x[0], 0u};
  for (int i = 0; i < ARC_LANE; i++) {
    s.bad |= is_finite_bits(x[i]) ? 0u : 1u;
    s.mx = x[i] > s.mx ? x[i] : s.mx;
    s.mn = x[i] < s.mn ? x[i] : s.mn;
  }
  return s;
}

ARC_FN IntStats int_stats_merge(IntStats a, IntStats b) {
  IntStats s;
  s.mx = b.mx > a.mx ? b.mx : a.mx;
  s.mn = b.mn < a.mn ? b.mn : a.mn;
  s.bad = a.bad | b.bad;
  return s;
}

/* int_scale turns the block's stats into the stored f16 scale (bits) and its
 * value. NaN scale (0x7E00) marks a non-finite block; a zero scale is +0. */
template <int BITS>
ARC_FN uint16_t int_scale(IntStats st, float *scale) {
  const float B = (float)(1 << (BITS - 1));
  if (st.bad) {
    *scale = f16_to_f32(0x7E00);
    return 0x7E00;
  }
  float m = st.mx > -st.mn ? st.mx : st.mn; /* a tie picks the negative one */
  float q = fdiv(m, -B);
  q = q > 65504.0f ? 65504.0f : (q < -65504.0f ? -65504.0f : q);
  uint16_t s16 = f32_to_f16(q);
  float s = f16_to_f32(s16);
  if (s == 0.0f) {
    *scale = 0.0f;
    return 0;
  }
  *scale = s;
  return s16;
}

/* int_codes packs a lane's 8 codes; s is the value int_scale returned. */
template <int BITS>
ARC_FN uint64_t int_codes(const float *x, float s) {
  const int B = 1 << (BITS - 1);
  uint64_t w = 0;
  if (s == 0.0f || s != s) { /* zero or NaN scale: every code is B */
    for (int i = 0; i < ARC_LANE; i++) w |= (uint64_t)B << (BITS * i);
    return w;
  }
  float r = fdiv(1.0f, s);
  const float lo = (float)(-B), hi = (float)(B - 1);
  for (int i = 0; i < ARC_LANE; i++) {
    float v = fmul(x[i], r);
    v = v < lo ? lo : (v > hi ? hi : v); /* clamping first rounds the same */
    int q = (int)rne(v) + B;
    w |= (uint64_t)(uint32_t)q << (BITS * i);
  }
  return w;
}

template <int BITS>
ARC_FN void int_decode(uint64_t w, float s, float *y) {
  const int B = 1 << (BITS - 1);
  const uint64_t mask = (1u << BITS) - 1u;
  for (int i = 0; i < ARC_LANE; i++) {
    int c = (int)((w >> (BITS * i)) & mask);
    y[i] = fmul((float)(c - B), s);
  }
}

/* ---- fp8: e4m3 codes with an f32 scale ---- */

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

struct Fp8Stats {
  float a;      /* largest magnitude */
  uint32_t bad; /* a value is NaN or +-Inf */
};

ARC_FN Fp8Stats fp8_stats(const float *x) {
  Fp8Stats s = {0.0f, 0u};
  for (int i = 0; i < ARC_LANE; i++) {
    s.bad |= is_finite_bits(x[i]) ? 0u : 1u;
    float m = bits_f32(f32_bits(x[i]) & 0x7FFFFFFFu);
    s.a = m > s.a ? m : s.a;
  }
  return s;
}

ARC_FN Fp8Stats fp8_stats_merge(Fp8Stats x, Fp8Stats y) {
  Fp8Stats s;
  s.a = y.a > x.a ? y.a : x.a;
  s.bad = x.bad | y.bad;
  return s;
}

/* The block's scale: NaN for a non-finite block, 0 for zeros, else a/448,
 * at least 2^-126 so that 1/scale stays finite. */
ARC_FN float fp8_scale(Fp8Stats st) {
  if (st.bad) return bits_f32(0x7FC00000u);
  if (st.a == 0.0f) return 0.0f;
  float s = fdiv(st.a, 448.0f);
  const float min_scale = bits_f32(0x00800000u); /* 2^-126 */
  return s > min_scale ? s : min_scale;
}

ARC_FN uint64_t fp8_codes(const float *x, float s) {
  if (!(s > 0.0f)) return 0; /* zero or NaN scale: codes 0 */
  float r = fdiv(1.0f, s);
  uint64_t w = 0;
  for (int i = 0; i < ARC_LANE; i++) w |= (uint64_t)e4m3_from_f32(fmul(x[i], r)) << (8 * i);
  return w;
}

ARC_FN void fp8_decode(uint64_t w, float s, float *y) {
  for (int i = 0; i < ARC_LANE; i++) y[i] = fmul(e4m3_to_f32((uint32_t)(w >> (8 * i)) & 0xFFu), s);
}

/* ---- int4r: random signs and a Walsh-Hadamard transform ---- */

#define ARC_ROT_SIGNS 0x6A09E667u

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

#endif
