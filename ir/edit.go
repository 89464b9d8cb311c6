package ir

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Editor collects changes to a module's text. Nothing changes until Apply,
// which returns a new module parsed from the edited text; the old one stays
// valid. Edits never overlap: a second edit of the same text is an error.
type Editor struct {
	m     *Module
	edits []edit
	names map[string]bool // value names in use, for FreshName
	next  map[string]int  // FreshName's next index to try, by prefix
	// scopes indexes, per scope RenameUses was asked about, the names it
	// mentions and its uses, read once however many values are renamed.
	scopes map[*Region]*scopeIndex
	err    error
}

// scopeIndex is what RenameUses reads of a scope (a region and all it
// nests, or the top level): every name it mentions, and each use with the
// op whose own text holds it.
type scopeIndex struct {
	names map[string]bool
	uses  map[string][]scopeUse
}

type scopeUse struct {
	v  ValueRef
	op *Op
}

// scope returns the index of the scope that holds def: the region of its
// block, or the module's top level (nil).
func (e *Editor) scope(def *Op) *scopeIndex {
	var region *Region
	if def.Parent != nil {
		region = def.Parent.Parent
	}
	if idx := e.scopes[region]; idx != nil {
		return idx
	}
	ops := e.m.Body.Ops
	if region != nil {
		ops = nil
		for _, b := range region.Blocks {
			ops = append(ops, b.Ops...)
		}
	}
	idx := &scopeIndex{names: map[string]bool{}, uses: map[string][]scopeUse{}}
	var visit func(op *Op)
	visit = func(op *Op) {
		e.m.Values(op, func(v ValueRef) {
			idx.names[v.Name] = true
			if v.Kind == Use {
				idx.uses[v.Name] = append(idx.uses[v.Name], scopeUse{v, op})
			}
		})
		for _, r := range op.Regions {
			for _, b := range r.Blocks {
				e.m.LabelArgs(b, func(v ValueRef) { idx.names[v.Name] = true })
				for _, o := range b.Ops {
					visit(o)
				}
			}
		}
	}
	for _, op := range ops {
		visit(op)
	}
	if e.scopes == nil {
		e.scopes = map[*Region]*scopeIndex{}
	}
	e.scopes[region] = idx
	return idx
}

type edit struct {
	start, end int
	text       string
	seq        int
}

// Edit starts a set of changes to m.
func (m *Module) Edit() *Editor { return &Editor{m: m} }

func (e *Editor) add(start, end int, text string) {
	e.edits = append(e.edits, edit{start, end, text, len(e.edits)})
}

// Replace replaces the whole text of op (its results included) with text, as
// it is.
func (e *Editor) Replace(op *Op, text string) {
	e.add(int(op.Start), int(op.End), text)
}

// ReplaceSpan replaces Src[start:end] with text, as it is.
func (e *Editor) ReplaceSpan(start, end int, text string) {
	e.add(start, end, text)
}

// InsertBefore puts text (one or more ops) on lines of its own before op, at
// op's indentation. Its line breaks follow the file's ("\n" or "\r\n").
func (e *Editor) InsertBefore(op *Op, text string) {
	at := int(op.Start)
	nl, ind := e.m.newline(at), e.m.indent(at)
	e.add(at, at, indentLines(text, nl, ind)+nl+ind)
}

// InsertAfter puts text on lines of its own after op, at op's indentation,
// and after the comment that ends op's line, if any.
func (e *Editor) InsertAfter(op *Op, text string) {
	at := int(op.End)
	nl, ind := e.m.newline(at), e.m.indent(int(op.Start))
	if eol := lineEnd(e.m.Src, at); strings.HasPrefix(strings.TrimLeft(e.m.Src[at:eol], " \t"), "//") {
		at = eol
	}
	e.add(at, at, nl+ind+indentLines(text, nl, ind))
}

// indent returns the blanks between the start of off's line and off.
func (m *Module) indent(off int) string {
	ls := strings.LastIndexByte(m.Src[:off], '\n') + 1
	i := ls
	for i < off && (m.Src[i] == ' ' || m.Src[i] == '\t') {
		i++
	}
	return m.Src[ls:i]
}

// Indent is the indentation of the line op starts on.
func (m *Module) Indent(op *Op) string { return m.indent(int(op.Start)) }

// lineEnd returns the offset of the line break ("\n" or "\r\n") that ends
// off's line, or len(s).
func lineEnd(s string, off int) int {
	i := strings.IndexByte(s[off:], '\n')
	if i < 0 {
		return len(s)
	}
	if i > 0 && s[off+i-1] == '\r' {
		i--
	}
	return off + i
}

// newline is the line break of off's line: "\r\n" in a file with CRLF line
// endings, "\n" otherwise.
func (m *Module) newline(off int) string {
	if i := lineEnd(m.Src, off); i < len(m.Src) && m.Src[i] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// indentLines puts nl and ind at each line break of text.
func indentLines(text, nl, ind string) string {
	return strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\n", nl+ind)
}

// FreshName returns a value name ("%prefixN") used nowhere in the module nor
// handed out before by this editor.
func (e *Editor) FreshName(prefix string) string {
	if e.names == nil {
		e.names = map[string]bool{}
		scanValues(e.m.Src, 0, len(e.m.Src), false, func(v ValueRef) { e.names[v.Name] = true })
	}
	// Every "%prefixN" below next[prefix] is taken (handed out, or in the
	// module): the search goes on from there, not from 0 each time.
	if e.next == nil {
		e.next = map[string]int{}
	}
	for i := e.next[prefix]; ; i++ {
		n := "%" + prefix + strconv.Itoa(i)
		if !e.names[n] {
			e.names[n] = true
			e.next[prefix] = i + 1
			return n
		}
	}
}

// RenameUses rewrites every use of a value in the region (or top-level block)
// that holds def: uses of "name#index" (index >= 0) become newName; with
// index -1, uses of "name" become newName and "name#k" become "newName#k".
// The definition itself is not touched. It refuses a newName that the scope
// already defines or uses, so a rename never captures another value.
//
// skip, when not nil, names ops whose uses are left alone, because the caller
// replaces their whole text (with the new names) in the same edit.
func (e *Editor) RenameUses(def *Op, name string, index int, newName string, skip func(*Op) bool) {
	base, _, _ := strings.Cut(newName, "#")
	if !strings.HasPrefix(newName, "%") || len(base) < 2 {
		e.fail(fmt.Errorf("rename %s: bad new name %q", name, newName))
		return
	}
	// The scope's names and uses are read once per editor (a module of many
	// split all-reduces renames in one scope many times); the text they
	// come from is the module's, which edits do not change.
	idx := e.scope(def)
	if idx.names[base] {
		e.fail(fmt.Errorf("rename %s: %s is already used in its scope", name, newName))
		return
	}
	var hits []ValueRef
	for _, u := range idx.uses[name] {
		if (skip == nil || !skip(u.op)) && (index < 0 || u.v.Index == index) {
			hits = append(hits, u.v)
		}
	}
	for _, v := range hits {
		end := v.Off + len(v.Name)
		text := newName
		if v.Index >= 0 {
			suffix := "#" + strconv.Itoa(v.Index)
			end += len(suffix)
			if index < 0 {
				text += suffix
			}
		}
		e.add(v.Off, end, text)
	}
}

func (e *Editor) fail(err error) {
	if e.err == nil {
		e.err = err
	}
}

// Changed reports whether any edit was made.
func (e *Editor) Changed() bool { return len(e.edits) > 0 }

// Text returns the edited source.
func (e *Editor) Text() (string, error) {
	if e.err != nil {
		return "", e.err
	}
	edits := append([]edit(nil), e.edits...)
	sort.SliceStable(edits, func(i, j int) bool {
		a, b := edits[i], edits[j]
		if a.start != b.start {
			return a.start < b.start
		}
		if (a.start == a.end) != (b.start == b.end) {
			return a.start == a.end // insertions before a replacement at the same place
		}
		return a.seq < b.seq
	})
	var out strings.Builder
	size := len(e.m.Src)
	for _, ed := range edits {
		size += len(ed.text)
	}
	out.Grow(size)
	at := 0
	for _, ed := range edits {
		if ed.start < at {
			p := e.m.Position(ed.start)
			return "", fmt.Errorf("internal error: overlapping edits at %s", p)
		}
		out.WriteString(e.m.Src[at:ed.start])
		out.WriteString(ed.text)
		at = ed.end
	}
	out.WriteString(e.m.Src[at:])
	return out.String(), nil
}

// Apply returns the edited module. A parse error of the result means a pass
// produced bad text: the error says so and where.
func (e *Editor) Apply() (*Module, error) {
	if !e.Changed() && e.err == nil {
		return e.m, nil
	}
	text, err := e.Text()
	if err != nil {
		return nil, err
	}
	m, err := ParseString(e.m.Name, text)
	if err != nil {
		return nil, fmt.Errorf("internal error: edited module does not parse: %w", err)
	}
	return m, nil
}

// Quote prints s as an MLIR string literal, as MLIR prints one
// (llvm::printEscapedString): printable ASCII but '"' and '\\' as is, '\\'
// as \\, every other byte as \XX.
func Quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\':
			b.WriteString(`\\`)
		case c == '"' || c < 0x20 || c >= 0x7f:
			fmt.Fprintf(&b, "\\%02X", c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// Newline is the line break of the line op starts on, for passes that write
// several lines in its place.
func (m *Module) Newline(op *Op) string { return m.newline(int(op.Start)) }
