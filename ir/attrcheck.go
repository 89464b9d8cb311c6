package ir

import "strings"

// MLIR's rules for attribute dictionaries and the values in them
// (Parser::parseAttributeDict, parseAttribute): each entry is "name" or
// "name = value", no name twice; an integer fits its type; dense elements
// and dense arrays hold what their types allow. A value of a kind arc does
// not read (a dialect's attribute, a type, a symbol) is left to MLIR.

// skipDict skips the attribute dictionary that starts at p.pos and checks
// it: an entry arc cannot read would otherwise pass through arc to fail
// later, or be printed back around a new entry.
func (p *parser) skipDict() {
	open := p.pos
	p.skipBalanced()
	p.checkDict(open, p.pos)
}

// checkDict checks the entries of the dictionary s[open:close], braces
// included.
func (p *parser) checkDict(open, close int) {
	base := open + 1
	inner := blankComments(p.s[base : close-1])
	spans := splitTopSpans(inner, ',')
	if len(spans) == 1 && strings.TrimSpace(inner) == "" {
		return // "{}"
	}
	var names []string
	var seen map[string]bool // once there are many names
	for _, sp := range spans {
		e := inner[sp.start:sp.end]
		i := skipBlanks(e, 0)
		at := base + sp.start + i
		switch {
		case i == len(e):
			p.fail(at, "expected an attribute name")
		case e[i] == '"':
			j := skipStringAt(e, i)
			if j < 0 {
				p.fail(at, "string is not closed")
			}
			i = j
		case isIdentStart(e[i]):
			for i < len(e) && isIdentChar(e[i]) {
				i++
			}
		default:
			p.fail(at, "expected an attribute name, found %q", e[i])
		}
		name := e[skipBlanks(e, 0):i]
		if name[0] == '"' {
			name = unescapeString(name[1 : len(name)-1])
			if name == "" {
				p.fail(at, "expected valid attribute name")
			}
		}
		dup := false
		if seen == nil && len(names) < 16 {
			for _, n := range names {
				dup = dup || n == name
			}
			names = append(names, name)
		} else {
			if seen == nil {
				seen = make(map[string]bool, 2*len(names))
				for _, n := range names {
					seen[n] = true
				}
			}
			dup, seen[name] = seen[name], true
		}
		if dup {
			p.fail(at, "duplicate key '%s' in dictionary attribute", name)
		}
		i = skipBlanks(e, i)
		if i == len(e) {
			continue // a unit attribute
		}
		if e[i] != '=' {
			p.fail(base+sp.start+i, "expected '=' or ',' after an attribute name")
		}
		v := strings.TrimRight(e, " \t\r\n") // the entry, value ending it
		j := skipBlanks(v, i+1)
		if j == len(v) {
			p.fail(base+sp.start+i+1, "expected an attribute value after '='")
		}
		p.checkValue(base+sp.start+j, base+sp.start+len(v), "expected '}' in attribute dictionary")
	}
}

// checkValue checks the attribute value p.s[at:end] where arc reads its
// kind: a dictionary, an array, an integer, dense elements, a dense array.
// After a value so read only blanks may follow, else MLIR's error for the
// list it is in, wrong.
func (p *parser) checkValue(at, end int, wrong string) {
	s := p.s[:end]
	next := -1 // just after the value, when arc read all of it
	switch c := s[at]; {
	case c == '{':
		close := matching(s, at)
		p.checkDict(at, close+1)
		next = close + 1
	case c == '[':
		close := matching(s, at)
		p.checkArray(at, close)
		next = close + 1
	case c == '-' || isDigit(c):
		next = p.checkInt(at, end)
	case hasPrefixAt(s, at, "dense<"):
		_, e, err := readDense(s, at, false)
		if err != nil {
			p.fail(err.Off, "%s", err.Msg)
		}
		next = e
	case hasPrefixAt(s, at, "array<"):
		next = p.checkDenseArray(at, end)
	}
	if next < 0 {
		return
	}
	if j := skipTriviaAt(s, next); j < end {
		p.fail(wrongTokenAt(p.s, j), "%s", wrong)
	}
}

// checkArray checks the elements of the array attribute s[open:close+1].
func (p *parser) checkArray(open, close int) {
	base := open + 1
	inner := blankComments(p.s[base:close])
	if strings.HasPrefix(strings.TrimSpace(inner), ":") {
		return // MLIR's old spelling of a dense array, [:i64 1, 2]
	}
	for _, sp := range splitTopSpans(inner, ',') {
		e := strings.TrimRight(inner[sp.start:sp.end], " \t\r\n")
		if i := skipBlanks(e, 0); i < len(e) {
			p.checkValue(base+sp.start+i, base+sp.start+len(e), "expected ',' or ']'")
		}
	}
}

// checkInt checks the number at s[at:end] (Parser::parseDecOrHexAttr): an
// integer, negated or not, fits its type (i64 without one); one read as a
// float is a bit pattern in hex. It returns the offset after the number and
// its type, or -1 for a float literal or a type arc does not know.
func (p *parser) checkInt(at, end int) int {
	s := p.s[:end]
	i, neg := at, s[at] == '-'
	if neg {
		if i = skipTriviaAt(s, at+1); i >= end || !isDigit(s[i]) {
			p.fail(wrongTokenAt(p.s, i), "expected constant integer or floating point value")
		}
	}
	tokEnd, float := numberEnd(s, i)
	if float {
		return -1
	}
	tok, next, t := s[i:tokEnd], tokEnd, numType{'i', 64}
	if k := skipTriviaAt(s, tokEnd); k < end && s[k] == ':' {
		ts := skipTriviaAt(s, k+1)
		next = typeEnd(s, ts)
		if t = numTypeOf(s[ts:next]); t.kind == 0 {
			return -1 // a type alias, or a type MLIR refuses for other reasons
		}
	}
	switch {
	case t.kind == 'f':
		if msg := floatFromInt(tok, neg, t); msg != "" {
			p.fail(i, "%s", msg)
		}
	case neg && t.kind == 'u':
		p.fail(i, "negative integer literal not valid for unsigned integer type")
	case !intFits(tok, neg, t):
		p.fail(i, "integer constant out of range for attribute")
	}
	return next
}

// checkDenseArray checks a dense array of integers, "array<i8: 1, -2>"
// (DenseArrayElementParser): each element fits the type, true and false
// only in i1 and only they. MLIR reports a misfit at the token after it. It
// returns the offset after the array.
func (p *parser) checkDenseArray(at, end int) int {
	s := p.s[:end]
	close := matching(s, at+len("array"))
	i := skipTriviaAt(s, at+len("array<"))
	te := typeEnd(s, i)
	t := numTypeOf(s[i:te])
	i = skipTriviaAt(s, te)
	if !t.isInt() || t.kind == 'x' || i >= close || s[i] != ':' {
		return close + 1 // floats, an empty array: their rules are not arc's
	}
	for _, sp := range splitTopSpans(s[i+1:close], ',') {
		j := skipTriviaAt(s, i+1+sp.start)
		neg := s[j] == '-'
		if neg {
			j = skipTriviaAt(s, j+1)
		}
		switch {
		case wordAt(s, j, "true") || wordAt(s, j, "false"):
			if t.width != 1 {
				p.fail(j, "expected i1 type for 'true' or 'false' values")
			}
		case isDigit(s[j]):
			tokEnd, float := numberEnd(s, j)
			after := skipTriviaAt(s, tokEnd)
			switch {
			case float:
				return close + 1
			case t.width == 1:
				p.fail(after, "expected 'true' or 'false' values for i1 type")
			case !intFits(s[j:tokEnd], neg, t):
				p.fail(after, "integer constant out of range")
			}
		}
	}
	return close + 1
}
