package spec

import (
	"fmt"
	"strings"

	"github.com/arcpass/arc/ir"
)

// asyncFunctions finds the functions that asynchronous ops run, with the
// reason an all-reduce in one stays as written: MHLO's async_start,
// async_update and async_done name theirs (called_computation = @f), which
// XLA runs as the async wrapped computation, whose root must be the
// collective itself, wherever else the function is called from. A function
// such a function calls (its body names it) is held to the same, since its
// ops run inside the wrapped computation too.
func asyncFunctions(m *ir.Module) map[*ir.Op]string {
	byName := map[string][]*ir.Op{}
	for _, f := range m.Funcs() {
		byName[f.Name] = append(byName[f.Name], f.Op)
	}
	out := map[*ir.Op]string{}
	var queue []*ir.Op
	mark := func(name, why string) {
		for _, f := range byName[name] {
			if _, ok := out[f]; !ok {
				out[f] = why
				queue = append(queue, f)
			}
		}
	}
	m.Walk(func(op *ir.Op) bool {
		_, short, _ := strings.Cut(op.Name, ".")
		if strings.HasPrefix(short, "async_") {
			for _, name := range m.SymbolRefs(op) {
				mark(name, fmt.Sprintf("in function @%s, which %s at %s runs asynchronously: arc leaves the wrapped computation as it is", name, op.Name, m.Position(int(op.Start))))
			}
		}
		return true
	})
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		caller, why := "", out[f]
		if refs := m.SymbolRefs(f); len(refs) > 0 {
			caller = refs[0]
		}
		for _, r := range f.Regions {
			for _, b := range r.Blocks {
				walkOps(b, func(op *ir.Op) {
					for _, name := range m.SymbolRefs(op) {
						if name != caller {
							mark(name, fmt.Sprintf("in function @%s, which @%s calls: %s", name, caller, why))
						}
					}
				})
			}
		}
	}
	return out
}

// walkOps calls fn for every op of b and of the regions nested in it.
func walkOps(b *ir.Block, fn func(*ir.Op)) {
	for _, op := range b.Ops {
		fn(op)
		for _, r := range op.Regions {
			for _, nb := range r.Blocks {
				walkOps(nb, fn)
			}
		}
	}
}

// wrapperWhy says why an all-reduce whose parent op is p stays as written:
// p or an op around it is a wrapper arc leaves as it is (see
// allowedParents), or a function an async op runs (see asyncFunctions);
// "" when none is.
func (k *Checker) wrapperWhy(p *ir.Op) string {
	if p == nil {
		return ""
	}
	if why, ok := k.wrapped[p]; ok {
		return why
	}
	if k.wrapped == nil {
		k.wrapped = map[*ir.Op]string{}
		k.async = asyncFunctions(k.m)
	}
	why := ""
	switch {
	case !allowedParents[p.Name]:
		why = fmt.Sprintf("inside %s, whose region arc leaves as it is", p.Name)
	case k.async[p] != "":
		why = k.async[p]
	default:
		why = k.wrapperWhy(p.ParentOp())
	}
	k.wrapped[p] = why
	return why
}
