package ir

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Dense elements attributes, dense<LITERAL> : TYPE, read in MLIR's order
// (Parser::parseDenseElementsAttr): the literal's syntax and the shape its
// nesting gives, then the type, then that shape against the type's, then
// each element against the element type.

// Dense is a dense elements attribute of a ranked tensor type.
type Dense struct {
	Type TensorType
	// Splat is true when the literal is one element standing for all of them.
	Splat bool
	// Ints holds the elements of an integer element type of at most 64 bits
	// (i1 included) in row-major order, one for a splat: each value's bits,
	// sign-extended from the type's width (zero-extended for unsigned types
	// and i1, whose elements are 0 and 1).
	// It is nil for other element types, whose elements are only checked.
	Ints []int64
}

// DenseError is an error in the text of a dense attribute, at byte Off of it.
type DenseError struct {
	Off int
	Msg string
}

func (e *DenseError) Error() string { return e.Msg }

// ParseDense reads "dense<...> : tensor<...>" as MLIR does, with MLIR's
// messages. A splat is kept as one element, so the result is no larger than
// the text.
func ParseDense(v string) (*Dense, error) {
	d, end, err := readDense(v, 0, true)
	switch {
	case err != nil:
		return nil, err
	case d == nil:
		return nil, &DenseError{0, fmt.Sprintf("expected dense elements of a ranked tensor type, found %q", v)}
	case end < len(v) && strings.TrimSpace(v[end:]) != "":
		return nil, &DenseError{end, fmt.Sprintf("unexpected %q after the dense elements' type", strings.TrimSpace(v[end:]))}
	}
	return d, nil
}

// dims is the shape of a list in a literal: n elements, each of shape inner
// (nil for a scalar, and for the elements of an empty list).
type dims struct {
	n     int64
	inner *dims
}

func sameDims(a, b *dims) bool {
	for ; a != nil && b != nil; a, b = a.inner, b.inner {
		if a.n != b.n {
			return false
		}
	}
	return a == nil && b == nil
}

func (d *dims) String() string {
	var parts []string
	for ; d != nil; d = d.inner {
		parts = append(parts, strconv.FormatInt(d.n, 10))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// literal reads the elements literal of a dense attribute.
type literal struct {
	s        string // the attribute's text
	i        int
	elements int64
	opaque   bool // strings or complex pairs: elements arc does not check
}

func (p *literal) fail(at int, format string, args ...any) *DenseError {
	return &DenseError{at, fmt.Sprintf(format, args...)}
}

// blank skips blanks and comments.
func (p *literal) blank() { p.i = skipTriviaAt(p.s, p.i) }

// readDense reads the dense attribute at s[at:], returning it (with its
// integer elements when keep is set) and the offset just after its type;
// offsets, those of errors too, are of s. d is nil without an error (end
// -1 where the type is not read) for a form arc does not check: another shaped type (vector, memref, a type
// alias), an element type that is not a number, the type-first syntax
// dense<TYPE : [...]>.
func readDense(s string, at int, keep bool) (d *Dense, end int, err *DenseError) {
	if !hasPrefixAt(s, at, "dense<") {
		return nil, 0, &DenseError{at, fmt.Sprintf("expected dense elements, found %q", s[at:])}
	}
	close := matching(s, at+len("dense"))
	if close < 0 {
		return nil, 0, &DenseError{at, "dense<: '<' is not closed"}
	}
	p := &literal{s: s[:close], i: at + len("dense<")}
	p.blank()
	var shape *dims
	list, hexAt := false, -1
	switch {
	case p.i == close: // dense<>: no elements
	case s[p.i] == '"':
		hexAt, p.i = p.i, skipStringAt(s, p.i)
		if p.i < 0 {
			return nil, 0, p.fail(hexAt, "string is not closed")
		}
	case s[p.i] == '[':
		n, inner, err := p.list()
		if err != nil {
			return nil, 0, err
		}
		shape, list = &dims{n, inner}, true
	case p.atType():
		return nil, -1, nil
	default:
		if err := p.element(); err != nil {
			return nil, 0, err
		}
	}
	if p.blank(); p.i < close {
		return nil, 0, p.fail(wrongTokenAt(s, p.i), "expected '>'")
	}
	// The type.
	i := skipTriviaAt(s, close+1)
	if i >= len(s) || s[i] != ':' {
		return nil, 0, p.fail(wrongTokenAt(s, i), "expected ':'")
	}
	i = skipTriviaAt(s, i+1)
	end = typeEnd(s, i)
	typ := s[i:end]
	switch {
	case strings.HasPrefix(typ, "tensor<"):
	case numTypeOf(typ).kind != 0 || typ == "none" || strings.HasPrefix(typ, "complex<") || strings.HasPrefix(typ, "tuple<"):
		return nil, 0, p.fail(at, "elements literal must be a shaped type")
	default:
		return nil, -1, nil
	}
	if strings.HasPrefix(strings.TrimSpace(typ[len("tensor<"):]), "*") {
		return nil, 0, p.fail(at, "elements literal type must have static shape")
	}
	t, terr := ParseTensorType(typ)
	if terr != nil {
		return nil, -1, nil
	}
	n := int64(1)
	for _, s := range t.Shape {
		if s < 0 {
			return nil, 0, p.fail(at, "elements literal type must have static shape")
		}
		if s != 0 && n > math.MaxInt64/s {
			n = math.MaxInt64
		} else {
			n *= s
		}
	}
	d = &Dense{Type: t, Splat: !list && hexAt < 0 && p.elements == 1}
	elem := numTypeOf(t.Elem)
	if hexAt >= 0 {
		per := elemStorage(t.Elem)
		if per == 0 {
			return nil, end, nil // a string element type
		}
		return d, end, d.readHex(s, at, hexAt, n, per, elem, keep)
	}
	if list && !sameDims(shape, shapeOf(t.Shape)) {
		return nil, 0, p.fail(at, "inferred shape of elements literal (%s) does not match type (%s)", shape, shapeOf(t.Shape))
	}
	if p.elements == 0 && n != 0 {
		return nil, 0, p.fail(at, "parsed zero elements, but type (%s) expected at least 1", CompactType(typ))
	}
	if elem.kind == 0 || p.opaque {
		return d, end, nil
	}
	keep = keep && elem.isInt() && elem.width <= 64
	if keep {
		d.Ints = make([]int64, 0, p.elements)
	}
	return d, end, d.checkElements(s, at, close, elem, keep)
}

// elemStorage is the bytes an element takes in hex data, 0 for a type that
// is no number: integer and float widths rounded up to bytes, twice that
// for complex numbers (getDenseElementStorageWidth).
func elemStorage(elem string) int64 {
	if inner, ok := strings.CutPrefix(elem, "complex<"); ok && strings.HasSuffix(inner, ">") {
		return 2 * elemStorage(strings.TrimSpace(inner[:len(inner)-1]))
	}
	return int64(numTypeOf(elem).width+7) / 8
}

// shapeOf is a type's shape as a literal's dims.
func shapeOf(shape []int64) *dims {
	var d *dims
	for i := len(shape) - 1; i >= 0; i-- {
		d = &dims{shape[i], d}
	}
	return d
}

// typeEnd returns the end of the type that starts at s[i]: a word and its
// bracketed parameters.
func typeEnd(s string, i int) int {
	j := i
	if j < len(s) && s[j] == '!' {
		j++
	}
	for j < len(s) && isIdentChar(s[j]) && s[j] != '-' {
		j++
	}
	if j < len(s) && s[j] == '<' {
		if k := matching(s, j); k > 0 {
			return k + 1
		}
		return len(s)
	}
	return j
}

// list reads the list at p.i ('[') and returns its length and its first
// element's shape. Like MLIR's TensorLiteralParser::parseList, each element
// must have the first one's shape; the error is at the token after it.
func (p *literal) list() (n int64, first *dims, err *DenseError) {
	p.i++
	p.blank()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return 0, nil, nil
	}
	for {
		p.blank()
		var shape *dims
		isList := p.i < len(p.s) && p.s[p.i] == '['
		if isList {
			cn, ci, err := p.list()
			if err != nil {
				return 0, nil, err
			}
			if n == 0 {
				shape = &dims{cn, ci}
			} else if first == nil || first.n != cn || !sameDims(first.inner, ci) {
				return 0, nil, p.inconsistent()
			}
		} else {
			if err := p.element(); err != nil {
				return 0, nil, err
			}
			if n > 0 && first != nil {
				return 0, nil, p.inconsistent()
			}
		}
		if n == 0 {
			first = shape
		}
		n++
		p.blank()
		switch {
		case p.i < len(p.s) && p.s[p.i] == ',':
			p.i++
		case p.i < len(p.s) && p.s[p.i] == ']':
			p.i++
			return n, first, nil
		default:
			return 0, nil, p.fail(wrongTokenAt(p.s, p.i), "expected ']'")
		}
	}
}

func (p *literal) inconsistent() *DenseError {
	p.blank()
	return p.fail(p.i, "tensor literal is invalid; ranks are not consistent between elements")
}

func (p *literal) atBool() bool {
	return wordAt(p.s, p.i, "true") || wordAt(p.s, p.i, "false")
}

// atType reports whether a type starts the literal: MLIR's type-first syntax
// dense<TYPE : [...]>, which arc does not check.
func (p *literal) atType() bool {
	s, i := p.s, p.i
	if s[i] == '!' {
		return true
	}
	j := i
	for j < len(s) && isIdentChar(s[j]) && s[j] != '-' {
		j++
	}
	switch w := s[i:j]; w {
	case "tensor", "vector", "memref", "complex", "tuple", "none", "index":
		return true
	default:
		return j > i && numTypeOf(w).kind != 0
	}
}

// wordAt reports whether the bare word at s[i] is w.
func wordAt(s string, i int, w string) bool {
	return hasPrefixAt(s, i, w) && (i+len(w) == len(s) || !isIdentChar(s[i+len(w)]))
}

// element reads one element (TensorLiteralParser::parseElement): a number,
// negated or not, true, false, a string or a complex pair "(a, b)".
func (p *literal) element() *DenseError {
	s := p.s
	if p.i >= len(s) {
		return p.fail(len(s), "expected element literal of primitive type")
	}
	switch c := s[p.i]; {
	case isDigit(c):
		p.i, _ = numberEnd(s, p.i)
	case c == '-':
		p.i = skipTriviaAt(s, p.i+1)
		if p.i >= len(s) || !isDigit(s[p.i]) {
			return p.fail(p.i, "expected integer or floating point literal")
		}
		p.i, _ = numberEnd(s, p.i)
	case p.atBool():
		p.i += 4
		if s[p.i-4] == 'f' {
			p.i++
		}
	case c == '"': // an element of a string type
		p.i, p.opaque = skipStringAt(s, p.i), true
		if p.i < 0 {
			return p.fail(len(s), "string is not closed")
		}
	case c == '(':
		p.i++
		p.blank()
		if err := p.element(); err != nil {
			return err
		}
		if p.blank(); p.i >= len(s) || s[p.i] != ',' {
			return p.fail(wrongTokenAt(s, p.i), "expected ',' between complex elements")
		}
		p.i++
		p.blank()
		if err := p.element(); err != nil {
			return err
		}
		if p.blank(); p.i >= len(s) || s[p.i] != ')' {
			return p.fail(wrongTokenAt(s, p.i), "expected ')' after complex elements")
		}
		p.i++
		p.elements -= 2 // the pair is one element
		p.opaque = true
	default:
		return p.fail(p.i, "expected element literal of primitive type")
	}
	p.elements++
	return nil
}

// checkElements checks each element of the literal in s[at:close] against
// the element type (TensorLiteralParser::getIntAttrElements and
// getFloatAttrElements), keeping integers when keep is set. The literal's
// syntax is known good: it holds numbers, true, false, brackets, commas,
// blanks and comments.
func (d *Dense) checkElements(s string, at, close int, elem numType, keep bool) *DenseError {
	fail := func(at int, msg string) *DenseError { return &DenseError{at, msg} }
	neg := false
	for i := at + len("dense<"); i < close; i++ {
		switch c := s[i]; {
		case c == '-':
			neg = true
		case c == '/':
			i = skipComment(s, i)
		case c == 't' || c == 'f': // true, false
			if elem.kind == 'f' {
				return fail(i, "expected floating point literal")
			}
			if !elem.isInt() || elem.kind == 'x' || elem.width != 1 { // i1, si1 or ui1
				return fail(i, "expected i1 type for 'true' or 'false' values")
			}
			if keep {
				d.Ints = append(d.Ints, int64(boolBit(c == 't')))
			}
			i += len("false") - 1
			if c == 't' {
				i--
			}
		case isDigit(c):
			end, float := numberEnd(s, i)
			tok := s[i:end]
			switch {
			case elem.kind == 'f' && !float:
				if msg := floatFromInt(tok, neg, elem); msg != "" {
					return fail(i, msg)
				}
			case elem.kind == 'f':
			case neg && elem.kind == 'u':
				return fail(i, "expected unsigned integer elements, but parsed negative value")
			case float:
				return fail(i, "expected integer elements, but parsed floating-point")
			case !intFits(tok, neg, elem):
				return fail(i, "integer constant out of range for type")
			case keep:
				d.Ints = append(d.Ints, intBits(tok, neg, elem))
			}
			i, neg = end-1, false
		}
	}
	return nil
}

func boolBit(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// readHex reads dense<"0x...">, the string at s[hexAt:]: the elements'
// little-endian bytes, per bytes each, all of them or one for a splat
// (TensorLiteralParser::getHexAttr).
func (d *Dense) readHex(s string, at, hexAt int, n, per int64, elem numType, keep bool) *DenseError {
	end := skipStringAt(s, hexAt)
	h, ok := strings.CutPrefix(s[hexAt+1:end-1], "0x")
	if !ok || len(h)%2 != 0 || strings.IndexFunc(h, func(r rune) bool { return r > 0x7f || !isHexDigit(byte(r)) }) >= 0 {
		return &DenseError{hexAt, "expected string containing hex digits starting with `0x`"}
	}
	size := int64(len(h) / 2)
	if size != per && (n > math.MaxInt64/per || size != n*per) {
		return &DenseError{at, fmt.Sprintf("elements hex data size is invalid for provided type: %s", d.Type)}
	}
	d.Splat = size == per && n != 1
	if !keep || !elem.isInt() || per > 8 {
		return nil
	}
	d.Ints = make([]int64, 0, size/per)
	for i := int64(0); i < size; i += per {
		var u uint64
		for k := per - 1; k >= 0; k-- {
			b, _ := strconv.ParseUint(h[2*(i+k):2*(i+k)+2], 16, 8)
			u = u<<8 | b
		}
		d.Ints = append(d.Ints, extend(u, elem))
	}
	return nil
}
