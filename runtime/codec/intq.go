package codec

import (
	"encoding/binary"
	"math"

	"github.com/arcpass/arc/runtime/num"
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
			// and keeps the rounded value small.
			v := min(max(x*r, lo), hi)
			codes[i] = uint8(int32(roundEven(v)) + bias)
		}
	}
	binary.LittleEndian.PutUint16(dst, s16)
	pack(dst[2:c.BlockBytes()], &codes, c.bits)
}

// scale returns the block's f16 scale (bits and value): the signed value of
// largest magnitude divided by -B, +0 for a block of zeros, NaN when a value
// is not finite.
func (c intCodec) scale(src *[BlockSize]float32) (uint16, float32) {
	mx, mn := src[0], src[0]
	for _, x := range src {
		if !finite(x) {
			return f16NaN, num.F16ToF32(f16NaN)
		}
		mx = max(mx, x)
		mn = min(mn, x)
	}
	m := mn // a tie in magnitude picks the negative value
	if mx > -mn {
		m = mx
	}
	q := min(max(m/-float32(c.bias()), -num.F16Max), num.F16Max)
	s16 := num.F16FromF32(q)
	s := num.F16ToF32(s16)
	if s == 0 {
		return 0, 0 // +0 whatever the sign of m, so zeros decode to +0
	}
	return s16, s
}

func (c intCodec) DecodeBlock(dst *[BlockSize]float32, src []byte) {
	s := num.F16ToF32(binary.LittleEndian.Uint16(src))
	var codes [BlockSize]uint8
	unpack(&codes, src[2:c.BlockBytes()], c.bits)
	bias := c.bias()
	for i, code := range codes {
		dst[i] = float32(float32(int32(code)-bias) * s) // exact: at most 8 x 11 significant bits
	}
}

// pack writes 32 codes of `bits` bits into dst, least-significant bit first.
func pack(dst []byte, codes *[BlockSize]uint8, bits uint) {
	var acc uint64
	var n uint
	j := 0
	for _, code := range codes {
		acc |= uint64(code) << n
		for n += bits; n >= 8; n -= 8 {
			dst[j] = byte(acc)
			acc >>= 8
			j++
		}
	}
}

// unpack is the inverse of pack.
func unpack(codes *[BlockSize]uint8, src []byte, bits uint) {
	var acc uint64
	var n uint
	j := 0
	mask := uint64(1)<<bits - 1
	for i := range codes {
		for n < bits {
			acc |= uint64(src[j]) << n
			n += 8
			j++
		}
		codes[i] = uint8(acc & mask)
		acc >>= bits
		n -= bits
	}
}

// roundEven rounds to the nearest integer, ties to even (rintf).
func roundEven(v float32) float32 { return float32(math.RoundToEven(float64(v))) }

func finite(x float32) bool { return math.Float32bits(x)&0x7F800000 != 0x7F800000 }

func isNaN(x float32) bool { return x != x }
