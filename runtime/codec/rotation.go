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
	hadamardQuads(u, 1)            // stages 1 and 2
	hadamardQuads(u, 4)            // stages 4 and 8
	for i := range BlockSize / 2 { // stage 16, then the scaling
		a, b := u[i], u[i+16]
		u[i], u[i+16] = float32((a+b)*k), float32((a-b)*k)
	}
}

// hadamardQuads runs stages h and 2h on the quadruples (i, i+h, i+2h, i+3h)
// with i&h == 0 and i&2h == 0.
func hadamardQuads(u *[BlockSize]float32, h int) {
	for j := range BlockSize / 4 {
		i := (j&^(h-1))<<2 | j&(h-1)
		a, b, c, d := u[i&31], u[(i+h)&31], u[(i+2*h)&31], u[(i+3*h)&31]
		a, b = a+b, a-b // stage h
		c, d = c+d, c-d
		a, c = a+c, a-c // stage 2h
		b, d = b+d, b-d
		u[i&31], u[(i+h)&31], u[(i+2*h)&31], u[(i+3*h)&31] = a, b, c, d
	}
}
