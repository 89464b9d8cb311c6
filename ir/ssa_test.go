package ir

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// refs lists what Values reports for op, as "kind name[#index|:count]".
func refs(m *Module, op *Op) []string {
	var out []string
	m.Values(op, func(v ValueRef) {
		s := []string{"use", "result", "arg"}[v.Kind] + " " + v.Name
		switch {
		case v.Index >= 0:
			s += fmt.Sprintf("#%d", v.Index)
		case v.Count != 1:
			s += fmt.Sprintf(":%d", v.Count)
		}
		if !strings.HasPrefix(m.Src[v.Off:], v.Name) {
			s += " (bad offset)"
		}
		out = append(out, s)
	})
	return out
}

func TestValues(t *testing.T) {
	for _, tc := range []struct {
		file string
		line int
		want []string
	}{
		{"testdata/generic.mlir", 5, []string{"result %0:2", "use %x", "use %y"}},
		{"testdata/generic.mlir", 11, []string{"result %3", "use %0#0", "use %2"}},
		// Strings and comments hold no values.
		{"testdata/comments.mlir", 7, []string{"result %0", "use %x", "use %x"}},
		{"../testdata/fixtures/jax_dp2_tp4_8dev.mlir", 20, []string{"result %4", "use %3#0", "use %3#0"}},
		{"../testdata/fixtures/jax_dp2_tp4_8dev.mlir", 8, []string{"result %0:3", "use %arg0", "use %arg1", "use %arg2", "arg %arg3", "arg %arg4", "arg %arg5"}},
		{"../testdata/fixtures/jax_dp2_tp4_8dev.mlir", 7, []string{"arg %arg0", "arg %arg1", "arg %arg2"}},
		{"testdata/pretty.mlir", 11, []string{"result %2:2", "arg %iterArg", "use %c", "arg %iterArg_0", "use %0"}},
		{"testdata/pretty.mlir", 4, []string{"result %0", "use %arg0", "use %cst", "arg %a", "arg %b"}},
		// An op's own values only: not those of its regions.
		{"testdata/generic.mlir", 13, []string{"result %5", "use %c"}},
	} {
		m := parseFile(t, tc.file)
		if got := refs(m, opAt(t, m, tc.line)); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s:%d: %q, want %q", tc.file, tc.line, got, tc.want)
		}
	}
	m := parseFile(t, "testdata/generic.mlir")
	b := opAt(t, m, 5).Regions[0].Blocks[0]
	var args []string
	m.LabelArgs(b, func(v ValueRef) { args = append(args, fmt.Sprint(v.Kind == Arg, " ", v.Name)) })
	if want := []string{"true %a", "true %b"}; !reflect.DeepEqual(args, want) {
		t.Errorf("LabelArgs = %q, want %q", args, want)
	}
	m.LabelArgs(opAt(t, m, 4).Regions[0].Blocks[0], func(v ValueRef) { t.Errorf("unlabeled block has argument %s", v.Name) })
}

func TestWalkAndParentOp(t *testing.T) {
	m := parseFile(t, "../testdata/fixtures/goxla_misc_collectives.mlir")
	var names []string
	m.Walk(func(op *Op) bool {
		names = append(names, op.Name)
		return op.Name != "stablehlo.compare" // stop at the first compare
	})
	want := "module func.func stablehlo.all_reduce stablehlo.multiply stablehlo.return stablehlo.collective_permute stablehlo.all_to_all stablehlo.collective_broadcast stablehlo.constant stablehlo.while stablehlo.constant stablehlo.compare"
	if strings.Join(names, " ") != want {
		t.Errorf("Walk order: %v", names)
	}
	inner := opAt(t, m, 20) // the add inside the all-reduce inside the while's body
	var chain []string
	for op := inner; op != nil; op = op.ParentOp() {
		chain = append(chain, op.Name)
	}
	if want := "stablehlo.add stablehlo.all_reduce stablehlo.while func.func module"; strings.Join(chain, " ") != want {
		t.Errorf("ParentOp chain: %v", chain)
	}
	if m.ModuleOp() != m.Body.Ops[0] {
		t.Errorf("ModuleOp is not the top-level module")
	}
}

// TestValuesOfOtherDialects: the headers of linalg, scf, affine and cf
// declare arguments and list uses in forms of their own, which MLIR reads.
func TestValuesOfOtherDialects(t *testing.T) {
	const file = "testdata/dialects.mlir"
	m := parseFile(t, file)
	for _, tc := range []struct {
		line int
		want []string
	}{
		// ins and outs list uses, typed after the last.
		{8, []string{"result %g", "use %a", "use %b", "use %e"}},
		{14, []string{"result %f", "use %c0", "use %e"}},
		// "%i = %c0" declares %i; the do region's label declares its own.
		{15, []string{"result %w", "arg %i", "use %c0"}},
		{17, []string{"use %t", "use %i"}},
		{23, []string{"result %r", "arg %k", "use %c0", "use %n", "use %c1", "arg %acc", "use %a"}},
		// "(%p, %q) =" binds the names it lists.
		{26, []string{"arg %p", "arg %q", "use %c0", "use %c0", "use %n", "use %n", "use %c1", "use %c1"}},
		{30, []string{"arg %z"}},
		{33, []string{"result %h", "arg %u", "use %n", "arg %out", "use %e"}},
		// A successor's operands are uses.
		{35, []string{"use %g"}},
	} {
		if got := refs(m, opAt(t, m, tc.line)); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s:%d: %q, want %q", file, tc.line, got, tc.want)
		}
	}
	labels := map[int][]string{}
	m.Walk(func(op *Op) bool {
		for _, r := range op.Regions {
			for _, b := range r.Blocks {
				m.LabelArgs(b, func(v ValueRef) {
					line := m.Position(v.Off).Line
					labels[line] = append(labels[line], []string{"use", "result", "arg"}[v.Kind]+" "+v.Name)
				})
			}
		}
		return true
	})
	want := map[int][]string{10: {"arg %x", "arg %y", "arg %o"}, 19: {"arg %i"}, 36: {"arg %last"}}
	if !reflect.DeepEqual(labels, want) {
		t.Errorf("LabelArgs: %v, want %v", labels, want)
	}
	// scf.while's header declares the arguments of its first region only.
	d := m.Defs(nil)
	for _, tc := range []struct {
		line  int
		label bool // defined by a block label, not the header
	}{{17, false}, {20, true}} {
		def, ok := d.Lookup(opAt(t, m, tc.line), "%i")
		if !ok || (def.Block != nil) != tc.label || def.Op.Name != "scf.while" {
			t.Errorf("%s:%d: %%i is %+v (found %v), want the while's %s", file, tc.line, def, ok, map[bool]string{false: "header", true: "label"}[tc.label])
		}
	}
}
