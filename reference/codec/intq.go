package codec

import (
	"encoding/binary"
	"math"

	"github.com/arcpass/arc/reference/num"
)

// intCodec is QuickReduce's symmetric integer codec: an f16 scale, then 32
// biased codes of `bits` bits packed least-significant bit first.
type intCodec struct {
	name string
	bits uint
}

var (
	int8Codec = intCodec{"int8", 8}
	int6Codec = intCodec{"int6", 6}
	int4Codec = intCodec{"int4", 4}
)

// f16NaN is the scale that marks a block holding NaN or Inf.
const f16NaN = 0x7E00

func (c intCodec) Name() string    { return c.name }
func (c intCodec) BlockBytes() int { return 2 + BlockSize*int(c.bits)/8 }

// bias is B = 2^(bits-1): codes are q + B for q in [-B, B-1].
func (c intCodec) bias() int32 { return 1 << (c.bits - 1) }

func (c intCodec) EncodeBlock(dst []byte, src *[BlockSize]float32) {
	bias := c.bias()
	var codes [BlockSize]uint8
	for i := range codes {
		codes[i] = uint8(bias)
	}
	s16, s := c.scale(src)
	if s != 0 && !isNaN(s) {
		r := 1 / s
		lo, hi := float32(-bias), float32(bias-1)
		for i, x := range src {
			// Clamping before rounding gives the same result as after,
			// and keeps the value in roundEven's range.
			codes[i] = uint8(int32(roundEven(clamp(x*r, lo, hi))) + bias)
		}
	}
	binary.LittleEndian.PutUint16(dst, s16)
	pack(dst[2:c.BlockBytes()], &codes, c.bits)
}

// scale returns the block's f16 scale (bits and value): the signed value of
// largest magnitude divided by -B, +0 for a block of zeros, NaN when a value
// is not finite.
func (c intCodec) scale(src *[BlockSize]float32) (uint16, float32) {
	m, ok := signedMax(src)
	if !ok {
		return f16NaN, num.F16ToF32(f16NaN)
	}
	s16 := f16c(m / -float32(c.bias()))
	s := num.F16ToF32(s16)
	if s == 0 {
		return 0, 0 // +0 whatever the sign of m, so zeros decode to +0
	}
	return s16, s
}

// signedMax returns the block's signed value of largest magnitude (a tie
// picks the negative one), and false if a value is NaN or ±Inf.
func signedMax(src *[BlockSize]float32) (m float32, finite bool) {
	// The key b<<1 | sign orders values by magnitude, then a negative one
	// above a positive one: its maximum is the value wanted (with zeros,
	// -0 if there is one, which is harmless as a zero scale is stored as
	// +0), and NaN and ±Inf have the largest keys. max on integers
	// compiles to a conditional move.
	var key uint32
	for _, x := range src {
		b := math.Float32bits(x)
		key = max(key, b<<1|b>>31)
	}
	if key >= 0x7F800000<<1 {
		return 0, false
	}
	return math.Float32frombits(key>>1 | key<<31), true
}

// f16c is the f16 of v rounded to nearest even and clamped to ±65504 (never
// Inf); v is finite.
func f16c(v float32) uint16 { return num.F16FromF32(min(max(v, -num.F16Max), num.F16Max)) }

func (c intCodec) DecodeBlock(dst *[BlockSize]float32, src []byte) {
	s := num.F16ToF32(binary.LittleEndian.Uint16(src))
	var codes [BlockSize]uint8
	unpack(&codes, src[2:c.BlockBytes()], c.bits)
	bias := c.bias()
	for i, code := range codes {
		dst[i] = float32(float32(int32(code)-bias) * s) // exact: at most 8 x 11 significant bits
	}
}

// pack writes 32 codes of `bits` bits (8, 6 or 4) into dst, least-significant
// bit first: code i occupies bits [i*bits, (i+1)*bits) of dst.
func pack(dst []byte, codes *[BlockSize]uint8, bits uint) {
	switch bits {
	case 8:
		copy(dst, codes[:])
	case 6: // 4 codes in 3 bytes
		for g := range BlockSize / 4 {
			c := codes[4*g : 4*g+4]
			v := uint32(c[0]) | uint32(c[1])<<6 | uint32(c[2])<<12 | uint32(c[3])<<18
			dst[3*g], dst[3*g+1], dst[3*g+2] = byte(v), byte(v>>8), byte(v>>16)
		}
	case 4:
		for i := range BlockSize / 2 {
			dst[i] = codes[2*i] | codes[2*i+1]<<4
		}
	}
}

// unpack is the inverse of pack.
func unpack(codes *[BlockSize]uint8, src []byte, bits uint) {
	switch bits {
	case 8:
		copy(codes[:], src)
	case 6:
		for g := range BlockSize / 4 {
			v := uint32(src[3*g]) | uint32(src[3*g+1])<<8 | uint32(src[3*g+2])<<16
			for k := range 4 {
				codes[4*g+k] = uint8(v>>(6*k)) & 0x3F
			}
		}
	case 4:
		for i := range BlockSize / 2 {
			codes[2*i], codes[2*i+1] = src[i]&0xF, src[i]>>4
		}
	}
}

// roundEven rounds to the nearest integer, ties to even (rintf), for
// |v| <= 2^22: adding 1.5 * 2^23 moves v where the float32 spacing is 1, so
// the addition itself rounds (to nearest even), and the subtraction is exact.
func roundEven(v float32) float32 {
	const magic = 0x1.8p23
	return float32(v+magic) - magic
}

func isNaN(x float32) bool { return x != x }
