package codec

import (
	"encoding/binary"
	"math"

	"github.com/arcpass/arc/reference/num"
)

// int4r is arc's robust 4-bit codec (docs/FORMATS.md, "int4r"): each block
// is encoded three ways and the encoding whose decoded block is closest to
// the input is kept. The 18 bytes are a 16-bit header H, whose two low bits
// are the mode, and a 128-bit payload P:
//
//	mode 0, plain:   H = the int4 scale, truncated; P = 32 int4 codes
//	mode 1, rotated: H = the int4 scale of the rotated block, truncated; P = its 32 int4 codes
//	mode 2, split:   H = the largest value (f16), truncated; P = the second
//	                 largest (f16), their indices, a scale of 8 bits and 30 3-bit codes
type int4r struct{}

// The modes, H & 3. Mode 3 is reserved: it decodes to NaN.
const (
	modePlain   = 0
	modeRotated = 1
	modeSplit   = 2
	modeBits    = 3
)

const int4rBytes = 18

func (int4r) Name() string    { return "int4r" }
func (int4r) BlockBytes() int { return int4rBytes }

// EncodeBlock writes the best of the three encodings of x (FORMATS.md steps
// 1-5).
func (int4r) EncodeBlock(dst []byte, x *[BlockSize]float32) {
	m, ok := signedMax(x)
	if !ok { // step 1: a NaN or an infinity poisons the block
		nanBlock(dst)
		return
	}
	cand, errs := candidates(x, m)
	copy(dst[:int4rBytes], cand[chooseMode(errs)][:])
}

// candidates returns the three encodings of the finite block x, whose
// signed largest value is m, and their errors E. Each mode produces its
// bytes and the block they decode to, by the same arithmetic as
// DecodeBlock's.
func candidates(x *[BlockSize]float32, m float32) (cand [3][int4rBytes]byte, errs [3]float32) {
	var y [BlockSize]float32
	encodeInt4(&cand[modePlain], x, m, modePlain, &y)
	errs[modePlain] = sqError(x, &y)

	w := *x
	rotate(&w)
	if mw, ok := signedMax(&w); ok {
		encodeInt4(&cand[modeRotated], &w, mw, modeRotated, &y)
		unrotate(&y)
		errs[modeRotated] = sqError(x, &y)
	} else {
		// The rotation overflowed, so some |x_i| exceeds 2^122 and mode
		// 0's error is +Inf already: mode 1 cannot win.
		errs[modeRotated] = float32(math.NaN())
	}

	encodeSplit(&cand[modeSplit], x, &y)
	errs[modeSplit] = sqError(x, &y)
	return cand, errs
}

// chooseMode is FORMATS.md step 5's rule: modes in order 0, 1, 2; a mode
// replaces the best so far only when its error is smaller, so ties keep the
// lower mode and a NaN error never wins (mode 0's is never NaN).
func chooseMode(errs [3]float32) int {
	best := modePlain
	for m := modeRotated; m <= modeSplit; m++ {
		if errs[m] < errs[best] {
			best = m
		}
	}
	return best
}

// sqError is FORMATS.md step 5's E: the f32 sum of the squared differences
// in four groups of eight, each summed in index order from +0, every square
// rounded before its addition; then (E_0 + E_1) + (E_2 + E_3). The four
// groups advance together, which changes no rounding.
func sqError(x, y *[BlockSize]float32) float32 {
	var g0, g1, g2, g3 float32
	for i := range 8 {
		d0, d1, d2, d3 := y[i]-x[i], y[i+8]-x[i+8], y[i+16]-x[i+16], y[i+24]-x[i+24]
		// The conversions forbid fusing a square and its sum into an FMA.
		g0 += float32(d0 * d0)
		g1 += float32(d1 * d1)
		g2 += float32(d2 * d2)
		g3 += float32(d3 * d3)
	}
	return (g0 + g1) + (g2 + g3)
}

// nanBlock is the non-finite block: H = 0x7E00 (mode 0 with a NaN scale),
// every code 8.
func nanBlock(dst []byte) {
	binary.LittleEndian.PutUint16(dst, f16NaN)
	for i := 2; i < int4rBytes; i++ {
		dst[i] = 0x88
	}
}

// truncate clears a header's mode bits: t(h) in FORMATS.md.
func truncate(h uint16) uint16 { return h &^ modeBits }

// encodeInt4 is modes 0 and 1 (FORMATS.md steps 2 and 3): int4 codes of v,
// whose signed largest value is m, under the scale t(f16c(m / -8)), with the
// mode in the header's low bits. y gets the decoded v.
func encodeInt4(dst *[int4rBytes]byte, v *[BlockSize]float32, m float32, mode uint16, y *[BlockSize]float32) {
	h := truncate(f16c(m / -8))
	s := num.F16ToF32(h)
	var r float32 // with a zero scale, r = 0 makes every code 8 (as int4's)
	if s != 0 {
		r = 1 / s
	} else {
		h, s = 0, 0 // and the scale is +0, so zeros decode to +0
	}
	binary.LittleEndian.PutUint16(dst[:], h|mode)
	for i := 0; i < BlockSize; i += 2 {
		// Clamping before rounding gives the same code, and keeps the
		// value in roundEven's range.
		q0 := int32(roundEven(clamp(v[i]*r, -8, 7)))
		q1 := int32(roundEven(clamp(v[i+1]*r, -8, 7)))
		dst[2+i/2] = uint8(q0+8) | uint8(q1+8)<<4 // code 2j low nibble, 2j+1 high
		y[i], y[i+1] = float32(q0)*s, float32(q1)*s
	}
}

// clamp limits v, which is not NaN, to [lo, hi]. Comparisons compile to
// less than the builtin min and max, which must order -0 and NaN.
func clamp(v, lo, hi float32) float32 {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

// decodeInt4 is y_i = f32(code_i - 8) * s, exact in f32.
func decodeInt4(y *[BlockSize]float32, s float32, codes *[BlockSize]uint8) {
	for i, c := range codes {
		y[i] = float32(int32(c)-8) * s
	}
}

// Mode 2's payload, one little-endian 128-bit string, handled as two
// 64-bit words (FORMATS.md step 4): lo holds k1 (bits 0-4), k2 (5-9), v2
// (10-25), h8 (26-33) and codes 0-9 (34-63); hi holds codes 10-29 (bits
// 64-123, that is bits 0-59 of hi) and four zero bits. Code j belongs to
// position i = the j-th index other than k1 and k2, so j = i - [i > k1] -
// [i > k2]; it sits at bit 34 + 3j, and no code straddles the two words.
const (
	splitK2Shift    = 5
	splitV2Shift    = 10
	splitScaleShift = 26
	splitCodeShift  = 34
)

// splitCodeBit is the payload bit where position i's 3-bit code starts,
// i != k1, k2.
func splitCodeBit(i, k1, k2 int) int {
	j := i
	if i > k1 {
		j--
	}
	if i > k2 {
		j--
	}
	return splitCodeShift + 3*j
}

// encodeSplit is mode 2 (FORMATS.md step 4): the two values of largest
// magnitude kept as f16, the 30 others as 3-bit codes with an 8-bit scale.
// y gets the decoded block.
func encodeSplit(dst *[int4rBytes]byte, x *[BlockSize]float32, y *[BlockSize]float32) {
	k1, k2 := top2(x)
	h := truncate(f16c(x[k1]))
	v2 := f16c(x[k2])

	rest := *x
	rest[k1], rest[k2] = 0, 0
	mr, _ := signedMax(&rest) // x is finite
	h8, s := splitScale(mr)

	var r float32 // with a zero scale, r = 0 makes every code 4
	if s != 0 {
		r = 1 / s
	}
	var p [2]uint64 // lo, hi
	p[0] = uint64(k1) | uint64(k2)<<splitK2Shift | uint64(v2)<<splitV2Shift | uint64(h8)<<splitScaleShift
	for i, v := range rest {
		q := int32(roundEven(clamp(v*r, -4, 3)))
		y[i] = float32(q) * s
		if i != k1 && i != k2 {
			b := splitCodeBit(i, k1, k2)
			p[b/64] |= uint64(q+4) << (b % 64)
		}
	}
	y[k1], y[k2] = num.F16ToF32(h), num.F16ToF32(v2)

	binary.LittleEndian.PutUint16(dst[:], h|modeSplit)
	binary.LittleEndian.PutUint64(dst[2:], p[0])
	binary.LittleEndian.PutUint64(dst[10:], p[1])
}

// top2 returns the index of the largest |x_i| and of the largest |x_i| among
// the others, the lowest index on ties. Magnitudes compare as their bits.
func top2(x *[BlockSize]float32) (k1, k2 int) {
	a1, a2 := int32(-1), int32(-1)
	for i, v := range x {
		a := int32(math.Float32bits(v) &^ (1 << 31))
		if a > a1 {
			a2, k2 = a1, k1
			a1, k1 = a, i
		} else if a > a2 {
			a2, k2 = a, i
		}
	}
	return k1, k2
}

// splitScale is mode 2's scale of the 30 small values (FORMATS.md step 4):
// s16 = f16c(m / -4) keeps its top byte, rounded half up on the magnitude
// (an f16 with 2 mantissa bits, like e5m2); a carry into the all-ones
// exponent (Inf) steps back to the largest finite exponent, and a zero scale
// is stored as +0. h8 is the byte, s its value.
func splitScale(m float32) (h8 uint8, s float32) {
	s16 := f16c(m / -4)
	h8 = uint8((s16 + 0x80) >> 8)
	if h8&0x7C == 0x7C {
		h8-- // 0x7C -> 0x7B, 0xFC -> 0xFB: s16 <= 0x7BFF, so no higher byte
	}
	s = num.F16ToF32(uint16(h8) << 8)
	if s == 0 {
		return 0, 0
	}
	return h8, s
}

// DecodeBlock is FORMATS.md's decoding of each mode; mode 3 and a mode-2
// block with k1 == k2 (which no encoder writes) decode to NaN.
func (int4r) DecodeBlock(dst *[BlockSize]float32, src []byte) {
	h := binary.LittleEndian.Uint16(src)
	switch h & modeBits {
	case modePlain, modeRotated:
		var codes [BlockSize]uint8
		unpack(&codes, src[2:int4rBytes], 4)
		decodeInt4(dst, num.F16ToF32(truncate(h)), &codes)
		if h&modeBits == modeRotated {
			unrotate(dst)
		}
	case modeSplit:
		decodeSplit(dst, truncate(h), [2]uint64{binary.LittleEndian.Uint64(src[2:]), binary.LittleEndian.Uint64(src[10:])})
	default:
		fillNaN(dst)
	}
}

// decodeSplit decodes mode 2's payload p (lo, hi) with the header h (its
// mode bits cleared).
func decodeSplit(dst *[BlockSize]float32, h uint16, p [2]uint64) {
	k1, k2 := int(p[0]&31), int(p[0]>>splitK2Shift&31)
	if k1 == k2 {
		fillNaN(dst)
		return
	}
	v2 := uint16(p[0] >> splitV2Shift)
	s := num.F16ToF32(uint16(p[0]>>splitScaleShift&0xFF) << 8)
	for i := range dst {
		if i == k1 || i == k2 {
			continue
		}
		b := splitCodeBit(i, k1, k2)
		dst[i] = float32(int32(p[b/64]>>(b%64)&7)-4) * s
	}
	dst[k1], dst[k2] = num.F16ToF32(h), num.F16ToF32(v2)
}

func fillNaN(dst *[BlockSize]float32) {
	for i := range dst {
		dst[i] = float32(math.NaN())
	}
}
