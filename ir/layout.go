package ir

import (
	"fmt"
	"strings"
)

// Layout locates the parts of a generic op in Module.Src, for passes that
// rewrite one part and keep the rest. Offsets are absolute; -1 when absent.
type Layout struct {
	OperandsOpen, OperandsClose int // '(' and ')' around the operands
	PropsOpen, PropsClose       int // '<' of "<{" and '>' of "}>"
	DictOpen, DictClose         int // '{' and '}' of the attribute dictionary
	TypeColon                   int // the ':' before the function type
	TypeEnd                     int // end of the function type (before any loc)
}

// walkOwn calls fn for each byte of the op's own text (not inside regions or
// strings), with the bracket depth before that byte. A region counts as a
// balanced hole.
func (m *Module) walkOwn(op *Op, fn func(off int, depth int) bool) {
	s := m.Src
	depth := 0
	for _, sp := range ownSpans(op) {
		for i := sp.start; i < sp.end; i++ {
			if s[i] == '/' && i+1 < sp.end && s[i+1] == '/' {
				for i < sp.end && s[i] != '\n' {
					i++
				}
				continue
			}
			if !fn(i, depth) {
				return
			}
			if s[i] == '"' {
				j := skipStringAt(s, i)
				if j < 0 || j > sp.end {
					return
				}
				i = j - 1
				continue
			}
			depth += bracketStep(s, i)
		}
	}
}

// Layout finds the parts of a generic op. It fails for pretty-form ops.
func (m *Module) Layout(op *Op) (Layout, error) {
	l := Layout{-1, -1, -1, -1, -1, -1, -1, -1}
	if !op.Generic {
		return l, m.Errorf(int(op.Start), "%s is not in generic form", op.Name)
	}
	s := m.Src
	open := -1 // the depth-0 bracket now open: brackets at depth 0 never nest
	m.walkOwn(op, func(i, depth int) bool {
		c, step := s[i], bracketStep(s, i)
		switch {
		case depth == 0 && c == ':':
			l.TypeColon = i
		case depth == 0 && step > 0:
			open = i
			switch {
			case l.TypeColon >= 0:
			case c == '(' && l.OperandsOpen < 0:
				l.OperandsOpen = i
			case c == '<' && i+1 < len(s) && s[i+1] == '{':
				l.PropsOpen = i
			case c == '{':
				l.DictOpen = i
			}
		case depth == 1 && step < 0:
			switch open {
			case l.OperandsOpen:
				l.OperandsClose = i
			case l.PropsOpen:
				l.PropsClose = i
			case l.DictOpen:
				l.DictClose = i
			}
		}
		return true
	})
	if l.TypeColon < 0 {
		return l, m.Errorf(int(op.Start), "%s has no type signature", op.Name)
	}
	rest := s[l.TypeColon+1 : op.End]
	typ := stripLoc(rest)
	l.TypeEnd = l.TypeColon + 1 + strings.Index(rest, typ) + len(typ)
	return l, nil
}

// AttrValueSpan returns the absolute span of the value of a named attribute in
// a generic op's properties or dictionary.
func (m *Module) AttrValueSpan(op *Op, name string) (start, end int, ok bool) {
	l, err := m.Layout(op)
	if err != nil {
		return 0, 0, false
	}
	return m.attrValueSpan(l, name)
}

// attrValueSpan is AttrValueSpan in an op whose layout is l.
func (m *Module) attrValueSpan(l Layout, name string) (start, end int, ok bool) {
	sp, ok := m.attrValueSpans(l)[name]
	return sp.start, sp.end, ok
}

// attrValueSpans maps each attribute of the properties and the dictionary
// of an op whose layout is l to the absolute span of its value (the first
// entry of a name, properties first).
func (m *Module) attrValueSpans(l Layout) map[string]span {
	out := map[string]span{}
	for _, d := range [][2]int{{l.PropsOpen + 2, l.PropsClose - 1}, {l.DictOpen + 1, l.DictClose}} {
		if d[0] < 1 || d[1] < d[0] {
			continue
		}
		inner := blankComments(m.Src[d[0]:d[1]])
		for _, e := range splitTopSpans(inner, ',') {
			eq := indexTop(inner[e.start:e.end], '=')
			if eq < 0 {
				continue
			}
			name := attrName(strings.TrimSpace(inner[e.start : e.start+eq]))
			if _, seen := out[name]; seen {
				continue
			}
			eq += e.start
			vs, ve := eq+1, e.end
			for vs < ve && isBlank(inner[vs]) {
				vs++
			}
			for ve > vs && isBlank(inner[ve-1]) {
				ve--
			}
			out[name] = span{d[0] + vs, d[0] + ve}
		}
	}
	return out
}

// SetAttrs adds or replaces attributes of a generic op. values are printed
// as given; an empty value is a unit attribute (printed as its name alone).
// A new attribute whose name has no dialect prefix is inherent: it goes
// into the op's properties "<{...}>" when the op keeps its attributes
// there, as MLIR reads them only from there. Discardable ones ("arc.x") go
// into the attribute dictionary, which is created when missing.
func (e *Editor) SetAttrs(op *Op, names []string, values []string) error {
	l, err := e.m.Layout(op)
	if err != nil {
		return err
	}
	return e.setAttrs(op, l, names, values)
}

// setAttrs is SetAttrs on an op whose layout is l.
func (e *Editor) setAttrs(op *Op, l Layout, names []string, values []string) error {
	m := e.m
	entry := func(i int) string {
		if values[i] == "" {
			return names[i]
		}
		return names[i] + " = " + values[i]
	}
	present := map[string]bool{}
	for _, a := range m.Attrs(op) {
		present[a.Name] = true
	}
	var props, dict []string
	spans := m.attrValueSpans(l)
	for i, n := range names {
		if present[n] && values[i] == "" {
			continue // a unit attribute is there or set to a value: leave it
		}
		if sp, ok := spans[n]; ok {
			if values[i] == "" { // "name = true" is how some printers spell a unit attribute
				values[i] = "unit"
			}
			e.add(sp.start, sp.end, values[i])
			continue
		}
		if l.PropsOpen >= 0 && !strings.Contains(n, ".") {
			props = append(props, entry(i))
		} else {
			dict = append(dict, entry(i))
		}
	}
	if len(props) > 0 {
		e.appendEntries(l.PropsOpen+1, l.PropsClose-1, props)
	}
	if len(dict) == 0 {
		return nil
	}
	if l.DictOpen >= 0 {
		e.appendEntries(l.DictOpen, l.DictClose, dict)
		return nil
	}
	at := l.TypeColon
	for at > 0 && m.Src[at-1] == ' ' {
		at--
	}
	e.add(at, at, " {"+strings.Join(dict, ", ")+"}")
	return nil
}

// GenericWith prints a generic op (without its results) keeping only the
// operands at the given positions, with the matching operand and result types,
// each operand name passed through rename (nil keeps them). It serves ops
// whose results mirror their operands, such as all_reduce.
func (m *Module) GenericWith(op *Op, keep []int, rename func(string) string) (string, error) {
	l, err := m.Layout(op)
	if err != nil {
		return "", err
	}
	if l.OperandsOpen < 0 || l.OperandsClose < 0 {
		return "", m.Errorf(int(op.Start), "%s: no operand list", op.Name)
	}
	operands := m.Operands(op)
	ins, outs, ok := m.FuncType(op)
	if !ok || len(ins) != len(operands) || len(outs) != len(operands) {
		return "", m.Errorf(int(op.Start), "%s: types do not mirror operands", op.Name)
	}
	var kOps, kIns, kOuts []string
	for _, k := range keep {
		if k < 0 || k >= len(operands) {
			return "", fmt.Errorf("operand %d out of range", k)
		}
		name := operands[k]
		if rename != nil {
			name = rename(name)
		}
		kOps, kIns, kOuts = append(kOps, name), append(kIns, ins[k]), append(kOuts, outs[k])
	}
	outType := strings.Join(kOuts, ", ")
	if len(kOuts) != 1 {
		outType = "(" + outType + ")"
	}
	s := m.Src
	var b strings.Builder
	b.WriteString(s[int(op.nameEnd)-len(op.Name)-2 : l.OperandsOpen+1]) // the quoted name
	b.WriteString(strings.Join(kOps, ", "))
	b.WriteString(s[l.OperandsClose : l.TypeColon+1])
	b.WriteString(" (" + strings.Join(kIns, ", ") + ") -> " + outType)
	b.WriteString(s[l.TypeEnd:op.End])
	return b.String(), nil
}
