package decision

import (
	"fmt"
	"slices"
	"strings"

	"github.com/arcpass/arc/ir"
)

// The attributes of an all-reduce that the ops which replace it keep, as
// XLA's own passes keep an instruction's sharding and frontend attributes
// on what replaces it: its GSPMD and Shardy shardings, which describe each
// result, and its frontend attributes, which describe the op.
const (
	attrFrontend = "mhlo.frontend_attributes"
	attrSharding = "mhlo.sharding"
	attrSdy      = "sdy.sharding"
)

var keptNames = []string{attrFrontend, attrSharding, attrSdy}

// KeptAttrs returns the attributes an op that produces only the results of
// op at the given positions keeps of it: the frontend attributes as they
// are, and each sharding cut down to those results. mhlo.sharding is HLO's
// sharding text: a tuple "{{a}, {b}}" holds one sharding per result (one
// result takes its entry, several a tuple of theirs), any other sharding
// holds for every result, as XLA reads it. sdy.sharding is a
// #sdy.sharding_per_value with one entry per result. It fails where a
// sharding cannot be cut so (Unsplittable says why first).
func KeptAttrs(m *ir.Module, op *ir.Op, results []int) ([]ir.Attr, error) {
	n := resultCount(m, op)
	whole := len(results) == n
	for i, r := range results {
		whole = whole && r == i
	}
	var out []ir.Attr
	for _, a := range m.OpAttrs(op) {
		if !slices.Contains(keptNames, a.Name) {
			continue
		}
		v := a.Value
		if !whole && a.Name != attrFrontend {
			var err error
			if v, err = project(a, n, results); err != nil {
				return nil, m.Errorf(int(op.Start), "%s: %v", op.Name, err)
			}
		}
		out = append(out, ir.Attr{Name: a.Name, Value: v})
	}
	return out, nil
}

// Unsplittable says why op's shardings cannot be cut down to each of its
// results, or "": arc would not know which sharding each call has.
func Unsplittable(m *ir.Module, op *ir.Op) string {
	n := resultCount(m, op)
	if n < 2 {
		return ""
	}
	for _, a := range m.OpAttrs(op) {
		if a.Name == attrSharding || a.Name == attrSdy {
			if _, err := project(a, n, []int{0}); err != nil {
				return fmt.Sprintf("%v: arc could not give each of its calls the sharding of its own result", err)
			}
		}
	}
	return ""
}

func resultCount(m *ir.Module, op *ir.Op) int {
	_, outs, _ := m.FuncType(op)
	return len(outs)
}

// project cuts a sharding attribute of an op of n results down to results.
func project(a ir.Attr, n int, results []int) (string, error) {
	pick := func(elems []string) []string {
		out := make([]string, len(results))
		for i, r := range results {
			out[i] = elems[r]
		}
		return out
	}
	if a.Name == attrSdy {
		const open = "#sdy.sharding_per_value<"
		v := strings.TrimSpace(a.Value)
		inner, ok := strings.CutPrefix(v, open)
		elems, isArray := ir.SplitArray(strings.TrimSuffix(inner, ">"))
		if !ok || !strings.HasSuffix(inner, ">") || !isArray {
			return "", fmt.Errorf("%s is not a %s...> of one sharding per result", a.Name, open)
		}
		if len(elems) != n {
			return "", fmt.Errorf("%s holds %d shardings for %d results", a.Name, len(elems), n)
		}
		return open + "[" + strings.Join(pick(elems), ", ") + "]>", nil
	}
	text := ir.Unquote(a.Value)
	if strings.TrimSpace(text) == "" {
		return a.Value, nil // replicated, for every result
	}
	elems, tuple, ok := hloTuple(text)
	switch {
	case !ok:
		return "", fmt.Errorf("%s is not HLO sharding text (%s)", a.Name, a.Value)
	case !tuple:
		return a.Value, nil // one sharding for every result
	case len(elems) != n:
		return "", fmt.Errorf("%s holds %d shardings for %d results", a.Name, len(elems), n)
	case len(results) == 1:
		return ir.Quote(elems[results[0]]), nil
	}
	return ir.Quote("{" + strings.Join(pick(elems), ", ") + "}"), nil
}

// hloTuple reads HLO's sharding text ("{replicated}", "{devices=[2]0,1}",
// "{{replicated}, {maximal device=0}}"): the elements of a tuple sharding,
// whether it is one, and whether s is one sharding at all. HLO's text
// nests {} and [] and quotes metadata strings; other brackets ("<=[4]")
// do not nest.
func hloTuple(s string) (elems []string, tuple, ok bool) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "{") {
		return nil, false, false
	}
	depth, start := 0, 1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"':
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
			if i >= len(s) {
				return nil, false, false
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth < 0 || depth == 0 && i != len(s)-1 {
				return nil, false, false
			}
		case ',':
			if depth == 1 {
				elems, start = append(elems, strings.TrimSpace(s[start:i])), i+1
			}
		}
	}
	if depth != 0 {
		return nil, false, false
	}
	inner := strings.TrimSpace(s[1 : len(s)-1])
	if !strings.HasPrefix(inner, "{") {
		return nil, false, true
	}
	elems = append(elems, strings.TrimSpace(s[start:len(s)-1]))
	for _, e := range elems {
		if !strings.HasPrefix(e, "{") || !strings.HasSuffix(e, "}") {
			return nil, false, false
		}
	}
	return elems, true, true
}
