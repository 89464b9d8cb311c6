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

// ElemBytes is the storage size of one element, 0 if unknown.
func ElemBytes(elem string) int64 {
	switch elem {
	case "i1", "i8", "ui8", "f8E4M3FN", "f8E5M2", "f8E4M3FNUZ", "f8E5M2FNUZ", "f8E4M3", "f8E4M3B11FNUZ", "f8E3M4":
		return 1
	case "f16", "bf16", "i16", "ui16":
		return 2
	case "f32", "i32", "ui32", "complex<f16>":
		return 4
	case "f64", "i64", "ui64", "complex<f32>":
		return 8
	case "complex<f64>":
		return 16
	}
	return 0
}

// Bytes is the size of the tensor's data, or -1 when unknown.
func (t TensorType) Bytes() int64 {
	n, e := t.Elems(), ElemBytes(t.Elem)
	if n < 0 || e == 0 || n > math.MaxInt64/e {
		return -1
	}
	return n * e
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
