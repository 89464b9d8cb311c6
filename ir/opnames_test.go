package ir

import (
	"strings"
	"testing"
)

// TestOpNames: an op of a dialect XLA registers must be one of its ops, as
// MLIR's verifier (generic form) and parser (custom form) say; ops of
// dialects arc does not know pass.
func TestOpNames(t *testing.T) {
	generic := func(name string) string {
		return "func.func @f(%x: tensor<f32>) -> tensor<f32> {\n  %0 = \"" + name + "\"(%x) : (tensor<f32>) -> tensor<f32>\n  return %0 : tensor<f32>\n}\n"
	}
	custom := func(name string) string {
		return "func.func @f(%x: tensor<f32>) -> tensor<f32> {\n  %0 = " + name + " %x : tensor<f32>\n  return %0 : tensor<f32>\n}\n"
	}
	for _, tc := range []struct{ name, src, want string }{
		{"a stray character", generic("stablehlo.all_reduce("), "2:8: unregistered operation 'stablehlo.all_reduce(' found in dialect ('stablehlo') that does not allow unknown operations"},
		{"a misspelt stablehlo op", generic("stablehlo.all_reducer"), "2:8: unregistered operation 'stablehlo.all_reducer' found in dialect ('stablehlo') that does not allow unknown operations"},
		{"a func op", generic("func.funk"), "2:8: unregistered operation 'func.funk' found in dialect ('func') that does not allow unknown operations"},
		{"a builtin op", generic("builtin.modul"), "2:8: unregistered operation 'builtin.modul' found in dialect ('builtin') that does not allow unknown operations"},
		{"mhlo: a name no op has", generic("mhlo.all_reduce "), "2:8: unregistered operation 'mhlo.all_reduce ' found in dialect ('mhlo') that does not allow unknown operations"},
		{"sdy: a name no op has", generic("sdy."), "2:8: unregistered operation 'sdy.' found in dialect ('sdy') that does not allow unknown operations"},
		{"stablehlo ops", generic("stablehlo.cross-replica-sum"), ""},
		{"an escaped name", generic(`stablehlo.ab\73`), ""},
		{"an escape does not hide a stray character", generic(`stablehlo.abs\28`), "2:8: unregistered operation 'stablehlo.abs(' found in dialect ('stablehlo') that does not allow unknown operations"},
		{"an mhlo name arc cannot check", generic("mhlo.some_future_op"), ""},
		{"a dialect arc does not know", generic("mydialect.op(1)"), ""},
		{"no dialect", generic("op"), ""},
		{"an empty name", generic(""), "2:8: empty operation name is invalid"},
		{"a null character", generic(`x.a\00b`), "2:8: null character not allowed in operation name"},
		{"custom: unknown", custom("stablehlo.ab"), "2:8: custom op 'stablehlo.ab' is unknown"},
		{"custom: a bare identifier ends at '-'", custom("stablehlo.cross-replica-sum"), "2:8: custom op 'stablehlo.cross' is unknown"},
		{"custom: func", "func.func @f(%x: tensor<f32>) {\n  func.calls @g(%x) : (tensor<f32>) -> ()\n  return\n}\n", "2:3: custom op 'func.calls' is unknown"},
		{"custom: known", custom("stablehlo.abs"), ""},
		{"custom: another dialect", custom("chlo.erf_inv"), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseModule("a.mlir", []byte(tc.src))
			got := ""
			if err != nil {
				got = strings.TrimPrefix(err.Error(), "a.mlir:")
			}
			if got != tc.want {
				t.Errorf("%s\n got %q\nwant %q", tc.src, got, tc.want)
			}
		})
	}
}

// TestEscapedOpName: the op's name is the string's value, so an escaped
// all_reduce is one.
func TestEscapedOpName(t *testing.T) {
	src := "%0 = \"stablehlo.all\\5Freduce\"(%x) ({\n^bb0(%a: tensor<f32>, %b: tensor<f32>):\n  %s = stablehlo.add %a, %b : tensor<f32>\n  stablehlo.return %s : tensor<f32>\n}) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>\n"
	m := mustParse(t, src)
	cs, err := m.Collectives()
	if err != nil || len(cs) != 1 || cs[0].Kind != "all_reduce" {
		t.Fatalf("collectives %+v, %v", cs, err)
	}
}
