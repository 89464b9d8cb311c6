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
