package spec

import (
	"fmt"
	"strings"

	"github.com/arcpass/arc/ir"
)

// MLIR refuses a use whose type is not its value's ("use of value '%x'
// expects different type than prior uses"). arc reads an all-reduce's
// operand types from the op's own signature, so it checks them against the
// definitions that state their types plainly: the results of generic-form
// ops ("(...) -> (T, U)") and function arguments. Values that pretty-form
// ops define are not typed here.

// scopedName is a value name in the op whose region defines it: sibling
// regions, and functions, may use one name for different values.
type scopedName struct {
	scope *ir.Op
	name  string
}

func isolating(op *ir.Op) bool {
	return op.Name == "func.func" || op.Name == "module" || op.Name == "builtin.module"
}

// defTypes maps values to the types their definitions state.
func defTypes(m *ir.Module) map[scopedName]string {
	out := map[scopedName]string{}
	m.Walk(func(op *ir.Op) bool {
		if op.Name == "func.func" && !op.Generic {
			for name, t := range funcArgTypes(m.Text(op)) {
				out[scopedName{op, name}] = t
			}
			return true
		}
		if !op.Generic {
			return true
		}
		_, outs, ok := m.FuncType(op)
		if !ok {
			return true
		}
		var res []ir.ValueRef
		total := 0
		m.Values(op, func(v ir.ValueRef) {
			if v.Kind == ir.Result {
				res = append(res, v)
				total += v.Count
			}
		})
		if total == 0 || total != len(outs) {
			return true
		}
		scope, k := op.ParentOp(), 0
		for _, r := range res {
			for j := range r.Count {
				name := r.Name
				if r.Count > 1 {
					name = fmt.Sprintf("%s#%d", r.Name, j)
				}
				out[scopedName{scope, name}] = ir.CompactType(ir.StripLoc(outs[k]))
				k++
			}
		}
		return true
	})
	return out
}

// funcArgTypes reads "%name: TYPE {attrs} loc(...)" from a pretty
// func.func's argument list; it returns nil for anything it does not read.
func funcArgTypes(text string) map[string]string {
	open := strings.IndexByte(text, '(')
	if open < 0 || strings.LastIndex(text[:open], "%") >= 0 {
		return nil
	}
	close := ir.Closing(text, open)
	if close < 0 {
		return nil
	}
	out := map[string]string{}
	for _, a := range ir.SplitTop(text[open+1:close], ',') {
		name, typ, ok := strings.Cut(strings.TrimSpace(a), ":")
		name = strings.TrimSpace(name)
		if !ok || !strings.HasPrefix(name, "%") {
			return nil
		}
		typ = strings.TrimSpace(typ)
		if i := ir.IndexTop(typ, '{'); i >= 0 { // the argument's attributes
			typ = typ[:i]
		}
		out[name] = ir.CompactType(ir.StripLoc(typ))
	}
	return out
}

// checkUses compares the op's operand types with their values' stated
// types (see defTypes).
func (k *Checker) checkUses(op *ir.Op, ins []string) error {
	if k.defs == nil {
		k.defs = defTypes(k.m)
	}
	names := k.m.Operands(op)
	if len(names) != len(ins) {
		return nil
	}
	lookup := func(name string) (string, bool) {
		// The enclosing regions, out to the function that isolates them.
		for p := op.ParentOp(); ; p = p.ParentOp() {
			if t, ok := k.defs[scopedName{p, name}]; ok {
				return t, true
			}
			if p == nil || isolating(p) {
				return "", false
			}
		}
	}
	for i, n := range names {
		n = strings.TrimSpace(n)
		def, ok := lookup(n)
		if !ok {
			def, ok = lookup(strings.TrimSuffix(n, "#0"))
		}
		if use := ir.CompactType(ir.StripLoc(ins[i])); ok && def != "" && use != def {
			return k.m.Errorf(int(op.Start), "use of value '%s' expects different type than prior uses: '%s' vs '%s'", n, use, def)
		}
	}
	return nil
}
