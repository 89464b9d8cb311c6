package codec

import (
	"encoding/binary"
	"math"

	"github.com/arcpass/arc/reference/num"
)

// fp8Codec is e4m3 with one f32 scale per block of 32 values.
type fp8Codec struct{}

// minScale keeps 1/scale finite for blocks of tiny values (bf16 and f32
// reach far below 448 * 2^-128, where 1/(a/448) would overflow to Inf).
const minScale = 0x1p-126

func (fp8Codec) Name() string    { return "fp8" }
func (fp8Codec) BlockBytes() int { return 4 + BlockSize }

func (fp8Codec) EncodeBlock(dst []byte, src *[BlockSize]float32) {
	// Magnitudes compare as their bits; max on integers compiles to a
	// conditional move.
	var bits uint32
	for _, x := range src {
		bits = max(bits, math.Float32bits(x)&0x7FFFFFFF)
	}
	if bits >= 0x7F800000 { // Inf or NaN
		binary.LittleEndian.PutUint32(dst, 0x7FC00000)
		clear(dst[4 : 4+BlockSize])
		return
	}
	a := math.Float32frombits(bits)
	if a == 0 {
		clear(dst[:4+BlockSize])
		return
	}
	s := max(a/num.E4M3Max, minScale)
	r := 1 / s
	binary.LittleEndian.PutUint32(dst, math.Float32bits(s))
	for i, x := range src {
		dst[4+i] = num.E4M3FromF32(x * r)
	}
}

func (fp8Codec) DecodeBlock(dst *[BlockSize]float32, src []byte) {
	s := math.Float32frombits(binary.LittleEndian.Uint32(src))
	for i := range dst {
		dst[i] = float32(num.E4M3ToF32(src[4+i]) * s)
	}
}
