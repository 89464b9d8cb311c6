package decision_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/arcpass/arc/decision"
	"github.com/arcpass/arc/ir"
)

// threeResults is an all-reduce of three results with the given attributes.
func threeResults(t *testing.T, attrs string) (*ir.Module, *ir.Op) {
	t.Helper()
	m, err := ir.ParseString("test.mlir", `%0:3 = "stablehlo.all_reduce"(%x, %y, %z) ({
^bb0(%a: tensor<f32>, %b: tensor<f32>):
  %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  "stablehlo.return"(%s) : (tensor<f32>) -> ()
}) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>`+attrs+`} : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)`)
	if err != nil {
		t.Fatal(err)
	}
	return m, m.Body.Ops[0]
}

// TestKeptAttrs: what replaces some results of an op keeps the op's
// frontend attributes and the shardings of exactly those results, as XLA
// reads them: a tuple sharding has one entry per result, another sharding
// holds for each; sdy.sharding has one entry per result.
func TestKeptAttrs(t *testing.T) {
	const frontend = `, mhlo.frontend_attributes = {_xla_stream_annotation = "2"}`
	for _, c := range []struct {
		attrs   string
		results []int
		want    string
	}{
		{`, mhlo.sharding = "{{replicated}, {maximal device=1}, {devices=[2]<=[2]}}"` + frontend, []int{1},
			`mhlo.sharding = "{maximal device=1}"; mhlo.frontend_attributes = {_xla_stream_annotation = "2"}`},
		{`, mhlo.sharding = "{{replicated},{maximal device=1},{devices=[2]0,1 metadata={op_name=\"a,{b}\"}}}"`, []int{0, 2},
			`mhlo.sharding = "{{replicated}, {devices=[2]0,1 metadata={op_name=\22a,{b}\22}}}"`},
		{`, mhlo.sharding = "{manual}"`, []int{2}, `mhlo.sharding = "{manual}"`},
		{`, mhlo.sharding = ""`, []int{0}, `mhlo.sharding = ""`},
		{`, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>, <@mesh, [{}]>, <@mesh, [{"x", "y"}]>]>`, []int{2},
			`sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}]>]>`},
		{`, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>, <@mesh, [{}]>, <@mesh, [{"x", "y"}]>]>`, []int{1, 2},
			`sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{"x", "y"}]>]>`},
		{`, arc.reason = "x"`, []int{0}, ``},
	} {
		m, op := threeResults(t, c.attrs)
		if why := decision.Unsplittable(m, op); why != "" {
			t.Errorf("%s: unsplittable: %s", c.attrs, why)
		}
		kept, err := decision.KeptAttrs(m, op, c.results)
		if err != nil {
			t.Errorf("%s: %v", c.attrs, err)
			continue
		}
		var got []string
		for _, a := range kept {
			got = append(got, a.Name+" = "+a.Value)
		}
		if strings.Join(got, "; ") != c.want {
			t.Errorf("%s %v:\n got %s\nwant %s", c.attrs, c.results, strings.Join(got, "; "), c.want)
		}
	}
}

// TestUnsplittable: shardings that do not say which result has which keep
// the op whole (Unsplittable's reason), and cannot be cut (KeptAttrs).
func TestUnsplittable(t *testing.T) {
	for attrs, want := range map[string]string{
		`, mhlo.sharding = "{{replicated}, {replicated}}"`:                    "mhlo.sharding holds 2 shardings for 3 results",
		`, mhlo.sharding = "\08\03\1A\01"`:                                    "mhlo.sharding is not HLO sharding text",
		`, mhlo.sharding = "{{replicated}, {manual}"`:                         "mhlo.sharding is not HLO sharding text",
		`, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>`:           "sdy.sharding holds 1 shardings for 3 results",
		`, sdy.sharding = #sdy.sharding<@mesh, [{}]>`:                         "sdy.sharding is not a #sdy.sharding_per_value<...> of one sharding per result",
		`, mhlo.sharding = "{{replicated}, {replicated}, {replicated}, {x}}"`: "mhlo.sharding holds 4 shardings for 3 results",
	} {
		m, op := threeResults(t, attrs)
		why := decision.Unsplittable(m, op)
		if !strings.HasPrefix(why, want) || !strings.HasSuffix(why, "arc could not give each of its calls the sharding of its own result") {
			t.Errorf("%s: %q, want %q", attrs, why, want)
		}
		if _, err := decision.KeptAttrs(m, op, []int{1}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: KeptAttrs: %v", attrs, err)
		}
	}
	// Every result, in order, keeps the op's own text, whatever it is.
	m, op := threeResults(t, `, mhlo.sharding = "\08\03"`)
	if kept, err := decision.KeptAttrs(m, op, []int{0, 1, 2}); err != nil || len(kept) != 1 || kept[0].Value != `"\08\03"` {
		t.Errorf("the whole op: %v %v", kept, err)
	}
	m, op = threeResults(t, fmt.Sprintf(`, mhlo.sharding = %q`, "{replicated}"))
	if why := decision.Unsplittable(m, op); why != "" {
		t.Errorf("one sharding for all: %s", why)
	}
}
