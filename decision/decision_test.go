package decision_test

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/arcpass/arc/decision"
	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/passes"
)

const twoOperands = `module @m attributes {stablehlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<1024xf16>, %y: tensor<3xf32>) -> (tensor<1024xf16>, tensor<3xf32>) {
    %0:2 = "stablehlo.all_reduce"(%x, %y) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<1024xf16>, tensor<3xf32>) -> (tensor<1024xf16>, tensor<3xf32>)
    return %0#0, %0#1 : tensor<1024xf16>, tensor<3xf32>
  }
}
`

// roundTrip writes ds on the module's all-reduce and reads them back.
func roundTrip(t *testing.T, ds []decision.Decision) ([]decision.Decision, string) {
	t.Helper()
	m, err := ir.ParseString("m.mlir", twoOperands)
	if err != nil {
		t.Fatal(err)
	}
	cs, _ := m.Collectives()
	ed := m.Edit()
	if err := decision.Write(ed, cs[0].Op, ds); err != nil {
		t.Fatal(err)
	}
	out, err := ed.Apply()
	if err != nil {
		t.Fatal(err)
	}
	if err := passes.Verify(out); err != nil {
		t.Fatal(err)
	}
	cs, _ = out.Collectives()
	back, err := decision.Read(out, cs[0])
	if err != nil {
		t.Fatal(err)
	}
	return back, out.Text(cs[0].Op)
}

// TestDecisionsRoundTrip: what select writes on an op reads back as the
// same decisions: plain values where the operands agree, one entry per
// operand where they differ, times to 0.01 us.
func TestDecisionsRoundTrip(t *testing.T) {
	lowered := decision.Decision{Lowering: "twoshot", Codec: "int8", Algo: "twoshot", Link: "peer", CastBF16ToFP16: true,
		Reason: "fast, \"quoted\"", EstUS: 12.345, NativeUS: 20}
	native := decision.Native("empty tensor")
	back, text := roundTrip(t, []decision.Decision{lowered, native})
	lowered.EstUS = 12.35 // rounded as written
	native.Algo, native.Link = "", ""
	if !reflect.DeepEqual(back, []decision.Decision{lowered, native}) {
		t.Errorf("read back %+v\nfrom %s", back, text)
	}
	for _, want := range []string{`arc.lowering = ["twoshot", "native"]`, `arc.cast = [true, false]`, `arc.est_us = [12.35 : f64, 0.0 : f64]`} {
		if !strings.Contains(text, want) {
			t.Errorf("lacks %s:\n%s", want, text)
		}
	}
	same := decision.Native("target rule")
	same.EstUS, same.NativeUS = math.Inf(1), math.NaN() // MLIR has no spelling for these
	back, text = roundTrip(t, []decision.Decision{same, same})
	if !strings.Contains(text, `arc.lowering = "native"`) || !strings.Contains(text, `arc.est_us = 0.0 : f64`) || strings.Contains(text, "arc.codec") {
		t.Errorf("equal decisions: %s", text)
	}
	if back[0].EstUS != 0 || back[1].Reason != "target rule" {
		t.Errorf("read back %+v", back)
	}
	ordered := decision.Decision{Lowering: "test-order", Codec: "none", Reason: "r", Payload: &order{[]string{"b", "a"}}}
	back, text = roundTrip(t, []decision.Decision{ordered, ordered})
	if !reflect.DeepEqual(back[1], ordered) || !strings.Contains(text, `arc.test_order = ["b", "a"]`) {
		t.Errorf("payload read back %+v from %s", back[1], text)
	}
	// A new decision drops the payload's attributes.
	m, err := ir.ParseString("m.mlir", strings.Replace(twoOperands, "{replica_groups", `{arc.test_order = ["x"], replica_groups`, 1))
	if err != nil {
		t.Fatal(err)
	}
	cs, _ := m.Collectives()
	ed := m.Edit()
	if err := decision.Write(ed, cs[0].Op, []decision.Decision{same, same}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(m.Src, "arc.test_order") {
		t.Fatal("the module carries no payload to drop")
	}
	if out, err := ed.Apply(); err != nil || strings.Contains(out.Src, "arc.test_order") {
		t.Errorf("a new decision kept the payload (%v):\n%s", err, out.Src)
	}
}

// order is a payload of the test's own lowering: words in an order.
type order struct{ words []string }

func (o *order) Attrs() []ir.Attr {
	q := make([]string, len(o.words))
	for i, w := range o.words {
		q[i] = ir.Quote(w)
	}
	return []ir.Attr{{Name: "arc.test_order", Value: "[" + strings.Join(q, ", ") + "]"}}
}

func (o *order) Equal(p decision.Payload) bool {
	q, ok := p.(*order)
	return ok && slices.Equal(o.words, q.words)
}

func init() {
	decision.RegisterPayload(decision.PayloadKind{
		Lowering: "test-order", Attrs: []string{"arc.test_order"},
		Read: func(attrs map[string]string, _ func(string) (string, error)) (decision.Payload, error) {
			v, ok := attrs["arc.test_order"]
			if !ok {
				return nil, nil
			}
			elems, _ := ir.SplitArray(v)
			o := &order{}
			for _, e := range elems {
				o.words = append(o.words, ir.Unquote(e))
			}
			return o, nil
		},
	})
}

// TestEnvReadsBackMLIRStrings: the environment a lowering records reads back
// as written, bytes MLIR prints as \XX (a non-ASCII LIBTPU_INIT_ARGS) too.
func TestEnvReadsBackMLIRStrings(t *testing.T) {
	m, err := ir.ParseString("m.mlir", twoOperands)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"LIBTPU_INIT_ARGS": "--xla_a=1 --dir=/tmp/café \"q\" \\ \t", "B": "\x00\xff"}
	ed := m.Edit()
	if err := decision.WriteEnv(ed, want); err != nil {
		t.Fatal(err)
	}
	out, err := ed.Apply()
	if err != nil {
		t.Fatal(err)
	}
	got, err := decision.Env(out)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("env read back %q, want %q, from\n%s", got, want, out.Src)
	}
	if !strings.Contains(out.Src, `caf\C3\A9 \22q\22 \\ \09`) {
		t.Errorf("env not written as MLIR prints strings:\n%s", out.Src)
	}
}

// TestEscapedCallTargetName: a custom call's name is read with MLIR's
// escapes. "\141rc_allreduce" is the bytes 0x14 '1' "rc_allreduce" to MLIR
// (Go would read "arc_allreduce"): not one of arc's calls, so its
// backend_config is not arc's to check; "arc\5Fallreduce" is arc's call.
func TestEscapedCallTargetName(t *testing.T) {
	const call = `"stablehlo.custom_call"(%%x) {call_target_name = %s, backend_config = "opaque"} : (tensor<4xf32>) -> tensor<4xf32>`
	src := func(name string) string {
		return "module {\n  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n    %0 = " +
			fmt.Sprintf(call, name) + "\n    return %0 : tensor<4xf32>\n  }\n}\n"
	}
	m, err := ir.ParseModule("m.mlir", []byte(src(`"\141rc_allreduce"`)))
	if err != nil {
		t.Fatal(err)
	}
	if cs, err := decision.Collectives(m); err != nil || len(cs) != 0 {
		t.Errorf(`"\141rc_allreduce" read as arc's call: %d collectives, %v`, len(cs), err)
	}
	m, err = ir.ParseModule("m.mlir", []byte(src(`"arc\5Fallreduce"`)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := decision.Collectives(m); err == nil || !strings.Contains(err.Error(), "m.mlir:3:5") {
		t.Errorf(`"arc\5Fallreduce" with an opaque backend_config: %v, want arc's call refused at 3:5`, err)
	}
}
