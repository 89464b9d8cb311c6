package codec

import (
	"encoding/binary"
	"math"

	"github.com/arcpass/arc/reference/num"
)

// castCodec is the fp codec of bf16 data under --cast-bf16-to-fp16: each
// block travels as f16 values scaled by a power of two, 2^(E-127), chosen
// from the block's largest finite magnitude so that the block fits f16's
// range; a block whose magnitudes span more than f16 holds at bf16's
// precision travels as bf16 (E = 0). Byte 0 holds E, bytes 1-64 the 32
// values (docs/FORMATS.md). So every bf16 value comes back bit for bit,
// NaN and ±Inf travel as themselves, and only the f32 sums the all-gather
// sends are rounded, to f16's 11 bits.
type castCodec struct{}

// CastBlockBytes is the cast's bytes per block: the exponent byte and 32
// 16-bit values.
const CastBlockBytes = 1 + 2*BlockSize

// castSpan is how many binades below the block's largest magnitude a value
// may lie and keep 8 significant bits as a scaled f16 (the largest scales
// into [2^14, 2^15), f16's smallest step is 2^-24).
const castSpan = 31

func (castCodec) Name() string    { return "fp" }
func (castCodec) BlockBytes() int { return CastBlockBytes }

// castExponent is E for a block whose finite nonzero magnitudes lie in
// [lo, hi] (f32 bits; lo > hi when there are none): 0 when they span more
// than castSpan binades (exponent fields), else the largest scales into
// [2^14, 2^15), so that its f16 rounding stays below 65504; E >= 1 keeps
// 2^(E-127) and 2^(127-E) normal.
func castExponent(lo, hi uint32) uint32 {
	if lo <= hi && lo>>23+castSpan < hi>>23 {
		return 0
	}
	return max(hi>>23, 15) - 14
}

// castRange is the block's smallest and largest finite nonzero magnitude.
func castRange(src *[BlockSize]float32) (lo, hi uint32) {
	lo = 0x7F800000
	for _, x := range src {
		if m := math.Float32bits(x) & 0x7FFFFFFF; m != 0 && m < 0x7F800000 {
			lo, hi = min(lo, m), max(hi, m)
		}
	}
	return lo, hi
}

func (castCodec) EncodeBlock(dst []byte, src *[BlockSize]float32) {
	e := castExponent(castRange(src))
	dst[0] = byte(e)
	if e == 0 {
		num.NarrowTo(dst[1:], num.BF16, src[:])
		return
	}
	r := math.Float32frombits((254 - e) << 23) // 2^(127-E)
	for i, x := range src {
		binary.LittleEndian.PutUint16(dst[1+2*i:], num.F16FromF32(x*r))
	}
}

func (castCodec) DecodeBlock(dst *[BlockSize]float32, src []byte) {
	if src[0] == 0 {
		num.WidenTo(dst[:], num.BF16, src[1:])
		return
	}
	s := math.Float32frombits(uint32(src[0]) << 23) // 2^(E-127)
	for i := range dst {
		dst[i] = float32(num.F16ToF32(binary.LittleEndian.Uint16(src[1+2*i:])) * s)
	}
}
