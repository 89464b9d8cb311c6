package oracle

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/arcpass/arc/ir"
)

// The oracle's own reading of the StableHLO ops it interprets where a
// fusion replaced them (fused.go): the generic form go-xla prints and the
// pretty form JAX prints, read token by token from the op's own text (its
// regions aside), attributes by name, locations and comments skipped,
// written apart from the compiler's matcher (passes.MatchNorm) so that a
// mistake of the matcher's reading is not the oracle's too. Package ir gives
// the structure only: the ops, their spans, regions and blocks.

// tok is one token of an op's own text.
type tok struct {
	kind       byte // 'v' value, '@' symbol, 'w' word (a type or attribute with its <...>), 'n' number, 's' string, 'p' punctuation, 'a' arrow, 'R' a region
	text       string
	start, end int // offsets in the module's text
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' }
func isDigitByte(c byte) bool {
	return '0' <= c && c <= '9'
}

// bareChar: MLIR's bare identifiers (letters, digits, _ $ .); valueChar
// adds '-' for value names.
func bareChar(c byte) bool  { return isLetter(c) || isDigitByte(c) || c == '$' || c == '.' }
func valueChar(c byte) bool { return bareChar(c) || c == '-' }

// lexOp splits the text of op outside its regions into tokens; each region
// is one 'R' token. A location, loc(...), and comments are left out. It
// fails on a string or bracket that does not close.
func lexOp(m *ir.Module, op *ir.Op) ([]tok, error) {
	var out []tok
	at := int(op.Start)
	for _, r := range op.Regions {
		ts, err := lexSpan(m.Src, at, int(r.Start))
		if err != nil {
			return nil, err
		}
		out = append(out, ts...)
		out = append(out, tok{kind: 'R', text: "{...}", start: int(r.Start), end: int(r.End)})
		at = int(r.End)
	}
	ts, err := lexSpan(m.Src, at, int(op.End))
	if err != nil {
		return nil, err
	}
	return append(out, ts...), nil
}

// lexSpan tokenises s[from:to].
func lexSpan(src string, from, to int) ([]tok, error) {
	s := src[:to]
	var out []tok
	i := from
	bad := func(format string, args ...any) error {
		return fmt.Errorf("offset %d: %s", i, fmt.Sprintf(format, args...))
	}
	// closing is the end (just after) of the bracket group opening at j.
	closing := func(j int) (int, error) {
		k := ir.Closing(s, j)
		if k < 0 {
			return 0, bad("%q does not close", s[j])
		}
		return k + 1, nil
	}
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			i++
		case c == '/' && i+1 < len(s) && s[i+1] == '/':
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == '"':
			j := ir.SkipString(s, i)
			if j < 0 {
				return nil, bad("a string does not close")
			}
			out = append(out, tok{'s', s[i:j], i, j})
			i = j
		case c == '%' || c == '@' || c == '^':
			j := i + 1
			if c == '@' && j < len(s) && s[j] == '"' {
				if j = ir.SkipString(s, j); j < 0 {
					return nil, bad("a symbol does not close")
				}
			} else {
				for j < len(s) && valueChar(s[j]) {
					j++
				}
			}
			if c == '%' && j+1 < len(s) && s[j] == '#' && isDigitByte(s[j+1]) {
				for j++; j < len(s) && isDigitByte(s[j]); j++ {
				}
			}
			kind := byte('v')
			if c != '%' {
				kind = c
			}
			out = append(out, tok{kind, s[i:j], i, j})
			i = j
		case c == '-' && i+1 < len(s) && s[i+1] == '>':
			out = append(out, tok{'a', "->", i, i + 2})
			i += 2
		case isDigitByte(c) || (c == '-' || c == '+') && i+1 < len(s) && isDigitByte(s[i+1]):
			j := i + 1
			for j < len(s) && (bareChar(s[j]) || (s[j] == '-' || s[j] == '+') && (s[j-1] == 'e' || s[j-1] == 'E') && !strings.HasPrefix(s[i:], "0x")) {
				j++
			}
			out = append(out, tok{'n', s[i:j], i, j})
			i = j
		case isLetter(c) || c == '!' || c == '#':
			j := i + 1
			for j < len(s) && bareChar(s[j]) {
				j++
			}
			word := s[i:j]
			if word == "loc" && j < len(s) && s[j] == '(' {
				k, err := closing(j)
				if err != nil {
					return nil, err
				}
				i = k
				continue
			}
			if j < len(s) && s[j] == '<' && (word != "" && word != "!" && word != "#") {
				k, err := closing(j)
				if err != nil {
					return nil, err
				}
				j = k
			}
			out = append(out, tok{'w', s[i:j], i, j})
			i = j
		default:
			out = append(out, tok{'p', s[i : i+1], i, i + 1})
			i++
		}
	}
	return out, nil
}

// stOp is one op as the oracle reads it.
type stOp struct {
	op       *ir.Op
	name     string   // the op's name
	kind     string   // the name less "stablehlo." ("func.return" and "return" are "return")
	results  int      // the results it defines
	operands []string // the values it reads, as written ("%x", "%x#1")
	ins      []string // the operands' types as the text states them (compacted), nil if not stated
	outs     []string // the results' types
	// value is a constant's dense literal with its type, "dense<...> :
	// tensor<...>": the generic form's value attribute, the pretty form's
	// literal after its attribute dictionary.
	value string
	// dims are broadcast_in_dim's broadcast_dimensions and reduce's
	// dimensions; hasDims says they were read.
	dims    []int64
	hasDims bool
	// applies is a reduce's computation: the op of `applies OP`, or of a
	// region that is one binary op of its two arguments and returns it
	// ("" for any other computation); appliesIn is its element type.
	applies, appliesIn string
	// args and argTypes are the arguments a func.func declares.
	args, argTypes []string
}

// shortKind is an op name as stOp.kind has it.
func shortKind(name string) string {
	switch name {
	case "func.return", "return":
		return "return"
	case "func.func":
		return "func"
	case "chlo.square": // JAX's jnp.square; CHLO defines it as x * x for real x
		return "chlo.square"
	}
	if k, ok := strings.CutPrefix(name, "stablehlo."); ok {
		return k
	}
	return ""
}

// readOp reads op; an error says what the oracle cannot read.
func readOp(m *ir.Module, op *ir.Op) (*stOp, error) {
	ts, err := lexOp(m, op)
	if err != nil {
		return nil, err
	}
	r := &stOp{op: op, name: op.Name, kind: shortKind(op.Name)}
	p := &tokens{ts: ts}
	// Results: %a, %b:2, ... =
	if eq := p.find('p', "="); eq >= 0 && p.before(eq, func(t tok) bool { return t.kind == 'v' || t.kind == 'n' || t.text == ":" || t.text == "," }) {
		for p.i < eq {
			t := p.next()
			if t.kind != 'v' {
				continue
			}
			n := 1
			if p.is('p', ":") {
				p.next()
				c, err := strconv.Atoi(p.next().text)
				if err != nil || c < 1 {
					return nil, fmt.Errorf("%s: a result count that is not a number", op.Name)
				}
				n = c
			}
			r.results += n
		}
		p.i = eq + 1
	}
	name := p.next()
	if op.Generic {
		if name.kind != 's' || ir.Unquote(name.text) != op.Name {
			return nil, fmt.Errorf("%s: the generic op's name is not where it should be", op.Name)
		}
		return r, r.readGeneric(m, p)
	}
	if name.text != op.Name {
		return nil, fmt.Errorf("%s: the op's name is not where it should be", op.Name)
	}
	return r, r.readPretty(m, p)
}

// tokens is a cursor over an op's tokens.
type tokens struct {
	ts []tok
	i  int
}

func (p *tokens) done() bool { return p.i >= len(p.ts) }
func (p *tokens) peek() tok {
	if p.done() {
		return tok{}
	}
	return p.ts[p.i]
}
func (p *tokens) next() tok {
	t := p.peek()
	p.i++
	return t
}
func (p *tokens) is(kind byte, text string) bool {
	t := p.peek()
	return t.kind == kind && (text == "" || t.text == text)
}
func (p *tokens) eat(kind byte, text string) bool {
	if p.is(kind, text) {
		p.i++
		return true
	}
	return false
}

// find is the index of the first top-level token kind/text from the
// cursor on, or -1.
func (p *tokens) find(kind byte, text string) int {
	depth := 0
	for j := p.i; j < len(p.ts); j++ {
		t := p.ts[j]
		if depth == 0 && t.kind == kind && t.text == text {
			return j
		}
		depth += nesting(t)
	}
	return -1
}

// nesting is how a token changes the bracket depth: +1 for an opening
// bracket, -1 for a closing one, 0 for any other token.
func nesting(t tok) int {
	if t.kind != 'p' {
		return 0
	}
	switch t.text {
	case "(", "[", "{", "<":
		return 1
	case ")", "]", "}", ">":
		return -1
	}
	return 0
}

// before reports whether every token from the cursor to end satisfies ok.
func (p *tokens) before(end int, ok func(tok) bool) bool {
	for j := p.i; j < end; j++ {
		if !ok(p.ts[j]) {
			return false
		}
	}
	return true
}

// group returns the tokens inside the bracket group opening at the cursor
// and moves past it.
func (p *tokens) group() ([]tok, bool) {
	open := p.peek()
	closer := map[string]string{"(": ")", "[": "]", "{": "}", "<": ">"}[open.text]
	if open.kind != 'p' || closer == "" {
		return nil, false
	}
	depth := 0
	for j := p.i; j < len(p.ts); j++ {
		t := p.ts[j]
		step := nesting(t)
		depth += step
		if step < 0 && depth == 0 {
			if t.text != closer {
				return nil, false
			}
			inner := p.ts[p.i+1 : j]
			p.i = j + 1
			return inner, true
		}
	}
	return nil, false
}

// splitComma splits tokens at their top-level commas.
func splitComma(ts []tok) [][]tok {
	var out [][]tok
	depth, last := 0, 0
	for j, t := range ts {
		depth += nesting(t)
		if depth == 0 && t.kind == 'p' && t.text == "," {
			out = append(out, ts[last:j])
			last = j + 1
		}
	}
	if len(ts) > 0 {
		out = append(out, ts[last:])
	}
	return out
}

// rawText is the source text the tokens span.
func rawText(m *ir.Module, ts []tok) string {
	if len(ts) == 0 {
		return ""
	}
	return m.Src[ts[0].start:ts[len(ts)-1].end]
}

// readDict reads the entries of an attribute dictionary (the tokens inside
// its braces) into attrs; a name given twice is an error.
func readDict(m *ir.Module, ts []tok, attrs map[string]string) error {
	for _, e := range splitComma(ts) {
		if len(e) == 0 {
			continue
		}
		name := e[0].text
		if e[0].kind == 's' {
			name = ir.Unquote(name)
		} else if e[0].kind != 'w' {
			return fmt.Errorf("an attribute name %q", e[0].text)
		}
		value := ""
		if len(e) > 1 {
			if e[1].kind != 'p' || e[1].text != "=" || len(e) < 3 {
				return fmt.Errorf("attribute %s: no value after it", name)
			}
			value = rawText(m, e[2:])
		}
		if _, dup := attrs[name]; dup {
			return fmt.Errorf("attribute %s is given twice", name)
		}
		attrs[name] = value
	}
	return nil
}

// readValues reads a list of value references.
func readValues(ts []tok) ([]string, bool) {
	var out []string
	for _, e := range splitComma(ts) {
		if len(e) != 1 || e[0].kind != 'v' {
			return nil, false
		}
		out = append(out, e[0].text)
	}
	return out, true
}

// readTypeList reads "T, U" (each type one token) or "(T, U)".
func readTypeList(ts []tok) ([]string, bool) {
	if len(ts) >= 2 && ts[0].text == "(" && ts[len(ts)-1].text == ")" {
		p := &tokens{ts: ts}
		if inner, ok := p.group(); ok && p.done() {
			ts = inner
		}
	}
	var out []string
	for _, e := range splitComma(ts) {
		if len(e) != 1 || e[0].kind != 'w' {
			return nil, false
		}
		out = append(out, ir.CompactType(e[0].text))
	}
	return out, true
}

// readSignature reads the types after an op's colon: "(T, U) -> V",
// "(T) -> (V, W)", or the pretty form's "T" (every operand and result of
// that type) or "T, U" (a list the caller reads).
func (r *stOp) readSignature(ts []tok) error {
	arrow := -1
	depth := 0
	for j, t := range ts {
		switch {
		case t.kind == 'p' && (t.text == "(" || t.text == "["):
			depth++
		case t.kind == 'p' && (t.text == ")" || t.text == "]"):
			depth--
		case t.kind == 'a' && depth == 0:
			arrow = j
		}
	}
	if arrow < 0 {
		types, ok := readTypeList(ts)
		if !ok || len(types) == 0 {
			return fmt.Errorf("%s: no types the oracle reads after ':'", r.name)
		}
		switch {
		case len(types) == 1 && r.kind != "return":
			r.ins = make([]string, len(r.operands))
			for i := range r.ins {
				r.ins[i] = types[0]
			}
			r.outs = make([]string, r.results)
			for i := range r.outs {
				r.outs[i] = types[0]
			}
		case r.kind == "return" || len(types) == len(r.operands) && r.results == 0:
			r.ins = types
		default:
			return fmt.Errorf("%s: types %v the oracle does not read", r.name, types)
		}
		return nil
	}
	ins, ok1 := readTypeList(ts[:arrow])
	outs, ok2 := readTypeList(ts[arrow+1:])
	if !ok1 || !ok2 {
		return fmt.Errorf("%s: a function type the oracle does not read", r.name)
	}
	if len(ts[:arrow]) == 2 { // "()"
		ins = []string{}
	}
	if len(ts[arrow+1:]) == 2 && ts[arrow+1].text == "(" {
		outs = []string{}
	}
	r.ins, r.outs = ins, outs
	return nil
}

// readGeneric reads "(operands) <{props}>? (regions)? {attrs}? : type".
func (r *stOp) readGeneric(m *ir.Module, p *tokens) error {
	if !p.is('p', "(") {
		return fmt.Errorf("%s: no operand list", r.name)
	}
	list, ok := p.group()
	if !ok {
		return fmt.Errorf("%s: an operand list that does not close", r.name)
	}
	if r.operands, ok = readValues(list); !ok {
		return fmt.Errorf("%s: operands the oracle does not read", r.name)
	}
	attrs := map[string]string{}
	if p.is('p', "<") {
		props, ok := p.group()
		if !ok || len(props) < 2 || props[0].text != "{" || props[len(props)-1].text != "}" {
			return fmt.Errorf("%s: properties the oracle does not read", r.name)
		}
		if err := readDict(m, props[1:len(props)-1], attrs); err != nil {
			return fmt.Errorf("%s: %v", r.name, err)
		}
	}
	if p.is('p', "(") { // the regions
		if _, ok := p.group(); !ok {
			return fmt.Errorf("%s: regions that do not close", r.name)
		}
	}
	if p.is('p', "{") {
		dict, _ := p.group()
		if err := readDict(m, dict, attrs); err != nil {
			return fmt.Errorf("%s: %v", r.name, err)
		}
	}
	if !p.eat('p', ":") {
		return fmt.Errorf("%s: no type", r.name)
	}
	if err := r.readSignature(p.ts[p.i:]); err != nil {
		return err
	}
	if len(r.ins) != len(r.operands) || len(r.outs) != r.results {
		return fmt.Errorf("%s: %d operand and %d result types for %d operands and %d results", r.name, len(r.ins), len(r.outs), len(r.operands), r.results)
	}
	switch r.kind {
	case "constant":
		v, ok := attrs["value"]
		if !ok {
			return fmt.Errorf("%s: no value attribute", r.name)
		}
		r.value = v
	case "broadcast_in_dim":
		return r.readDims(attrs["broadcast_dimensions"])
	case "reduce":
		if err := r.readDims(attrs["dimensions"]); err != nil {
			return err
		}
		r.readBody(m, nil)
	case "func":
		r.readFuncArgs(m, nil)
	}
	return nil
}

// readDims reads an integer list attribute: array<i64: 1, 2>, or a dense
// i64 literal.
func (r *stOp) readDims(v string) error {
	dims, ok := parseIntList(v)
	if !ok {
		return fmt.Errorf("%s: dimensions %q the oracle does not read", r.name, v)
	}
	r.dims, r.hasDims = dims, true
	return nil
}

// parseIntList reads "array<i64: 1, 2>", "array<i64>", "[1, 2]" or
// "dense<[1, 2]> : tensor<2xi64>".
func parseIntList(v string) ([]int64, bool) {
	v = strings.TrimSpace(v)
	var body string
	switch {
	case strings.HasPrefix(v, "array<") && strings.HasSuffix(v, ">"):
		inner := strings.TrimSpace(v[len("array<") : len(v)-1])
		typ, rest, _ := strings.Cut(inner, ":")
		if strings.TrimSpace(typ) != "i64" {
			return nil, false
		}
		body = rest
	case strings.HasPrefix(v, "dense<"):
		lit, typ, ok := splitDense(v)
		if !ok {
			return nil, false
		}
		t, err := ir.ParseTensorType(typ)
		if err != nil || t.Elem != "i64" || len(t.Shape) != 1 {
			return nil, false
		}
		lit = strings.TrimSpace(lit)
		if !strings.HasPrefix(lit, "[") {
			n, err := strconv.ParseInt(lit, 10, 64)
			if err != nil || t.Shape[0] < 0 || t.Shape[0] > 64 {
				return nil, false
			}
			out := make([]int64, t.Shape[0])
			for i := range out {
				out[i] = n
			}
			return out, true
		}
		body = strings.TrimSuffix(strings.TrimPrefix(lit, "["), "]")
		out, ok := intsOf(body)
		return out, ok && int64(len(out)) == t.Shape[0]
	case strings.HasPrefix(v, "[") && strings.HasSuffix(v, "]"):
		body = v[1 : len(v)-1]
	default:
		return nil, false
	}
	return intsOf(body)
}

func intsOf(body string) ([]int64, bool) {
	out := []int64{}
	if strings.TrimSpace(body) == "" {
		return out, true
	}
	for _, e := range strings.Split(body, ",") {
		n, err := strconv.ParseInt(strings.TrimSpace(e), 10, 64)
		if err != nil {
			return nil, false
		}
		out = append(out, n)
	}
	return out, true
}

// splitDense splits "dense<LIT> : TYPE" into LIT and TYPE.
func splitDense(v string) (lit, typ string, ok bool) {
	v = strings.TrimSpace(v)
	if !strings.HasPrefix(v, "dense<") {
		return "", "", false
	}
	end := ir.Closing(v, len("dense"))
	if end < 0 {
		return "", "", false
	}
	rest := strings.TrimSpace(v[end+1:])
	typ, ok = strings.CutPrefix(rest, ":")
	if !ok {
		return "", "", false
	}
	return v[len("dense<"):end], strings.TrimSpace(typ), true
}

// readPretty reads the pretty forms of the ops the oracle interprets.
func (r *stOp) readPretty(m *ir.Module, p *tokens) error {
	skipDict := func() {
		if p.is('p', "{") {
			p.group()
		}
	}
	sig := func() error {
		skipDict()
		if p.done() && len(r.operands) == 0 && r.kind == "return" {
			return nil
		}
		if !p.eat('p', ":") {
			return fmt.Errorf("%s: no type", r.name)
		}
		end := len(p.ts)
		if r.kind == "reduce" {
			if k := p.find('w', "reducer"); k >= 0 {
				end = k
			}
		}
		if err := r.readSignature(p.ts[p.i:end]); err != nil {
			return err
		}
		p.i = end
		if len(r.ins) != len(r.operands) || len(r.outs) != r.results {
			return fmt.Errorf("%s: %d operand and %d result types for %d operands and %d results", r.name, len(r.ins), len(r.outs), len(r.operands), r.results)
		}
		return nil
	}
	operands := func(end int) error {
		var ok bool
		if r.operands, ok = readValues(p.ts[p.i:end]); !ok {
			return fmt.Errorf("%s: operands the oracle does not read", r.name)
		}
		p.i = end
		return nil
	}
	switch r.kind {
	case "constant":
		skipDict()
		t := p.next()
		if t.kind != 'w' || !strings.HasPrefix(t.text, "dense<") || !p.eat('p', ":") {
			return fmt.Errorf("%s: no dense literal the oracle reads", r.name)
		}
		typ := p.next()
		if typ.kind != 'w' || !p.done() || r.results != 1 {
			return fmt.Errorf("%s: a literal's type the oracle does not read", r.name)
		}
		r.value = t.text + " : " + typ.text
		r.outs = []string{ir.CompactType(typ.text)}
		return nil
	case "broadcast_in_dim":
		comma := p.find('p', ",")
		if comma < 0 {
			return fmt.Errorf("%s: no dims", r.name)
		}
		if err := operands(comma); err != nil {
			return err
		}
		p.next()
		if !p.eat('w', "dims") || !p.eat('p', "=") || !p.is('p', "[") {
			return fmt.Errorf("%s: no dims", r.name)
		}
		start := p.peek()
		if _, ok := p.group(); !ok {
			return fmt.Errorf("%s: dims that do not close", r.name)
		}
		if err := r.readDims(m.Src[start.start:p.ts[p.i-1].end]); err != nil {
			return err
		}
		return sig()
	case "reduce":
		// (%x init: %i), ... applies OP? across dimensions = [..] : T (reducer(...) {...})?
		for p.is('p', "(") {
			in, _ := p.group()
			if len(in) != 4 || in[0].kind != 'v' || in[1].text != "init" || in[2].text != ":" || in[3].kind != 'v' {
				return fmt.Errorf("%s: an (input init: value) pair the oracle does not read", r.name)
			}
			r.operands = append(r.operands, in[0].text, in[3].text)
			if !p.eat('p', ",") {
				break
			}
		}
		// The pretty form lists inputs, then inits; the generic form and
		// the oracle take them in that order too.
		n := len(r.operands) / 2
		ordered := make([]string, 0, 2*n)
		for i := range n {
			ordered = append(ordered, r.operands[2*i])
		}
		for i := range n {
			ordered = append(ordered, r.operands[2*i+1])
		}
		r.operands = ordered
		applies := ""
		if p.eat('w', "applies") {
			t := p.next()
			if t.kind != 'w' {
				return fmt.Errorf("%s: applies what?", r.name)
			}
			applies = t.text
		}
		if !p.eat('w', "across") || !p.eat('w', "dimensions") || !p.eat('p', "=") || !p.is('p', "[") {
			return fmt.Errorf("%s: no dimensions", r.name)
		}
		start := p.peek()
		if _, ok := p.group(); !ok {
			return fmt.Errorf("%s: dimensions that do not close", r.name)
		}
		if err := r.readDims(m.Src[start.start:p.ts[p.i-1].end]); err != nil {
			return err
		}
		if err := sig(); err != nil {
			return err
		}
		if applies != "" {
			if len(r.op.Regions) != 0 || !p.done() {
				return fmt.Errorf("%s: applies %s and a region", r.name, applies)
			}
			if n == 1 && len(r.ins) == 2 {
				if t, err := ir.ParseTensorType(r.ins[1]); err == nil && len(t.Shape) == 0 {
					r.applies, r.appliesIn = shortKind(applies), t.Elem
				}
			}
			return nil
		}
		if !p.eat('w', "reducer") || !p.is('p', "(") {
			return fmt.Errorf("%s: no computation", r.name)
		}
		args, _ := p.group()
		if !p.eat('R', "") || !p.done() {
			return fmt.Errorf("%s: a computation the oracle does not read", r.name)
		}
		r.readBody(m, args)
		return nil
	case "func":
		p.eat('w', "public")
		p.eat('w', "private")
		p.eat('w', "nested")
		if !p.eat('@', "") || !p.is('p', "(") {
			return fmt.Errorf("%s: no arguments the oracle reads", r.name)
		}
		args, _ := p.group()
		r.readFuncArgs(m, args)
		return nil
	}
	// Ops of operands, an optional dictionary and their types.
	end := p.find('p', ":")
	if d := p.find('p', "{"); d >= 0 && (end < 0 || d < end) {
		end = d
	}
	if end < 0 {
		end = len(p.ts)
	}
	if err := operands(end); err != nil {
		return err
	}
	if err := sig(); err != nil {
		return err
	}
	if !p.done() {
		return fmt.Errorf("%s: %q after its type", r.name, p.peek().text)
	}
	return nil
}

// readArgList reads "%a: T {attrs}, %b: U" into names and types.
func readArgList(ts []tok) (names, types []string, ok bool) {
	for _, e := range splitComma(ts) {
		if len(e) < 3 || e[0].kind != 'v' || e[1].text != ":" || e[2].kind != 'w' {
			return nil, nil, false
		}
		if len(e) > 3 && e[3].text != "{" { // an argument's attributes may follow
			return nil, nil, false
		}
		names = append(names, e[0].text)
		types = append(types, ir.CompactType(e[2].text))
	}
	return names, types, true
}

// labelArgs reads the arguments a block label declares: "^bb0(%a: T, %b: U):".
func labelArgs(m *ir.Module, b *ir.Block) (names, types []string, ok bool) {
	if b.LabelStart < 0 {
		return nil, nil, true
	}
	ts, err := lexSpan(m.Src, int(b.LabelStart), int(b.LabelEnd))
	if err != nil || len(ts) < 1 || ts[0].kind != '^' {
		return nil, nil, false
	}
	p := &tokens{ts: ts, i: 1}
	if !p.is('p', "(") {
		return nil, nil, p.eat('p', ":") && p.done()
	}
	inner, ok := p.group()
	if !ok || !p.eat('p', ":") || !p.done() {
		return nil, nil, false
	}
	return readArgList(inner)
}

// readFuncArgs reads a function's arguments: its header's (pretty form) or
// its entry block's (generic form).
func (r *stOp) readFuncArgs(m *ir.Module, header []tok) {
	if header != nil || !r.op.Generic {
		r.args, r.argTypes, _ = readArgList(header)
		return
	}
	if len(r.op.Regions) == 1 && len(r.op.Regions[0].Blocks) > 0 {
		r.args, r.argTypes, _ = labelArgs(m, r.op.Regions[0].Blocks[0])
	}
}

// readBody reads a reduce's region: one block whose arguments are (a, b)
// and whose ops are c = OP(a, b) (either order) and a return of c.
// header is the pretty form's reducer(...) argument list, nil in the
// generic form.
func (r *stOp) readBody(m *ir.Module, header []tok) {
	if len(r.op.Regions) != 1 || len(r.op.Regions[0].Blocks) != 1 || len(r.operands) != 2 {
		return
	}
	b := r.op.Regions[0].Blocks[0]
	var names, types []string
	var ok bool
	if header != nil {
		if names, types, ok = readArgList(header); !ok || b.LabelStart >= 0 {
			return
		}
	} else if names, types, ok = labelArgs(m, b); !ok {
		return
	}
	if len(names) != 2 || names[0] == names[1] || types[0] != types[1] || len(b.Ops) != 2 {
		return
	}
	t, err := ir.ParseTensorType(types[0])
	if err != nil || len(t.Shape) != 0 {
		return
	}
	body, err1 := readOp(m, b.Ops[0])
	ret, err2 := readOp(m, b.Ops[1])
	if err1 != nil || err2 != nil || body.results != 1 || len(body.operands) != 2 || ret.kind != "return" || len(ret.operands) != 1 {
		return
	}
	x, y := body.operands[0], body.operands[1]
	if !(x == names[0] && y == names[1] || x == names[1] && y == names[0]) {
		return
	}
	var res string
	m.Values(b.Ops[0], func(v ir.ValueRef) {
		if v.Kind == ir.Result {
			res = v.Name
		}
	})
	if ret.operands[0] != res && ret.operands[0] != res+"#0" {
		return
	}
	for _, ts := range [][]string{body.ins, body.outs, ret.ins} {
		for _, x := range ts {
			if x != types[0] {
				return
			}
		}
	}
	r.applies, r.appliesIn = body.kind, t.Elem
}

// Constants.

// denseValues reads a constant's literal as the values of its elements in
// the element type (decimal literals as MLIR reads them: the nearest
// double, then the nearest value of the type; hexadecimal ones as the
// type's bits): one value for a splat, else every element in row-major
// order.
func denseValues(v string) (vals []float64, typ ir.TensorType, err error) {
	lit, ts, ok := splitDense(v)
	if !ok {
		return nil, typ, fmt.Errorf("%q is not a dense literal", v)
	}
	if typ, err = ir.ParseTensorType(ts); err != nil {
		return nil, typ, err
	}
	e := elemOf(typ.Elem)
	if e.class != 'f' || e.bits > 32 {
		return nil, typ, fmt.Errorf("a constant of %s", typ.Elem)
	}
	lit = strings.TrimSpace(lit)
	if strings.HasPrefix(lit, `"0x`) { // the elements' bytes, little-endian
		raw := ir.Unquote(lit)[2:]
		size := e.bits / 8
		if len(raw)%(2*size) != 0 {
			return nil, typ, fmt.Errorf("hex data of %d digits", len(raw))
		}
		for i := 0; i < len(raw); i += 2 * size {
			var bits uint64
			for k := size - 1; k >= 0; k-- {
				b, err := strconv.ParseUint(raw[i+2*k:i+2*k+2], 16, 8)
				if err != nil {
					return nil, typ, err
				}
				bits = bits<<8 | b
			}
			vals = append(vals, e.toFloat(bits))
		}
	} else {
		flat := strings.NewReplacer("[", " ", "]", " ").Replace(lit)
		for _, f := range strings.Split(flat, ",") {
			x, err := parseFloatLit(strings.TrimSpace(f), e)
			if err != nil {
				return nil, typ, err
			}
			vals = append(vals, x)
		}
	}
	n := typ.Elems()
	if len(vals) != 1 && int64(len(vals)) != n {
		return nil, typ, fmt.Errorf("%d elements for %s", len(vals), typ)
	}
	return vals, typ, nil
}

// parseFloatLit reads one element of a float literal.
func parseFloatLit(s string, e elemType) (float64, error) {
	if h, ok := strings.CutPrefix(s, "0x"); ok {
		bits, err := strconv.ParseUint(h, 16, e.bits)
		if err != nil {
			return 0, fmt.Errorf("%q is not %d bits", s, e.bits)
		}
		return e.toFloat(bits), nil
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			return 0, fmt.Errorf("%q is not a number", s)
		}
	}
	return roundTo(e, x), nil
}

// Arithmetic.

// roundTo rounds x to the float type e, to nearest even, overflowing to
// infinity as IEEE 754 does: once, from the double x.
func roundTo(e elemType, x float64) float64 {
	if x != x || math.IsInf(x, 0) || x == 0 || e.bits == 64 {
		return x
	}
	a := math.Abs(x)
	exp := math.Ilogb(a) // a in [2^exp, 2^(exp+1))
	minNormal := e.minExp + e.mant - 1
	q := exp - (e.mant - 1) // the exponent of an ulp at a
	if exp < minNormal {
		q = e.minExp
	}
	r := math.Ldexp(math.RoundToEven(math.Ldexp(a, -q)), q)
	if r > e.max { // rounded beyond the largest finite value
		r = math.Inf(1)
	}
	return math.Copysign(r, x)
}

// arith applies a binary op of StableHLO to values of the float type e:
// the exact result rounded once to e (the double result rounded to e is
// that for +, -, *, / and sqrt, since a double holds at least 2p+2 bits of
// every type here). maximum and minimum are IEEE 754-2019's: NaN wins, -0 <
// +0.
func arith(kind string, e elemType, x, y float64) (float64, bool) {
	switch kind {
	case "add":
		return roundTo(e, x+y), true
	case "subtract":
		return roundTo(e, x-y), true
	case "multiply":
		return roundTo(e, x*y), true
	case "divide":
		return roundTo(e, x/y), true
	case "maximum":
		return math.Max(x, y), true
	case "minimum":
		return math.Min(x, y), true
	}
	return 0, false
}

// unary applies a unary op of StableHLO to a value of the float type e.
func unary(kind string, e elemType, x float64) (float64, bool) {
	switch kind {
	case "negate":
		return -x, true
	case "abs":
		return math.Abs(x), true
	case "sqrt":
		return roundTo(e, math.Sqrt(x)), true
	case "rsqrt":
		return rsqrt(e, x), true
	}
	return 0, false
}

// rsqrt is IEEE 754's rSqrt, 1/sqrt(x) correctly rounded to e: the double
// estimate, then the neighbour on the right side of each midpoint, decided
// exactly (1/sqrt(x) > m exactly when m*m*x < 1).
func rsqrt(e elemType, x float64) float64 {
	switch {
	case x != x || x < 0:
		return math.NaN()
	case x == 0:
		return math.Copysign(math.Inf(1), x)
	case math.IsInf(x, 1):
		return 0
	}
	r := roundTo(e, 1/math.Sqrt(x))
	above := func(m float64) int { // the sign of m*m*x - 1, exactly
		bm := new(big.Float).SetPrec(512).SetFloat64(m)
		p := new(big.Float).SetPrec(512).Mul(bm, bm)
		p.Mul(p, new(big.Float).SetPrec(512).SetFloat64(x))
		return p.Cmp(big.NewFloat(1))
	}
	for range 4 {
		up, down := nextUp(e, r), nextDown(e, r)
		switch {
		case !math.IsInf(up, 0) && above((r+up)/2) < 0:
			r = up
		case down > 0 && above((r+down)/2) > 0:
			r = down
		default:
			return r
		}
	}
	return r
}

// nextUp and nextDown are the neighbours of a positive value of e.
func nextUp(e elemType, r float64) float64 {
	return roundTo(e, r+ulpOf(e, r))
}
func nextDown(e elemType, r float64) float64 {
	u := ulpOf(e, r)
	if q := math.Ilogb(r); r == math.Ldexp(1, q) && q-1 >= e.minExp+e.mant-1 {
		u /= 2 // below a power of two the ulp halves
	}
	return roundTo(e, r-u)
}

// ulpOf is the ulp of e at the positive value r.
func ulpOf(e elemType, r float64) float64 {
	q := math.Ilogb(r) - (e.mant - 1)
	return math.Ldexp(1, max(q, e.minExp))
}
