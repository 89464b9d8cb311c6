//go:build cgo

// hostcodec.cc: the kernels' codec arithmetic (arc_codec.h) compiled for the
// CPU. The four lanes of a codec block run one after another here; the
// kernels run them side by side and exchange values with shuffles, in the
// same order.
#include "hostcodec.h"

#include "arc_codec.h"

namespace {

enum { FP = 1, INT8 = 2, INT6 = 3, INT4 = 4, INT4R = 5, FP8 = 6 };
enum { F16 = 0, BF16 = 1, F32 = 2 };

// The Hadamard transform of a block, lanes side by side.
void fwht_block(float *u) {
  float other[32];
  for (int l = 0; l < 4; l++) fwht_in_lane(u + 8 * l);
  for (int m = 1; m <= 2; m <<= 1) {
    for (int i = 0; i < 32; i++) other[i] = u[i];
    for (int l = 0; l < 4; l++) fwht_across(u + 8 * l, other + 8 * (l ^ m), (l & m) != 0);
  }
}

template <int BITS>
void int_encode(const float *x, uint8_t *dst) {
  IntStats st[4], m[4];
  for (int l = 0; l < 4; l++) st[l] = int_stats(x + 8 * l);
  for (int l = 0; l < 4; l++) m[l] = int_stats_merge(st[l], st[l ^ 1]);
  for (int l = 0; l < 4; l++) st[l] = int_stats_merge(m[l], m[l ^ 2]);
  float s;
  uint16_t s16 = int_scale<BITS>(st[0], &s);
  memcpy(dst, &s16, 2);
  for (int l = 0; l < 4; l++) {
    uint64_t w = int_codes<BITS>(x + 8 * l, s);
    memcpy(dst + 2 + l * BITS, &w, BITS); /* little-endian: the lane's low BITS bytes */
  }
}

template <int BITS>
void int_decode_block(const uint8_t *src, float *y) {
  uint16_t s16;
  memcpy(&s16, src, 2);
  float s = f16_to_f32(s16);
  for (int l = 0; l < 4; l++) {
    uint64_t w = 0;
    memcpy(&w, src + 2 + l * BITS, BITS);
    int_decode<BITS>(w, s, y + 8 * l);
  }
}

void fp8_encode(const float *x, uint8_t *dst) {
  Fp8Stats st[4], m[4];
  for (int l = 0; l < 4; l++) st[l] = fp8_stats(x + 8 * l);
  for (int l = 0; l < 4; l++) m[l] = fp8_stats_merge(st[l], st[l ^ 1]);
  for (int l = 0; l < 4; l++) st[l] = fp8_stats_merge(m[l], m[l ^ 2]);
  float s = fp8_scale(st[0]);
  memcpy(dst, &s, 4);
  for (int l = 0; l < 4; l++) {
    uint64_t w = fp8_codes(x + 8 * l, s);
    memcpy(dst + 4 + 8 * l, &w, 8);
  }
}

void fp8_decode_block(const uint8_t *src, float *y) {
  float s;
  memcpy(&s, src, 4);
  for (int l = 0; l < 4; l++) {
    uint64_t w;
    memcpy(&w, src + 4 + 8 * l, 8);
    fp8_decode(w, s, y + 8 * l);
  }
}

void rot_encode(const float *x, uint8_t *dst) {
  float u[32];
  memcpy(u, x, sizeof u);
  for (int l = 0; l < 4; l++) rot_flip(u + 8 * l, l);
  fwht_block(u);
  for (int l = 0; l < 4; l++) scale_all(u + 8 * l, 0.125f);
  int_encode<4>(u, dst);
}

void rot_decode(const uint8_t *src, float *y) {
  int_decode_block<4>(src, y);
  fwht_block(y);
  for (int l = 0; l < 4; l++) {
    scale_all(y + 8 * l, 0.25f);
    rot_flip(y + 8 * l, l);
  }
}

int wire_of(int dtype, int cast) { return dtype == BF16 && cast ? F16 : dtype; }

void fp_encode(const float *x, int wire, uint8_t *dst) {
  for (int i = 0; i < 32; i++) {
    if (wire == F32) {
      memcpy(dst + 4 * i, &x[i], 4);
    } else {
      uint16_t h = wire == F16 ? f32_to_f16(x[i]) : f32_to_bf16(x[i]);
      memcpy(dst + 2 * i, &h, 2);
    }
  }
}

void fp_decode(const uint8_t *src, int wire, float *y) {
  for (int i = 0; i < 32; i++) {
    if (wire == F32) {
      memcpy(&y[i], src + 4 * i, 4);
    } else {
      uint16_t h;
      memcpy(&h, src + 2 * i, 2);
      y[i] = wire == F16 ? f16_to_f32(h) : bf16_to_f32(h);
    }
  }
}

}  // namespace

extern "C" int host_block_bytes(int codec, int dtype, int cast) {
  switch (codec) {
  case FP: return wire_of(dtype, cast) == F32 ? 128 : 64;
  case INT8: return 34;
  case INT6: return 26;
  case INT4: case INT4R: return 18;
  case FP8: return 36;
  }
  return 0;
}

extern "C" void host_encode_block(int codec, int dtype, int cast, const float *x, uint8_t *dst) {
  switch (codec) {
  case FP: fp_encode(x, wire_of(dtype, cast), dst); break;
  case INT8: int_encode<8>(x, dst); break;
  case INT6: int_encode<6>(x, dst); break;
  case INT4: int_encode<4>(x, dst); break;
  case INT4R: rot_encode(x, dst); break;
  case FP8: fp8_encode(x, dst); break;
  }
}

extern "C" void host_decode_block(int codec, int dtype, int cast, const uint8_t *src, float *y) {
  switch (codec) {
  case FP: fp_decode(src, wire_of(dtype, cast), y); break;
  case INT8: int_decode_block<8>(src, y); break;
  case INT6: int_decode_block<6>(src, y); break;
  case INT4: int_decode_block<4>(src, y); break;
  case INT4R: rot_decode(src, y); break;
  case FP8: fp8_decode_block(src, y); break;
  }
}

extern "C" uint16_t host_narrow16(int dtype, float f) { return dtype == F16 ? f32_to_f16(f) : f32_to_bf16(f); }
extern "C" float host_widen16(int dtype, uint16_t h) { return dtype == F16 ? f16_to_f32(h) : bf16_to_f32(h); }
extern "C" uint8_t host_e4m3(float f) { return (uint8_t)e4m3_from_f32(f); }
extern "C" float host_e4m3_to_f32(uint8_t c) { return e4m3_to_f32(c); }
