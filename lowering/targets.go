// Package lowering is where arc's targets are registered: one package per
// platform (cuda, rocm and tpu; gpu holds what the GPU ones share) and, here,
// the list of them all and the identity target none. Its tests run the
// whole pipeline of every target over testdata/*.mlir and compare the
// lowered modules and the reports with golden files (go test ./lowering/...
// -update rewrites them).
package lowering

import (
	"fmt"
	"strings"
	"sync"

	"github.com/arcpass/arc/lowering/cuda"
	"github.com/arcpass/arc/lowering/rocm"
	"github.com/arcpass/arc/lowering/tpu"
	"github.com/arcpass/arc/passes"
)

// Targets lists every built-in target, in the order help texts show them.
var Targets = sync.OnceValue(func() []passes.Target {
	out := []passes.Target{none{}}
	out = append(out, cuda.Targets()...)
	out = append(out, rocm.Targets()...)
	return append(out, tpu.Targets()...)
})

// Names lists the built-in targets' names.
func Names() []string {
	var names []string
	for _, t := range Targets() {
		names = append(names, t.Name())
	}
	return names
}

// Lookup returns the target a --target value names.
func Lookup(name string) (passes.Target, error) {
	name = strings.TrimSpace(name)
	for _, t := range Targets() {
		if t.Name() == name {
			return t, nil
		}
	}
	return nil, fmt.Errorf("unknown target %q (targets: %s)", name, strings.Join(Names(), ", "))
}

// none is the identity target: it lowers nothing, so its pipeline (analyse,
// verify) gives every module back byte for byte.
type none struct{}

func (none) Name() string       { return "none" }
func (none) Lower() passes.Pass { return nil }
func (none) NoCodecs() string   { return "target none lowers nothing" }
func (none) Decide(row passes.Row, opts passes.Options) (passes.Decision, error) {
	const why = "target none: the identity pipeline lowers nothing"
	if f := opts.ForceOf(row.Index); f.On && !f.All && f.Lowering != "native" {
		return f.Cannot(why)
	}
	return passes.Native(why), nil
}
