package ir

import (
	"math"
	"strings"
)

// Info is what a module says about where it runs.
type Info struct {
	Name          string // the module's symbol name, without '@'
	NumReplicas   int64  // stablehlo.num_replicas or mhlo.num_replicas (0 if absent)
	NumPartitions int64  // mhlo.num_partitions (0 if absent)
}

// ModuleOp returns the module op the file is, or nil for an implicit module.
// As MLIR reads a file, its top level is that module when it holds one
// module op and no other operation (alias definitions and resource sections
// aside); otherwise MLIR wraps whatever the top level holds, module ops
// included, in an implicit module that has no attributes.
func (m *Module) ModuleOp() *Op {
	var mod *Op
	for _, op := range m.Body.Ops {
		switch {
		case op.Name == "":
		case mod != nil || op.Name != "module" && op.Name != "builtin.module":
			return nil
		default:
			mod = op
		}
	}
	return mod
}

// Info reads the module's name and replica/partition counts.
func (m *Module) Info() Info {
	var info Info
	op := m.ModuleOp()
	if op == nil {
		return info
	}
	if name, _, ok := leadingSymbol(strings.TrimSpace(m.header(op))); ok {
		info.Name = name
	}
	for _, a := range m.Attrs(op) {
		n, ok := IntAttr(a.Value)
		if !ok {
			continue
		}
		switch a.Name {
		case "stablehlo.num_replicas", "mhlo.num_replicas":
			info.NumReplicas = n
		case "mhlo.num_partitions", "stablehlo.num_partitions":
			info.NumPartitions = n
		}
	}
	return info
}

// Func is a function of the module.
type Func struct {
	Name   string // without '@'
	Public bool
	Op     *Op
}

// Funcs lists the module's func.func ops.
func (m *Module) Funcs() []Func {
	var out []Func
	m.Walk(func(op *Op) bool {
		if op.Name != "func.func" {
			return true
		}
		h := strings.TrimSpace(m.header(op))
		f := Func{Op: op, Public: true}
		for _, vis := range []string{"public ", "private ", "nested "} {
			if rest, ok := strings.CutPrefix(h, vis); ok {
				f.Public = vis == "public "
				h = strings.TrimSpace(rest)
			}
		}
		if name, _, ok := leadingSymbol(h); ok {
			f.Name = name
		}
		out = append(out, f)
		return true
	})
	return out
}

// ChannelID is one channel id the module's text holds.
type ChannelID struct {
	ID int64
	Op *Op // the op whose own text holds it (an alias definition's op too)
}

// ChannelIDs lists every channel id the module's text holds, whatever op or
// dialect carries it: the handle of each #stablehlo.channel_handle and
// #mhlo.channel_handle (send and recv, every collective, alias definitions,
// functions of nested modules), and each integer given to a key whose name
// ends in channel_id, in an attribute (mhlo.channel_id) or inside a string
// (a backend config). XLA's
// verifier refuses one id on channel instructions of different kinds, so a
// new id must be none of these. An id too large for int64 is listed as
// math.MaxInt64.
func (m *Module) ChannelIDs() []ChannelID {
	var out []ChannelID
	m.Walk(func(op *Op) bool {
		for _, sp := range ownSpans(op) {
			for _, id := range channelIDsIn(m.Src[sp.start:sp.end]) {
				out = append(out, ChannelID{ID: id, Op: op})
			}
		}
		return true
	})
	return out
}

// channelIDsIn finds the channel ids of a piece of text (comments skipped,
// strings read).
func channelIDsIn(s string) []int64 {
	var out []int64
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '/':
			if i+1 < len(s) && s[i+1] == '/' {
				for i < len(s) && s[i] != '\n' {
					i++
				}
			}
		case 'c':
			switch {
			case hasPrefixAt(s, i, "channel_handle<"):
				open := i + len("channel_handle")
				end := matching(s, open)
				if end < 0 {
					end = len(s)
				}
				for _, f := range splitTop(s[open+1:end], ',') {
					if k, v, ok := strings.Cut(f, "="); ok && strings.TrimSpace(k) == "handle" {
						if id, ok := leadingInt(strings.TrimSpace(v)); ok {
							out = append(out, id)
						}
					}
				}
			case hasPrefixAt(s, i, "channel_id"):
				j := i + len("channel_id")
				for j < len(s) && (s[j] == '"' || s[j] == '\\' || isBlank(s[j])) {
					j++
				}
				if j < len(s) && (s[j] == '=' || s[j] == ':') {
					j++
					for j < len(s) && isBlank(s[j]) {
						j++
					}
					if id, ok := leadingInt(s[j:]); ok {
						out = append(out, id)
					}
				}
			}
		}
	}
	return out
}

// leadingInt reads the integer s starts with, decimal or hexadecimal, with
// an optional sign; one beyond int64 reads as math.MaxInt64 (or MinInt64).
func leadingInt(s string) (int64, bool) {
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg, s = s[0] == '-', s[1:]
	}
	base, digits := uint64(10), s
	if len(s) > 2 && s[0] == '0' && s[1] == 'x' {
		base, digits = 16, s[2:]
	}
	var n uint64
	k := 0
	for ; k < len(digits); k++ {
		d, ok := digitValue(digits[k])
		if !ok || uint64(d) >= base {
			break
		}
		if n > (math.MaxInt64-uint64(d))/base {
			n = math.MaxInt64 + 1 // saturated
			continue
		}
		n = n*base + uint64(d)
	}
	if k == 0 {
		return 0, false
	}
	if n > math.MaxInt64 {
		if neg {
			return math.MinInt64, true
		}
		return math.MaxInt64, true
	}
	if neg {
		return -int64(n), true
	}
	return int64(n), true
}

func digitValue(c byte) (int, bool) {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0'), true
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10, true
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10, true
	}
	return 0, false
}

// Channels hands out channel ids that no part of the module holds (see
// ChannelIDs).
type Channels struct {
	held map[int64]bool
	next int64
}

// NewChannels reads the ids the module holds.
func (m *Module) NewChannels() *Channels {
	c := &Channels{held: map[int64]bool{}}
	top := int64(0)
	for _, id := range m.ChannelIDs() {
		c.held[id.ID] = true
		top = max(top, id.ID)
	}
	c.next = top + 1 // MinInt64 past MaxInt64: New then searches from 1
	return c
}

// New returns a positive id that neither the module nor an earlier call
// holds: one more than the largest held, else the smallest one free.
func (c *Channels) New() int64 {
	if c.next <= 0 {
		c.next = 1
		for c.held[c.next] {
			c.next++
		}
	}
	id := c.next
	c.held[id] = true
	c.next++
	for c.next > 0 && c.held[c.next] {
		c.next++
	}
	return id
}

// SymbolRefs lists the symbols the op's own text names, not counting its
// regions: @f, @"f", and each part of a nested reference @a::@b, outside
// strings and comments. A func.func's own name is among them.
func (m *Module) SymbolRefs(op *Op) []string {
	var out []string
	s := m.Src
	for _, sp := range ownSpans(op) {
		for i := sp.start; i < sp.end; i++ {
			switch s[i] {
			case '"':
				j := skipStringAt(s, i)
				if j < 0 || j > sp.end {
					i = sp.end
					continue
				}
				i = j - 1
			case '/':
				if i+1 < sp.end && s[i+1] == '/' {
					for i < sp.end && s[i] != '\n' {
						i++
					}
				}
			case '@':
				if name, rest, ok := leadingSymbol(s[i:sp.end]); ok && name != "" {
					out = append(out, name)
					i = sp.end - len(rest) - 1
				}
			}
		}
	}
	return out
}

// FuncResults reads the result types a function declares: the types after
// "->" of a pretty func.func (their attributes and locations dropped), or
// the results of a generic one's function_type. ok is false when they cannot
// be read.
func (m *Module) FuncResults(f *Op) (types []string, ok bool) {
	if f.Generic {
		v, found := m.Attr(f, "function_type")
		if !found {
			return nil, false
		}
		sig, ok := readSignature(v)
		if !ok || !sig.function {
			return nil, false
		}
		return sig.outs, true
	}
	h := m.header(f)
	open := indexTop(h, '(')
	if open < 0 {
		return nil, false
	}
	close := matching(h, open)
	if close < 0 {
		return nil, false
	}
	i := skipTriviaAt(h, close+1)
	if !hasPrefixAt(h, i, "->") {
		return nil, true // no results
	}
	i = skipTriviaAt(h, i+2)
	if i < len(h) && h[i] == '(' {
		end := matching(h, i)
		if end < 0 {
			return nil, false
		}
		for _, r := range splitTop(h[i+1:end], ',') {
			if at := indexTop(r, '{'); at >= 0 {
				r = r[:at]
			}
			r = stripLoc(r)
			if statedTypeEnd(r, 0) != len(r) {
				return nil, false
			}
			types = append(types, CompactType(r))
		}
		return types, true
	}
	end := statedTypeEnd(h, i)
	if end < 0 {
		return nil, false
	}
	return []string{CompactType(h[i:end])}, true
}
