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
	key   string  // canonical: equal for the same type however it is spelled
	shape []int64 // -1 for a dynamic dimension
	elem  string  // the element type as written
	e     elemType
	enc   string // the encoding after the comma, or ""
}

// parseTensor reads a ranked tensor type. Unranked tensors and other types
// are errors: every operand and result of all_reduce is a ranked tensor.
func parseTensor(s string) (tensorType, error) {
	text := ir.StripLoc(s)
	if !strings.HasPrefix(text, "tensor<") || ir.Closing(text, len("tensor")) != len(text)-1 {
		return tensorType{}, fmt.Errorf("%s is not a ranked tensor type", text)
	}
	t := tensorType{text: text}
	inner := strings.TrimSpace(text[len("tensor<") : len(text)-1])
	if parts := ir.SplitTop(inner, ','); len(parts) == 2 {
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
	var ok bool
	if t.e, ok = parseElem(inner); !ok {
		return tensorType{}, fmt.Errorf("%s: unknown element type %q", text, t.elem)
	}
	t.key = t.withElemKey(t.e.canon)
	return t, nil
}

// withElemKey is the canonical key of the same shape and encoding with
// another (canonical) element type.
func (t tensorType) withElemKey(canon string) string {
	var b strings.Builder
	for _, d := range t.shape {
		if d < 0 {
			b.WriteString("?x")
		} else {
			fmt.Fprintf(&b, "%dx", d)
		}
	}
	b.WriteString(canon)
	if t.enc != "" {
		b.WriteString("," + ir.CompactType(t.enc))
	}
	return b.String()
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

// bytes is the size of the tensor's data as XLA lays it out (sub-byte
// elements packed: ir.TensorType.Bytes), or -1 when a dimension is dynamic,
// the element type is unknown, or the size overflows.
func (t tensorType) bytes() int64 { return t.ir().Bytes() }

// compatible is MLIR's shape compatibility (same rank, each pair of
// dimensions equal or one of them dynamic) with equal element types.
func compatible(a, b tensorType) bool {
	return a.e.canon == b.e.canon && compatibleShape(a, b)
}

// compatibleShape is MLIR's verifyCompatibleShape for ranked tensors.
func compatibleShape(a, b tensorType) bool {
	if len(a.shape) != len(b.shape) {
		return false
	}
	for i := range a.shape {
		if a.shape[i] >= 0 && b.shape[i] >= 0 && a.shape[i] != b.shape[i] {
			return false
		}
	}
	return true
}

// compatibleForInference is StableHLO's isCompatibleForHloTypeInference,
// which the InferTensorType trait applies between the types an op infers
// and those it declares: compatible shapes, static sizes within the other
// type's bounds (bounded dynamism), and equal element types, except that
// quantized types need only agree on storage type, range, expressed type and
// granularity (their scales and zero points may differ).
func compatibleForInference(a, b tensorType) bool {
	if !compatibleShape(a, b) || !withinBounds(a.shape, bounds(b.enc)) || !withinBounds(b.shape, bounds(a.enc)) {
		return false
	}
	qa, qb := a.e.q, b.e.q
	if qa != nil && qb != nil {
		return qa.storage == qb.storage && qa.min == qb.min && qa.max == qb.max &&
			qa.expressed == qb.expressed && qa.perAxis == qb.perAxis
	}
	return a.e.canon == b.e.canon
}

// withinBounds: no static size above the bound of its dimension.
func withinBounds(shape, bounds []int64) bool {
	for i := 0; i < len(shape) && i < len(bounds); i++ {
		if bounds[i] >= 0 && shape[i] >= 0 && bounds[i] < shape[i] {
			return false
		}
	}
	return true
}

// bounds reads the bounds of a bounded-dynamism encoding,
// #stablehlo.bounds<4, ?> or #mhlo.type_extensions<bounds = [4, ?]>; -1 for
// a dimension without a bound, nil for other encodings.
func bounds(enc string) []int64 {
	enc = ir.CompactType(enc)
	var list string
	switch {
	case strings.HasPrefix(enc, "#stablehlo.bounds<") && strings.HasSuffix(enc, ">"):
		list = enc[len("#stablehlo.bounds<") : len(enc)-1]
	case strings.HasPrefix(enc, "#mhlo.type_extensions<bounds=[") && strings.HasSuffix(enc, "]>"):
		list = enc[len("#mhlo.type_extensions<bounds=[") : len(enc)-2]
	default:
		return nil
	}
	var out []int64
	for _, f := range ir.SplitTop(list, ',') {
		n, err := strconv.ParseInt(f, 10, 64)
		if err != nil || n < 0 { // ?, or an old negative spelling
			n = -1
		}
		out = append(out, n)
	}
	return out
}

// elemType is an element type, read.
type elemType struct {
	canon string // canonical spelling: equal for equal types
	// class is StableHLO's kind: bool, int, float, complex or quant.
	class string
	// width is the bit width: of each part for complex, of the storage
	// type for quantized types.
	width  int
	signed bool // si (int), or a signed storage type (quant)
	q      *quantType
}

// quantType is a !quant.uniform element type.
type quantType struct {
	storage    string // i8, u8 (quant's spellings of signed and unsigned)
	min, max   int64  // the storage range, the full one by default
	expressed  string
	perAxis    bool // per-axis (or sub-channel) scales
	zeroPoints []int64
}

// parseElem reads the element types StableHLO's kinds hold; ok is false for
// any other type.
func parseElem(s string) (e elemType, ok bool) {
	s = ir.CompactType(s)
	e.canon = s
	switch s {
	case "i1":
		e.class, e.width = "bool", 1
		return e, true
	case "bf16", "f16":
		e.class, e.width = "float", 16
		return e, true
	case "tf32":
		e.class, e.width = "float", 19
		return e, true
	case "f32":
		e.class, e.width = "float", 32
		return e, true
	case "f64":
		e.class, e.width = "float", 64
		return e, true
	}
	switch {
	case strings.HasPrefix(s, "f8E") || strings.HasPrefix(s, "f6E") || strings.HasPrefix(s, "f4E"):
		// MLIR's small floats, by name: an unknown one is no type at all.
		e.class, e.width = "float", ir.ElemBits(s)
		return e, e.width > 0
	case strings.HasPrefix(s, "complex<") && strings.HasSuffix(s, ">"):
		part, ok := parseElem(s[len("complex<") : len(s)-1])
		if !ok || part.class != "float" {
			return e, false
		}
		e.class, e.width, e.canon = "complex", part.width, "complex<"+part.canon+">"
		return e, true
	case strings.HasPrefix(s, "!quant.uniform<") && strings.HasSuffix(s, ">"):
		q, canon, ok := parseQuant(s)
		if !ok {
			return e, false
		}
		e.class, e.q, e.canon = "quant", q, canon
		e.width, e.signed = intWidth(q.storage)
		return e, true
	}
	digits := strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(s, "si"), "ui"), "i")
	if digits != s && digits != "" {
		if n, err := strconv.Atoi(digits); err == nil && n > 0 && n <= 1<<24 && strconv.Itoa(n) == digits {
			e.class, e.width, e.signed = "int", n, strings.HasPrefix(s, "si")
			return e, true
		}
	}
	return e, false
}

// intWidth reads a quantized storage type, iN or uN: its width and whether
// it is signed; 0 when it is neither.
func intWidth(s string) (int, bool) {
	if len(s) < 2 || s[0] != 'i' && s[0] != 'u' {
		return 0, false
	}
	n, err := strconv.Atoi(s[1:])
	if err != nil || n < 1 || n > 64 || strconv.Itoa(n) != s[1:] {
		return 0, false
	}
	return n, s[0] == 'i'
}

// parseQuant reads !quant.uniform<STORAGE[<MIN:MAX>]:EXPRESSED[:AXIS],
// SCALE[:ZP] | {SCALE[:ZP], ...}> (blanks removed), returning the type and
// a canonical spelling: the range written out, scales as numbers, zero
// points explicit.
func parseQuant(s string) (*quantType, string, bool) {
	params := ir.SplitTop(s[len("!quant.uniform<"):len(s)-1], ',')
	if len(params) < 2 {
		return nil, "", false
	}
	head := params[0] // storage[<min:max>]:expressed[:axis]
	i := strings.IndexAny(head, "<:")
	if i < 0 {
		return nil, "", false
	}
	q := &quantType{storage: head[:i]}
	width, signed := intWidth(q.storage)
	if width == 0 {
		return nil, "", false
	}
	if signed {
		q.min, q.max = -(int64(1) << (width - 1)), int64(1)<<(width-1)-1
	} else {
		q.min, q.max = 0, int64(1)<<width-1
		if width == 64 {
			q.max = math.MaxInt64
		}
	}
	rest := head[i:]
	if rest[0] == '<' {
		j := ir.Closing(rest, 0)
		if j < 0 {
			return nil, "", false
		}
		lo, hi, ok := strings.Cut(rest[1:j], ":")
		a, err1 := strconv.ParseInt(lo, 10, 64)
		b, err2 := strconv.ParseInt(hi, 10, 64)
		if !ok || err1 != nil || err2 != nil {
			return nil, "", false
		}
		q.min, q.max = a, b
		rest = rest[j+1:]
	}
	rest, ok := strings.CutPrefix(rest, ":")
	if !ok {
		return nil, "", false
	}
	expressed, axis, hasAxis := strings.Cut(rest, ":")
	if e, ok := parseElem(expressed); !ok || e.class != "float" {
		return nil, "", false
	}
	q.expressed, q.perAxis = expressed, hasAxis
	scales := strings.Join(params[1:], ",")
	if q.perAxis {
		if !strings.HasPrefix(scales, "{") || ir.Closing(scales, 0) != len(scales)-1 {
			return nil, "", false
		}
		scales = scales[1 : len(scales)-1]
	} else if len(params) != 2 {
		return nil, "", false
	}
	var canon []string
	for _, sz := range ir.SplitTop(scales, ',') {
		if strings.HasPrefix(sz, "{") { // sub-channel: nested lists, kept as written
			canon = append(canon, sz)
			continue
		}
		sc, zp, hasZP := strings.Cut(sz, ":")
		if f, err := strconv.ParseFloat(sc, 64); err == nil {
			sc = strconv.FormatFloat(f, 'g', -1, 64)
		}
		z := int64(0)
		if hasZP {
			var err error
			if z, err = strconv.ParseInt(zp, 10, 64); err != nil {
				return nil, "", false
			}
		}
		q.zeroPoints = append(q.zeroPoints, z)
		canon = append(canon, fmt.Sprintf("%s:%d", sc, z))
	}
	key := fmt.Sprintf("!quant.uniform<%s<%d:%d>:%s", q.storage, q.min, q.max, q.expressed)
	if q.perAxis {
		key += ":" + axis + ",{" + strings.Join(canon, ",") + "}>"
	} else {
		key += "," + strings.Join(canon, ",") + ">"
	}
	return q, key, true
}

// hloFloats are the float types of HLO_Float in StableHLO's Base.td.
var hloFloats = map[string]bool{
	"f4E2M1FN": true, "f6E2M3FN": true, "f6E3M2FN": true, "f8E3M4": true, "f8E4M3": true,
	"f8E4M3FN": true, "f8E4M3FNUZ": true, "f8E4M3B11FNUZ": true, "f8E5M2": true,
	"f8E5M2FNUZ": true, "f8E8M0FNU": true, "f16": true, "f32": true, "f64": true, "bf16": true,
}

// hloTensorElems is how MLIR's messages name the element types of
// HLO_Tensor, the type of all_reduce's operands and results.
const hloTensorElems = "4/6/8/16/32/64-bit float or bool or 2/4/8/16/32/64-bit integer or complex type with 32/64-bit float elements or per-tensor integer quantized"

// hlo is true when the element type is one of HLO_Tensor's (StableHLO's
// Base.td): the floats of HLO_Float, i1, signless and unsigned integers of
// 2 to 64 bits (not si), complex of f32 or f64, and uniform quantized types
// of 2- to 32-bit storage whose zero points lie in the storage range; perAxis
// admits per-axis quantization too, as MHLO_Tensor does (StableHLO's
// all_reduce takes "tensors or per-tensor quantized tensors").
func (e elemType) hlo(perAxis bool) bool {
	switch e.class {
	case "bool":
		return true
	case "int":
		return !e.signed && (e.width == 2 || e.width == 4 || e.width == 8 || e.width == 16 || e.width == 32 || e.width == 64)
	case "float":
		return hloFloats[e.canon]
	case "complex":
		return e.canon == "complex<f32>" || e.canon == "complex<f64>"
	case "quant":
		if e.width != 2 && e.width != 4 && e.width != 8 && e.width != 16 && e.width != 32 || e.q.perAxis && !perAxis {
			return false
		}
		for _, z := range e.q.zeroPoints {
			if z < e.q.min || z > e.q.max {
				return false
			}
		}
		return true
	}
	return false
}

// elemClass sorts an element type into StableHLO's kinds (bool, int, float,
// complex, quant) with its bit width (for complex: of each part; for
// quantized: of the storage type); "" when the type is none of them.
func elemClass(s string) (class string, width int) {
	e, ok := parseElem(s)
	if !ok {
		return "", 0
	}
	return e.class, e.width
}

// promotable is StableHLO's is_promotable(x, y) (docs/spec.md): the same
// kind of element type (bool, integer, float, complex, or quantized of the
// same expressed type) and no narrower. The specification's function falls
// through for two booleans, which its own programs reduce (and, or): arc
// reads that as the oversight it is and promotes i1 to i1. A boolean is not
// an integer there, so i1 does not promote to i8, although MLIR's verifier,
// for which i1 is a 1-bit integer, lets it.
func promotable(x, y string) bool {
	ex, okx := parseElem(x)
	ey, oky := parseElem(y)
	if !okx || !oky || ex.class != ey.class {
		return false
	}
	if ex.class == "quant" && ex.q.expressed != ey.q.expressed {
		return false
	}
	return ex.width <= ey.width
}

// mlirPromotable is MLIR's isPromotableElementType (StableHLO's
// TypeInference.cpp): both integers (i1 included, any signedness), floats,
// complex, or quantized of the same expressed type, and no narrower; with
// ignoreFloats any float promotes to any float, as verifyReducerShape asks.
func mlirPromotable(x, y elemType, ignoreFloats bool) bool {
	cx, cy := x.class, y.class
	if cx == "bool" {
		cx = "int"
	}
	if cy == "bool" {
		cy = "int"
	}
	if cx != cy {
		return false
	}
	switch {
	case cx == "quant" && x.q.expressed != y.q.expressed:
		return false
	case cx == "float" && ignoreFloats:
		return true
	}
	return x.width <= y.width
}
