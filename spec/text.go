package spec

import "strings"

// closing returns the index of the bracket that closes s[i] (one of "([{<"),
// or -1. Strings are skipped, and the '>' of an arrow "->" closes nothing.
func closing(s string, i int) int {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '"':
			k := skipString(s, j)
			if k < 0 {
				return -1
			}
			j = k - 1
		case '(', '[', '{', '<':
			depth++
		case '>':
			if j > 0 && s[j-1] == '-' {
				continue
			}
			fallthrough
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// skipString returns the index just after the string literal that starts at
// s[i], or -1 when it is not closed.
func skipString(s string, i int) int {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// splitTop splits s at the occurrences of sep outside brackets and strings,
// trimming blanks; "" gives no parts.
func splitTop(s string, sep byte) []string {
	var parts []string
	depth, last := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			k := skipString(s, i)
			if k < 0 {
				i = len(s)
				continue
			}
			i = k - 1
		case c == '(' || c == '[' || c == '{' || c == '<':
			depth++
		case c == '>' && i > 0 && s[i-1] == '-':
		case c == ')' || c == ']' || c == '}' || c == '>':
			depth--
		case c == sep && depth == 0:
			parts = append(parts, strings.TrimSpace(s[last:i]))
			last = i + 1
		}
	}
	parts = append(parts, strings.TrimSpace(s[last:]))
	if len(parts) == 1 && parts[0] == "" {
		return nil
	}
	return parts
}

// stripLoc drops a trailing location, "loc(...)", from a type or argument.
func stripLoc(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndex(s, " loc("); i >= 0 && closing(s, i+4) == len(s)-1 {
		return strings.TrimSpace(s[:i])
	}
	return s
}
