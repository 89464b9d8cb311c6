package ir

import (
	"math"
	"strconv"
	"strings"
)

// HLO is one StableHLO (or MHLO) op read by what it computes: its kind, the
// values it reads and defines, their types, and its attributes by name. The
// generic form ("stablehlo.add"(%a, %b) {...} : (T, T) -> T) and the pretty
// form JAX prints (stablehlo.add %a, %b : T) read the same: the pretty
// form's keywords are its attributes under their generic names
// (broadcast_in_dim's dims are broadcast_dimensions, reduce's "across
// dimensions" its dimensions, a constant's literal its value). Locations,
// strings and other attributes never count as anything else: a reading
// works on the op's tokens, not on substrings of its text.
type HLO struct {
	Op   *Op
	Kind string // the name less its dialect: "add", "reduce", "constant"; a chlo op's whole name
	// Results are the values the op defines, "%x" or "%x#1" for one of
	// several; Operands the values it reads, in order.
	Results, Operands         []string
	OperandTypes, ResultTypes []TensorType
	attrs                     []Attr
	value                     *Dense // a constant's, read with its types
}

// HLO reads op, an op of the stablehlo, mhlo or chlo dialect whose
// operands are values and whose types the text states: false for anything
// else. A chlo op keeps its dialect in Kind ("chlo.square", as JAX prints
// jnp.square), so that no reader takes it for StableHLO's op of that name.
func (m *Module) HLO(op *Op) (*HLO, bool) {
	dialect, kind, ok := strings.Cut(op.Name, ".")
	switch {
	case !ok:
		return nil, false
	case dialect == "chlo":
		kind = op.Name
	case dialect != "stablehlo" && dialect != "mhlo":
		return nil, false
	}
	h := &HLO{Op: op, Kind: kind}
	scanValues(m.Src, int(op.Start), int(op.resEnd), true, func(v ValueRef) {
		if v.Count == 1 {
			h.Results = append(h.Results, v.Name)
			return
		}
		for j := range v.Count {
			h.Results = append(h.Results, v.Name+"#"+strconv.Itoa(j))
		}
	})
	for _, o := range m.Operands(op) {
		if !IsValueRef(o) {
			return nil, false
		}
		h.Operands = append(h.Operands, strings.TrimSpace(blankComments(o)))
	}
	if op.Generic {
		h.attrs = m.Attrs(op)
	} else {
		h.attrs = prettyAttrs(kind, m.header(op))
	}
	if !h.readTypes(m) {
		return nil, false
	}
	return h, true
}

// readTypes reads the operand and result types: the function type, or the
// pretty form's one type for every operand and the result.
func (h *HLO) readTypes(m *Module) bool {
	if h.Kind == "constant" {
		d, err := ParseDense(h.Value())
		if err != nil || len(h.Results) != 1 || len(h.Operands) != 0 {
			return false
		}
		h.value, h.ResultTypes = d, []TensorType{d.Type}
		return true
	}
	ins, outs, ok := m.FuncType(h.Op)
	if !ok {
		return false
	}
	parse := func(list []string) ([]TensorType, bool) {
		var out []TensorType
		for _, s := range list {
			t, err := ParseTensorType(strings.TrimSpace(s))
			if err != nil {
				return nil, false
			}
			out = append(out, t)
		}
		return out, true
	}
	if h.ResultTypes, ok = parse(outs); !ok {
		return false
	}
	if ins == nil { // pretty: T for every operand and the result
		if len(h.ResultTypes) != 1 || len(h.Results) > 1 {
			return false
		}
		for range h.Operands {
			h.OperandTypes = append(h.OperandTypes, h.ResultTypes[0])
		}
		return true
	}
	if h.OperandTypes, ok = parse(ins); !ok {
		return false
	}
	return len(h.OperandTypes) == len(h.Operands) && (len(h.Results) == 0 || len(h.Results) == len(h.ResultTypes))
}

// OpAttrs are op's attributes in either form: a generic op's properties
// and dictionary (Attrs); a pretty op's "attributes {...}" (Attrs), its
// dictionary and its keywords (prettyAttrs: broadcast_in_dim's dims as
// broadcast_dimensions, ...).
func (m *Module) OpAttrs(op *Op) []Attr {
	if attrs := m.Attrs(op); op.Generic || len(attrs) > 0 {
		return attrs
	}
	_, kind, _ := strings.Cut(op.Name, ".")
	return prettyAttrs(kind, m.header(op))
}

// Callee is the symbol a pretty op names right after its name, quotes
// removed ("f" of `stablehlo.custom_call @f(%x)` or `@"f"`), or "" where
// the op names none (a generic op keeps it in an attribute).
func (m *Module) Callee(op *Op) string {
	if op.Generic {
		return ""
	}
	toks := tokens(m.header(op))
	switch {
	case len(toks) == 0 || !strings.HasPrefix(toks[0].text, "@"):
		return ""
	case toks[0].text == "@" && len(toks) > 1 && strings.HasPrefix(toks[1].text, `"`) && toks[1].start == toks[0].end:
		return Unquote(toks[1].text) // @"name"
	case strings.HasPrefix(toks[0].text, `@"`):
		return Unquote(toks[0].text[1:])
	}
	return toks[0].text[1:]
}

// Attr is the value of the named attribute, and whether the op has it.
func (h *HLO) Attr(name string) (string, bool) { return AttrValue(h.attrs, name) }

// Ints reads an integer list attribute: "array<i64: 1, 2>", "[1, 2]" or a
// dense literal of rank 0 or 1.
func (h *HLO) Ints(name string) ([]int64, bool) {
	v, ok := h.Attr(name)
	if !ok {
		return nil, false
	}
	return intList(v)
}

// Value is a constant's literal with its type, "dense<1.0> : tensor<f32>".
func (h *HLO) Value() string {
	v, _ := h.Attr("value")
	return v
}

// SplatF32 is the value of a constant of f32 elements all equal, as MLIR
// reads the literal: a decimal is the nearest double rounded to f32, a
// hexadecimal literal the element's bits.
func (h *HLO) SplatF32() (float32, bool) {
	d := h.value
	if h.Kind != "constant" || d == nil || d.Type.Elem != "f32" || !d.Splat {
		return 0, false
	}
	v := h.Value()
	lit := strings.TrimSpace(v[len("dense<"):])
	lit = lit[:indexTop(lit, '>')]
	lit = strings.TrimSpace(lit)
	if strings.HasPrefix(lit, "[") { // a splat written as a list of one
		lit = strings.TrimSpace(strings.Trim(lit, "[]"))
	}
	if strings.HasPrefix(lit, "0x") || strings.HasPrefix(lit, "0X") {
		b, err := strconv.ParseUint(lit[2:], 16, 32)
		return math.Float32frombits(uint32(b)), err == nil
	}
	x, err := strconv.ParseFloat(lit, 64)
	if err != nil && !isRangeErr(err) {
		return 0, false
	}
	return float32(x), true
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// Reducer is the op a reduction's computation applies to its two
// arguments ("stablehlo.add"): the pretty form's "applies", or a body that
// is exactly that op of the block's two arguments (either order) and its
// return. "" for any other computation.
func (m *Module) Reducer(h *HLO) string {
	if len(h.Op.Regions) == 0 {
		v, _ := h.Attr("applies")
		return v
	}
	return m.regionOp(h.Op)
}

// regionOp is the op the single-block region of op applies to the block's
// two arguments, when the block is exactly that op (of the two arguments,
// either order) and the return of its result; "" otherwise.
func (m *Module) regionOp(op *Op) string {
	if len(op.Regions) != 1 || len(op.Regions[0].Blocks) != 1 {
		return ""
	}
	b := op.Regions[0].Blocks[0]
	var args []string
	collect := func(v ValueRef) {
		if v.Kind == Arg {
			args = append(args, v.Name)
		}
	}
	if b.Label != "" {
		m.LabelArgs(b, collect)
	} else {
		m.Values(op, collect) // reducer(%a: ..., %b: ...)
	}
	if len(b.Ops) != 2 || len(args) != 2 {
		return ""
	}
	f, ok := m.HLO(b.Ops[0])
	if !ok || len(f.Operands) != 2 || len(f.Results) != 1 {
		return ""
	}
	a, c := f.Operands[0], f.Operands[1]
	if !(a == args[0] && c == args[1] || a == args[1] && c == args[0]) {
		return ""
	}
	ret := b.Ops[1]
	if ret.Name != "stablehlo.return" && ret.Name != "mhlo.return" {
		return ""
	}
	vals := m.Operands(ret)
	if len(vals) != 1 || strings.TrimSpace(vals[0]) != f.Results[0] {
		return ""
	}
	return f.Op.Name
}

// prettyKeyword maps a pretty-form keyword of an op kind to the attribute's
// generic name.
func prettyKeyword(kind, word string) string {
	switch {
	case kind == "broadcast_in_dim" && word == "dims":
		return "broadcast_dimensions"
	case kind == "transpose" && word == "dims":
		return "permutation"
	}
	return word
}

// prettyAttrs reads a pretty-form op's attributes from its header (the text
// after its name, regions as "{}"): the attribute dictionary, "keyword =
// value" groups before the type (a keyword of several words, "across
// dimensions", is named by its last), "applies OP", and a constant's
// literal, under "value". Locations and strings are single tokens, so text
// inside them is never read as anything else.
func prettyAttrs(kind, h string) []Attr {
	toks := tokens(h)
	var out []Attr
	if kind == "constant" {
		i := 0
		if i < len(toks) && toks[i].group == '{' && toks[i].text != "{}" {
			out = append(out, parseDict(toks[i].text[1:len(toks[i].text)-1])...)
			i++
		}
		if i < len(toks) {
			out = append(out, Attr{Name: "value", Value: h[toks[i].start:toks[len(toks)-1].end]})
		}
		return out
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.text == ":":
			return out // the types follow
		case t.group == '{' && t.text != "{}":
			out = append(out, parseDict(t.text[1:len(t.text)-1])...)
		case t.word && t.text == "applies" && i+1 < len(toks) && toks[i+1].word:
			out = append(out, Attr{Name: "applies", Value: toks[i+1].text})
			i++
		case t.word && i+1 < len(toks) && toks[i+1].text == "=":
			j := i + 2
			for j < len(toks) && toks[j].text != "," && toks[j].text != ":" &&
				!(toks[j].word && j+1 < len(toks) && toks[j+1].text == "=") { // the next keyword
				j++
			}
			if j > i+2 {
				out = append(out, Attr{Name: prettyKeyword(kind, t.text), Value: h[toks[i+2].start:toks[j-1].end]})
			}
			i = j - 1
		}
	}
	return out
}

// token is a top-level piece of an op's header: a word (letters, digits,
// '_', '.', '$', '-'), a value or symbol, a string, a bracketed group
// (group is its opening bracket), or one punctuation byte.
type token struct {
	text       string
	word       bool
	group      byte
	start, end int // the token's bytes in the header
}

// tokens splits s at top level, dropping comments and locations ("loc"
// with its parenthesized group).
func tokens(s string) []token {
	var out []token
	add := func(i, j int, word bool, group byte) {
		out = append(out, token{text: s[i:j], word: word, group: group, start: i, end: j})
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case isBlank(c):
			i++
			continue
		case c == '/' && i+1 < len(s) && s[i+1] == '/':
			for i < len(s) && s[i] != '\n' {
				i++
			}
			continue
		case c == '"':
			j := skipStringAt(s, i)
			if j < 0 {
				j = len(s)
			}
			add(i, j, false, 0)
			i = j
		case c == '(' || c == '[' || c == '{' || c == '<':
			j := matching(s, i)
			if j < 0 {
				j = len(s) - 1
			}
			add(i, j+1, false, c)
			i = j + 1
		case c == '-' && i+1 < len(s) && s[i+1] == '>':
			add(i, i+2, false, 0)
			i += 2
		case isIdentChar(c) || c == '%' || c == '@' || c == '^' || c == '#' || c == '!' || c == '-' || c == '+':
			j := i + 1
			for j < len(s) && (isIdentChar(s[j]) || s[j] == '.' || s[j] == '#') {
				j++
			}
			add(i, j, isIdentStart(c), 0)
			i = j
		default:
			add(i, i+1, false, 0)
			i++
		}
		if n := len(out); n >= 2 && out[n-1].group == '(' && out[n-2].text == "loc" && out[n-2].word {
			out = out[:n-2]
		}
	}
	return out
}

// intList reads "array<i64: 1, 2>", "[1, 2]", "dense<1> : tensor<1xi64>" or
// "dense<[1, 2]> : tensor<2xi64>".
func intList(v string) ([]int64, bool) {
	v = strings.TrimSpace(v)
	switch {
	case strings.HasPrefix(v, "array<"):
		out, err := IntArray(v)
		return out, err == nil
	case strings.HasPrefix(v, "dense<"):
		rows, err := DenseInts(v)
		if err != nil || len(rows) > 1 {
			return nil, false
		}
		if len(rows) == 0 {
			return []int64{}, true
		}
		return rows[0], true
	}
	elems, ok := SplitArray(v)
	if !ok {
		return nil, false
	}
	out := []int64{}
	for _, e := range elems {
		n, err := strconv.ParseInt(strings.TrimSpace(e), 10, 64)
		if err != nil {
			return nil, false
		}
		out = append(out, n)
	}
	return out, true
}
