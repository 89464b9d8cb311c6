package spec

import (
	"fmt"
	"strings"

	"github.com/arcpass/arc/ir"
)

// MLIR refuses a use whose type is not its value's ("use of value '%x'
// expects different type than prior uses"). arc reads an all-reduce's
// operand types from the op's own signature, and writes them into what
// replaces it (arc's custom call), so each is checked against the type the
// text states where the value is defined (ir.Defs): a generic op's function
// type, a pretty op's stated result types (after ':', after "->"), an
// argument of a function, a region or a block label, and for the result of
// a call also the result type its function declares. A mismatch is an error
// at the use; where the text does not state the definition's type with
// certainty, the operand stays native with the reason.

// checkUses compares the op's operand types with their values' stated
// types. It returns, per operand, why its value's type is unknown ("" when
// it is known).
func (k *Checker) checkUses(op *ir.Op, ins []string) ([]string, error) {
	m := k.m
	names := m.Operands(op)
	if len(names) != len(ins) {
		return nil, nil
	}
	if k.defs == nil {
		k.defs = m.Defs(allReduceOperands(m))
	}
	var at []int // where each operand is used
	m.Values(op, func(v ir.ValueRef) {
		if v.Kind == ir.Use {
			at = append(at, v.Off)
		}
	})
	unknown := make([]string, len(names))
	for i, n := range names {
		n = strings.TrimSpace(n)
		use := ir.CompactType(ir.StripLoc(ins[i]))
		off := int(op.Start)
		if i < len(at) && len(at) == len(names) {
			off = at[i]
		}
		def, ok := k.defs.Lookup(op, n)
		if !ok {
			unknown[i] = fmt.Sprintf("%s is not defined where the op can see it", n)
			continue
		}
		typ, why := k.defs.Type(def)
		if typ == "" {
			unknown[i] = why
			continue
		}
		if use != typ {
			return nil, m.Errorf(off, "use of value '%s' expects different type than prior uses: '%s' vs '%s'", n, use, typ)
		}
		if err := k.checkCallee(def, typ); err != nil {
			return nil, err
		}
	}
	return unknown, nil
}

// checkCallee checks the result of a call against the result type its
// function declares, as MLIR's verifier of func.call does.
func (k *Checker) checkCallee(def ir.Def, typ string) error {
	op := def.Op
	if def.Result < 0 || op.Name != "func.call" && op.Name != "call" {
		return nil
	}
	refs := k.m.SymbolRefs(op)
	if len(refs) == 0 {
		return nil
	}
	if k.funcs == nil {
		k.funcs = map[string][]*ir.Op{}
		for _, f := range k.m.Funcs() {
			k.funcs[f.Name] = append(k.funcs[f.Name], f.Op)
		}
	}
	fs := k.funcs[refs[0]]
	if len(fs) != 1 { // unknown, or one per nested module: not told apart here
		return nil
	}
	results, ok := k.m.FuncResults(fs[0])
	if !ok || def.Result >= len(results) || results[def.Result] == typ {
		return nil
	}
	return k.m.Errorf(int(op.Start), "'%s' op result type mismatch at index %d: the call states '%s', but @%s returns '%s'", op.Name, def.Result, typ, refs[0], results[def.Result])
}

// allReduceOperands are the names the module's all-reduces (and arc's calls
// of them) read, whose definitions checkUses looks up.
func allReduceOperands(m *ir.Module) map[string]bool {
	names := map[string]bool{}
	m.Walk(func(op *ir.Op) bool {
		if strings.HasSuffix(op.Name, ".all_reduce") || strings.HasSuffix(op.Name, ".custom_call") {
			m.Values(op, func(v ir.ValueRef) {
				if v.Kind == ir.Use {
					names[v.Name] = true
				}
			})
		}
		return true
	})
	return names
}
