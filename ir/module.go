// Package ir is arc's model of StableHLO modules in MLIR text form.
//
// A Module keeps the source text it was parsed from and a tree of the
// operations in it: each Op knows its byte span, its name, its results and its
// regions. Nothing is re-printed from the tree: printing writes the source, so
// text that no pass touched comes back byte-for-byte. Passes change a module by
// collecting edits on spans (see Editor) and parsing the result again, so the
// tree always describes the text exactly.
//
// The parser understands the statement structure of MLIR (operations, results,
// regions, blocks, attribute dictionaries, types, strings, comments and
// locations) in both the generic form that go-xla prints and the pretty form
// that JAX prints; typed views (collectives, meshes, module attributes) read the
// parts arc reasons about.
package ir

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
)

// Module is one parsed MLIR file.
type Module struct {
	Name string // file name, for messages
	Src  string // the text, exactly as given
	Body *Block // top-level statements: module ops, attribute alias definitions

	lineStarts []int // byte offset of each line start, built on demand

	// memo holds what the typed views read of an op, once per module: a
	// module never changes (an edit makes a new one), so each op's
	// attributes, operands and types are read from its text once however
	// many passes and checks ask.
	memo struct {
		sync.Mutex
		attrs    map[*Op][]Attr
		operands map[*Op][]string
		types    map[*Op]funcType
		facts    map[any]any
	}
}

// Fact returns what SetFact recorded on this module for key. A module
// never changes, so what depends on its text alone (a check that passed, a
// whole-module reading) holds for as long as the module lives, and every
// pass that asks shares it.
func (m *Module) Fact(key any) (any, bool) {
	m.memo.Lock()
	defer m.memo.Unlock()
	v, ok := m.memo.facts[key]
	return v, ok
}

// SetFact records v for key on this module (Fact).
func (m *Module) SetFact(key, v any) {
	m.memo.Lock()
	defer m.memo.Unlock()
	if m.memo.facts == nil {
		m.memo.facts = map[any]any{}
	}
	m.memo.facts[key] = v
}

type funcType struct {
	ins, outs []string
	ok        bool
}

// memoized returns what read gives for op, read once per module and kept in
// *cache. The slice comes back with no spare capacity: a caller's append
// copies it.
func memoized[T any](m *Module, cache *map[*Op]T, op *Op, read func(*Op) T) T {
	m.memo.Lock()
	v, ok := (*cache)[op]
	m.memo.Unlock()
	if ok {
		return v
	}
	v = read(op)
	m.memo.Lock()
	if *cache == nil {
		*cache = map[*Op]T{}
	}
	(*cache)[op] = v
	m.memo.Unlock()
	return v
}

func clip[T any](s []T) []T { return s[:len(s):len(s)] }

// Counterparts sets, for each op of m among want's keys, its value to the op
// at the same place in n: a module parsed from an edit of m's text that
// changed no op's place (attributes added, say). It reports false, with
// want partly filled, where n's tree is not m's shape. The walk stops once
// every wanted op is found.
func (m *Module) Counterparts(n *Module, want map[*Op]*Op) bool {
	left := len(want)
	var walk func(a, b *Block) bool
	walk = func(a, b *Block) bool {
		if len(a.Ops) != len(b.Ops) {
			return false
		}
		for i, op := range a.Ops {
			if left == 0 {
				return true
			}
			o := b.Ops[i]
			if op.Name != o.Name || len(op.Regions) != len(o.Regions) {
				return false
			}
			if _, ok := want[op]; ok {
				want[op] = o
				left--
			}
			for r, region := range op.Regions {
				if len(region.Blocks) != len(o.Regions[r].Blocks) {
					return false
				}
				for k, blk := range region.Blocks {
					if !walk(blk, o.Regions[r].Blocks[k]) {
						return false
					}
				}
			}
		}
		return true
	}
	return walk(m.Body, n.Body) && left == 0
}

// Op is one operation (or, at the top level, an attribute alias definition).
type Op struct {
	// Name is the operation name, "stablehlo.all_reduce" or "func.func", without
	// quotes. It is empty for an alias definition ("#loc1 = loc(...)").
	Name string
	// Generic is true for the quoted generic form ("stablehlo.add"(...)).
	Generic bool
	// Start and End delimit the op's text in Module.Src, results included,
	// trailing blanks excluded.
	Start, End int32
	// resEnd is the offset of the '=' after the results (or Start if none);
	// nameEnd the offset just after the op name.
	resEnd, nameEnd int32
	Regions         []*Region
	Parent          *Block
}

// Region is a `{ ... }` holding blocks of ops.
type Region struct {
	Start, End int32 // offsets of '{' and just after '}'
	Blocks     []*Block
	Parent     *Op
}

// Block is a list of ops, optionally introduced by a label ("^bb0(%a: t):").
type Block struct {
	Label      string // "^bb0", or "" for an unlabeled entry block
	LabelStart int32  // offset of the label, or -1
	LabelEnd   int32  // offset just after the label's ':' (or -1)
	Ops        []*Op
	Parent     *Region // nil for the module's top-level block
}

// Text is the op's source text.
func (m *Module) Text(op *Op) string { return m.Src[op.Start:op.End] }

// Print writes the module's text.
func (m *Module) Print(w io.Writer) error {
	_, err := io.WriteString(w, m.Src)
	return err
}

// Pos is a position in the source, 1-based.
type Pos struct{ Line, Col int }

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// Position converts a byte offset into a line and column (column counts bytes).
func (m *Module) Position(off int) Pos {
	if m.lineStarts == nil {
		m.lineStarts = lineStarts(m.Src)
	}
	i := sort.Search(len(m.lineStarts), func(i int) bool { return m.lineStarts[i] > off }) - 1
	if i < 0 {
		i = 0
	}
	return Pos{i + 1, off - m.lineStarts[i] + 1}
}

// PositionOf is Position for text that is no module (a JSON file, say): one
// lookup, nothing cached; off is clamped to the text.
func PositionOf(src []byte, off int) Pos {
	off = min(max(off, 0), len(src))
	return Pos{1 + bytes.Count(src[:off], []byte{'\n'}), off - bytes.LastIndexByte(src[:off], '\n')}
}

func lineStarts(s string) []int {
	starts := make([]int, 1, strings.Count(s, "\n")+1)
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// Errorf makes an Error at a byte offset of the module.
func (m *Module) Errorf(off int, format string, args ...any) *Error {
	p := m.Position(off)
	return &Error{File: m.Name, Line: p.Line, Col: p.Col, Msg: fmt.Sprintf(format, args...)}
}

// Error is a problem in the input, with the position it was found at.
type Error struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *Error) Error() string {
	name := e.File
	if name == "" {
		name = "<input>"
	}
	return fmt.Sprintf("%s:%d:%d: %s", name, e.Line, e.Col, e.Msg)
}

// Walk calls fn for every op of the module in source order, parents before
// their nested ops. It stops early when fn returns false.
func (m *Module) Walk(fn func(*Op) bool) {
	walkBlock(m.Body, fn)
}

func walkBlock(b *Block, fn func(*Op) bool) bool {
	for _, op := range b.Ops {
		if !fn(op) {
			return false
		}
		for _, r := range op.Regions {
			for _, rb := range r.Blocks {
				if !walkBlock(rb, fn) {
					return false
				}
			}
		}
	}
	return true
}

// ParentOp is the op whose region holds op, or nil at the top level.
func (op *Op) ParentOp() *Op {
	if op.Parent == nil || op.Parent.Parent == nil {
		return nil
	}
	return op.Parent.Parent.Parent
}
