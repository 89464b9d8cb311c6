package ir

import (
	"fmt"
	"math"
	"strings"
)

// maxNesting bounds region and bracket nesting, so hostile input cannot
// exhaust the stack.
const maxNesting = 4096

// Parse reads MLIR text: statements, regions and blocks, in any layout MLIR's
// lexer accepts. src is not retained: the module keeps its own copy. Parse
// takes a fragment too (ops without a module around them); ParseModule is
// the entry point for a file that must be a module.
func Parse(name string, src []byte) (*Module, error) {
	return ParseString(name, string(src))
}

// ParseString reads MLIR text from a string, which the module keeps.
func ParseString(name, src string) (m *Module, err error) {
	m = &Module{Name: name, Src: src}
	if len(src) > math.MaxInt32 { // offsets are int32
		return nil, &Error{File: name, Line: 1, Col: 1, Msg: fmt.Sprintf("file of %d bytes is too large (the limit is 2 GiB)", len(src))}
	}
	p := &parser{m: m, s: src, noResults: -1, resultsStart: -1}
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

// The grammar (https://mlir.llvm.org/docs/LangRef/) has two forms of an op.
// The generic form is fully given by the grammar:
//
//	results? "name" (operands) [successors]? <{properties}>? (regions)? {attributes}? : (types) -> types loc(...)?
//
// and the parser reads it token by token. The custom (pretty) form after a
// bare op name is defined by each op, so the parser reads its tokens,
// balancing brackets and descending into regions, until a token that can
// only start the next statement: a result list followed by '=' and an op name
// ("%0 = stablehlo.add", "%a, %b:2 = "x""), a block label ("^bb1(...):"), the
// '}' that closes the enclosing region, an alias definition ("#a = ..."), a
// resource section, or, after a line break, an op name: a quoted one, a dotted
// one ("stablehlo.return") or one of the few undotted names that MLIR's
// default dialects print (return, call, module). Whitespace and comments
// may sit between any two tokens.
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
	// noResults is an offset before which no result list starts: set when a
	// look-ahead from a '%' found none, so that the '%' after it in the same
	// list ("%a, %b, %c :") does not look again.
	noResults int
	// resultsStart and resultsEq are the '%' and the '=' of the result list
	// the last look-ahead found, which parseOp then need not read again.
	resultsStart, resultsEq int
	// opNames are custom-form op names found to be ops, round-robin: the
	// many ops of a module share a few names, each then looked up once.
	opNames    [16]string
	opNamesAdd int
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
		p.skipTrivia()
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
		p.skipTrivia()
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
			if parent != nil && (parent.Name == "module" || parent.Name == "builtin.module") {
				p.checkModuleLevel(op)
			}
		}
	}
}

// checkModuleLevel refuses an undotted custom op in a module's body that is
// not a builtin op: MLIR reads such names in the builtin dialect, and a
// stray word there would otherwise swallow what follows it.
func (p *parser) checkModuleLevel(op *Op) {
	if op.Generic || op.Name == "" || strings.Contains(op.Name, ".") {
		return
	}
	switch op.Name {
	case "module", "unrealized_conversion_cast":
		return
	}
	p.fail(int(op.nameEnd)-len(op.Name), "custom op '%s' is unknown (a module's body holds dialect ops such as func.func)", op.Name)
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
	after := p.pos
	p.skipTrivia()
	if p.pos < len(p.s) && p.s[p.pos] == '(' {
		p.skipBalanced()
		after = p.pos
		p.skipTrivia()
	}
	if p.pos >= len(p.s) || p.s[p.pos] != ':' {
		p.fail(after, "expected ':' after block label %s", b.Label)
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
		if p.pos == p.resultsStart {
			p.pos = p.resultsEq // read by resultsAt
		} else {
			p.parseResults()
		}
		op.resEnd = int32(p.pos)
		p.pos++ // '='
		p.skipTrivia()
	}
	if p.pos >= len(s) {
		p.fail(p.pos, "expected an operation name")
	}
	switch c := s[p.pos]; {
	case c == '"':
		nameStart := p.pos + 1
		p.skipString()
		op.Name = unescapeString(s[nameStart : p.pos-1])
		switch {
		case op.Name == "":
			p.fail(nameStart-1, "empty operation name is invalid")
		case strings.IndexByte(op.Name, 0) >= 0:
			p.fail(nameStart-1, "null character not allowed in operation name")
		}
		op.Generic = true
		op.nameEnd = int32(p.pos)
		p.parseGeneric(op)
		return op
	case (c == '#' || c == '!') && op.resEnd == op.Start:
		// An attribute or type alias definition: "#loc1 = loc(...)", only
		// outside every op, its name a bare identifier.
		p.pos++
		if p.depth > 0 || p.pos >= len(s) || !isIdentStart(s[p.pos]) || s[p.pos] >= '0' && s[p.pos] <= '9' {
			p.fail(start, "expected an operation, found %s", quoteChar(c))
		}
		p.skipIdent()
		if j := skipTriviaAt(s, p.pos); j >= len(s) || s[j] != '=' {
			p.fail(j, "expected '=' after the alias name %s", s[start:p.pos])
		}
	case isIdentStart(c):
		nameStart := p.pos
		p.skipIdent()
		op.Name = s[nameStart:p.pos]
		p.checkCustomName(op.Name, nameStart)
	default:
		p.fail(p.pos, "expected an operation, found %s", quoteChar(c))
	}
	op.nameEnd = int32(p.pos)
	p.scanCustom(op)
	if op.Name == "module" || op.Name == "builtin.module" {
		p.checkModuleHeader(op)
	}
	return op
}

// checkCustomName refuses a custom-form op that its dialect does not have
// (see unknownCustomOp).
func (p *parser) checkCustomName(name string, at int) {
	for _, n := range p.opNames {
		if n == name {
			return
		}
	}
	if msg := unknownCustomOp(name); msg != "" {
		p.fail(at, "%s", msg)
	}
	p.opNames[p.opNamesAdd] = name
	p.opNamesAdd = (p.opNamesAdd + 1) % len(p.opNames)
}

// checkModuleHeader checks the pretty module's syntax, which unlike other
// custom ops' arc knows whole: "module @name? (attributes {...})? {body}".
func (p *parser) checkModuleHeader(op *Op) {
	if len(op.Regions) != 1 {
		p.fail(int(op.Start), "a module has one region, not %d", len(op.Regions))
	}
	h := blankComments(p.s[op.nameEnd:op.Regions[0].Start])
	at := func(i int) int { return int(op.nameEnd) + i }
	i := skipBlanks(h, 0)
	if i < len(h) && h[i] == '@' {
		i++
		if i < len(h) && h[i] == '"' {
			i = skipStringAt(h, i)
		} else {
			for i < len(h) && isIdentChar(h[i]) {
				i++
			}
		}
		i = skipBlanks(h, i)
	}
	if strings.HasPrefix(h[i:], "attributes") {
		i = skipBlanks(h, i+len("attributes"))
		if i < len(h) && h[i] == '{' {
			if j := matching(h, i); j > 0 {
				i = skipBlanks(h, j+1)
			}
		}
	}
	if i < len(h) {
		p.fail(at(i), "expected '{' to begin the module's body")
	}
}

func skipBlanks(s string, i int) int {
	for i < len(s) && isBlank(s[i]) {
		i++
	}
	return i
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
		p.skipTrivia()
		if p.pos < len(s) && s[p.pos] == ':' {
			p.pos++
			p.skipTrivia()
			d := p.pos
			for p.pos < len(s) && isDigit(s[p.pos]) {
				p.pos++
			}
			if p.pos == d {
				p.fail(d, "expected a result count after ':'")
			}
			if strings.TrimLeft(s[d:p.pos], "0") == "" { // "%x:0" defines nothing to use
				p.fail(d, "expected named operation to have at least 1 result")
			}
			p.skipTrivia()
		}
		if p.pos < len(s) && s[p.pos] == ',' {
			p.pos++
			p.skipTrivia()
			continue
		}
		if p.pos < len(s) && s[p.pos] == '=' {
			return
		}
		p.fail(p.pos, "expected '=' after the results")
	}
}

// parseGeneric reads the rest of a generic op after its quoted name.
func (p *parser) parseGeneric(op *Op) {
	s := p.s
	at := func(c byte) bool {
		if p.pos < len(s) && (isBlank(s[p.pos]) || s[p.pos] == '/') {
			p.skipTrivia()
		}
		return p.pos < len(s) && s[p.pos] == c
	}
	if !at('(') {
		p.fail(p.pos, "expected '(' and the operands of %s", op.Name)
	}
	p.skipBalanced()
	if at('[') { // successors
		p.skipBalanced()
	}
	if at('<') { // properties
		open := p.pos
		p.skipBalanced()
		if p.s[open+1] == '{' && p.s[p.pos-2] == '}' {
			p.dict(open + 1)
		}
	}
	if at('(') { // regions
		p.pos++
		for {
			if !at('{') {
				p.fail(p.pos, "expected a region of %s", op.Name)
			}
			op.Regions = append(op.Regions, p.parseRegion(op))
			if at(',') {
				p.pos++
				continue
			}
			if at(')') {
				p.pos++
				break
			}
			p.fail(p.pos, "expected ',' or ')' after a region of %s", op.Name)
		}
	}
	if at('{') { // attributes
		p.skipDict()
	}
	if !at(':') {
		p.fail(p.pos, "expected ':' and the type of %s", op.Name)
	}
	p.pos++
	p.skipFunctionType()
	end := p.pos
	p.skipTrivia()
	if hasPrefixAt(s, p.pos, "loc") && !(p.pos+3 < len(s) && isIdentChar(s[p.pos+3])) {
		p.pos += 3
		if at('(') {
			p.skipBalanced()
			end = p.pos
		}
	}
	p.pos = end
	op.End = int32(end)
}

// skipFunctionType reads "(types) -> type" or "(types) -> (types)".
func (p *parser) skipFunctionType() {
	s := p.s
	p.skipTrivia()
	if p.pos >= len(s) || s[p.pos] != '(' {
		p.fail(p.pos, "expected a function type: '(' and the operand types")
	}
	p.skipBalanced()
	p.skipTrivia()
	if !hasPrefixAt(s, p.pos, "->") {
		p.fail(p.pos, "expected '->' and the result types")
	}
	p.pos += 2
	p.skipTrivia()
	if p.pos < len(s) && s[p.pos] == '(' {
		p.skipBalanced()
		return
	}
	p.skipType()
}

// skipType reads one type that is not a function type: a builtin one
// ("f32", "tensor<4xf32>") or a dialect one ("!stablehlo.token",
// "!quant.uniform<...>").
func (p *parser) skipType() {
	s := p.s
	start := p.pos
	if p.pos < len(s) && s[p.pos] == '!' {
		p.pos++
	}
	n := p.pos
	p.skipIdent()
	if p.pos == n {
		p.fail(start, "expected a type")
	}
	end := p.pos
	p.skipTrivia()
	if p.pos < len(s) && s[p.pos] == '<' {
		p.skipBalanced()
		return
	}
	p.pos = end
}

// scanCustom reads the rest of a custom-form op (or an alias definition):
// its tokens and regions, up to the start of the next statement.
func (p *parser) scanCustom(op *Op) {
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
		case ' ':
			// A blank between two tokens of a line: only a few bytes after
			// it may start a statement.
			if n := p.pos + 1; n < len(s) && plain[s[n]] && !mayStart[s[n]] {
				p.pos = n
				continue
			}
			fallthrough
		case '\t', '\r', '\n':
			i, nl := p.pos, false
			for i < len(s) && isBlank(s[i]) { // indentation, blank lines
				nl = nl || s[i] == '\n'
				i++
			}
			p.pos = i
			if i+1 < len(s) && s[i] == '/' && s[i+1] == '/' {
				nl = p.skipTrivia() || nl
			}
			if len(p.brackets) == base && p.statementAt(p.pos, nl, s[end-1], end == int(op.nameEnd)) {
				op.End = int32(end)
				p.pos = end
				return
			}
			continue
		case '/':
			if p.pos+1 < len(s) && s[p.pos+1] == '/' {
				nl := p.skipTrivia()
				if len(p.brackets) == base && p.statementAt(p.pos, nl, s[end-1], end == int(op.nameEnd)) {
					op.End = int32(end)
					p.pos = end
					return
				}
				continue
			}
			p.pos++
		case '"':
			p.skipString()
		case '(', '[', '<':
			p.brackets = append(p.brackets, p.pos)
			p.pos++
		case '{':
			if p.regionHere(op, base) {
				op.Regions = append(op.Regions, p.parseRegion(op))
			} else if afterWord(s, p.pos, "attributes") || p.attrDictHere(op, base) {
				p.skipDict()
				end = p.pos
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
			if len(p.brackets) == base && c == '}' { // closes the enclosing region
				op.End = int32(end)
				p.pos = end
				return
			}
			if !p.closeBracket(base) {
				p.badCloser(base)
			}
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
	p.pos = end
}

// plain marks the bytes that scanCustom passes over without a look: all but
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

// mayStart marks the plain bytes that can start a statement on the line of
// the op before it: a result list, a block label, an alias definition.
var mayStart = func() (t [256]bool) {
	for _, c := range []byte("%^#!") {
		t[c] = true
	}
	return t
}()

// balancedPlain marks the bytes that skipBalanced passes over without a
// look: all but brackets, quotes and '/'.
var balancedPlain = func() (t [256]bool) {
	for i := range t {
		t[i] = true
	}
	for _, c := range []byte("/\"()[]<>{}") {
		t[c] = false
	}
	return t
}()

// statementAt reports whether the token at i, reached after whitespace or a
// comment at the op's own bracket depth, starts a new statement rather than
// continuing a custom-form op (as ": type", "attributes {...}", "cond {" or
// "reducer(...)" do). nl says whether a line break came before it, prev is
// the last byte of the token before it: after ',', '=' or ':' the op goes on,
// as it does on the line of its name right after it (first).
func (p *parser) statementAt(i int, nl bool, prev byte, first bool) bool {
	s := p.s
	if i >= len(s) {
		return true
	}
	if prev == ',' || prev == '=' || prev == ':' || first && !nl {
		return false
	}
	switch c := s[i]; {
	case c == '}':
		return true
	case c == '^':
		return p.labelAt(i)
	case c == '%':
		return p.resultsAt(i)
	case c == '"':
		return nl
	case c == '#' || c == '!':
		return p.aliasAt(i)
	case c == '{':
		return hasPrefixAt(s, i, "{-#") // a dialect resource section
	case isIdentStart(c):
		if !nl {
			return false
		}
		j := i
		dotted := false
		for j < len(s) && isIdentChar(s[j]) {
			dotted = dotted || s[j] == '.'
			j++
		}
		return dotted || undottedOp(s[i:j])
	}
	return false
}

// undottedOp reports whether word is an op name MLIR prints without its
// dialect: the builtin module and the ops of func, the default dialect of a
// function's body.
func undottedOp(word string) bool {
	switch word {
	case "module", "return", "call", "call_indirect", "constant":
		return true
	}
	return false
}

// resultsAt reports whether a result list followed by '=' and an op name
// starts at i ("%0 = ...", "%a:2, %b = ..."), unlike the operands of a
// custom op ("%a, %b : type") or the induction variable of a loop
// ("%i = %lb to %ub").
func (p *parser) resultsAt(i int) bool {
	s := p.s
	if i < p.noResults {
		return false
	}
	j := i
	for {
		if j >= len(s) || s[j] != '%' {
			break
		}
		j++
		n := j
		for j < len(s) && isIdentChar(s[j]) {
			j++
		}
		if j == n {
			break
		}
		j = skipTriviaAt(s, j)
		if j < len(s) && s[j] == ':' {
			j = skipTriviaAt(s, j+1)
			d := j
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			if j == d {
				break
			}
			j = skipTriviaAt(s, j)
		}
		if j < len(s) && s[j] == ',' {
			j = skipTriviaAt(s, j+1)
			continue
		}
		if j+1 < len(s) && s[j] == '=' && s[j+1] != '=' {
			eq := j
			j = skipTriviaAt(s, j+1)
			if j < len(s) && (s[j] == '"' || isIdentStart(s[j])) {
				p.resultsStart, p.resultsEq = i, eq
				return true
			}
			break
		}
		break
	}
	p.noResults = j
	return false
}

// labelAt reports whether a block label ("^bb1:", "^bb1(%a: t):") starts at
// i, rather than a successor of a custom op ("^bb1(%a : t)" without ':').
func (p *parser) labelAt(i int) bool {
	s := p.s
	j := i + 1
	for j < len(s) && isIdentChar(s[j]) {
		j++
	}
	j = skipTriviaAt(s, j)
	if j < len(s) && s[j] == '(' {
		j = matching(s, j)
		if j < 0 {
			return false
		}
		j = skipTriviaAt(s, j+1)
	}
	return j < len(s) && s[j] == ':'
}

// aliasAt reports whether an alias definition ("#loc1 = ...", "!t = ...")
// starts at i.
func (p *parser) aliasAt(i int) bool {
	s := p.s
	j := i + 1
	for j < len(s) && isIdentChar(s[j]) {
		j++
	}
	if j == i+1 || !isIdentStart(s[i+1]) { // as the definition's name must be
		return false
	}
	j = skipTriviaAt(s, j)
	// "=" may end the text: whatever follows it in an edited module must not
	// make an alias of it.
	return j < len(s) && s[j] == '=' && (j+1 == len(s) || s[j+1] != '=')
}

// regionHere decides whether the '{' at p.pos, in a custom-form op whose
// brackets start at base, opens a region or an attribute dictionary (or a
// braced list such as sdy's manual_axes={"x"}). Regions sit at the op's own
// level or in a parenthesized list; what follows the brace tells them apart:
// a region starts with an op, a block label or '}', a dictionary with
// "name = value", "name," or a lone unit attribute "name}".
func (p *parser) regionHere(op *Op, base int) bool {
	for _, at := range p.brackets[base:] {
		if p.s[at] != '(' {
			return false
		}
	}
	if afterWord(p.s, p.pos, "attributes") {
		return false // the keyword always introduces a dictionary
	}
	if op.Name == "module" || op.Name == "builtin.module" {
		return true // a module's only other brace is its body, "{}" too
	}
	return regionAhead(p.s, p.pos)
}

// attrDictHere reports whether the '{' at p.pos, which opens no region of a
// custom-form op whose brackets start at base, is an attribute dictionary
// in a syntax arc knows: the attr-dict of a stablehlo op, at the op's own
// level and not after '=' (convolution's "window = {...}" is its own), or
// the attributes of a func.func argument or result. Other dialects' braces
// may be anything.
func (p *parser) attrDictHere(op *Op, base int) bool {
	switch {
	case strings.HasPrefix(op.Name, "stablehlo."):
		if len(p.brackets) != base {
			return false
		}
	case op.Name == "func.func":
		if len(p.brackets) == base {
			return false
		}
		for _, at := range p.brackets[base:] {
			if p.s[at] != '(' {
				return false
			}
		}
	default:
		return false
	}
	j := p.pos
	for j > 0 && isBlank(p.s[j-1]) {
		j--
	}
	return j > 0 && p.s[j-1] != '='
}

// afterWord reports whether the token just before s[i], past blanks, is word.
func afterWord(s string, i int, word string) bool {
	j := i
	for j > 0 && isBlank(s[j-1]) {
		j--
	}
	k := j - len(word)
	return k >= 0 && s[k:j] == word && (k == 0 || !isIdentChar(s[k-1]))
}

// regionAhead looks at what follows the '{' at i.
func regionAhead(s string, i int) bool {
	j := skipTriviaAt(s, i+1)
	if j >= len(s) {
		return true // reported as a region that is not closed
	}
	switch c := s[j]; {
	case c == '^' || c == '%':
		return true
	case c == '}':
		// "{}" is an empty dictionary; an empty region spans lines.
		return strings.ContainsAny(s[i:j], "\n")
	case c == '"':
		k := skipStringAt(s, j)
		if k < 0 {
			return false
		}
		k = skipTriviaAt(s, k)
		return k < len(s) && s[k] == '(' // a generic op
	case isIdentStart(c):
		k := j
		for k < len(s) && isIdentChar(s[k]) {
			k++
		}
		word := s[j:k]
		k = skipTriviaAt(s, k)
		if k >= len(s) {
			return true
		}
		switch s[k] {
		case '=':
			return k+1 < len(s) && s[k+1] == '='
		case ',':
			return false
		case '}':
			// "{foo}" is a unit attribute, "{ return }" a region with a
			// terminator.
			return word == "return" || strings.HasSuffix(word, ".return") || strings.HasSuffix(word, ".yield")
		}
		return true
	}
	// Nothing else starts a dictionary entry: parsed as a region, whatever it
	// is fails there with its position.
	return !isDigit(s[j])
}

func (p *parser) skipString() {
	end := skipStringAt(p.s, p.pos)
	if end < 0 {
		p.fail(p.pos, "string is not closed")
	}
	p.pos = end
}

// skipBalanced skips the bracketed group that starts at p.pos, checking that
// its brackets match; strings and comments inside it are skipped whole.
func (p *parser) skipBalanced() {
	s := p.s
	base := len(p.brackets) // the group ends when the brackets are back to base
	for p.pos < len(s) {
		c := s[p.pos]
		if balancedPlain[c] {
			i := p.pos + 1
			for i < len(s) && balancedPlain[s[i]] {
				i++
			}
			p.pos = i
			continue
		}
		switch c {
		case '"':
			p.skipString()
			continue
		case '/':
			if p.pos+1 < len(s) && s[p.pos+1] == '/' {
				p.skipLine()
				continue
			}
		case '(', '[', '{', '<':
			p.brackets = append(p.brackets, p.pos)
			if len(p.brackets)-base > maxNesting {
				p.fail(p.pos, "brackets nested more than %d deep", maxNesting)
			}
		case '>':
			if p.pos > 0 && s[p.pos-1] == '-' {
				break
			}
			fallthrough
		case ')', ']', '}':
			if !p.closeBracket(base) {
				p.badCloser(base)
			}
			if len(p.brackets) == base {
				p.pos++
				return
			}
		}
		p.pos++
	}
	at := p.brackets[len(p.brackets)-1]
	p.fail(at, "%s is not closed", quoteChar(s[at]))
}

// closeBracket pops the bracket that the one at p.pos closes, reporting
// false when none above base is open or the innermost is of another kind
// (badCloser says which). It is small enough to inline in the parser's loops.
func (p *parser) closeBracket(base int) bool {
	n := len(p.brackets)
	if n == base || closers[p.s[p.brackets[n-1]]] != p.s[p.pos] {
		return false
	}
	p.brackets = p.brackets[:n-1]
	return true
}

// closers maps each opening bracket to its closer.
var closers = [256]byte{'(': ')', '[': ']', '{': '}', '<': '>'}

// badCloser fails at the closing bracket at p.pos that closes no open one.
func (p *parser) badCloser(base int) {
	s, c := p.s, p.s[p.pos]
	if len(p.brackets) == base {
		p.fail(p.pos, "unexpected %s", quoteChar(c))
	}
	at := p.brackets[len(p.brackets)-1]
	p.fail(p.pos, "expected %s to close %s opened at %s, found %s",
		quoteChar(closers[s[at]]), quoteChar(s[at]), p.m.Position(at), quoteChar(c))
}

// skipTrivia skips whitespace, line breaks and comments, and reports whether
// it crossed a line break.
func (p *parser) skipTrivia() (newline bool) {
	s := p.s
	i := p.pos
	for i < len(s) {
		switch s[i] {
		case ' ', '\t', '\r':
			i++
		case '\n':
			newline = true
			i++
		case '/':
			if i+1 < len(s) && s[i+1] == '/' {
				if k := strings.IndexByte(s[i:], '\n'); k >= 0 {
					i += k
				} else {
					i = len(s)
				}
				continue
			}
			p.pos = i
			return newline
		default:
			p.pos = i
			return newline
		}
	}
	p.pos = i
	return newline
}

// skipTriviaAt returns the offset of the first byte at or after i that is
// not whitespace or part of a comment.
func skipTriviaAt(s string, i int) int {
	for i < len(s) {
		switch s[i] {
		case ' ', '\t', '\r', '\n':
			i++
		case '/':
			if i+1 < len(s) && s[i+1] == '/' {
				for i < len(s) && s[i] != '\n' {
					i++
				}
				continue
			}
			return i
		default:
			return i
		}
	}
	return i
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
	if i := strings.IndexByte(p.s[p.pos:], '\n'); i >= 0 {
		p.pos += i
	} else {
		p.pos = len(p.s)
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
