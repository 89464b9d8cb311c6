package ir

import (
	"fmt"
	"strings"
)

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
// ("@f(%arg0: tensor<f32>)", "%iterArg = %init", scf.parallel's "(%i, %j) =
// ...") and its uses (linalg's "ins(%a, %b : T, U)", "^bb1(%a : T)").
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
		v := valueScanner{label: true}
		v.scan(m.Src, int(b.LabelStart), int(b.LabelEnd), fn)
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
	// stack holds the open brackets, and for each '(' what a "%a : type"
	// in it is: an argument where the parentheses declare (a signature, a
	// block label, reducer(...)), a use elsewhere (a successor's operands
	// "^bb1(%a : T)", linalg's "ins(%a, %b : T, U)").
	stack []bracket
	buf   [16]bracket
	label bool // scanning a block label: its parentheses declare
	// prev is the kind of the last token: 0 at the start (after the op's
	// name), 'w' a word (word), '@' a symbol, '^' a block name, ')' a
	// closing bracket or a string, '.' anything else.
	prev byte
	word string
}

type bracket struct {
	c byte
	// typedArgs: "%a : T" in it declares %a; bareArgs: so does a bare
	// "%a", the group being a list of names bound by '=' or "in" after it
	// ("scf.parallel (%i) = (%lb) to ...", "scf.forall (%i) in (%n)").
	typedArgs, bareArgs bool
}

func (v *valueScanner) scan(s string, start, end int, fn func(ValueRef)) {
	if v.stack == nil {
		v.stack = v.buf[:0]
	} else {
		v.prev = ')' // the span follows a region
	}
	for i := start; i < end; i++ {
		switch c := s[i]; c {
		case ' ', '\t', '\n', '\r':
		case '"':
			j := skipStringAt(s, i)
			if j < 0 || j > end {
				return
			}
			i = j - 1
			v.prev = ')' // a quoted symbol or op name
		case '/':
			if i+1 < end && s[i+1] == '/' {
				for i < end && s[i] != '\n' {
					i++
				}
				continue
			}
			v.prev = '.'
		case '(':
			v.stack = append(v.stack, v.group(s, i))
			v.prev = '.'
		case '[', '{', '<':
			v.stack = append(v.stack, bracket{c: c})
			v.prev = '.'
		case '>':
			if i > 0 && s[i-1] == '-' {
				v.prev = '.'
				break
			}
			fallthrough
		case ')', ']', '}':
			if len(v.stack) > 0 {
				v.stack = v.stack[:len(v.stack)-1]
			}
			v.prev = ')'
		case '%':
			j := i + 1
			for j < end && isIdentChar(s[j]) {
				j++
			}
			v.prev = '.'
			if j == i+1 {
				// A '%' that starts no name ("%{}", "% x"): a use of nothing,
				// which the verifier reports, as MLIR refuses the text.
				fn(ValueRef{Name: "%", Index: -1, Count: 1, Off: i, Kind: Use})
				continue
			}
			r := ValueRef{Name: s[i:j], Index: -1, Count: 1, Off: i}
			var top bracket
			if len(v.stack) > 0 {
				top = v.stack[len(v.stack)-1]
			}
			k := skipBlanksIn(s, j, end)
			switch {
			case j < end && s[j] == '#':
				n, next := readInt(s, j+1, end)
				switch {
				case next < end && isIdentChar(s[next]):
					// "%0#2come": MLIR reads %0#2 and then a stray word. A
					// use of the whole, which nothing defines, is refused.
					for next < end && isIdentChar(s[next]) {
						next++
					}
					r.Name, j = s[i:next], next
				case next > j+1:
					r.Index, j = n, next
				}
			case k < end && s[k] == ':' && top.typedArgs:
				r.Kind = Arg // "%arg0: type", "%arg0 : type"
			case k < end && s[k] == '=' && (k+1 >= end || s[k+1] != '='):
				r.Kind = Arg // "%iterArg = %init" of a while, "%i = %lb to" of a for
			case top.bareArgs:
				r.Kind = Arg
			}
			fn(r)
			i = j - 1
		default:
			if !isIdentChar(c) {
				v.prev = '.'
				break
			}
			j := i
			for j < end && isIdentChar(s[j]) {
				j++
			}
			v.prev, v.word = 'w', s[i:j]
			if i > 0 && (s[i-1] == '@' || s[i-1] == '^') {
				v.prev = s[i-1]
			}
			i = j - 1
		}
	}
}

// group says what the values of the parentheses opened at s[i] are, by
// what they follow: a symbol ("@f(%a: T)"), a block name (a label, or a
// successor's operands), a keyword or op name, or a closing bracket (the
// signature of sdy.manual_computation after its attributes).
func (v *valueScanner) group(s string, i int) bracket {
	b := bracket{c: '('}
	switch v.prev {
	case 0: // the op's name: its operands
	case '@':
		b.typedArgs = true
	case '^':
		b.typedArgs = v.label
	case 'w':
		// reducer(...) of StableHLO's and MHLO's pretty ops, and gpu.func's
		// attributions; other keywords (ins, outs, args) list uses.
		switch v.word {
		case "reducer", "workgroup", "private":
			b.typedArgs = true
		}
	default:
		b.typedArgs = true
	}
	if !v.label {
		b.bareArgs = boundNames(s, i)
	}
	return b
}

// boundNames: the parentheses at s[i] hold only value names and are
// followed by '=' or "in", which bind them.
func boundNames(s string, i int) bool {
	j := skipTriviaAt(s, i+1)
	for j < len(s) && s[j] == '%' {
		j++
		for j < len(s) && isIdentChar(s[j]) {
			j++
		}
		j = skipTriviaAt(s, j)
		switch {
		case j < len(s) && s[j] == ',':
			j = skipTriviaAt(s, j+1)
			continue
		case j < len(s) && s[j] == ')':
			k := skipTriviaAt(s, j+1)
			return k < len(s) && s[k] == '=' && (k+1 >= len(s) || s[k+1] != '=') ||
				hasPrefixAt(s, k, "in") && (k+2 >= len(s) || !isIdentChar(s[k+2]))
		}
		return false
	}
	return false
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

// Def is where a value is defined: a result of an op, an argument an op's
// header declares ("%arg0: T" of a function or reducer(...), "%iterArg =
// %init" of a while), or an argument of a block label ("^bb0(%a: T)").
type Def struct {
	Op     *Op    // the op whose result it is, or whose header or region declares it
	Block  *Block // the block whose label declares it, or nil
	Off    int    // offset of the name where it is defined
	Result int    // index among the op's results; -1 for an argument
	Arg    int    // index among the arguments its header or label declares; -1 for a result
}

// Defs finds the definition a use refers to, by MLIR's scoping: an op sees
// the values of the regions that hold it, out to the first op isolated
// from above (a function, a module, Shardy's computations), and the
// arguments those regions' ops declare.
type Defs struct {
	m    *Module
	defs map[defKey]Def
}

// defKey names a value in its scope: the region whose blocks define it (nil
// for the top level), or the op whose header declares it.
type defKey struct {
	region *Region
	op     *Op
	name   string
}

// Defs indexes the module's definitions of the given names ("%x"; all of
// them for nil), so that a caller that looks up a few values keeps only
// theirs.
func (m *Module) Defs(names map[string]bool) *Defs {
	d := &Defs{m: m, defs: map[defKey]Def{}}
	keep := func(name string) bool { return names == nil || names[name] }
	m.Walk(func(op *Op) bool {
		var region *Region
		if op.Parent != nil {
			region = op.Parent.Parent
		}
		res, arg := 0, 0
		scanValues(m.Src, int(op.Start), int(op.resEnd), true, func(v ValueRef) {
			if !keep(v.Name) {
				res += v.Count
				return
			}
			for j := range v.Count {
				name := v.Name
				if v.Count > 1 {
					name += "#" + itoa(j)
				}
				d.defs[defKey{region: region, name: name}] = Def{Op: op, Off: v.Off, Result: res, Arg: -1}
				res++
			}
		})
		if len(op.Regions) > 0 {
			var vs valueScanner
			for _, sp := range ownSpans(op) {
				vs.scan(m.Src, sp.start, sp.end, func(v ValueRef) {
					if v.Kind == Arg {
						if keep(v.Name) {
							d.defs[defKey{op: op, name: v.Name}] = Def{Op: op, Off: v.Off, Result: -1, Arg: arg}
						}
						arg++
					}
				})
			}
		}
		for _, r := range op.Regions {
			for _, b := range r.Blocks {
				k := 0
				m.LabelArgs(b, func(v ValueRef) {
					if v.Kind == Arg {
						if keep(v.Name) {
							d.defs[defKey{region: r, name: v.Name}] = Def{Op: op, Block: b, Off: v.Off, Result: -1, Arg: k}
						}
						k++
					}
				})
			}
		}
		return true
	})
	return d
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// isolatedFromAbove are the ops whose regions see no value from outside.
var isolatedFromAbove = map[string]bool{
	"module": true, "builtin.module": true, "func.func": true,
	"sdy.manual_computation": true, "sdy.named_computation": true,
}

// HeaderArgsBind reports whether the arguments op's header declares are
// those of its region r: every region's but the "do" region of scf.while,
// whose arguments its own label declares ("scf.while (%a = %init) : ... {
// ... } do { ^bb0(%b: T): ... }"); StableHLO's while binds the same
// arguments in its cond and body.
func HeaderArgsBind(op *Op, r *Region) bool {
	return op.Name != "scf.while" || len(op.Regions) == 0 || op.Regions[0] == r
}

// Lookup finds the definition of a use by op of ref ("%x" or "%x#k").
func (d *Defs) Lookup(op *Op, ref string) (Def, bool) {
	name, index := ref, ""
	if i := strings.IndexByte(ref, '#'); i >= 0 {
		name, index = ref[:i], ref[i+1:]
	}
	keys := []string{name, name + "#0"}
	if index != "" {
		keys = []string{ref}
		if index == "0" {
			keys = append(keys, name) // %x#0 of an op with one result
		}
	}
	for b := op.Parent; b != nil; {
		r := b.Parent
		for _, k := range keys {
			if def, ok := d.defs[defKey{region: r, name: k}]; ok {
				return def, true
			}
		}
		if r == nil {
			return Def{}, false
		}
		p := r.Parent
		for _, k := range keys {
			if def, ok := d.defs[defKey{op: p, name: k}]; ok && HeaderArgsBind(p, r) {
				return def, true
			}
		}
		if isolatedFromAbove[p.Name] {
			return Def{}, false
		}
		b = p.Parent
	}
	return Def{}, false
}

// Type is the type the text states for the value where def defines it,
// blanks compacted (CompactType), or "" with the reason when the text does
// not state it with certainty (see ResultTypes).
func (d *Defs) Type(def Def) (string, string) {
	m := d.m
	name := m.Src[def.Off:]
	name = name[:1+identLen(name[1:])]
	unknown := func() (string, string) {
		return "", fmt.Sprintf("the type of %s is not stated where it is defined (%s at %s)", name, def.Op.Name, m.Position(def.Off))
	}
	if def.Result >= 0 {
		types, ok := m.ResultTypes(def.Op)
		if !ok || def.Result >= len(types) {
			return unknown()
		}
		return types[def.Result], ""
	}
	if t, ok := argType(m.Src, def.Off+len(name)); ok {
		return t, ""
	}
	// "%iterArg = %init": a while's arguments have its operands' types, which
	// its header lists after ':' (and its results share).
	if def.Block == nil && (def.Op.Name == "stablehlo.while" || def.Op.Name == "mhlo.while") {
		if types, ok := m.ResultTypes(def.Op); ok && def.Arg < len(types) {
			return types[def.Arg], ""
		}
	}
	return unknown()
}

func identLen(s string) int {
	n := 0
	for n < len(s) && isIdentChar(s[n]) {
		n++
	}
	return n
}

// argType reads the type of an argument declared at s[i:] as ": TYPE", up to
// the ',' or ')' that ends it, without its attributes and location.
func argType(s string, i int) (string, bool) {
	i = skipTriviaAt(s, i)
	if i >= len(s) || s[i] != ':' {
		return "", false
	}
	start := i + 1
	depth := 0
	for j := start; j < len(s); j++ {
		switch c := s[j]; {
		case c == '"':
			k := skipStringAt(s, j)
			if k < 0 {
				return "", false
			}
			j = k - 1
		case c == '/' && j+1 < len(s) && s[j+1] == '/':
			return "", false
		case depth == 0 && (c == ',' || c == ')' || c == '{'):
			t := stripLoc(s[start:j])
			if end := statedTypeEnd(t, 0); end != len(t) || t == "" {
				return "", false
			}
			return CompactType(t), true
		default:
			depth += bracketStep(s, j)
			if depth < 0 {
				return "", false
			}
		}
	}
	return "", false
}

// ResultTypes reads the types of op's results where the text states them
// with certainty: a generic op's function type; in the pretty form, the
// results of a function type ("(T, U) -> V", "T, U -> (V, W)"), the type
// after "to" ("T to U"), a result list without a colon ("-> (T)"), and for
// the ops of StableHLO, MHLO, CHLO and Shardy (whose printers state result
// types: SameOperandsAndResultType, while's and optimization_barrier's
// lists, the value's type of a constant) a list of one type per result, or
// select's "pred, result". Anything else (several colons, another
// dialect's list, which may be its operands' types: arith.cmpf %a, %b : f32)
// is not certain: ok is false.
func (m *Module) ResultTypes(op *Op) (types []string, ok bool) {
	n := 0
	scanValues(m.Src, int(op.Start), int(op.resEnd), true, func(v ValueRef) { n += v.Count })
	if op.Generic {
		l, err := m.Layout(op)
		if err != nil {
			return nil, false
		}
		sig, ok := readSignature(m.Src[l.TypeColon+1 : l.TypeEnd])
		if !ok || !sig.function || len(sig.outs) != n {
			return nil, false
		}
		return sig.outs, true
	}
	if n == 0 {
		return nil, true
	}
	// The op's top-level colons and arrows, outside its regions.
	s := m.Src
	colons, arrows := 0, -1
	colon := -1
	m.walkOwn(op, func(i, depth int) bool {
		if depth != 0 {
			return true
		}
		switch {
		case s[i] == ':' && (i+1 >= len(s) || s[i+1] != ':') && (i == 0 || s[i-1] != ':'):
			colons++
			colon = i
		case s[i] == '-' && i+1 < len(s) && s[i+1] == '>' && arrows < 0:
			arrows = i
		}
		return true
	})
	spanEnd := func(at int) int {
		for _, sp := range ownSpans(op) {
			if sp.start <= at && at < sp.end {
				return sp.end
			}
		}
		return at
	}
	switch {
	case colons == 1:
		sig, ok := readSignature(s[colon+1 : spanEnd(colon)])
		if !ok {
			return nil, false
		}
		_, short, _ := strings.Cut(op.Name, ".")
		switch {
		case op.Name == "constant" || op.Name == "func.constant":
			// func's constant: its result is the function type itself.
			if len(sig.list) == 1 && n == 1 {
				return sig.list, true
			}
		case sig.function || sig.to:
			if len(sig.outs) == n {
				return sig.outs, true
			}
		case printsResultTypes(op.Name):
			if len(sig.list) == n {
				return sig.list, true
			}
			if short == "select" && len(sig.list) == 2 && n == 1 {
				return sig.list[1:], true
			}
		}
	case colons == 0 && arrows >= 0:
		// "scf.if %c -> (T) {": the results after the arrow.
		outs, end, ok := readResults(s[arrows+2:spanEnd(arrows)], 0)
		if ok && len(outs) == n && restOK(s[arrows+2:spanEnd(arrows)], end) {
			return outs, true
		}
	}
	return nil, false
}

// printsResultTypes: the dialects whose pretty ops that list types after ':'
// list their results' (StableHLO's and MHLO's printers, CHLO's constant,
// Shardy's ops), and the few others that do.
func printsResultTypes(name string) bool {
	dialect, _, _ := strings.Cut(name, ".")
	switch dialect {
	case "stablehlo", "mhlo", "chlo", "sdy":
		return true
	}
	return name == "arith.constant" || name == "tensor.empty"
}

// signature is the types of a pretty op after its ':'.
type signature struct {
	list     []string // the types as listed (before an arrow or "to")
	function bool     // a function type: "(T) -> U" or "T, U -> V"
	to       bool     // "T to U"
	outs     []string // after the arrow or "to"
}

// readSignature reads a signature from the start of s; what follows it may
// be a location, or a keyword and what the op's syntax puts after it (a
// while's cond, a reduce's reducer(...)).
func readSignature(s string) (signature, bool) {
	var sig signature
	i := 0
	for {
		j := skipTriviaAt(s, i)
		end := statedTypeEnd(s, j)
		if end < 0 {
			return sig, false
		}
		sig.list = append(sig.list, CompactType(s[j:end]))
		i = skipTriviaAt(s, end)
		if i < len(s) && s[i] == ',' {
			i++
			continue
		}
		break
	}
	if len(sig.list) == 1 && isFunctionType(sig.list[0]) {
		outs, _, ok := readResults(sig.list[0], indexArrow(sig.list[0])+2)
		if !ok {
			return sig, false
		}
		sig.function, sig.outs = true, outs
		return sig, restOK(s, i)
	}
	switch {
	case hasPrefixAt(s, i, "->"):
		outs, end, ok := readResults(s, i+2)
		if !ok {
			return sig, false
		}
		sig.function, sig.outs = true, outs
		return sig, restOK(s, end)
	case hasPrefixAt(s, i, "to") && len(sig.list) == 1 && (i+2 == len(s) || !isIdentChar(s[i+2])):
		j := skipTriviaAt(s, i+2)
		end := statedTypeEnd(s, j)
		if end < 0 {
			return sig, false
		}
		sig.to, sig.outs = true, []string{CompactType(s[j:end])}
		return sig, restOK(s, end)
	}
	return sig, restOK(s, i)
}

// restOK: what follows a signature at s[i:] is nothing, a location, or a
// keyword.
func restOK(s string, i int) bool {
	i = skipTriviaAt(s, i)
	if i >= len(s) {
		return true
	}
	rest := stripLoc(s[i:])
	return rest == "" || isIdentStart(s[i]) && !hasPrefixAt(s, i, "loc(")
}

// readResults reads the results of a function type at s[i:]: a single type
// or a parenthesized list; end is just after them.
func readResults(s string, i int) (outs []string, end int, ok bool) {
	i = skipTriviaAt(s, i)
	if i < len(s) && s[i] == '(' {
		close := matching(s, i)
		if close < 0 {
			return nil, 0, false
		}
		inner := s[i+1 : close]
		for _, t := range splitTop(inner, ',') {
			if statedTypeEnd(t, 0) != len(t) {
				return nil, 0, false
			}
			outs = append(outs, CompactType(t))
		}
		// "-> (T) -> U" would make the list an input: not a result list.
		if j := skipTriviaAt(s, close+1); hasPrefixAt(s, j, "->") {
			return nil, 0, false
		}
		return outs, close + 1, true
	}
	end = statedTypeEnd(s, i)
	if end < 0 {
		return nil, 0, false
	}
	return []string{CompactType(s[i:end])}, end, true
}

// isFunctionType: t is "(...) -> ...".
func isFunctionType(t string) bool {
	return strings.HasPrefix(t, "(") && indexArrow(t) > 0
}

// indexArrow is the offset of t's first top-level "->", or -1.
func indexArrow(t string) int {
	at := -1
	topLevel(t, func(i int) bool {
		if t[i] == '-' && i+1 < len(t) && t[i+1] == '>' {
			at = i
			return false
		}
		return true
	})
	return at
}

// statedTypeEnd returns the end of the one type that starts at s[i], or -1: a
// builtin type (tensor<...>, memref<...>, vector<...>, complex<...>,
// tuple<...>, an integer, float, index or none), a dialect type
// ("!stablehlo.token", "!quant.uniform<...>") or a function type.
func statedTypeEnd(s string, i int) int {
	if i >= len(s) {
		return -1
	}
	switch c := s[i]; {
	case c == '(':
		close := matching(s, i)
		if close < 0 {
			return -1
		}
		j := skipTriviaAt(s, close+1)
		if !hasPrefixAt(s, j, "->") {
			return -1
		}
		_, end, ok := readResults(s, j+2)
		if !ok {
			return -1
		}
		return end
	case c == '!':
		j := i + 1
		for j < len(s) && (isIdentChar(s[j]) && s[j] != '-') {
			j++
		}
		if j == i+1 {
			return -1
		}
		if j < len(s) && s[j] == '<' {
			close := matching(s, j)
			if close < 0 {
				return -1
			}
			return close + 1
		}
		return j
	case isIdentStart(c):
		j := i
		for j < len(s) && (isIdentStart(s[j]) || isDigit(s[j])) {
			j++
		}
		word := s[i:j]
		switch word {
		case "tensor", "memref", "vector", "complex", "tuple":
			if j < len(s) && s[j] == '<' {
				close := matching(s, j)
				if close < 0 {
					return -1
				}
				return close + 1
			}
			return -1
		case "none", "index", "bf16", "tf32":
			return j
		}
		if scalarType(word) {
			return j
		}
	}
	return -1
}

// scalarType: an integer type (i8, si32, ui4) or a float (f16, f8E4M3FN).
func scalarType(w string) bool {
	rest := w
	switch {
	case strings.HasPrefix(w, "si"), strings.HasPrefix(w, "ui"):
		rest = w[2:]
	case strings.HasPrefix(w, "i"):
		rest = w[1:]
	case strings.HasPrefix(w, "f") && len(w) > 1 && isDigit(w[1]):
		d := 1
		for d < len(w) && isDigit(w[d]) {
			d++
		}
		return d == len(w) || w[d] == 'E' // f32, f8E4M3FN, f4E2M1FN
	default:
		return false
	}
	if rest == "" {
		return false
	}
	for i := 0; i < len(rest); i++ {
		if !isDigit(rest[i]) {
			return false
		}
	}
	return true
}
