package main

import (
	"testing"

	"github.com/arcpass/arc"
	"github.com/arcpass/arc/runtime/collective"
	"github.com/arcpass/arc/runtime/num"
)

// A go-xla style all-reduce of three f16 operands over 2 replicas.
const threeOperands = `module @m attributes {stablehlo.num_replicas = 2} {
  func.func @main(%a: tensor<65536xf16>, %b: tensor<65536xf16>, %c: tensor<65536xf16>) -> (tensor<65536xf16>, tensor<65536xf16>, tensor<65536xf16>) {
    %0, %1, %2 = "stablehlo.all_reduce"(%a, %b, %c) ({
      ^computation(%lhs: tensor<f16>, %rhs: tensor<f16>) :
          %s = "stablehlo.add"(%lhs, %rhs) : (tensor<f16>, tensor<f16>) -> tensor<f16>
          "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) { replica_groups = dense<[[0, 1]]> : tensor<1x2xi64> } : (tensor<65536xf16>, tensor<65536xf16>, tensor<65536xf16>) -> (tensor<65536xf16>, tensor<65536xf16>, tensor<65536xf16>)
    "stablehlo.return"(%0, %1, %2) : (tensor<65536xf16>, tensor<65536xf16>, tensor<65536xf16>) -> ()
  }
}
`

// TestSpecsOfLoweredPrograms reads back the kernel arc chose for each operand,
// which is what the GPU results are checked against.
func TestSpecsOfLoweredPrograms(t *testing.T) {
	for _, tc := range []struct {
		lowering string
		want     collective.Spec
	}{
		{"twoshot:int8", collective.Spec{Algo: "twoshot", Codec: "int8", DType: num.F16, World: 2}},
		{"oneshot", collective.Spec{Algo: "oneshot", Codec: "none", DType: num.F16, World: 2}},
		{"native", collective.Spec{Algo: "oneshot", DType: num.F16, World: 2}},
	} {
		force := config{lowering: tc.lowering}.force(3)
		out, _, err := arc.Compile("m", []byte(threeOperands), arc.Options{Target: "cuda:nvlink", CastBF16: true, Force: force})
		if err != nil {
			t.Fatal(err)
		}
		specs, err := specsOf(threeOperands, string(out), num.F16, 2)
		if err != nil {
			t.Fatalf("%s: %v\n%s", tc.lowering, err, out)
		}
		for i, s := range specs {
			if s != tc.want {
				t.Errorf("%s: operand %d runs %+v, want %+v", tc.lowering, i, s, tc.want)
			}
		}
	}
}
