package ir

import "strings"

// SetModuleAttrs adds or replaces attributes of the module op: in its
// "attributes {...}" dictionary, which is created after the module's name
// when missing. values are printed as given.
func (e *Editor) SetModuleAttrs(names, values []string) error {
	m := e.m
	op := m.ModuleOp()
	if op == nil {
		return m.Errorf(0, "no module op to record %s on", strings.Join(names, ", "))
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
