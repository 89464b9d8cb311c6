package ir

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// TensorType is a ranked tensor type such as tensor<8x1024xf16>.
type TensorType struct {
	Shape []int64 // -1 for a dynamic dimension
	Elem  string  // "f16", "bf16", "f32", "i64", ...
}

// ParseTensorType reads "tensor<AxBxT>" (an encoding after a comma is ignored).
func ParseTensorType(s string) (TensorType, error) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "tensor<") || !strings.HasSuffix(s, ">") {
		return TensorType{}, fmt.Errorf("not a tensor type: %q", s)
	}
	inner := s[len("tensor<") : len(s)-1]
	if parts := splitTop(inner, ','); len(parts) > 1 {
		inner = parts[0]
	}
	// The shape is a list of "N" or "?" each followed by 'x'; what is left is
	// the element type, which may hold an 'x' itself (complex<f32>, index).
	var t TensorType
	for {
		i := 0
		for i < len(inner) && (isDigit(inner[i]) || inner[i] == '?') {
			i++
		}
		if i == 0 || i >= len(inner) || inner[i] != 'x' {
			break
		}
		d := inner[:i]
		inner = inner[i+1:]
		if d == "?" {
			t.Shape = append(t.Shape, -1)
			continue
		}
		n, err := strconv.ParseInt(d, 10, 64)
		if err != nil {
			return TensorType{}, fmt.Errorf("bad dimension %q in %q", d, s)
		}
		t.Shape = append(t.Shape, n)
	}
	t.Elem = strings.TrimSpace(inner)
	if t.Elem == "" || isDigit(t.Elem[0]) || t.Elem[0] == '?' {
		return TensorType{}, fmt.Errorf("tensor type %q has no element type", s)
	}
	return t, nil
}

// String prints the type back in MLIR syntax.
func (t TensorType) String() string {
	if len(t.Shape) == 0 {
		return "tensor<" + t.Elem + ">"
	}
	return "tensor<" + t.ShapeString() + "x" + t.Elem + ">"
}

// Elems is the number of elements, or -1 when a dimension is dynamic.
// A count that does not fit in an int64 is unknown too.
func (t TensorType) Elems() int64 {
	n := int64(1)
	for _, d := range t.Shape {
		if d < 0 {
			return -1
		}
		if d == 0 {
			return 0
		}
	}
	for _, d := range t.Shape {
		if n > math.MaxInt64/d {
			return -1
		}
		n *= d
	}
	return n
}

// elemBits holds StableHLO's element types (its spec's TensorElementType:
// boolean, integer, float and complex types) with their widths in bits, of
// both parts for a complex. StableHLO's signed integers are MLIR's signless
// ones (i2 ... i64; the spec spells them si2 ... si64, which MLIR's
// verifier refuses in a StableHLO op but whose width is as clear). tf32 is no
// tensor element type; complex<f16> is MLIR's, not StableHLO's, and kept
// as arc has always sized it.
var elemBits = map[string]int{
	"i1": 1,
	"i2": 2, "i4": 4, "i8": 8, "i16": 16, "i32": 32, "i64": 64,
	"si2": 2, "si4": 4, "si8": 8, "si16": 16, "si32": 32, "si64": 64,
	"ui2": 2, "ui4": 4, "ui8": 8, "ui16": 16, "ui32": 32, "ui64": 64,
	"f4E2M1FN": 4, "f6E2M3FN": 6, "f6E3M2FN": 6,
	"f8E3M4": 8, "f8E4M3": 8, "f8E4M3FN": 8, "f8E4M3FNUZ": 8, "f8E4M3B11FNUZ": 8,
	"f8E5M2": 8, "f8E5M2FNUZ": 8, "f8E8M0FNU": 8,
	"bf16": 16, "f16": 16, "f32": 32, "f64": 64,
	"complex<f16>": 32, "complex<f32>": 64, "complex<f64>": 128,
}

// ElemBits is the width in bits of one element of a StableHLO element type
// (of a quantized type, of its storage type: !quant.uniform<i4:f32, ...>
// is 4), 0 for any other type.
func ElemBits(elem string) int {
	if b, ok := elemBits[elem]; ok {
		return b
	}
	elem = CompactType(strings.TrimSpace(elem))
	if b, ok := elemBits[elem]; ok {
		return b
	}
	if inner, ok := strings.CutPrefix(elem, "!quant.uniform<"); ok {
		// The storage type, iN or uN, then its range <min:max> or ':'.
		end := strings.IndexAny(inner, "<:")
		if end < 0 {
			return 0
		}
		storage := inner[:end]
		if u, ok := strings.CutPrefix(storage, "u"); ok {
			storage = "ui" + u
		}
		if b := elemBits[storage]; b > 1 {
			return b
		}
	}
	return 0
}

// ElemBytes is the storage size of one element of a type of whole bytes,
// one for i1 (XLA stores a boolean in a byte); 0 for a type narrower than a
// byte, whose elements XLA packs (TensorType.Bytes), or one arc does not
// know.
func ElemBytes(elem string) int64 {
	switch b := ElemBits(elem); {
	case b == 1:
		return 1
	case b%8 == 0:
		return int64(b / 8)
	}
	return 0
}

// Bytes is the size of the tensor's data as XLA lays it out, or -1 when a
// dimension is dynamic, the element type is unknown or the size overflows.
// A boolean (i1) takes a byte; elements narrower than a byte (i2, i4, ui2,
// ui4, f4E2M1FN, f6E2M3FN, f6E3M2FN) are packed, ceil(elements * bits / 8)
// bytes: XLA's GPU, CPU and TPU compilers give their layouts
// element_size_in_bits (SubByteNormalization's SET_ELEMENT_SIZE) and
// ShapeUtil::ByteSizeOfElements counts those bits.
func (t TensorType) Bytes() int64 {
	n, bits := t.Elems(), int64(ElemBits(t.Elem))
	switch {
	case n < 0 || bits == 0:
		return -1
	case bits == 1:
		return n
	case bits%8 == 0:
		if e := bits / 8; n <= math.MaxInt64/e {
			return n * e
		}
		return -1
	}
	// ceil(n * bits / 8), without n * bits overflowing.
	return n/8*bits + (n%8*bits+7)/8
}

// ShapeString prints the shape as "8x1024" ("scalar" for rank 0).
func (t TensorType) ShapeString() string {
	if len(t.Shape) == 0 {
		return "scalar"
	}
	parts := make([]string, len(t.Shape))
	for i, d := range t.Shape {
		if d < 0 {
			parts[i] = "?"
		} else {
			parts[i] = strconv.FormatInt(d, 10)
		}
	}
	return strings.Join(parts, "x")
}

// CompatibleShapes reports whether two shapes can describe the same tensor:
// the same rank, and the same size wherever both are static ("?" matches
// any size), as StableHLO's shape checks compare inferred and declared types.
func CompatibleShapes(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] >= 0 && b[i] >= 0 && a[i] != b[i] {
			return false
		}
	}
	return true
}

// Promotable is StableHLO's is_promotable(from, to) for element types: both
// booleans, both integers, both floats, both complex or both quantized with
// the same expressed type, and to has at least as many bits (of the
// storage type, for quantized types).
func Promotable(from, to string) bool {
	if from == to {
		return true
	}
	fc, fb, fe := elemClass(from)
	tc, tb, te := elemClass(to)
	if fc == "" || fc != tc || fe != te {
		return false
	}
	return fc != "bool" && fb <= tb
}

// elemClass sorts an element type into bool, int, float, complex or quant,
// with its width in bits (of the parts of a complex, of the storage type
// of a quantized type) and, for a quantized type, the expressed type.
func elemClass(t string) (class string, bits int, expressed string) {
	t = strings.TrimSpace(t)
	if inner, ok := strings.CutPrefix(t, "complex<"); ok && strings.HasSuffix(inner, ">") {
		c, b, _ := elemClass(inner[:len(inner)-1])
		if c != "float" {
			return "", 0, ""
		}
		return "complex", b, ""
	}
	if inner, ok := strings.CutPrefix(t, "!quant.uniform<"); ok && strings.HasSuffix(inner, ">") {
		// !quant.uniform<storage[<min:max>]:expressed[:dim], scales...>
		parts := splitTop(inner[:len(inner)-1], ':')
		if len(parts) < 2 {
			return "", 0, ""
		}
		storage := parts[0]
		if lt := strings.IndexByte(storage, '<'); lt >= 0 {
			storage = storage[:lt]
		}
		c, b, _ := elemClass(storage)
		if c != "int" {
			return "", 0, ""
		}
		expressed = strings.TrimSpace(parts[1])
		if comma := strings.IndexByte(expressed, ','); comma >= 0 {
			expressed = strings.TrimSpace(expressed[:comma])
		}
		return "quant", b, expressed
	}
	if t == "i1" {
		return "bool", 1, ""
	}
	for _, p := range []string{"ui", "si", "i"} {
		if n, ok := strings.CutPrefix(t, p); ok {
			if b, err := strconv.Atoi(n); err == nil && b > 1 {
				return "int", b, ""
			}
		}
	}
	switch t {
	case "f16", "bf16":
		return "float", 16, ""
	case "tf32":
		return "float", 19, ""
	case "f32":
		return "float", 32, ""
	case "f64":
		return "float", 64, ""
	}
	for _, p := range []struct {
		prefix string
		bits   int
	}{{"f8E", 8}, {"f6E", 6}, {"f4E", 4}} {
		if strings.HasPrefix(t, p.prefix) {
			return "float", p.bits, ""
		}
	}
	return "", 0, ""
}

// TypesMirror reports whether every result of the collective has exactly
// its operand's type, which is what a lowering that replaces the op by one
// of the same type needs. An all-reduce may also promote the element type
// or leave sizes dynamic (StableHLO allows both): arc leaves those native.
func (c *Collective) TypesMirror() bool {
	if len(c.OperandTypes) != len(c.ResultTypes) {
		return false
	}
	for i := range c.OperandTypes {
		if c.OperandTypes[i].String() != c.ResultTypes[i].String() {
			return false
		}
	}
	return true
}

// CompactType removes the blanks of a type outside its strings, so that
// spellings that differ only in spacing compare equal ("tensor<4xf32, #enc>"
// and "tensor<4xf32,#enc>", "tensor<4 x f32>" and "tensor<4xf32>"). A blank
// between two words stays one space, as it separates two tokens: "i 2" is
// no "i2" (nor any type), but a dimension's 'x' needs no blank around it.
func CompactType(s string) string {
	if !strings.ContainsAny(s, " \t\r\n") {
		return s
	}
	blank := func(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"': // keep strings as they are
			k := skipStringAt(s, i)
			if k < 0 {
				k = len(s)
			}
			b.WriteString(s[i:k])
			i = k - 1
		case blank(c):
			j := i
			for j < len(s) && blank(s[j]) {
				j++
			}
			if out := b.String(); j < len(s) && len(out) > 0 {
				p, n := out[len(out)-1], s[j]
				if isIdentChar(p) && isIdentChar(n) && p != 'x' && n != 'x' {
					b.WriteByte(' ')
				}
			}
			i = j - 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
