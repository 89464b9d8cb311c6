package oracle

import (
	"math"
	"strconv"

	"github.com/arcpass/arc/reference/num"
)

// elemType is what the oracle knows of an element type: its class and width.
// Types it cannot compute with (complex, f8, quantized, index) are "opaque":
// their values are raw bits that only an opaque reducer combines.
type elemType struct {
	name   string
	class  byte // 'f' float, 's' signed int, 'u' unsigned int, 'b' i1, 'o' opaque
	bits   int  // storage width in bits (1 for i1)
	mant   int  // floats: significand bits, implicit bit included (11, 8, 24, 53)
	minExp int  // floats: exponent of the smallest subnormal (-24, -133, -149, -1074)
	max    float64
}

// elemOf reads an MLIR element type name.
func elemOf(name string) elemType {
	switch name {
	case "f16":
		return elemType{name, 'f', 16, 11, -24, 65504}
	case "bf16":
		return elemType{name, 'f', 16, 8, -133, float64(math.Float32frombits(0x7F7F0000))}
	case "f32":
		return elemType{name, 'f', 32, 24, -149, math.MaxFloat32}
	case "f64":
		return elemType{name, 'f', 64, 53, -1074, math.MaxFloat64}
	case "i1":
		return elemType{name: name, class: 'b', bits: 1}
	}
	for _, w := range []int{8, 16, 32, 64} {
		n := strconv.Itoa(w)
		switch name {
		case "i" + n, "si" + n:
			return elemType{name: name, class: 's', bits: w}
		case "ui" + n:
			return elemType{name: name, class: 'u', bits: w}
		}
	}
	return elemType{name: name, class: 'o', bits: 64}
}

// mask keeps the type's storage bits.
func (e elemType) mask() uint64 {
	if e.bits >= 64 {
		return math.MaxUint64
	}
	return 1<<uint(e.bits) - 1
}

// unit is the unit roundoff 2^-mant of a float type; eta is half its
// smallest subnormal, the absolute error of a rounding near zero.
func (e elemType) unit() float64 { return math.Ldexp(1, -e.mant) }
func (e elemType) eta() float64  { return math.Ldexp(1, e.minExp-1) }

// toFloat decodes float bits exactly.
func (e elemType) toFloat(b uint64) float64 {
	switch e.name {
	case "f16":
		return float64(num.F16ToF32(uint16(b)))
	case "bf16":
		return float64(num.BF16ToF32(uint16(b)))
	case "f32":
		return float64(math.Float32frombits(uint32(b)))
	}
	return math.Float64frombits(b)
}

// fromFloat rounds v to the type, to nearest even. For f16 and bf16 it goes
// through float32: when v is the exact or float64-rounded result of one
// operation on values of the type, the double rounding is harmless (each
// format has at least 2p+2 bits of the next one).
func (e elemType) fromFloat(v float64) uint64 {
	switch e.name {
	case "f16":
		return uint64(num.F16FromF32(float32(v)))
	case "bf16":
		return uint64(num.BF16FromF32(float32(v)))
	case "f32":
		return uint64(math.Float32bits(float32(v)))
	}
	return math.Float64bits(v)
}

// isNaN reports whether float bits are a NaN.
func (e elemType) isNaN(b uint64) bool { return e.class == 'f' && math.IsNaN(e.toFloat(b)) }

// signed reads integer bits as a signed or unsigned value for comparisons.
func (e elemType) less(a, b uint64) bool {
	if e.class == 's' {
		sh := uint(64 - e.bits)
		return int64(a<<sh)>>sh < int64(b<<sh)>>sh
	}
	return a < b
}

// apply computes a op b in the type, rounding once. op is a recognised
// reducer: sum, product, max, min, and, or, xor.
func (e elemType) apply(op string, a, b uint64) uint64 {
	switch e.class {
	case 'f':
		x, y := e.toFloat(a), e.toFloat(b)
		switch op {
		case "sum":
			return e.fromFloat(x + y)
		case "product":
			return e.fromFloat(x * y)
		case "max", "min":
			return e.maxMin(op, a, b)
		}
	case 'b':
		switch op {
		case "sum", "or", "max":
			return a | b
		case "product", "and", "min":
			return a & b
		case "xor":
			return a ^ b
		}
	case 's', 'u':
		m := e.mask()
		switch op {
		case "sum":
			return (a + b) & m
		case "product":
			return (a * b) & m
		case "and":
			return a & b
		case "or":
			return a | b
		case "xor":
			return a ^ b
		case "max":
			if e.less(a, b) {
				return b
			}
			return a
		case "min":
			if e.less(b, a) {
				return b
			}
			return a
		}
	}
	panic("oracle: " + op + " over " + e.name)
}

// maxMin is IEEE 754-2019 maximum/minimum, as StableHLO's maximum and
// minimum: a NaN operand gives NaN, and -0 < +0.
func (e elemType) maxMin(op string, a, b uint64) uint64 {
	x, y := e.toFloat(a), e.toFloat(b)
	switch {
	case math.IsNaN(x):
		return a
	case math.IsNaN(y):
		return b
	case x == y: // equal values, or zeros of either sign
		if (op == "max") == math.Signbit(x) {
			return b
		}
		return a
	case (x > y) == (op == "max"):
		return a
	}
	return b
}

// convert is to_destination_type for a promotion (C5): floats and integers
// widen exactly, i1 to a wider integer gives 0 or 1.
func convert(from, to elemType, b uint64) uint64 {
	if from.name == to.name {
		return b
	}
	switch {
	case from.class == 'f' && to.class == 'f':
		return to.fromFloat(from.toFloat(b))
	case from.class == 's':
		sh := uint(64 - from.bits)
		return uint64(int64(b<<sh)>>sh) & to.mask()
	}
	return b & to.mask()
}

// promotable is StableHLO's is_promotable (isPromotableElementType): the
// same kind (float or integer, i1 included) and no fewer bits.
func promotable(from, to elemType) bool {
	if from.name == to.name {
		return true
	}
	isInt := func(e elemType) bool { return e.class == 's' || e.class == 'u' || e.class == 'b' }
	switch {
	case from.class == 'f' && to.class == 'f', isInt(from) && isInt(to):
		return from.bits <= to.bits
	}
	return false
}
