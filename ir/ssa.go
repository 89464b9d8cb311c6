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
	for _, sp := range ownSpans(op) {
		scanValues(m.Src, sp.start, sp.end, false, fn)
	}
}

// LabelArgs calls fn for the arguments a block label declares.
func (m *Module) LabelArgs(b *Block, fn func(ValueRef)) {
	if b.LabelStart >= 0 {
		scanValues(m.Src, int(b.LabelStart), int(b.LabelEnd), false, fn)
	}
}

// scanValues finds "%name" tokens in s[start:end], skipping strings and comments.
func scanValues(s string, start, end int, results bool, fn func(ValueRef)) {
	for i := start; i < end; i++ {
		switch s[i] {
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
		case '%':
			j := i + 1
			for j < end && isIdentChar(s[j]) {
				j++
			}
			if j == i+1 {
				continue
			}
			v := ValueRef{Name: s[i:j], Index: -1, Count: 1, Off: i}
			switch {
			case results:
				v.Kind = Result
				if j < end && s[j] == ':' {
					n, k := readInt(s, j+1, end)
					if k > j+1 {
						v.Count, j = n, k
					}
				}
			case j < end && s[j] == '#':
				n, k := readInt(s, j+1, end)
				if k > j+1 {
					v.Index, j = n, k
				}
			case j < end && s[j] == ':':
				v.Kind = Arg // "%arg0: type"
			default:
				k := j
				for k < end && (s[k] == ' ' || s[k] == '\t') {
					k++
				}
				if k < end && s[k] == '=' && (k+1 >= end || s[k+1] != '=') {
					v.Kind = Arg // "%iterArg = %init" in a pretty while
				}
			}
			fn(v)
			i = j - 1
		}
	}
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
