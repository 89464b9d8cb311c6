package codec

import "math"

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
	hadamard(&u, 0.125) // (1/8) H: a power of two, exact but for subnormals
	int4Codec.EncodeBlock(dst, &u)
}

func (rotated) DecodeBlock(dst *[BlockSize]float32, src []byte) {
	int4Codec.DecodeBlock(dst, src)
	hadamard(dst, 0.25) // (1/4) H undoes (1/8) H since H H = 32 I
	flipSigns(dst)
}

// signBits[i] is the float32 sign bit where d_i = -1.
var signBits = func() (m [BlockSize]uint32) {
	for i := range m {
		m[i] = rotationSigns >> i & 1 << 31
	}
	return m
}()

// flipSigns multiplies u_i by d_i (exactly: a sign flip).
func flipSigns(u *[BlockSize]float32) {
	for i := range u {
		u[i] = math.Float32frombits(math.Float32bits(u[i]) ^ signBits[i])
	}
}

// hadamard applies the unnormalised fast Walsh-Hadamard transform, then
// multiplies by k. The stages run for h = 1, 2, 4, 8, 16, each mapping
// every pair (u_i, u_i+h) with i&h == 0 to (u_i + u_i+h, u_i - u_i+h), as
// docs/FORMATS.md fixes (the rounding depends on it). For speed, stages h
// and 2h run together on quadruples held in registers; the pairs and their
// operands are the same.
func hadamard(u *[BlockSize]float32, k float32) {
	for _, h := range []int{1, 4} {
		for j := range BlockSize / 4 {
			i := (j&^(h-1))<<2 | j&(h-1) // i&h == 0 and i&2h == 0
			a, b, c, d := u[i&31], u[(i+h)&31], u[(i+2*h)&31], u[(i+3*h)&31]
			a, b = a+b, a-b // stage h
			c, d = c+d, c-d
			a, c = a+c, a-c // stage 2h
			b, d = b+d, b-d
			u[i&31], u[(i+h)&31], u[(i+2*h)&31], u[(i+3*h)&31] = a, b, c, d
		}
	}
	for i := range BlockSize / 2 { // stage 16, then the scaling
		a, b := u[i], u[i+16]
		u[i], u[i+16] = float32((a+b)*k), float32((a-b)*k)
	}
}
