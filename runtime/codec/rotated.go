package codec

// rotated is arc's int4r: a fixed orthogonal rotation (random signs, then a
// Walsh-Hadamard transform) spreads an outlier's energy over its block before
// int4 quantization; decoding undoes it. The bytes are int4's.
type rotated struct{}

// rotationSigns: d_i = -1 where bit i is set (the first 32 bits of the
// fractional part of sqrt(2), a fixed "random" pattern).
const rotationSigns = 0x6A09E667

func (rotated) Name() string    { return "int4r" }
func (rotated) BlockBytes() int { return int4Codec.BlockBytes() }

func (rotated) EncodeBlock(dst []byte, src *[BlockSize]float32) {
	u := *src
	flipSigns(&u)
	hadamard(&u)
	for i := range u {
		u[i] = float32(u[i] * 0.125) // (1/8) H: a power of two, exact but for subnormals
	}
	int4Codec.EncodeBlock(dst, &u)
}

func (rotated) DecodeBlock(dst *[BlockSize]float32, src []byte) {
	int4Codec.DecodeBlock(dst, src)
	hadamard(dst)
	for i := range dst {
		dst[i] = float32(dst[i] * 0.25) // (1/4) H undoes (1/8) H since H H = 32 I
	}
	flipSigns(dst)
}

func flipSigns(u *[BlockSize]float32) {
	for i := range u {
		if rotationSigns>>i&1 != 0 {
			u[i] = -u[i]
		}
	}
}

// hadamard is the unnormalised fast Walsh-Hadamard transform, in the order
// docs/FORMATS.md fixes (the result's rounding depends on it).
func hadamard(u *[BlockSize]float32) {
	for h := 1; h < BlockSize; h *= 2 {
		for i := range BlockSize {
			if i&h == 0 {
				u[i], u[i+h] = u[i]+u[i+h], u[i]-u[i+h]
			}
		}
	}
}
