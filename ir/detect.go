package ir

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Format is what a file holds, as far as its first bytes tell.
type Format int

const (
	// FormatText is text that may be an MLIR module: ParseModule decides.
	FormatText Format = iota
	// FormatBytecode is MLIR bytecode (it starts with "ML\xefR"): what JAX
	// hands a PJRT plugin and what jax.export serializes.
	FormatBytecode
	// FormatHLO is XLA's HLO text ("HloModule name, ..."), which
	// XLA_FLAGS=--xla_dump_to writes.
	FormatHLO
	// FormatBinary is any other binary data.
	FormatBinary
)

// BytecodeMagic starts every MLIR bytecode file.
const BytecodeMagic = "ML\xefR"

// stablehloHint says how to get what arc reads.
const stablehloHint = "arc reads StableHLO as MLIR text: get it from JAX with jax.jit(f).lower(*args).as_text() " +
	"(XLA_FLAGS=--xla_dump_to dumps HLO, not StableHLO)"

// bom is the UTF-8 byte order mark, which MLIR's lexer does not accept.
const bom = "\xef\xbb\xbf"

// Detect tells MLIR bytecode, XLA HLO text and other binary data from text
// that may be MLIR. Binary is a NUL byte in the first 8 KiB, or a first
// non-blank byte that is neither printable ASCII nor the start of a UTF-8
// character (as "\x89PNG", gzip's "\x1f\x8b" or a protocol buffer's
// length bytes are).
func Detect(src []byte) Format {
	if bytes.HasPrefix(src, []byte(BytecodeMagic)) {
		return FormatBytecode
	}
	head := bytes.TrimPrefix(src[:min(len(src), 8<<10)], []byte(bom))
	if bytes.IndexByte(head, 0) >= 0 {
		return FormatBinary
	}
	rest := bytes.TrimLeft(head, " \t\r\n")
	if len(rest) > 0 {
		if r, size := utf8.DecodeRune(rest); (rest[0] < 0x20 || rest[0] == 0x7f) || (r == utf8.RuneError && size <= 1) {
			return FormatBinary
		}
	}
	if bytes.HasPrefix(rest, []byte("HloModule")) &&
		(len(rest) == len("HloModule") || rest[len("HloModule")] == ' ' || rest[len("HloModule")] == '\t') {
		return FormatHLO
	}
	return FormatText
}

// CheckInput refuses input that is not MLIR text, with a message that says
// what it is and how to get StableHLO text: XLA's HLO text, MLIR bytecode,
// other binary data, a byte order mark. It returns nil for text, which
// ParseModule then reads.
func CheckInput(name string, src []byte) error {
	at := func(format string, args ...any) error {
		return &Error{File: name, Line: 1, Col: 1, Msg: fmt.Sprintf(format, args...)}
	}
	switch Detect(src) {
	case FormatHLO:
		return at("this is XLA HLO text (HloModule ...), not StableHLO: %s", stablehloHint)
	case FormatBytecode:
		return at("this is MLIR bytecode, not text: %s", stablehloHint)
	case FormatBinary:
		return at("not an MLIR module: the file holds binary data, not text")
	}
	if bytes.HasPrefix(src, []byte(bom)) {
		return at("not an MLIR module: the file starts with a byte order mark (U+FEFF), which MLIR does not accept")
	}
	return nil
}

// ParseModule reads a file that must be a module: MLIR text whose top level
// holds a module op, or the ops of an implicit module (as MLIR accepts a file
// of func.func ops). Anything else is refused with an
// *Error: XLA's HLO text and MLIR bytecode with a hint on how to get the
// text, other data at its first line.
func ParseModule(name string, src []byte) (*Module, error) {
	if err := CheckInput(name, src); err != nil {
		return nil, err
	}
	if err := checkStart(name, src); err != nil {
		return nil, err
	}
	if err := checkChars(name, src); err != nil {
		return nil, err
	}
	m, err := Parse(name, src)
	if err != nil {
		return nil, err
	}
	if err := m.checkTop(); err != nil {
		return nil, err
	}
	if err := m.checkOpNames(); err != nil {
		return nil, err
	}
	return m, nil
}

// checkStart refuses text whose first token cannot start an MLIR file, so
// that "hello world" or a JSON file is named for what it is rather than for
// the first parse error deep inside it.
func checkStart(name string, src []byte) error {
	s := string(src[:min(len(src), 1<<10)])
	i := skipTriviaAt(s, 0)
	at := func(format string, args ...any) error {
		p := PositionOf(src, i)
		return &Error{File: name, Line: p.Line, Col: p.Col, Msg: fmt.Sprintf(format, args...)}
	}
	if len(src) > len(s) && i >= len(s)-1 {
		return nil // a kilobyte of comments: Parse reads on
	}
	if i >= len(s) {
		return nil // MLIR reads a file of nothing but blanks and comments as an empty module
	}
	c := s[i]
	switch {
	case c == '"' || c == '%' || hasPrefixAt(s, i, "{-#"):
		return nil
	case c == '#' || c == '!':
		if j := i + 1; j < len(s) && isIdentChar(s[j]) {
			return nil
		}
	case isIdentStart(c):
		j := i
		for j < len(s) && isIdentChar(s[j]) {
			j++
		}
		if word := s[i:j]; word == "module" || strings.Contains(word, ".") {
			return nil
		}
	}
	return at("not an MLIR module: it starts with %s, where MLIR expects an operation (module, func.func, ...)", startText(s[i:]))
}

// startText quotes the start of s for a message.
func startText(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	line = strings.TrimRight(line, "\r")
	if len(line) > 40 {
		line = line[:40] + "..."
	}
	return fmt.Sprintf("%q", line)
}

// checkTop checks that the module's top level is a module: a module op, or
// the ops of an implicit module (as MLIR reads a file of func.func ops, or of
// none), each a dialect's op (dotted or generic), beside alias definitions
// and resource sections.
func (m *Module) checkTop() error {
	for _, op := range m.Body.Ops {
		switch {
		case op.Name == "":
			continue // alias definition or resource section
		case op.Name != "module" && !op.Generic && !strings.Contains(op.Name, "."):
			return m.Errorf(int(op.Start), "not an MLIR module: %q is no operation at the top level of a module (module, func.func, ...)", op.Name)
		case (op.Name == "module" || op.Name == "builtin.module") && !op.Generic && len(op.Regions) > 0:
			// After its body a module has at most a location.
			r := op.Regions[len(op.Regions)-1]
			tail := blankComments(m.Src[r.End:op.End])
			i := skipTriviaAt(tail, 0)
			if hasPrefixAt(tail, i, "loc(") {
				if j := matching(tail, i+3); j > 0 {
					i = skipTriviaAt(tail, j+1)
				}
			}
			if i < len(tail) {
				at := int(r.End) + i
				return m.Errorf(at, "not an MLIR module: %s after the module's body", startText(m.Src[at:op.End]))
			}
		}
	}
	return nil // no operation at all is an empty module, as MLIR reads it
}

// checkChars refuses a control character outside strings and comments,
// which MLIR's lexer refuses too; left in, one could make a dictionary read
// as a region.
func checkChars(name string, src []byte) error {
	inString := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case inString && c == '\\':
			// MLIR's escapes: \" \\ \n \t and two hex digits.
			switch {
			case i+1 < len(src) && strings.IndexByte(`"\nt`, src[i+1]) >= 0:
				i++
			case i+2 < len(src) && isHexDigit(src[i+1]) && isHexDigit(src[i+2]):
				i += 2
			default:
				p := PositionOf(src, i)
				return &Error{File: name, Line: p.Line, Col: p.Col, Msg: "unknown escape in string literal"}
			}
		case c == '"':
			inString = !inString
		case inString && (c == '\v' || c == '\f'):
			p := PositionOf(src, i)
			return &Error{File: name, Line: p.Line, Col: p.Col, Msg: "expected '\"' in string literal"}
		case c == '\n':
			inString = false // a string ends at its line; the parser reports it
		case !inString && c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case !inString && (c < 0x20 && c != '\t' && c != '\r' || c == 0x7f):
			p := PositionOf(src, i)
			return &Error{File: name, Line: p.Line, Col: p.Col, Msg: fmt.Sprintf("unexpected character 0x%02x", c)}
		case !inString && c == '@' && (i+1 == len(src) || src[i+1] != '"' && !isIdentStart(src[i+1])):
			// MLIR's lexer: '@' starts a symbol name, bare or quoted.
			p := PositionOf(src, i)
			return &Error{File: name, Line: p.Line, Col: p.Col, Msg: "expected a symbol name after '@'"}
		case !inString && c >= utf8.RuneSelf:
			// MLIR's lexer takes only ASCII outside strings and comments.
			r, _ := utf8.DecodeRune(src[i:])
			p := PositionOf(src, i)
			msg := fmt.Sprintf("unexpected character %U outside a string or comment", r)
			if r == utf8.RuneError {
				msg = fmt.Sprintf("unexpected byte 0x%02x (not UTF-8) outside a string or comment", c)
			}
			return &Error{File: name, Line: p.Line, Col: p.Col, Msg: msg}
		}
	}
	return nil
}
