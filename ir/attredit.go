package ir

import (
	"slices"
	"strings"
)

// ReplaceAttrs sets attributes of a generic op as SetAttrs does, after
// dropping the discardable attributes named in drop that the new set does
// not name: a pass that rewrites its own record of an op (arc's decisions)
// leaves none of the old entries behind. When something is dropped the
// attribute dictionary is printed again, its other entries as they were,
// joined by ", "; otherwise the text changes as with SetAttrs.
func (e *Editor) ReplaceAttrs(op *Op, drop, names, values []string) error {
	m := e.m
	l, err := m.Layout(op)
	if err != nil {
		return err
	}
	if l.DictOpen < 0 {
		return e.setAttrs(op, l, names, values)
	}
	inner := m.Src[l.DictOpen+1 : l.DictClose]
	var kept []string
	dropped := false
	for _, sp := range splitTopSpans(blankComments(inner), ',') {
		entry := strings.TrimSpace(inner[sp.start:sp.end])
		if entry == "" {
			continue
		}
		name := entry
		if eq := indexTop(entry, '='); eq >= 0 {
			name = strings.TrimSpace(entry[:eq])
		}
		name = attrName(name)
		if slices.Contains(drop, name) && !slices.Contains(names, name) {
			dropped = true
			continue
		}
		kept = append(kept, entry)
	}
	if !dropped {
		return e.setAttrs(op, l, names, values)
	}
	// The dictionary without the dropped entries, then SetAttrs' placement
	// of the rest: print the new dictionary whole.
	present := map[string]int{}
	for i, entry := range kept {
		name := entry
		if eq := indexTop(entry, '='); eq >= 0 {
			name = strings.TrimSpace(entry[:eq])
		}
		present[attrName(name)] = i
	}
	var props []string
	for i, n := range names {
		text := n
		if values[i] != "" {
			text += " = " + values[i]
		}
		if k, ok := present[n]; ok {
			kept[k] = text
			continue
		}
		if l.PropsOpen >= 0 && !strings.Contains(n, ".") {
			if start, end, ok := m.attrValueSpan(l, n); ok {
				e.add(start, end, values[i])
			} else {
				props = append(props, text)
			}
			continue
		}
		kept = append(kept, text)
	}
	if len(props) > 0 {
		e.appendEntries(l.PropsOpen+1, l.PropsClose-1, props)
	}
	if len(kept) == 0 { // drop the empty dictionary and the blank before it
		start := l.DictOpen
		for start > 0 && m.Src[start-1] == ' ' {
			start--
		}
		e.add(start, l.DictClose+1, "")
		return nil
	}
	e.add(l.DictOpen, l.DictClose+1, "{"+strings.Join(kept, ", ")+"}")
	return nil
}

// appendEntries adds entries to the dictionary whose braces are at open
// and close, after its last entry so that its closing layout stays.
func (e *Editor) appendEntries(open, close int, entries []string) {
	s := e.m.Src
	sep := ", "
	if strings.TrimSpace(s[open+1:close]) == "" {
		sep = ""
	}
	last := close
	for last > open+1 && isBlank(s[last-1]) {
		last--
	}
	e.add(last, last, sep+strings.Join(entries, ", "))
}
