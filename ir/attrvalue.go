package ir

import (
	"fmt"
	"strings"
)

// Reading attribute values as the ir views print them ("[1, 2]", "\"s\"",
// "2.5 : f64"). Passes that keep their state in discardable attributes
// (arc.*) read them back with these.

// SplitArray returns the top-level elements of an array attribute "[a, b]";
// ok is false when v is not one. "[]" has no elements.
func SplitArray(v string) (elems []string, ok bool) {
	v = strings.TrimSpace(v)
	if !strings.HasPrefix(v, "[") || matching(v, 0) != len(v)-1 {
		return nil, false
	}
	return splitTop(v[1:len(v)-1], ','), true
}

// Unquote returns the contents of a string attribute, or s when it is not
// quoted.
func Unquote(s string) string { return unquote(s) }

// StripType drops a trailing ": type" from a value ("2 : i64" -> "2").
func StripType(s string) string { return stripType(strings.TrimSpace(s)) }

// IntAttr reads an integer attribute, "4", "4 : i32", "0x4 : i32" or
// "-1 : i64", as the value MLIR's IntegerAttr holds: its bits, sign-extended
// (zero-extended for unsigned types). ok is false for anything else, an
// integer out of its type's range too.
func IntAttr(v string) (n int64, ok bool) {
	v = strings.TrimSpace(v)
	digits, neg := strings.CutPrefix(v, "-")
	digits = strings.TrimLeft(digits, " \t\r\n")
	if digits == "" || !isDigit(digits[0]) {
		return 0, false
	}
	end, float := numberEnd(digits, 0)
	t := numType{'i', 64}
	if rest := strings.TrimSpace(digits[end:]); rest != "" {
		typ, isTyped := strings.CutPrefix(rest, ":")
		t = numTypeOf(typ)
		if !isTyped || !t.isInt() {
			return 0, false
		}
	}
	tok := digits[:end]
	if float || t.width > 64 || neg && t.kind == 'u' || !intFits(tok, neg, t) {
		return 0, false
	}
	return intBits(tok, neg, t), true
}

// DenseInts reads a dense integer attribute of rank 1 or 2 as rows
// ("dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>"). A splat expands to at most
// 65536 + len(v) elements.
func DenseInts(v string) ([][]int64, error) {
	return parseDenseInts(strings.TrimSpace(v), budgetFor("value", len(v)))
}

// SplitDict returns the entries of a dictionary attribute "{a = 1, b}";
// ok is false when v is not one.
func SplitDict(v string) (entries []Attr, ok bool) {
	v = strings.TrimSpace(v)
	if !strings.HasPrefix(v, "{") || matching(v, 0) != len(v)-1 {
		return nil, false
	}
	return parseDict(v[1 : len(v)-1]), true
}

// IntArray reads a dense array attribute "array<i64: 1, 2>" (the form arc's
// custom call carries its groups in).
func IntArray(v string) ([]int64, error) { return parseIntList(strings.TrimSpace(v)) }

// parseDenseInts reads an integer dense attribute of rank 1 or 2 (a splat,
// hex data) as rows of its last dimension, a splat expanded within b.
func parseDenseInts(s string, b *budget) ([][]int64, error) {
	d, err := ParseDense(strings.TrimSpace(s))
	if err != nil {
		return nil, err
	}
	t := d.Type
	n := t.Elems()
	if n < 0 || len(t.Shape) > 2 {
		return nil, fmt.Errorf("expected a static tensor of rank 1 or 2, found %s", t)
	}
	if d.Ints == nil && n > 0 {
		return nil, fmt.Errorf("expected integer elements of at most 64 bits, found %s", t.Elem)
	}
	if err := b.take(n); err != nil {
		return nil, err
	}
	flat := d.Ints
	if d.Splat && n != 1 {
		flat = make([]int64, n)
		for i := range flat {
			flat[i] = d.Ints[0]
		}
	}
	cols := n
	if len(t.Shape) == 2 {
		cols = t.Shape[1]
	}
	var rows [][]int64
	for i := int64(0); cols > 0 && i < n; i += cols {
		rows = append(rows, flat[i:i+cols])
	}
	return rows, nil
}
