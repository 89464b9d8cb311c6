package ir

import (
	"strconv"
	"strings"
)

// span is a half-open byte range of Module.Src.
type span struct{ start, end int }

// ownSpans returns the pieces of an op's text that are not inside its regions:
// its name, operands, attributes, types and location.
func ownSpans(op *Op) []span {
	out := make([]span, 0, len(op.Regions)+1)
	at := int(op.nameEnd)
	for _, r := range op.Regions {
		out = append(out, span{at, int(r.Start)})
		at = int(r.End)
	}
	return append(out, span{at, int(op.End)})
}

// ownTextHas reports whether the op's own text (outside its regions) holds
// sub: a quick test before its attributes are read.
func (m *Module) ownTextHas(op *Op, sub string) bool {
	for _, sp := range ownSpans(op) {
		if strings.Contains(m.Src[sp.start:sp.end], sub) {
			return true
		}
	}
	return false
}

// header is the op's own text after its name with each region replaced by
// "{}", which keeps offsets meaningless but the structure intact.
// Comments are blanked out, so that a quote or bracket in one cannot
// unbalance the text.
func (m *Module) header(op *Op) string {
	if len(op.Regions) == 0 {
		return blankComments(m.Src[op.nameEnd:op.End])
	}
	var b strings.Builder
	for i, sp := range ownSpans(op) {
		if i > 0 {
			b.WriteString("{}")
		}
		b.WriteString(m.Src[sp.start:sp.end])
	}
	return blankComments(b.String())
}

// blankComments replaces the line comments of s (outside strings) by spaces,
// keeping every other byte at its offset.
func blankComments(s string) string {
	if !strings.Contains(s, "//") {
		return s
	}
	var b []byte
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"':
			j := skipStringAt(s, i)
			if j < 0 {
				j = len(s)
			}
			i = j - 1
		case '/':
			if i+1 < len(s) && s[i+1] == '/' {
				if b == nil {
					b = []byte(s)
				}
				for ; i < len(s) && s[i] != '\n'; i++ {
					b[i] = ' '
				}
			}
		}
	}
	if b == nil {
		return s
	}
	return string(b)
}

// The scanner of MLIR text, which every package reads it with. A string
// ("...", with backslash escapes) ends on its line; a line comment runs from
// "//" to the end of its line; brackets ( [ { < nest, each closed by its own
// kind, and the '>' of an arrow "->" closes nothing. Brackets in strings and
// comments do not count.

// SkipString returns the offset just after the string literal that starts at
// s[i] == '"', or -1 when it is not closed on its line.
func SkipString(s string, i int) int { return skipStringAt(s, i) }

// Closing returns the offset of the bracket that closes the one at s[i], or
// -1 when it is not closed (or s[i] opens none).
func Closing(s string, i int) int { return matching(s, i) }

// IndexTop returns the offset of the first c in s outside strings, comments
// and brackets (an opening bracket is itself outside), or -1.
func IndexTop(s string, c byte) int { return indexTop(s, c) }

// SplitTop splits s at its occurrences of sep outside strings, comments and
// brackets, trimming blanks; a blank s gives no parts.
func SplitTop(s string, sep byte) []string { return splitTop(s, sep) }

// StripLoc drops a trailing location "loc(...)" from a type or an argument.
func StripLoc(s string) string { return stripLoc(s) }

// skipStringAt is SkipString.
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

// MLIR's string literals (Lexer::lexString, Token::getStringValue): a
// string ends on its line; a backslash escapes only \" \\ \n \t and \XX, two
// hex digits, one byte (\E9 is the byte 0xE9, not a rune); a vertical tab or
// a form feed in one is an error, as a line break is. Go's rules (strconv)
// are not MLIR's: "\141" is the bytes 0x14 '1' to MLIR, "a" to Go. MLIR
// prints a string (llvm::printEscapedString) with printable ASCII but '"' and
// '\' as is, '\' as \\ and every other byte as \XX in upper case: Quote.

// badEscape returns the offset of the first byte of the string literal
// s[i:end] (s[i] == '"', s[end-1] its closing quote) that MLIR's lexer
// refuses, an unknown escape or a vertical tab or form feed, or -1.
func badEscape(s string, i, end int) int {
	for j := i + 1; j < end-1; j++ {
		switch s[j] {
		case '\v', '\f':
			return j
		case '\\':
			switch c := s[j+1]; {
			case c == '"' || c == '\\' || c == 'n' || c == 't':
				j++
			case j+2 < end-1 && isHexDigit(c) && isHexDigit(s[j+2]):
				j += 2
			default:
				return j
			}
		}
	}
	return -1
}

// unescapeString returns the contents of a string literal, quotes dropped,
// with MLIR's escapes decoded (Token::getStringValue): \" \\ \n \t and \XX,
// two hex digits. An escape MLIR refuses (the parser reports it) keeps the
// byte after the backslash.
func unescapeString(raw string) string {
	if !strings.Contains(raw, `\`) {
		return raw
	}
	var b strings.Builder
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' || i+1 == len(raw) {
			b.WriteByte(c)
			continue
		}
		i++
		switch c = raw[i]; {
		case c == 'n':
			b.WriteByte('\n')
		case c == 't':
			b.WriteByte('\t')
		case i+1 < len(raw) && isHexDigit(c) && isHexDigit(raw[i+1]):
			b.WriteByte(hexVal(c)<<4 | hexVal(raw[i+1]))
			i++
		default: // '"', '\\'
			b.WriteByte(c)
		}
	}
	return b.String()
}

func hexVal(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

// stringLit returns the contents of s when s is one MLIR string literal,
// quotes included, decoded as MLIR decodes it; ok is false for anything
// else, a literal MLIR's lexer refuses too.
func stringLit(s string) (string, bool) {
	if len(s) < 2 || s[0] != '"' || skipStringAt(s, 0) != len(s) || badEscape(s, 0, len(s)) >= 0 {
		return "", false
	}
	return unescapeString(s[1 : len(s)-1]), true
}

// unquote returns the contents of the string literal s, or s when it is not
// one.
func unquote(s string) string {
	if v, ok := stringLit(s); ok {
		return v
	}
	return s
}

// attrName is an attribute's name as written, bare or quoted, as MLIR reads
// it: "arc\2Efoo" is arc.foo.
func attrName(s string) string {
	if strings.HasPrefix(s, `"`) {
		return unquote(s)
	}
	return s
}

// skipComment returns the offset of the line break that ends the comment
// starting at s[i] == '/' when s[i+1] is '/' too (len(s) at the end of the
// text), or i when no comment starts there.
func skipComment(s string, i int) int {
	if i+1 >= len(s) || s[i+1] != '/' {
		return i
	}
	if k := strings.IndexByte(s[i:], '\n'); k >= 0 {
		return i + k
	}
	return len(s)
}

// scan calls fn(i, depth) for each byte s[i] from start on that is outside
// strings and comments, depth being the bracket depth before it (relative to
// start); the opening quote of a string is reported, the rest of it is not.
// It stops when fn returns false or at a string not closed on its line.
func scan(s string, start int, fn func(i, depth int) bool) {
	depth := 0
	for i := start; i < len(s); i++ {
		switch s[i] {
		case '"':
			if !fn(i, depth) {
				return
			}
			j := skipStringAt(s, i)
			if j < 0 {
				return
			}
			i = j - 1
			continue
		case '/':
			if j := skipComment(s, i); j > i {
				i = j - 1
				continue
			}
		}
		if !fn(i, depth) {
			return
		}
		depth += bracketStep(s, i)
	}
}

// topLevel calls fn for each byte of s that is outside strings, comments and
// brackets (the opening bracket itself is reported at depth 0). fn returns
// false to stop.
func topLevel(s string, fn func(i int) bool) {
	scan(s, 0, func(i, depth int) bool { return depth != 0 || fn(i) })
}

// bracketStep is how s[i] changes the bracket depth: +1 for '(', '[', '{' and
// '<', -1 for their closers, 0 for any other byte and for the '>' of an
// arrow "->".
func bracketStep(s string, i int) int {
	switch s[i] {
	case '(', '[', '{', '<':
		return 1
	case ')', ']', '}':
		return -1
	case '>':
		if i > 0 && s[i-1] == '-' {
			return 0
		}
		return -1
	}
	return 0
}

// indexTop is IndexTop.
func indexTop(s string, c byte) int {
	at := -1
	topLevel(s, func(i int) bool {
		if s[i] == c {
			at = i
			return false
		}
		return true
	})
	return at
}

// splitTop is SplitTop.
func splitTop(s string, sep byte) []string {
	var parts []string
	for _, sp := range splitTopSpans(s, sep) {
		parts = append(parts, strings.TrimSpace(s[sp.start:sp.end]))
	}
	if len(parts) == 1 && parts[0] == "" {
		return nil
	}
	return parts
}

// splitTopSpans returns the spans of s between top-level occurrences of sep.
func splitTopSpans(s string, sep byte) []span {
	var parts []span
	last := 0
	topLevel(s, func(i int) bool {
		if s[i] == sep {
			parts = append(parts, span{last, i})
			last = i + 1
		}
		return true
	})
	return append(parts, span{last, len(s)})
}

// matching is Closing. Brackets nested deeper than the parser allows close
// nothing.
func matching(s string, i int) int {
	if i < 0 || i >= len(s) || bracketStep(s, i) != 1 {
		return -1
	}
	at := -1
	scan(s, i, func(j, depth int) bool {
		switch step := bracketStep(s, j); {
		case j > i && depth == 1 && step < 0:
			at = j
			return false
		case depth+step > maxNesting:
			return false
		}
		return true
	})
	return at
}

// Attr is one entry of an attribute dictionary: name = value (value "" for a
// unit attribute).
type Attr struct {
	Name  string
	Value string
}

// parseDict splits the inside of "{...}" into entries.
func parseDict(inner string) []Attr {
	var out []Attr
	for _, e := range splitTop(inner, ',') {
		if e == "" {
			continue
		}
		name, value := e, ""
		if eq := indexTop(e, '='); eq >= 0 {
			name, value = strings.TrimSpace(e[:eq]), strings.TrimSpace(e[eq+1:])
		}
		out = append(out, Attr{Name: attrName(name), Value: value})
	}
	return out
}

// Attrs returns the op's attributes: the properties "<{...}>" and the
// attribute dictionary "{...}" of the generic form, or the dictionary after
// "attributes" in the pretty form of ops such as module and func.func.
// The slice is the module's (read once per op): callers do not change it.
func (m *Module) Attrs(op *Op) []Attr {
	return memoized(m, &m.memo.attrs, op, func(op *Op) []Attr { return clip(m.readAttrs(op)) })
}

func (m *Module) readAttrs(op *Op) []Attr {
	h := m.header(op)
	var out []Attr
	if op.Generic {
		topLevel(h, func(i int) bool {
			switch {
			case h[i] == '<' && i+1 < len(h) && h[i+1] == '{':
				if j := matching(h, i+1); j > 0 {
					out = append(out, parseDict(h[i+2:j])...)
				}
			case h[i] == '{' && (i == 0 || h[i-1] != '<'):
				if j := matching(h, i); j > i+1 { // "{}" is a region placeholder
					out = append(out, parseDict(h[i+1:j])...)
				}
			case h[i] == ':':
				return false // the function type follows
			}
			return true
		})
		return out
	}
	topLevel(h, func(i int) bool {
		if h[i] != 'a' || !strings.HasPrefix(h[i:], "attributes") || (i > 0 && !isBlank(h[i-1])) {
			return true
		}
		rest := strings.TrimLeft(h[i+len("attributes"):], " \t\r\n")
		if !strings.HasPrefix(rest, "{") {
			return true
		}
		off := len(h) - len(rest)
		if j := matching(h, off); j > off {
			out = parseDict(h[off+1 : j])
		}
		return false
	})
	return out
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// Attr returns the value of the named attribute, and whether it is present.
func (m *Module) Attr(op *Op, name string) (string, bool) {
	return AttrValue(m.Attrs(op), name)
}

// AttrValue returns the value of the named attribute of attrs (as Attrs
// lists them), and whether it is present.
func AttrValue(attrs []Attr, name string) (string, bool) {
	for _, a := range attrs {
		if a.Name == name {
			return a.Value, true
		}
	}
	return "", false
}

// FuncType returns the types written after the op's last top-level ':'.
// With an arrow ("(T, U) -> (V, W)") they are the operand and result types.
// Without one (the pretty form: "T" or "T, U") they come back as outs: one
// type for every operand and the result of ops such as stablehlo.add, or one
// per operand of ops such as return and while. Locations, keywords and
// regions after the types are not part of them.
// The slices are the module's (read once per op): callers do not change
// them.
func (m *Module) FuncType(op *Op) (ins, outs []string, ok bool) {
	t := memoized(m, &m.memo.types, op, func(op *Op) funcType {
		ins, outs, ok := m.readFuncType(op)
		return funcType{clip(ins), clip(outs), ok}
	})
	return t.ins, t.outs, t.ok
}

func (m *Module) readFuncType(op *Op) (ins, outs []string, ok bool) {
	h := m.header(op)
	colon := typeColon(h)
	if colon < 0 {
		return nil, nil, false
	}
	t := strings.TrimSpace(h[colon+1:])
	end := typesEnd(t)
	// after an op's signature only a location may stand, or its regions:
	// other text (a stray token MLIR refuses) is no signature readers agree on
	if rest := strings.TrimSpace(blankComments(t[end:])); rest != "" && !strings.HasPrefix(rest, "loc(") && len(op.Regions) == 0 {
		return nil, nil, false
	}
	t = t[:end]
	arrow := -1
	topLevel(t, func(i int) bool {
		if t[i] == '-' && i+1 < len(t) && t[i+1] == '>' {
			arrow = i
			return false
		}
		return true
	})
	if arrow < 0 {
		outs = splitTop(t, ',')
		return nil, outs, len(outs) > 0
	}
	return typeList(t[:arrow]), typeList(t[arrow+2:]), true
}

// typeColon returns the offset of the last top-level ':' of an op header, or -1.
func typeColon(h string) int {
	colon := -1
	topLevel(h, func(i int) bool {
		if h[i] == ':' {
			colon = i
		}
		return true
	})
	return colon
}

// typesEnd returns the length of the type signature at the start of t: types
// separated by ',' or "->", each a word with bracketed parameters
// ("tensor<4xf32>", "!quant.uniform<...>") or a parenthesized list.
func typesEnd(t string) int {
	end := 0
	for i := 0; ; {
		for i < len(t) && isBlank(t[i]) {
			i++
		}
		start := i
	word:
		for i < len(t) {
			switch c := t[i]; {
			case c == '(' || c == '<' || c == '[':
				j := matching(t, i)
				if j < 0 {
					return len(t)
				}
				i = j + 1
			case c == '-' && i+1 < len(t) && t[i+1] == '>':
				break word
			case isIdentChar(c) || c == '!':
				i++
			default:
				break word
			}
		}
		if i == start {
			return end
		}
		end = i
		for i < len(t) && isBlank(t[i]) {
			i++
		}
		switch {
		case hasPrefixAt(t, i, "->"):
			i += 2
		case i < len(t) && t[i] == ',':
			i++
		default:
			return end
		}
	}
}

// typeList reads "(A, B)" or "A" as a list of types.
func typeList(s string) []string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "(") && matching(s, 0) == len(s)-1 {
		return splitTop(s[1:len(s)-1], ',')
	}
	return []string{s}
}

// stripLoc drops a trailing "loc(...)".
func stripLoc(s string) string {
	s = strings.TrimSpace(s)
	if !strings.HasSuffix(s, ")") {
		return s
	}
	last := -1
	topLevel(s, func(i int) bool {
		if strings.HasPrefix(s[i:], "loc(") && (i == 0 || s[i-1] == ' ') {
			last = i
		}
		return true
	})
	if last >= 0 && matching(s, last+3) == len(s)-1 {
		return strings.TrimSpace(s[:last])
	}
	return s
}

// IsValueRef reports whether an operand as Operands returns it, less its
// comments, is one value: "%name" or "%name#n".
func IsValueRef(operand string) bool {
	v := strings.TrimSpace(blankComments(operand))
	if len(v) < 2 || v[0] != '%' {
		return false
	}
	i := 1
	for i < len(v) && isIdentChar(v[i]) {
		i++
	}
	if i == 1 {
		return false
	}
	if i < len(v) && v[i] == '#' {
		d := i + 1
		for i = d; i < len(v) && isDigit(v[i]); i++ {
		}
		if i == d {
			return false
		}
	}
	return i == len(v)
}

// Operands returns the values an op reads in its own text: the list in
// parentheses right after a generic op's name, or, in the pretty form, every
// value used before the type (not the region arguments it declares, such as
// "%iterArg = %init" or "reducer(%a: ...)").
// The slice is the module's (read once per op): callers do not change it.
func (m *Module) Operands(op *Op) []string {
	return memoized(m, &m.memo.operands, op, func(op *Op) []string { return clip(m.readOperands(op)) })
}

func (m *Module) readOperands(op *Op) []string {
	h := m.header(op)
	if op.Generic {
		open := strings.IndexByte(h, '(')
		if open < 0 {
			return nil
		}
		close := matching(h, open)
		if close < 0 {
			return nil
		}
		var out []string
		for _, v := range splitTop(h[open+1:close], ',') {
			if v != "" {
				out = append(out, v)
			}
		}
		return out
	}
	end := typeColon(h)
	if end < 0 {
		end = len(h)
	}
	var out []string
	scanValues(h, 0, end, false, func(v ValueRef) {
		if v.Kind == Use {
			name := v.Name
			if v.Index >= 0 {
				name += "#" + strconv.Itoa(v.Index)
			}
			out = append(out, name)
		}
	})
	return out
}
