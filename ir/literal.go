package ir

import (
	"math/big"
	"math/bits"
	"strconv"
	"strings"
)

// Numeric literals as MLIR's lexer and parser read them
// (mlir/lib/AsmParser/Lexer.cpp, AttributeParser.cpp).

// numType is a builtin type that MLIR checks a numeric literal against: a
// signless ('i'), signed ('s') or unsigned ('u') integer type, index ('x')
// or a float type ('f'); kind 0 is any other type.
type numType struct {
	kind  byte
	width int // bits: of the integer, 64 for index, of the float's encoding
}

// floatWidths are the sizes of the float types' encodings, in bits
// (APFloat::semanticsSizeInBits).
var floatWidths = map[string]int{
	"f16": 16, "bf16": 16, "tf32": 19, "f32": 32, "f64": 64, "f80": 80, "f128": 128,
	"f8E5M2": 8, "f8E4M3": 8, "f8E4M3FN": 8, "f8E5M2FNUZ": 8, "f8E4M3FNUZ": 8,
	"f8E4M3B11FNUZ": 8, "f8E3M4": 8, "f8E8M0FNU": 8,
	"f6E2M3FN": 6, "f6E3M2FN": 6, "f4E2M1FN": 4,
}

// numTypeOf classifies a type's text.
func numTypeOf(t string) numType {
	t = strings.TrimSpace(t)
	if t == "index" {
		return numType{'x', 64}
	}
	if w, ok := floatWidths[t]; ok {
		return numType{'f', w}
	}
	kind, digits := byte('i'), ""
	switch {
	case strings.HasPrefix(t, "si"):
		kind, digits = 's', t[2:]
	case strings.HasPrefix(t, "ui"):
		kind, digits = 'u', t[2:]
	case strings.HasPrefix(t, "i"):
		digits = t[1:]
	}
	// MLIR's integer types have at most 2^24-1 bits.
	if digits == "" || len(digits) > 8 || strings.Trim(digits, "0123456789") != "" {
		return numType{}
	}
	w, _ := strconv.Atoi(digits)
	if w >= 1<<24 {
		return numType{}
	}
	return numType{kind, w}
}

// isInt reports whether t is an integer or index type.
func (t numType) isInt() bool {
	return t.kind == 'i' || t.kind == 's' || t.kind == 'u' || t.kind == 'x'
}

// numberEnd returns the end of the number token at s[i] (a digit) and
// whether it is a float literal. An integer is decimal digits or "0x" and
// hex digits ("0X1" is the integer 0 and the word X1, "0x" the integer 0
// and the word x); a float has a '.' after its digits and maybe an exponent.
func numberEnd(s string, i int) (end int, float bool) {
	if s[i] == '0' && i+2 < len(s) && s[i+1] == 'x' && isHexDigit(s[i+2]) {
		j := i + 2
		for j < len(s) && isHexDigit(s[j]) {
			j++
		}
		return j, false
	}
	j := i
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	if j >= len(s) || s[j] != '.' {
		return j, false
	}
	j++
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
		if k := j + 1; k < len(s) && isDigit(s[k]) {
			j = k
		} else if k+1 < len(s) && (s[k] == '+' || s[k] == '-') && isDigit(s[k+1]) {
			j = k + 1
		}
		for j < len(s) && isDigit(s[j]) {
			j++
		}
	}
	return j, true
}

func isHexDigit(c byte) bool { return isDigit(c) || 'a' <= c|0x20 && c|0x20 <= 'f' }

func isHexLiteral(tok string) bool { return len(tok) > 1 && tok[1] == 'x' }

// magnitude is an integer literal's value: its bit length, whether it is a
// power of two, and its low 64 bits.
type magnitude struct {
	bits  int
	pow2  bool
	low64 uint64
}

// magnitudeOf reads an integer token (decimal or 0x hex).
func magnitudeOf(tok string) magnitude {
	if isHexLiteral(tok) {
		h := strings.TrimLeft(tok[2:], "0")
		if h == "" {
			return magnitude{}
		}
		d, _ := strconv.ParseUint(h[:1], 16, 8)
		low, _ := strconv.ParseUint(h[max(0, len(h)-16):], 16, 64)
		return magnitude{
			bits:  4*(len(h)-1) + bits.Len64(d),
			pow2:  d&(d-1) == 0 && strings.Trim(h[1:], "0") == "",
			low64: low,
		}
	}
	d := strings.TrimLeft(tok, "0")
	if len(d) <= 19 {
		u, _ := strconv.ParseUint("0"+d, 10, 64)
		return magnitude{bits: bits.Len64(u), pow2: u != 0 && u&(u-1) == 0, low64: u}
	}
	var n big.Int
	n.SetString(d, 10)
	b := n.BitLen()
	return magnitude{bits: b, pow2: int(n.TrailingZeroBits()) == b-1, low64: n.Uint64()}
}

// intFits is MLIR's buildAttributeAPInt: whether the integer token, negated
// when neg, is a value of the integer or index type t. Positive values of
// signless types may use the sign bit (255 is an i8), those of signed types
// and index may not; a negative one must be at least -2^(width-1), and -0 is
// no value at all.
func intFits(tok string, neg bool, t numType) bool {
	m := magnitudeOf(tok)
	w := t.width
	switch {
	case w == 0:
		return !neg && m.bits == 0
	case m.bits > w:
		return false
	case neg:
		return m.bits > 0 && (m.bits < w || m.pow2)
	case t.kind == 's' || t.kind == 'x':
		return m.bits < w
	}
	return true
}

// intBits is the value of an integer token that intFits t, t at most 64 bits
// wide, as an int64: its two's complement bits, extended as extend does.
func intBits(tok string, neg bool, t numType) int64 {
	u := magnitudeOf(tok).low64
	if neg {
		u = -u
	}
	return extend(u, t)
}

// extend takes the low bits of u that the integer type t holds, sign-
// extended (zero-extended for unsigned types and for i1, a boolean).
func extend(u uint64, t numType) int64 {
	if w := uint(t.width); w < 64 {
		u &= 1<<w - 1
		if t.kind != 'u' && w > 1 && u>>(w-1)&1 == 1 {
			u |= ^uint64(0) << w
		}
	}
	return int64(u)
}

// floatFromInt is MLIR's parseFloatFromIntegerLiteral: an integer literal
// is a float's bit pattern, in hex, not negated, no wider than the type. It
// returns the message MLIR gives, or "".
func floatFromInt(tok string, neg bool, t numType) string {
	switch {
	case !isHexLiteral(tok):
		return "unexpected decimal integer literal for a floating point value"
	case neg:
		return "hexadecimal float literal should not have a leading minus"
	case magnitudeOf(tok).bits > t.width:
		return "hexadecimal float constant out of range for type"
	}
	return ""
}

// wrongTokenAt is where MLIR reports a token at i that it did not expect
// (Parser::emitWrongTokenError): at the token, unless only blanks come
// before it on its line; then at the end of the last line before it that
// holds more than blanks and a comment.
func wrongTokenAt(s string, i int) int {
	j := i
	for {
		for j > 0 && (s[j-1] == ' ' || s[j-1] == '\t') {
			j--
		}
		if j == 0 {
			return i
		}
		if s[j-1] != '\n' && s[j-1] != '\r' {
			return j
		}
		j--
		// Like MLIR, take any "//" on that line for a comment's start.
		line := strings.LastIndexAny(s[:j], "\n\r") + 1
		if c := strings.Index(s[line:j], "//"); c >= 0 {
			j = line + c
		}
	}
}
