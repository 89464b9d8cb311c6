package ir

import (
	"fmt"
	"math"
	"strings"
)

// maxNesting bounds region and bracket nesting, so hostile input cannot
// exhaust the stack.
const maxNesting = 4096

// Parse reads an MLIR module. src is not retained: the module keeps its own copy.
func Parse(name string, src []byte) (*Module, error) {
	return ParseString(name, string(src))
}

// ParseString reads an MLIR module from a string, which the module keeps.
func ParseString(name, src string) (m *Module, err error) {
	m = &Module{Name: name, Src: src}
	if len(src) > math.MaxInt32 { // offsets are int32
		return nil, &Error{File: name, Line: 1, Col: 1, Msg: fmt.Sprintf("file of %d bytes is too large (the limit is 2 GiB)", len(src))}
	}
	p := &parser{m: m, s: src}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*Error)
			if !ok {
				panic(r)
			}
			m, err = nil, e
		}
	}()
	m.Body = p.parseTop()
	return m, nil
}

type parser struct {
	m     *Module
	s     string
	pos   int
	depth int  // region nesting
	slab  []Op // ops are allocated in chunks: one allocation per 256 ops
	// ops holds the ops of the blocks being read, innermost block last; each
	// block takes its own in one allocation when it ends.
	ops []*Op
	// brackets holds the brackets open in the ops being read, innermost op last.
	brackets []int
}

// fail stops the parse with an error at off.
func (p *parser) fail(off int, format string, args ...any) {
	panic(p.m.Errorf(off, format, args...))
}

func (p *parser) newOp() *Op {
	if len(p.slab) == 0 {
		p.slab = make([]Op, 256)
	}
	op := &p.slab[0]
	p.slab = p.slab[1:]
	return op
}

func (p *parser) parseTop() *Block {
	b := &Block{LabelStart: -1, LabelEnd: -1}
	for {
		p.skipBlank()
		if p.pos >= len(p.s) {
			p.endBlock(b, 0)
			return b
		}
		if p.s[p.pos] == '}' {
			p.fail(p.pos, "unexpected '}' at the top level")
		}
		op := p.parseOp()
		op.Parent = b
		p.ops = append(p.ops, op)
	}
}

// endBlock gives b the ops collected since base.
func (p *parser) endBlock(b *Block, base int) {
	if b != nil && len(p.ops) > base {
		b.Ops = append([]*Op(nil), p.ops[base:]...)
	}
	p.ops = p.ops[:base]
}

// parseRegion reads a region whose '{' is at p.pos.
func (p *parser) parseRegion(parent *Op) *Region {
	r := &Region{Start: int32(p.pos), Parent: parent}
	p.depth++
	if p.depth > maxNesting {
		p.fail(p.pos, "regions nested more than %d deep", maxNesting)
	}
	p.pos++ // '{'
	var cur *Block
	base := len(p.ops)
	for {
		p.skipBlank()
		if p.pos >= len(p.s) {
			p.fail(int(r.Start), "region is not closed")
		}
		switch p.s[p.pos] {
		case '}':
			p.endBlock(cur, base)
			p.pos++
			r.End = int32(p.pos)
			p.depth--
			return r
		case '^':
			p.endBlock(cur, base)
			cur = p.parseLabel(r)
			r.Blocks = append(r.Blocks, cur)
		default:
			if cur == nil {
				cur = &Block{LabelStart: -1, LabelEnd: -1, Parent: r}
				r.Blocks = append(r.Blocks, cur)
			}
			op := p.parseOp()
			op.Parent = cur
			p.ops = append(p.ops, op)
		}
	}
}

// parseLabel reads "^name(args):" and returns the block it starts.
func (p *parser) parseLabel(r *Region) *Block {
	start := p.pos
	p.pos++ // '^'
	nameStart := p.pos
	p.skipIdent()
	if p.pos == nameStart {
		p.fail(start, "expected a block name after '^'")
	}
	b := &Block{Label: p.s[start:p.pos], LabelStart: int32(start), Parent: r}
	p.skipSpaces()
	if p.pos < len(p.s) && p.s[p.pos] == '(' {
		p.skipBalanced()
	}
	p.skipSpaces()
	if p.pos >= len(p.s) || p.s[p.pos] != ':' {
		p.fail(p.pos, "expected ':' after block label %s", b.Label)
	}
	p.pos++
	b.LabelEnd = int32(p.pos)
	return b
}

// parseOp reads one statement starting at p.pos.
func (p *parser) parseOp() *Op {
	op := p.newOp()
	start := p.pos
	op.Start = int32(start)
	op.resEnd = int32(start)
	s := p.s
	if s[p.pos] == '{' && hasPrefixAt(s, p.pos, "{-#") {
		// A dialect resource section: kept as an opaque statement.
		end := strings.Index(s[p.pos:], "#-}")
		if end < 0 {
			p.fail(start, "resource section '{-#' is not closed by '#-}'")
		}
		p.pos += end + 3
		op.nameEnd = int32(p.pos)
		op.End = int32(p.pos)
		return op
	}
	if s[p.pos] == '%' {
		p.parseResults()
		op.resEnd = int32(p.pos)
		p.pos++ // '='
		p.skipBlank()
	}
	if p.pos >= len(s) {
		p.fail(p.pos, "expected an operation name")
	}
	switch c := s[p.pos]; {
	case c == '"':
		nameStart := p.pos + 1
		p.skipString()
		op.Name = s[nameStart : p.pos-1]
		op.Generic = true
	case c == '#' || c == '!':
		// An attribute or type alias definition: "#loc1 = loc(...)".
		p.pos++
		p.skipIdent()
	case isIdentStart(c):
		nameStart := p.pos
		p.skipIdent()
		op.Name = s[nameStart:p.pos]
	default:
		p.fail(p.pos, "expected an operation, found %s", quoteChar(c))
	}
	op.nameEnd = int32(p.pos)
	p.scanRest(op)
	return op
}

// parseResults reads "%a, %b:2 =" up to the '='.
func (p *parser) parseResults() {
	s := p.s
	for {
		if p.pos >= len(s) || s[p.pos] != '%' {
			p.fail(p.pos, "expected a result name")
		}
		p.pos++
		n := p.pos
		p.skipIdent()
		if p.pos == n {
			p.fail(n-1, "expected a value name after '%%'")
		}
		if p.pos < len(s) && s[p.pos] == ':' {
			p.pos++
			d := p.pos
			for p.pos < len(s) && isDigit(s[p.pos]) {
				p.pos++
			}
			if p.pos == d {
				p.fail(d, "expected a result count after ':'")
			}
		}
		p.skipSpaces()
		if p.pos < len(s) && s[p.pos] == ',' {
			p.pos++
			p.skipBlank()
			continue
		}
		if p.pos < len(s) && s[p.pos] == '=' {
			return
		}
		p.fail(p.pos, "expected '=' after the results")
	}
}

// scanRest reads the rest of an op: operands, attributes, regions, types and
// location, up to the end of its last line.
func (p *parser) scanRest(op *Op) {
	s := p.s
	base := len(p.brackets) // every return leaves the brackets as it found them
	end := p.pos
	for p.pos < len(s) {
		c := s[p.pos]
		if plain[c] { // most bytes: names, numbers, punctuation
			i := p.pos + 1
			for i < len(s) && plain[s[i]] {
				i++
			}
			p.pos, end = i, i
			continue
		}
		switch c {
		case ' ', '\t', '\r':
			p.pos++
			continue
		case '\n':
			p.pos++
			if len(p.brackets) == base {
				for p.pos < len(s) && isBlank(s[p.pos]) { // so that blank lines are read once
					p.pos++
				}
				if p.statementFollows(p.pos) {
					op.End = int32(end)
					return
				}
			}
			continue
		case '/':
			if p.pos+1 < len(s) && s[p.pos+1] == '/' {
				p.skipLine()
				continue
			}
			p.pos++
		case '"':
			p.skipString()
		case '(', '[', '<':
			p.brackets = append(p.brackets, p.pos)
			p.pos++
		case '{':
			if p.isRegionStart(p.pos) {
				r := p.parseRegion(op)
				op.Regions = append(op.Regions, r)
			} else {
				p.brackets = append(p.brackets, p.pos)
				p.pos++
			}
		case '>':
			if p.pos > 0 && s[p.pos-1] == '-' { // the arrow of a function type
				p.pos++
				break
			}
			fallthrough
		case ')', ']', '}':
			if len(p.brackets) == base {
				if c == '}' { // closes the enclosing region
					op.End = int32(end)
					return
				}
				p.fail(p.pos, "unexpected %s", quoteChar(c))
			}
			at := p.brackets[len(p.brackets)-1]
			if want := closerOf(s[at]); want != c {
				p.fail(p.pos, "expected %s to close %s opened at %s, found %s",
					quoteChar(want), quoteChar(s[at]), p.m.Position(at), quoteChar(c))
			}
			p.brackets = p.brackets[:len(p.brackets)-1]
			p.pos++
		}
		if len(p.brackets)-base > maxNesting {
			p.fail(p.pos, "brackets nested more than %d deep", maxNesting)
		}
		end = p.pos
	}
	if len(p.brackets) > base {
		at := p.brackets[len(p.brackets)-1]
		p.fail(at, "%s is not closed", quoteChar(s[at]))
	}
	op.End = int32(end)
}

// plain marks the bytes that scanRest passes over without a look: all but
// blanks, brackets, quotes and '/'.
var plain = func() (t [256]bool) {
	for i := range t {
		t[i] = true
	}
	for _, c := range []byte(" \t\r\n/\"()[]<>{}") {
		t[c] = false
	}
	return t
}()

// statementFollows reports whether the text after a newline at bracket depth
// zero starts a new statement (rather than continuing the current op, as
// ": type", "attributes {...}" or "cond {" do). i is the first non-blank byte.
func (p *parser) statementFollows(i int) bool {
	s := p.s
	if i >= len(s) {
		return true
	}
	switch c := s[i]; {
	case c == '%' || c == '"' || c == '^' || c == '}' || c == '#' || c == '!':
		return true
	case c == '/':
		return i+1 < len(s) && s[i+1] == '/'
	case c == '{':
		return hasPrefixAt(s, i, "{-#") // a dialect resource section
	case isIdentStart(c):
		j := i
		dotted := false
		for j < len(s) && isIdentChar(s[j]) {
			dotted = dotted || s[j] == '.'
			j++
		}
		word := s[i:j]
		return dotted || word == "return" || word == "module" || word == "call"
	}
	return false
}

// isRegionStart decides whether the '{' at i opens a region or an attribute
// dictionary. Printers put a region's first op or label on a new line; an
// attribute dictionary starts with "name =" even when it spans lines.
func (p *parser) isRegionStart(i int) bool {
	s := p.s
	j := i + 1
	for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\r') {
		j++
	}
	if j >= len(s) {
		return false
	}
	switch s[j] {
	case '^':
		return true
	case '/':
		if j+1 >= len(s) || s[j+1] != '/' {
			return false
		}
	case '\n':
	default:
		return false
	}
	// Multi-line: look at the first token of the next non-blank line.
	for j < len(s) {
		for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\r' || s[j] == '\n') {
			j++
		}
		if j+1 < len(s) && s[j] == '/' && s[j+1] == '/' {
			for j < len(s) && s[j] != '\n' {
				j++
			}
			continue
		}
		break
	}
	if j >= len(s) {
		return true
	}
	k := j
	opLike := true // could this word start an op on its own?
	switch {
	case s[k] == '"':
		k = skipStringAt(s, k)
		if k < 0 {
			return true
		}
	case isIdentStart(s[k]):
		dotted := false
		for k < len(s) && isIdentChar(s[k]) {
			dotted = dotted || s[k] == '.'
			k++
		}
		opLike = dotted || s[j:k] == "return"
	default:
		return true
	}
	for k < len(s) && (s[k] == ' ' || s[k] == '\t' || s[k] == '\r') {
		k++
	}
	if k >= len(s) {
		return true
	}
	switch s[k] {
	case '=':
		return k+1 < len(s) && s[k+1] == '=' // "name = value" is an entry
	case ',':
		return false
	case '\n', '}':
		return opLike // a unit attribute alone on its line, unless it reads as an op
	}
	return true
}

func (p *parser) skipString() {
	end := skipStringAt(p.s, p.pos)
	if end < 0 {
		p.fail(p.pos, "string is not closed")
	}
	p.pos = end
}

// skipStringAt returns the offset just after the string starting at s[i] == '"',
// or -1 when it is not closed on its line.
func skipStringAt(s string, i int) int {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		case '\n':
			return -1
		}
	}
	return -1
}

// skipBalanced skips the bracketed group that starts at p.pos (a block
// label's argument list), checking that its brackets match.
func (p *parser) skipBalanced() {
	s := p.s
	var stack []int // offsets of the open brackets
	for p.pos < len(s) {
		c := s[p.pos]
		switch c {
		case '"':
			p.skipString()
			continue
		case '(', '[', '{', '<':
			stack = append(stack, p.pos)
			if len(stack) > maxNesting {
				p.fail(p.pos, "brackets nested more than %d deep", maxNesting)
			}
		case '>':
			if p.pos > 0 && s[p.pos-1] == '-' {
				break
			}
			fallthrough
		case ')', ']', '}':
			open := s[stack[len(stack)-1]]
			if want := closerOf(open); want != c {
				p.fail(p.pos, "expected %s to close %s opened at %s, found %s",
					quoteChar(want), quoteChar(open), p.m.Position(stack[len(stack)-1]), quoteChar(c))
			}
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				p.pos++
				return
			}
		}
		p.pos++
	}
	p.fail(stack[len(stack)-1], "%s is not closed", quoteChar(s[stack[len(stack)-1]]))
}

func closerOf(open byte) byte {
	switch open {
	case '(':
		return ')'
	case '[':
		return ']'
	case '{':
		return '}'
	}
	return '>'
}

// skipBlank skips whitespace, newlines and line comments.
func (p *parser) skipBlank() {
	s := p.s
	for p.pos < len(s) {
		switch s[p.pos] {
		case ' ', '\t', '\r', '\n':
			p.pos++
		case '/':
			if p.pos+1 < len(s) && s[p.pos+1] == '/' {
				p.skipLine()
				continue
			}
			return
		default:
			return
		}
	}
}

func (p *parser) skipSpaces() {
	for p.pos < len(p.s) && (p.s[p.pos] == ' ' || p.s[p.pos] == '\t') {
		p.pos++
	}
}

// skipIdent moves past the identifier characters at p.pos.
func (p *parser) skipIdent() {
	i := p.pos
	for i < len(p.s) && isIdentChar(p.s[i]) {
		i++
	}
	p.pos = i
}

func (p *parser) skipLine() {
	for p.pos < len(p.s) && p.s[p.pos] != '\n' {
		p.pos++
	}
}

func isDigit(c byte) bool      { return '0' <= c && c <= '9' }
func isIdentStart(c byte) bool { return charClass[c]&identStart != 0 }

// isIdentChar accepts the characters of MLIR bare identifiers and value names.
func isIdentChar(c byte) bool { return charClass[c]&identChar != 0 }

const (
	identStart = 1 << iota // letters and '_'
	identChar              // letters, digits, '_', '.', '$', '-'
)

// charClass holds the identStart and identChar bits of each byte.
var charClass = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		if c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') {
			t[c] |= identStart | identChar
		}
		if ('0' <= c && c <= '9') || c == '.' || c == '$' || c == '-' {
			t[c] |= identChar
		}
	}
	return t
}()

func hasPrefixAt(s string, i int, prefix string) bool {
	return len(s)-i >= len(prefix) && s[i:i+len(prefix)] == prefix
}

func quoteChar(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return fmt.Sprintf("'%c'", c)
	}
	return fmt.Sprintf("byte 0x%02x", c)
}
