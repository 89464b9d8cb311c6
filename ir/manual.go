package ir

import "strings"

// Manual tells which ops of a partitioned program run per device, on the
// device's own values, as the SPMD partitioner sees them: ops inside a
// Shardy manual computation that makes some axes manual
// (sdy.manual_computation with manual_axes, shard_map's body), and the ops
// of functions that only such ops call (a body outlined into a function).
// Everything else the partitioner partitions: an op there is one logical
// op over the whole mesh. An op's own mhlo.sharding of {manual} (GSPMD's
// spelling) does not count: under Shardy, JAX's partitioner, a custom call
// so marked still has no sharding (seen on the GPU machine: "Side-effect
// HLO must have sharding").
type Manual struct {
	m     *Module
	funcs map[*Op]bool // functions every call of which is manual
}

// Manual reads the module's manual regions and its calls once.
func (m *Module) Manual() *Manual {
	mc := &Manual{m: m, funcs: map[*Op]bool{}}
	byName := map[string]*Op{}
	for _, f := range m.Funcs() {
		byName[f.Name] = f.Op
	}
	// calls of each function, and whether the call site is manual by its
	// own place (without the functions' status)
	type site struct {
		caller *Op // the function the call is in
		local  bool
	}
	sites := map[*Op][]site{}
	m.Walk(func(op *Op) bool {
		if op.Name == "func.call" || op.Name == "call" {
			for _, name := range m.SymbolRefs(op) {
				if f := byName[name]; f != nil {
					sites[f] = append(sites[f], site{caller: enclosingFunc(op), local: mc.local(op)})
				}
			}
		}
		return true
	})
	// A function is manual when it is called and every call is manual: in
	// a manual place, or in a manual function. Grow the set to a fixpoint.
	for grew := true; grew; {
		grew = false
		for f, ss := range sites {
			if mc.funcs[f] {
				continue
			}
			all := true
			for _, s := range ss {
				all = all && (s.local || s.caller != nil && mc.funcs[s.caller])
			}
			if all {
				mc.funcs[f], grew = true, true
			}
		}
	}
	return mc
}

// Of reports whether op runs per device.
func (mc *Manual) Of(op *Op) bool {
	if mc.local(op) {
		return true
	}
	f := enclosingFunc(op)
	return f != nil && mc.funcs[f]
}

// local is Of without the functions that call: a manual computation
// around op.
func (mc *Manual) local(op *Op) bool {
	for p := parentOp(op); p != nil; p = parentOp(p) {
		if p.Name == "sdy.manual_computation" {
			axes, _ := AttrValue(mc.m.OpAttrs(p), "manual_axes")
			axes = strings.TrimSpace(axes)
			if strings.HasPrefix(axes, "{") || strings.HasPrefix(axes, "[") {
				if end := matching(axes, 0); end > 0 && strings.TrimSpace(axes[1:end]) != "" {
					return true
				}
			}
		}
	}
	return false
}

func parentOp(op *Op) *Op {
	if op.Parent == nil || op.Parent.Parent == nil {
		return nil
	}
	return op.Parent.Parent.Parent
}

// enclosingFunc is the func.func op holds, or nil.
func enclosingFunc(op *Op) *Op {
	for p := parentOp(op); p != nil; p = parentOp(p) {
		if p.Name == "func.func" {
			return p
		}
	}
	return nil
}
