package tpu_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/arcpass/arc/decision"
	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/lowering/tpu"
)

// A ring decision writes its rings and hops on the op and reads them back.
func TestRingsRoundTrip(t *testing.T) {
	m, err := ir.ParseString("m.mlir", `module @m attributes {stablehlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>, %y: tensor<3xf32>) -> (tensor<8xf32>, tensor<3xf32>) {
    %0:2 = "stablehlo.all_reduce"(%x, %y) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8xf32>, tensor<3xf32>) -> (tensor<8xf32>, tensor<3xf32>)
    return %0#0, %0#1 : tensor<8xf32>, tensor<3xf32>
  }
}
`)
	if err != nil {
		t.Fatal(err)
	}
	ring := decision.Decision{Lowering: "ring", Codec: "none", Reason: "r", Payload: &tpu.Rings{Groups: [][]int64{{1, 0}}, MaxHops: 1}}
	cs, _ := m.Collectives()
	ed := m.Edit()
	if err := decision.Write(ed, cs[0].Op, []decision.Decision{ring, ring}); err != nil {
		t.Fatal(err)
	}
	out, err := ed.Apply()
	if err != nil {
		t.Fatal(err)
	}
	cs, _ = out.Collectives()
	back, err := decision.Read(out, cs[0])
	if err != nil {
		t.Fatal(err)
	}
	text := out.Text(cs[0].Op)
	if !reflect.DeepEqual(back[1], ring) || !strings.Contains(text, "arc.ring = dense<[[1, 0]]> : tensor<1x2xi64>, arc.ring_max_hops = 1 : i64") {
		t.Errorf("ring read back %+v from %s", back[1], text)
	}
}
