package ir

import "strings"

// SetModuleAttrs adds or replaces attributes of the module op: in its
// "attributes {...}" dictionary, which is created after the module's name
// when missing. values are printed as given. An implicit module (a file of
// func.func ops) is written out as the module op MLIR reads it as, holding
// the attributes (see explicitModule).
func (e *Editor) SetModuleAttrs(names, values []string) error {
	m := e.m
	op := m.ModuleOp()
	if op == nil {
		return e.explicitModule(names, values)
	}
	if op.Generic {
		return e.SetAttrs(op, names, values)
	}
	if len(op.Regions) == 0 {
		return m.Errorf(int(op.Start), "module has no body")
	}
	// The pretty header: "module @name attributes {...} {" up to the region.
	s := m.Src
	hStart, hEnd := int(op.nameEnd), int(op.Regions[0].Start)
	h := blankComments(s[hStart:hEnd])
	open, close := -1, -1
	topLevel(h, func(i int) bool {
		if h[i] == 'a' && strings.HasPrefix(h[i:], "attributes") && (i == 0 || isBlank(h[i-1])) {
			rest := strings.TrimLeft(h[i+len("attributes"):], " \t\r\n")
			if strings.HasPrefix(rest, "{") {
				open = len(h) - len(rest)
				close = matching(h, open)
			}
			return false
		}
		return true
	})
	var add []string
	for i, n := range names {
		if open >= 0 {
			if vs, ve, ok := valueSpanIn(h, open+1, close, n); ok {
				e.add(hStart+vs, hStart+ve, values[i])
				continue
			}
		}
		add = append(add, n+" = "+values[i])
	}
	switch {
	case len(add) == 0:
	case open >= 0:
		e.appendEntries(hStart+open, hStart+close, add)
	default:
		at := hEnd
		for at > hStart && isBlank(s[at-1]) {
			at--
		}
		e.add(at, at, " attributes {"+strings.Join(add, ", ")+"}")
	}
	return nil
}

// valueSpanIn finds the value of entry name in the dictionary text
// s[from:to], as offsets into s.
func valueSpanIn(s string, from, to int, name string) (start, end int, ok bool) {
	inner := s[from:to]
	for _, sp := range splitTopSpans(inner, ',') {
		eq := indexTop(inner[sp.start:sp.end], '=')
		if eq < 0 || strings.Trim(strings.TrimSpace(inner[sp.start:sp.start+eq]), `"`) != name {
			continue
		}
		vs, ve := sp.start+eq+1, sp.end
		for vs < ve && isBlank(inner[vs]) {
			vs++
		}
		for ve > vs && isBlank(inner[ve-1]) {
			ve--
		}
		return from + vs, from + ve, true
	}
	return 0, 0, false
}

// explicitModule writes the implicit module MLIR makes of the file's top
// level as a module op with the attributes: "module attributes {...} {" on a
// line before the first operation, "}" on a line after the last. The body
// keeps its text; alias definitions, which MLIR reads at the top level only,
// move before the module, and resource sections after it.
func (e *Editor) explicitModule(names, values []string) error {
	m := e.m
	var first, last *Op
	for _, op := range m.Body.Ops {
		if op.Name != "" {
			if first == nil {
				first = op
			}
			last = op
		}
	}
	if first == nil {
		return m.Errorf(0, "no operation to record %s on", strings.Join(names, ", "))
	}
	s := m.Src
	nl := m.newline(int(first.Start))
	var before, after strings.Builder
	for _, op := range m.Body.Ops {
		if op.Name != "" || op.Start < first.Start || op.Start > last.Start {
			continue
		}
		text := m.Text(op)
		e.add(int(op.Start), int(op.End), "")
		if strings.HasPrefix(text, "{-#") {
			after.WriteString(nl + text)
		} else {
			before.WriteString(text + nl)
		}
	}
	attrs := make([]string, len(names))
	for i, n := range names {
		attrs[i] = n + " = " + values[i]
		if values[i] == "" {
			attrs[i] = n
		}
	}
	open := int(first.Start)
	if ls := strings.LastIndexByte(s[:open], '\n') + 1; strings.TrimLeft(s[ls:open], " \t") == "" {
		open = ls
	}
	close := int(last.End)
	if eol := lineEnd(s, close); strings.TrimLeft(s[close:eol], " \t") == "" || strings.HasPrefix(strings.TrimLeft(s[close:eol], " \t"), "//") {
		close = eol
	}
	e.add(open, open, before.String()+"module attributes {"+strings.Join(attrs, ", ")+"} {"+nl)
	e.add(close, close, nl+"}"+after.String())
	return nil
}
