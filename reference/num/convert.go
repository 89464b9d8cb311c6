package num

import (
	"math"
	"math/bits"
)

// Canonical NaNs produced by narrowing: positive, quiet, all payload bits set,
// as CUDA's __float2half_rn and __float2bfloat16_rn return. Comparisons in arc
// treat every NaN as equal, so only the NaN-ness is contractual.
const (
	F16NaN  uint16 = 0x7FFF
	BF16NaN uint16 = 0x7FFF
	E4M3NaN uint8  = 0x7F
	E4M3Max        = 448 // the largest finite e4m3 magnitude
	F16Max         = 65504
)

// roundShift returns m >> s rounded to nearest, ties to even, for s >= 1
// and m < 2^31: adding half - 1 plus the kept LSB carries into the kept
// bits exactly when the dropped ones exceed half, or equal it with the LSB odd.
func roundShift(m uint32, s uint) uint32 {
	if s > 31 {
		return 0
	}
	return (m + (1<<(s-1) - 1) + (m>>s)&1) >> s
}

// F16FromF32 rounds f to the nearest binary16, ties to even; magnitudes from
// 65520 up become ±Inf, NaN becomes F16NaN (as __float2half_rn).
func F16FromF32(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	a := b & 0x7FFFFFFF
	exp := a >> 23
	switch {
	case a > 0x7F800000:
		return F16NaN
	case a >= 0x477FF000: // 65520: halfway between 65504 and 2^16, rounds up to Inf
		return sign | 0x7C00
	case exp >= 113: // at least 2^-14: a normal half
		// Rebias the exponent (127 -> 15) in place; a carry out of the
		// mantissa correctly bumps the exponent.
		return sign | uint16(roundShift(a-(112<<23), 13))
	case exp >= 101: // a half subnormal k * 2^-24, or zero after rounding
		m := a&0x7FFFFF | 0x800000 // value = m * 2^(exp-150)
		return sign | uint16(roundShift(m, 126-uint(exp)))
	}
	return sign // below 2^-26 (f32 subnormals included): ±0
}

// F16ToF32 widens a binary16 exactly.
func F16ToF32(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1F
	man := uint32(h & 0x3FF)
	switch {
	case exp == 0x1F: // Inf or NaN; keep the payload
		return math.Float32frombits(sign | 0x7F800000 | man<<13)
	case exp != 0:
		return math.Float32frombits(sign | (exp+112)<<23 | man<<13)
	case man == 0:
		return math.Float32frombits(sign)
	}
	// Subnormal: normalise so the leading one becomes the implicit bit.
	shift := uint32(bits.LeadingZeros32(man)) - 21 // 1..10
	return math.Float32frombits(sign | (113-shift)<<23 | (man<<shift)&0x3FF<<13)
}

// BF16FromF32 rounds f to the nearest bfloat16, ties to even; overflow gives
// ±Inf, NaN gives BF16NaN (as __float2bfloat16_rn).
func BF16FromF32(f float32) uint16 {
	b := math.Float32bits(f)
	if b&0x7FFFFFFF > 0x7F800000 {
		return BF16NaN
	}
	return uint16(roundShift(b&0x7FFFFFFF, 16)) | uint16(b>>16)&0x8000
}

// BF16ToF32 widens a bfloat16 exactly.
func BF16ToF32(h uint16) float32 { return math.Float32frombits(uint32(h) << 16) }

// E4M3FromF32 rounds f to the nearest FP8 E4M3 (OCP: bias 7, no Inf, 0x7F and
// 0xFF are NaN), ties to even, saturating finite and infinite magnitudes
// above 448 to ±448; NaN gives E4M3NaN. This is
// __nv_cvt_float_to_fp8(f, __NV_SATFINITE, __NV_E4M3).
func E4M3FromF32(f float32) uint8 {
	b := math.Float32bits(f)
	sign := uint8(b>>24) & 0x80
	a := b & 0x7FFFFFFF
	exp := a >> 23
	switch {
	case a > 0x7F800000:
		return E4M3NaN
	case a > 0x43E00000: // above 448 (Inf included): everything rounds or saturates to 448
		return sign | 0x7E
	case exp >= 121: // at least 2^-6: a normal e4m3; rebias 127 -> 7
		return sign | uint8(roundShift(a-(120<<23), 20))
	case exp >= 116: // a subnormal k * 2^-9, or zero after rounding
		m := a&0x7FFFFF | 0x800000 // value = m * 2^(exp-150)
		return sign | uint8(roundShift(m, 141-uint(exp)))
	}
	return sign // below 2^-11: ±0
}

// E4M3ToF32 widens an E4M3 value exactly.
func E4M3ToF32(c uint8) float32 { return e4m3Table[c] }

var e4m3Table = func() (t [256]float32) {
	for c := range t {
		exp := c >> 3 & 0xF
		man := float64(c & 7)
		var v float64
		switch {
		case exp == 0xF && man == 7:
			v = math.NaN()
		case exp == 0:
			v = math.Ldexp(man, -9)
		default:
			v = math.Ldexp(8+man, exp-10)
		}
		if c&0x80 != 0 {
			v = -v
		}
		t[c] = float32(v)
	}
	return t
}()
