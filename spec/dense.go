package spec

import (
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/arcpass/arc/ir"
)

// dense is a replica_groups attribute written as dense elements,
// dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, read without expanding a splat.
type dense struct {
	shape []int64 // the declared type's shape
	elem  string
	// n is the number of elements the type declares (math.MaxInt64 when
	// that overflows).
	n     int64
	splat bool
	value int64   // the splat's element
	flat  []int64 // every element in row-major order, when not a splat
}

// denseError is a problem in the text of a dense attribute, at byte off of it.
type denseError struct {
	off int
	msg string
}

func (e *denseError) Error() string { return e.msg }

// parseDense reads dense<LITERAL> : TYPE as MLIR's parser does: the literal's
// shape must be the type's (a single element is a splat of any shape), every
// element an integer that fits the element type. It keeps at most as many
// elements as the text spells out.
func parseDense(v string) (*dense, error) {
	fail := func(off int, format string, args ...any) error {
		return &denseError{off, fmt.Sprintf(format, args...)}
	}
	if !strings.HasPrefix(v, "dense<") {
		return nil, fail(0, "expected dense elements, found %q", v)
	}
	end := ir.Closing(v, len("dense"))
	if end < 0 {
		return nil, fail(0, "dense<: '<' is not closed")
	}
	body := v[len("dense<"):end]
	rest := strings.TrimSpace(v[end+1:])
	typ, ok := strings.CutPrefix(rest, ":")
	if !ok {
		return nil, fail(end+1, "expected ':' and the type of the dense elements")
	}
	t, err := parseTensor(typ)
	if err != nil || !t.static() {
		return nil, fail(end+1, "elements literal type must have static shape, found %s", strings.TrimSpace(typ))
	}
	d := &dense{shape: t.shape, elem: t.elem, n: 1}
	for _, s := range t.shape {
		if s != 0 && d.n > math.MaxInt64/s {
			d.n = math.MaxInt64
			break
		}
		d.n *= s
	}
	if c, _ := elemClass(t.elem); c != "int" && c != "bool" {
		return nil, fail(end+1, "replica groups must be integers, found %s", t.elem)
	}
	_, width := elemClass(t.elem)
	trimmed := strings.TrimSpace(body)
	bodyOff := len("dense<") + strings.Index(body, trimmed)
	switch {
	case trimmed == "":
		if d.n != 0 {
			return nil, fail(len("dense<"), "parsed zero elements, but type (%s) expected at least 1", t.text)
		}
		return d, nil
	case strings.HasPrefix(trimmed, `"`):
		return d, d.readHex(trimmed, bodyOff, width, fail)
	}
	p := &literal{s: trimmed, base: bodyOff, maxDepth: len(t.shape), width: width, fail: fail}
	shape, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if p.skipBlank(); p.i != len(p.s) {
		return nil, fail(p.base+p.i, "unexpected %q after the elements literal", p.s[p.i:])
	}
	if len(shape) == 0 { // one element: a splat of the whole type
		d.splat, d.value = true, p.flat[0]
		return d, nil
	}
	if !equalShapes(shape, t.shape) {
		return nil, fail(bodyOff, "inferred shape of elements literal (%s) does not match type (%s)", shapeList(shape), shapeList(t.shape))
	}
	d.flat = p.flat
	return d, nil
}

// readHex reads dense<"0x...">: little-endian elements, all of them or one
// for a splat.
func (d *dense) readHex(s string, off, width int, fail func(int, string, ...any) error) error {
	k := ir.SkipString(s, 0)
	if k != len(s) || !strings.HasPrefix(s, `"0x`) {
		return fail(off, "expected a hex string \"0x...\" in dense elements")
	}
	raw, err := hex.DecodeString(s[3 : len(s)-1])
	if err != nil {
		return fail(off, "bad hex data: %v", err)
	}
	per := int64(max(1, (width+7)/8))
	n := int64(len(raw))
	if per > 8 || n != per && (d.n > math.MaxInt64/per || n != d.n*per) {
		return fail(off, "elements hex data size is invalid for provided type")
	}
	read := func(b []byte) int64 {
		var u uint64
		for i := len(b) - 1; i >= 0; i-- {
			u = u<<8 | uint64(b[i])
		}
		if bits := uint(8 * len(b)); bits < 64 && u>>(bits-1)&1 == 1 {
			return int64(u) - int64(1)<<bits
		}
		return int64(u)
	}
	if n == per && d.n != 1 {
		d.splat, d.value = true, read(raw)
		return nil
	}
	d.flat = make([]int64, 0, n/per)
	for i := int64(0); i < n; i += per {
		d.flat = append(d.flat, read(raw[i:i+per]))
	}
	return nil
}

// literal parses a nested list of integers, keeping them in order.
type literal struct {
	s        string
	i        int
	base     int // offset of s in the attribute
	maxDepth int // the type's rank: deeper nesting cannot match it
	width    int
	flat     []int64
	fail     func(int, string, ...any) error
}

func (p *literal) skipBlank() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

// value reads an element or a list at nesting depth, returning its shape.
func (p *literal) value(depth int) ([]int64, error) {
	p.skipBlank()
	if p.i >= len(p.s) {
		return nil, p.fail(p.base+p.i, "expected an element or '[' in the elements literal")
	}
	if p.s[p.i] != '[' {
		return nil, p.element()
	}
	if depth >= p.maxDepth {
		return nil, p.fail(p.base+p.i, "elements literal is nested deeper than its type's rank %d", p.maxDepth)
	}
	p.i++
	p.skipBlank()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return []int64{0}, nil
	}
	var inner []int64
	var count int64
	for {
		p.skipBlank()
		at := p.i
		shape, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		if count > 0 && !equalShapes(shape, inner) {
			return nil, p.fail(p.base+at, "tensor literal is invalid; ranks are not consistent between elements")
		}
		inner = shape
		count++
		p.skipBlank()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			continue
		}
		if p.i < len(p.s) && p.s[p.i] == ']' {
			p.i++
			return append([]int64{count}, inner...), nil
		}
		return nil, p.fail(p.base+p.i, "expected ',' or ']' in the elements literal")
	}
}

// element reads one integer: decimal, or hex 0x... (the bits of the value),
// or true/false for i1.
func (p *literal) element() error {
	start := p.i
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n,[]", p.s[p.i]) < 0 {
		p.i++
	}
	tok := p.s[start:p.i]
	v, err := parseElement(tok, p.width)
	if err != nil {
		return p.fail(p.base+start, "%v", err)
	}
	p.flat = append(p.flat, v)
	return nil
}

func parseElement(tok string, width int) (int64, error) {
	if width == 1 && (tok == "true" || tok == "false") {
		if tok == "true" {
			return 1, nil
		}
		return 0, nil
	}
	neg := strings.HasPrefix(tok, "-")
	digits := strings.TrimPrefix(tok, "-")
	var u uint64
	var err error
	if h, ok := strings.CutPrefix(digits, "0x"); ok {
		u, err = strconv.ParseUint(h, 16, 64)
	} else if digits != "" && strings.Trim(digits, "0123456789") == "" {
		u, err = strconv.ParseUint(digits, 10, 64)
	} else {
		return 0, fmt.Errorf("expected an integer in the elements literal, found %q", tok)
	}
	// MLIR keeps the bits of an integer that fits the width, as signless:
	// 0xFFFFFFFFFFFFFFFF is -1 in i64; a negative one must fit as signed.
	switch {
	case err != nil:
	case neg && u > uint64(1)<<(width-1):
	case !neg && width < 64 && u>>uint(width) != 0:
	case neg:
		return int64(-u), nil
	case width < 64 && u>>uint(width-1)&1 == 1:
		return int64(u) - int64(1)<<uint(width), nil
	default:
		return int64(u), nil
	}
	return 0, fmt.Errorf("integer constant %s out of range for attribute", tok)
}

func equalShapes(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// shapeList prints a shape as MLIR's messages do: "2, 2".
func shapeList(s []int64) string {
	parts := make([]string, len(s))
	for i, d := range s {
		parts[i] = strconv.FormatInt(d, 10)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
