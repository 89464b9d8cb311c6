package ir

import "strings"

// Info is what a module says about where it runs.
type Info struct {
	Name          string // the module's symbol name, without '@'
	NumReplicas   int64  // stablehlo.num_replicas or mhlo.num_replicas (0 if absent)
	NumPartitions int64  // mhlo.num_partitions (0 if absent)
}

// ModuleOp returns the top-level "module" op, or nil.
func (m *Module) ModuleOp() *Op {
	for _, op := range m.Body.Ops {
		if op.Name == "module" || op.Name == "builtin.module" {
			return op
		}
	}
	return nil
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
