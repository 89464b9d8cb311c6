// Package num holds arc's element types and the conversions between them and
// float32, bit-for-bit as CUDA's intrinsics do them (docs/FORMATS.md).
package num

import (
	"encoding/binary"
	"fmt"
	"math"
	"sync"
)

// DType is an element type that travels through an all-reduce. The values
// are those of arc_dtype in gpu/arc_gpu.h.
type DType int

const (
	F16  DType = 0 // IEEE binary16
	BF16 DType = 1 // bfloat16
	F32  DType = 2 // IEEE binary32
)

// DTypes lists every DType in enum order.
var DTypes = []DType{F16, BF16, F32}

// Size is the number of bytes of one element.
func (d DType) Size() int {
	if d == F32 {
		return 4
	}
	return 2
}

func (d DType) String() string {
	switch d {
	case F16:
		return "f16"
	case BF16:
		return "bf16"
	case F32:
		return "f32"
	}
	return fmt.Sprintf("DType(%d)", int(d))
}

// Valid reports whether d is one of F16, BF16, F32.
func (d DType) Valid() bool { return d == F16 || d == BF16 || d == F32 }

// ParseDType reads "f16", "bf16" or "f32".
func ParseDType(s string) (DType, error) {
	for _, d := range DTypes {
		if d.String() == s {
			return d, nil
		}
	}
	return 0, fmt.Errorf("unknown dtype %q (want f16, bf16 or f32)", s)
}

// Widen converts a little-endian buffer of d elements to float32 (exact).
// A trailing partial element is ignored.
func Widen(d DType, src []byte) []float32 {
	dst := make([]float32, len(src)/d.Size())
	WidenTo(dst, d, src)
	return dst
}

// WidenTo widens the first len(dst) elements of src into dst.
func WidenTo(dst []float32, d DType, src []byte) {
	switch d {
	case F16:
		table := f16Table()
		for i := range dst {
			dst[i] = table[binary.LittleEndian.Uint16(src[2*i:])]
		}
	case BF16:
		for i := range dst {
			dst[i] = BF16ToF32(binary.LittleEndian.Uint16(src[2*i:]))
		}
	case F32:
		for i := range dst {
			dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(src[4*i:]))
		}
	default:
		panic("num: invalid dtype " + d.String())
	}
}

// f16Table holds F16ToF32 of every half: bulk widening by lookup is
// several times faster than the branches of F16ToF32.
var f16Table = sync.OnceValue(func() *[1 << 16]float32 {
	var t [1 << 16]float32
	for h := range t {
		t[h] = F16ToF32(uint16(h))
	}
	return &t
})

// Narrow converts float32 values to a little-endian buffer of d elements,
// rounding to nearest even.
func Narrow(d DType, src []float32) []byte {
	dst := make([]byte, len(src)*d.Size())
	NarrowTo(dst, d, src)
	return dst
}

// NarrowTo narrows src into the first len(src) elements of dst.
func NarrowTo(dst []byte, d DType, src []float32) {
	switch d {
	case F16:
		for i, v := range src {
			binary.LittleEndian.PutUint16(dst[2*i:], F16FromF32(v))
		}
	case BF16:
		for i, v := range src {
			binary.LittleEndian.PutUint16(dst[2*i:], BF16FromF32(v))
		}
	case F32:
		for i, v := range src {
			binary.LittleEndian.PutUint32(dst[4*i:], math.Float32bits(v))
		}
	default:
		panic("num: invalid dtype " + d.String())
	}
}

// Round narrows v to d and widens it back: the value d stores for v.
func Round(d DType, v float32) float32 {
	switch d {
	case F16:
		return F16ToF32(F16FromF32(v))
	case BF16:
		return BF16ToF32(BF16FromF32(v))
	}
	return v
}

// FirstDiff returns the index of the first element where buffers a and b of
// type d differ bit-for-bit, counting any two NaNs as equal (arc's notion of
// a correct kernel output), or -1 if they are the same. A length mismatch
// reports the first element only one of them holds.
func FirstDiff(d DType, a, b []byte) int {
	size := d.Size()
	n := min(len(a), len(b)) / size
	for i := range n {
		x, y := a[i*size:(i+1)*size], b[i*size:(i+1)*size]
		if string(x) != string(y) && !(isNaN(d, x) && isNaN(d, y)) {
			return i
		}
	}
	if len(a) != len(b) {
		return n
	}
	return -1
}

func isNaN(d DType, b []byte) bool {
	switch d {
	case F16:
		h := binary.LittleEndian.Uint16(b)
		return h&0x7C00 == 0x7C00 && h&0x3FF != 0
	case BF16:
		h := binary.LittleEndian.Uint16(b)
		return h&0x7F80 == 0x7F80 && h&0x7F != 0
	}
	f := binary.LittleEndian.Uint32(b)
	return f&0x7F800000 == 0x7F800000 && f&0x7FFFFF != 0
}
