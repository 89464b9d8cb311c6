package main

import (
	"bytes"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/arcpass/arc"
	"github.com/arcpass/arc/reference/collective"
	"github.com/arcpass/arc/reference/num"
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
		out, _, err := arc.Compile("m", []byte(threeOperands), arc.Options{Target: "cuda:nvlink", Force: force})
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

// TestForwardedFlags: a child gets the parent's flags minus those -all
// expands, each with its value in either spelling, so a later flag (-sizes)
// still parses (a stray value once ended the child's flags early).
func TestForwardedFlags(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"-all -forms standalone -configs a,b -sizes 16,4096", "-sizes 16,4096"},
		{"-all=true -forms=inprocess -operands=1,3 -dump d -sizes=16", "-dump d -sizes=16"},
		{"--configs x --plugin p.so", "--plugin p.so"},
		{"-standalone s.so -gpu-lib l.so", "-standalone s.so -gpu-lib l.so"},
		{"-configs", ""},
	} {
		got := strings.Join(forwarded(strings.Fields(tc.in)), " ")
		if got != tc.want {
			t.Errorf("forwarded(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestRandomInputIsDeterministic: the inputs depend on the seed alone (not on
// how many goroutines drew them), fill the whole buffer, and look like N(0,1).
func TestRandomInputIsDeterministic(t *testing.T) {
	const elems = 3<<20 + 5 // a short last chunk
	a := randomInput(num.F32, elems, 7)
	prev := runtime.GOMAXPROCS(1)
	b := randomInput(num.F32, elems, 7)
	runtime.GOMAXPROCS(prev)
	if !bytes.Equal(a, b) {
		t.Fatal("randomInput depends on GOMAXPROCS")
	}
	if bytes.Equal(a, randomInput(num.F32, elems, 8)) {
		t.Fatal("randomInput ignores its seed")
	}
	v := num.Widen(num.F32, a)
	var sum, sq float64
	for _, x := range v {
		sum += float64(x)
		sq += float64(x) * float64(x)
	}
	mean, variance := sum/elems, sq/elems
	if math.Abs(mean) > 0.01 || math.Abs(variance-1) > 0.01 || v[elems-1] == 0 {
		t.Fatalf("mean %.4f, variance %.4f, last %v: not N(0,1) throughout", mean, variance, v[elems-1])
	}
}
