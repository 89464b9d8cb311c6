package codec

import "math"

// int4r's mode 1 rotates a block before quantizing it: random signs, then a
// Walsh-Hadamard transform scaled by 1/8 (docs/FORMATS.md, "Rotation").
// Decoding applies the same transform scaled by 1/4, then the signs: since
// H H = 32 I, (1/4) H (1/8) H = I, and the powers of two keep the scalings
// exact (but for subnormal results).

// rotationSigns: d_i = -1 where bit i is set (the first 32 bits of the
// fractional part of sqrt(2), a fixed "random" pattern).
const rotationSigns = 0x6A09E667

// rotate replaces u by its rotation (1/8) H D u.
func rotate(u *[BlockSize]float32) {
	flipSigns(u)
	hadamard(u, 0.125)
}

// unrotate replaces w by D (1/4) H w, the inverse of rotate up to rounding.
func unrotate(w *[BlockSize]float32) {
	hadamard(w, 0.25)
	flipSigns(w)
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
	for i := 0; i < BlockSize; i += 4 { // stages 1 and 2 on (i, i+1, i+2, i+3)
		q := (*[4]float32)(u[i:])
		q[0], q[1], q[2], q[3] = butterfly4(q[0], q[1], q[2], q[3])
	}
	for _, i := range [...]int{0, 1, 2, 3, 16, 17, 18, 19} { // stages 4 and 8 on (i, i+4, i+8, i+12)
		q := (*[13]float32)(u[i:])
		q[0], q[4], q[8], q[12] = butterfly4(q[0], q[4], q[8], q[12])
	}
	for i := range BlockSize / 2 { // stage 16, then the scaling
		a, b := u[i], u[i+16]
		u[i], u[i+16] = float32((a+b)*k), float32((a-b)*k)
	}
}

// butterfly4 runs two consecutive stages h, 2h on (u_i, u_i+h, u_i+2h,
// u_i+3h): first the pairs (a, b) and (c, d), then (a, c) and (b, d).
func butterfly4(a, b, c, d float32) (float32, float32, float32, float32) {
	a, b = a+b, a-b
	c, d = c+d, c-d
	a, c = a+c, a-c
	b, d = b+d, b-d
	return a, b, c, d
}
