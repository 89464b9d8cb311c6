package ir

// ValueKind says what an occurrence of an SSA value name does.
type ValueKind int

const (
	Use    ValueKind = iota // the op reads the value
	Result                  // the op defines it as a result
	Arg                     // the op or a block label defines it as a region argument
)

// ValueRef is one occurrence of an SSA value name in the source.
type ValueRef struct {
	Name  string // "%x", without any "#k"
	Index int    // k of "%x#k", or -1
	Count int    // results defined by "%x:N" (1 otherwise)
	Kind  ValueKind
	Off   int // offset of '%' in Module.Src
}

// Values calls fn for every value name the op itself mentions (not those
// inside its regions): its results, the region arguments its header declares
// ("%arg0: tensor<f32>", "%iterArg = %init") and its uses.
func (m *Module) Values(op *Op, fn func(ValueRef)) {
	scanValues(m.Src, int(op.Start), int(op.resEnd), true, fn)
	var v valueScanner
	for _, sp := range ownSpans(op) {
		v.scan(m.Src, sp.start, sp.end, fn)
	}
}

// LabelArgs calls fn for the arguments a block label declares.
func (m *Module) LabelArgs(b *Block, fn func(ValueRef)) {
	if b.LabelStart >= 0 {
		scanValues(m.Src, int(b.LabelStart), int(b.LabelEnd), false, fn)
	}
}

// scanValues finds "%name" tokens in s[start:end], skipping strings and
// comments: results when results is set, else uses and arguments.
func scanValues(s string, start, end int, results bool, fn func(ValueRef)) {
	if results {
		for i := start; i < end; i++ {
			if s[i] != '%' {
				continue
			}
			j := i + 1
			for j < end && isIdentChar(s[j]) {
				j++
			}
			if j == i+1 {
				continue
			}
			v := ValueRef{Name: s[i:j], Index: -1, Count: 1, Off: i, Kind: Result}
			if k := skipBlanksIn(s, j, end); k < end && s[k] == ':' {
				if n, next := readInt(s, skipBlanksIn(s, k+1, end), end); next > k+1 && isDigit(s[next-1]) {
					v.Count, j = n, next
				}
			}
			fn(v)
			i = j - 1
		}
		return
	}
	var v valueScanner
	v.scan(s, start, end, fn)
}

// valueScanner finds the uses and argument declarations of an op's text,
// which may come in pieces (the spans between its regions): it keeps the
// brackets open across them.
type valueScanner struct {
	// stack holds the open brackets: an argument "%a : type" is declared
	// in parentheses (a signature, a block label, reducer(...)), where
	// "%a : type" at the op's own level is a use and its type.
	stack []byte
	buf   [16]byte
}

func (v *valueScanner) scan(s string, start, end int, fn func(ValueRef)) {
	if v.stack == nil {
		v.stack = v.buf[:0]
	}
	for i := start; i < end; i++ {
		switch c := s[i]; c {
		case '"':
			j := skipStringAt(s, i)
			if j < 0 || j > end {
				return
			}
			i = j - 1
		case '/':
			if i+1 < end && s[i+1] == '/' {
				for i < end && s[i] != '\n' {
					i++
				}
			}
		case '(', '[', '{', '<':
			v.stack = append(v.stack, c)
		case '>':
			if i > 0 && s[i-1] == '-' {
				break
			}
			fallthrough
		case ')', ']', '}':
			if len(v.stack) > 0 {
				v.stack = v.stack[:len(v.stack)-1]
			}
		case '%':
			j := i + 1
			for j < end && isIdentChar(s[j]) {
				j++
			}
			if j == i+1 {
				// A '%' that starts no name ("%{}", "% x"): a use of nothing,
				// which the verifier reports, as MLIR refuses the text.
				fn(ValueRef{Name: "%", Index: -1, Count: 1, Off: i, Kind: Use})
				continue
			}
			r := ValueRef{Name: s[i:j], Index: -1, Count: 1, Off: i}
			k := skipBlanksIn(s, j, end)
			switch {
			case j < end && s[j] == '#':
				n, next := readInt(s, j+1, end)
				if next > j+1 {
					r.Index, j = n, next
				}
			case k < end && s[k] == ':' && len(v.stack) > 0 && v.stack[len(v.stack)-1] == '(':
				r.Kind = Arg // "%arg0: type", "%arg0 : type"
			case k < end && s[k] == '=' && (k+1 >= end || s[k+1] != '='):
				r.Kind = Arg // "%iterArg = %init" in a pretty while
			}
			fn(r)
			i = j - 1
		}
	}
}

// skipBlanksIn returns the first offset at or after i, before end, that is
// not whitespace or a comment.
func skipBlanksIn(s string, i, end int) int {
	return min(skipTriviaAt(s[:end], i), end)
}

func readInt(s string, i, end int) (n, next int) {
	for next = i; next < end && isDigit(s[next]); next++ {
		n = n*10 + int(s[next]-'0')
		if n > 1<<30 {
			return n, next
		}
	}
	return n, next
}
