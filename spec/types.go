package spec

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/arcpass/arc/ir"
)

// tensorType is a ranked tensor type as written: tensor<4x?xf32, #enc>.
type tensorType struct {
	text  string  // as written
	key   string  // the same without blanks, to compare spellings
	shape []int64 // -1 for a dynamic dimension
	elem  string
	enc   string // the encoding after the comma, or ""
}

// parseTensor reads a ranked tensor type. Unranked tensors and other types
// are errors: every operand and result of all_reduce is a ranked tensor.
func parseTensor(s string) (tensorType, error) {
	text := stripLoc(s)
	if !strings.HasPrefix(text, "tensor<") || closing(text, len("tensor")) != len(text)-1 {
		return tensorType{}, fmt.Errorf("%s is not a ranked tensor type", text)
	}
	t := tensorType{text: text, key: compact(text)}
	inner := strings.TrimSpace(text[len("tensor<") : len(text)-1])
	if parts := splitTop(inner, ','); len(parts) == 2 {
		inner, t.enc = parts[0], parts[1]
	} else if len(parts) != 1 {
		return tensorType{}, fmt.Errorf("%s is not a ranked tensor type", text)
	}
	if strings.HasPrefix(inner, "*") {
		return tensorType{}, fmt.Errorf("%s is not a ranked tensor type", text)
	}
	for {
		inner = strings.TrimSpace(inner)
		i := 0
		for i < len(inner) && ('0' <= inner[i] && inner[i] <= '9' || inner[i] == '?') {
			i++
		}
		j := i
		for j < len(inner) && (inner[j] == ' ' || inner[j] == '\t') {
			j++
		}
		if i == 0 || j >= len(inner) || inner[j] != 'x' {
			break
		}
		d := int64(-1)
		if inner[:i] != "?" {
			n, err := strconv.ParseInt(inner[:i], 10, 64)
			if err != nil {
				return tensorType{}, fmt.Errorf("%s: bad dimension %q", text, inner[:i])
			}
			d = n
		}
		t.shape = append(t.shape, d)
		inner = inner[j+1:]
	}
	t.elem = inner
	if class, _ := elemClass(compact(t.elem)); class == "" {
		return tensorType{}, fmt.Errorf("%s: unknown element type %q", text, t.elem)
	}
	return t, nil
}

// static is true when no dimension is dynamic.
func (t tensorType) static() bool {
	for _, d := range t.shape {
		if d < 0 {
			return false
		}
	}
	return true
}

// withElem is the type of the same shape and encoding with another element type.
func (t tensorType) withElem(elem string) string {
	var b strings.Builder
	b.WriteString("tensor<")
	for _, d := range t.shape {
		if d < 0 {
			b.WriteString("?x")
		} else {
			fmt.Fprintf(&b, "%dx", d)
		}
	}
	b.WriteString(elem)
	if t.enc != "" {
		b.WriteString(", " + t.enc)
	}
	b.WriteString(">")
	return b.String()
}

// ir is the type as package ir models it (shape and element type).
func (t tensorType) ir() ir.TensorType {
	return ir.TensorType{Shape: append([]int64(nil), t.shape...), Elem: t.elem}
}

// bytes is the size of the tensor's data, or -1 when a dimension is dynamic,
// the element type has no fixed byte size, or the size overflows.
func (t tensorType) bytes() int64 {
	n, e := t.ir().Elems(), ir.ElemBytes(t.elem)
	if n < 0 || e == 0 || n > math.MaxInt64/e {
		return -1
	}
	return n * e
}

// compatible is MLIR's shape compatibility (same rank, each pair of
// dimensions equal or one of them dynamic) with equal element types.
func compatible(a, b tensorType) bool {
	if len(a.shape) != len(b.shape) || compact(a.elem) != compact(b.elem) {
		return false
	}
	for i := range a.shape {
		if a.shape[i] >= 0 && b.shape[i] >= 0 && a.shape[i] != b.shape[i] {
			return false
		}
	}
	return true
}

// elemClass sorts an element type into StableHLO's kinds (bool, int, float,
// complex, quant) with its bit width (for complex: of each part; for
// quantized: of the storage type); "" when the type is none of them.
func elemClass(e string) (class string, width int) {
	switch e {
	case "i1":
		return "bool", 1
	case "bf16", "f16":
		return "float", 16
	case "tf32":
		return "float", 19
	case "f32":
		return "float", 32
	case "f64":
		return "float", 64
	}
	switch {
	case strings.HasPrefix(e, "f8E") || e == "f8E8M0FNU":
		return "float", 8
	case strings.HasPrefix(e, "f6E"):
		return "float", 6
	case strings.HasPrefix(e, "f4E"):
		return "float", 4
	case strings.HasPrefix(e, "complex<") && strings.HasSuffix(e, ">"):
		if c, w := elemClass(e[len("complex<") : len(e)-1]); c == "float" {
			return "complex", w
		}
		return "", 0
	case strings.HasPrefix(e, "!quant.uniform<"):
		if storage, _, ok := quantParts(e); ok {
			if c, w := elemClass(storage); c == "int" || c == "bool" {
				return "quant", w
			}
		}
		return "", 0
	}
	digits := strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(e, "si"), "ui"), "i")
	if digits != e && digits != "" {
		if n, err := strconv.Atoi(digits); err == nil && n > 0 && n <= 1<<24 && strconv.Itoa(n) == digits {
			return "int", n
		}
	}
	return "", 0
}

// quantParts splits !quant.uniform<i8<-127:127>:f32:1, {...}> into its storage
// type (without range) and its expressed type.
func quantParts(e string) (storage, expressed string, ok bool) {
	inner := e[len("!quant.uniform<") : len(e)-1]
	params := splitTop(inner, ',')
	if len(params) == 0 {
		return "", "", false
	}
	head := params[0] // storage[<min:max>]:expressed[:axis]
	i := strings.IndexAny(head, "<:")
	if i < 0 {
		return "", "", false
	}
	storage, rest := head[:i], head[i:]
	if rest[0] == '<' {
		j := closing(rest, 0)
		if j < 0 {
			return "", "", false
		}
		rest = rest[j+1:]
	}
	rest, ok = strings.CutPrefix(rest, ":")
	if !ok {
		return "", "", false
	}
	expressed, _, _ = strings.Cut(rest, ":")
	return storage, expressed, expressed != ""
}

// promotable is StableHLO's is_promotable(x, y): same kind of element type,
// and no narrower (for quantized types: the same expressed type and a storage
// type no narrower). The specification leaves booleans out of its bit-width
// rule; MLIR's verifier treats i1 as the 1-bit integer it is, and so does arc.
func promotable(x, y string) bool {
	x, y = compact(x), compact(y)
	cx, wx := elemClass(x)
	cy, wy := elemClass(y)
	if cx == "bool" {
		cx = "int"
	}
	if cy == "bool" {
		cy = "int"
	}
	if cx == "" || cx != cy {
		return false
	}
	if cx == "quant" {
		_, ex, _ := quantParts(x)
		_, ey, _ := quantParts(y)
		if ex != ey {
			return false
		}
	}
	return wx <= wy
}
