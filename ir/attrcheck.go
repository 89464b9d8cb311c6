package ir

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
	p.dict(open)
}

// dict checks the dictionary at p.s[i] == '{' and returns the offset after
// its '}'. The parser has checked its brackets and strings. The checks read
// each byte once, however deep the values nest.
func (p *parser) dict(i int) int {
	s := p.s
	var buf [16]string
	names := buf[:0]
	var seen map[string]bool // once there are more names
	if i = skipTriviaAt(s, i+1); s[i] == '}' {
		return i + 1
	}
	for {
		at := i
		switch c := s[i]; {
		case c == ',' || c == '}':
			p.fail(at, "expected an attribute name")
		case c == '"':
			if i = skipStringAt(s, i); i < 0 {
				p.fail(at, "string is not closed")
			}
		case isIdentStart(c):
			for i < len(s) && isIdentChar(s[i]) {
				i++
			}
		default:
			p.fail(at, "expected an attribute name, found %q", c)
		}
		name := s[at:i]
		if name[0] == '"' {
			if name = unescapeString(name[1 : len(name)-1]); name == "" {
				p.fail(at, "expected valid attribute name")
			}
		}
		dup := false
		if seen == nil && len(names) < len(buf) {
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
		switch i = skipTriviaAt(s, i); s[i] {
		case ',', '}': // a unit attribute
		case '=':
			eq := i
			if i = skipTriviaAt(s, i+1); s[i] == ',' || s[i] == '}' {
				p.fail(eq+1, "expected an attribute value after '='")
			}
			i = p.value(i, "expected '}' in attribute dictionary")
		default:
			p.fail(i, "expected '=' or ',' after an attribute name")
		}
		if s[i] == '}' {
			return i + 1
		}
		i = skipTriviaAt(s, i+1) // ','
	}
}

// value checks the attribute value at p.s[i] where arc reads its kind: a
// dictionary, an array, an integer, dense elements, a dense array. After a
// value so read only ',' or the list's closer may follow, else MLIR's error
// for the list, wrong; a value of another kind is skipped. It returns the
// offset of that ',' or closer.
func (p *parser) value(i int, wrong string) int {
	s := p.s
	next := -1 // just after the value, when arc read all of it
	switch c := s[i]; {
	case c == '{':
		next = p.dict(i)
	case c == '[':
		next = p.array(i)
	case c == '-' || isDigit(c):
		next = p.checkInt(i)
	case hasPrefixAt(s, i, "dense<"):
		_, end, err := readDense(s, i, false)
		if err != nil {
			p.fail(err.Off, "%s", err.Msg)
		}
		next = end
	case hasPrefixAt(s, i, "array<"):
		next = p.checkDenseArray(i)
	}
	if next < 0 {
		return skipValue(s, i)
	}
	j := skipTriviaAt(s, next)
	if c := s[j]; c != ',' && c != '}' && c != ']' {
		p.fail(wrongTokenAt(s, j), "%s", wrong)
	}
	return j
}

// skipValue returns the offset of the ',' or closer that ends the value at
// s[i].
func skipValue(s string, i int) int {
	depth := 0
	for ; i < len(s); i++ {
		switch s[i] {
		case '"':
			if i = skipStringAt(s, i) - 1; i < 0 {
				return len(s)
			}
		case '/':
			if j := skipComment(s, i); j > i {
				i = j - 1
			}
		case ',':
			if depth == 0 {
				return i
			}
		default:
			step := bracketStep(s, i)
			if step < 0 && depth == 0 {
				return i
			}
			depth += step
		}
	}
	return i
}

// array checks the array attribute at p.s[i] == '[' and returns the offset
// after its ']'.
func (p *parser) array(i int) int {
	s := p.s
	if j := skipTriviaAt(s, i+1); s[j] == ':' {
		return matching(s, i) + 1 // MLIR's old spelling of a dense array, [:i64 1, 2]
	}
	for {
		if i = skipTriviaAt(s, i+1); s[i] != ',' && s[i] != ']' {
			i = p.value(i, "expected ',' or ']'")
		}
		if s[i] == ']' {
			return i + 1
		}
	}
}

// checkInt checks the number at p.s[at] (Parser::parseDecOrHexAttr): an
// integer, negated or not, fits its type (i64 without one); one read as a
// float is a bit pattern in hex. It returns the offset after the number and
// its type, or -1 for a float literal or a type arc does not know.
func (p *parser) checkInt(at int) int {
	s := p.s
	i, neg := at, s[at] == '-'
	if neg {
		if i = skipTriviaAt(s, at+1); i >= len(s) || !isDigit(s[i]) {
			p.fail(wrongTokenAt(s, i), "expected constant integer or floating point value")
		}
	}
	tokEnd, float := numberEnd(s, i)
	if float {
		return -1
	}
	tok, next, t := s[i:tokEnd], tokEnd, numType{'i', 64}
	if k := skipTriviaAt(s, tokEnd); k < len(s) && s[k] == ':' {
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
func (p *parser) checkDenseArray(at int) int {
	s := p.s
	close := matching(s, at+len("array"))
	if close < 0 {
		return -1
	}
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
