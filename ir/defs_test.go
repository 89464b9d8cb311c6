package ir

import (
	"strings"
	"testing"
)

func TestResultTypes(t *testing.T) {
	for _, tc := range []struct {
		op   string
		want string // types joined by "; ", or "?" when not certain
	}{
		{`%0 = stablehlo.abs %a : tensor<4xf16>`, "tensor<4xf16>"},
		{`%0 = stablehlo.add %a, %b : tensor<4 x f32> loc("x.py":1:2)`, "tensor<4xf32>"},
		{`%0 = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xbf16>`, "tensor<4xbf16>"},
		{`%0 = stablehlo.constant dense<[1, 2]> : tensor<2xi64>`, "tensor<2xi64>"},
		{`%0 = stablehlo.iota dim = 0 : tensor<4xi32>`, "tensor<4xi32>"},
		{`%0 = stablehlo.select %p, %a, %b : tensor<4xi1>, tensor<4xf32>`, "tensor<4xf32>"},
		{`%0:2 = stablehlo.optimization_barrier %a, %b : tensor<f32>, tensor<4xi8>`, "tensor<f32>; tensor<4xi8>"},
		{`%0 = chlo.top_k(%a, k = 2) : tensor<8xf32> -> (tensor<2xf32>, tensor<2xi32>)`, "?"},
		{`%0, %1 = chlo.top_k(%a, k = 2) : tensor<8xf32> -> (tensor<2xf32>, tensor<2xi32>)`, "tensor<2xf32>; tensor<2xi32>"},
		{`%0 = chlo.broadcast_add %a, %b : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>`, "tensor<4xf32>"},
		{`%0 = arith.extf %a : f16 to f32`, "f32"},
		{`%0 = arith.cmpf olt, %a, %b : f32`, "?"},
		{`%0 = vendor.op %a : tensor<4xf32>`, "?"},
		{`%0 = func.constant @f : (f32) -> f32`, "(f32)->f32"},
		{`%0 = call @f(%a) : (tensor<4xf32>) -> tensor<4xf16>`, "tensor<4xf16>"},
		{`%0 = stablehlo.custom_call @f(%a) : (tensor<4xf32>) -> tensor<4xf16> : x`, "?"},
		{`%0 = "stablehlo.negate"(%a) : (tensor<4xf32>) -> tensor<4xf32>`, "tensor<4xf32>"},
		{`%0 = stablehlo.reduce(%a init: %b) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>`, "tensor<f32>"},
	} {
		src := "func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>, %p: tensor<4xi1>) {\n  " + tc.op + "\n  return\n}\n"
		m, err := ParseString("t.mlir", src)
		if err != nil {
			t.Fatalf("%s: %v", tc.op, err)
		}
		op := m.Body.Ops[0].Regions[0].Blocks[0].Ops[0]
		types, ok := m.ResultTypes(op)
		got := strings.Join(types, "; ")
		if !ok {
			got = "?"
		}
		if got != tc.want {
			t.Errorf("%s: %q, want %q", tc.op, got, tc.want)
		}
	}
}

func TestDefsLookup(t *testing.T) {
	src := `func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %w:2 = stablehlo.while(%i = %x, %j = %x) : tensor<4xf32>, tensor<4xf32>
  cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %y = stablehlo.abs %j : tensor<4xf32>
    stablehlo.return %y, %i : tensor<4xf32>, tensor<4xf32>
  }
  cf.br ^bb1(%w#1 : tensor<4xf32>)
^bb1(%b: tensor<4xf16> loc("b")):
  return %b : tensor<4xf32>
}
func.func @g(%x: tensor<8xi8>) -> tensor<8xi8> {
  return %x : tensor<8xi8>
}
`
	m, err := ParseString("t.mlir", src)
	if err != nil {
		t.Fatal(err)
	}
	d := m.Defs(nil)
	f := m.Body.Ops[0]
	body := f.Regions[0].Blocks
	while := body[0].Ops[0]
	ret := while.Regions[1].Blocks[0].Ops[1]
	for _, tc := range []struct {
		user *Op
		ref  string
		want string
	}{
		{ret, "%y", "tensor<4xf32>"},
		{ret, "%i", "tensor<4xf32>"},              // a while's argument: its listed type
		{ret, "%x", "tensor<4xf32>"},              // the function's argument
		{body[0].Ops[1], "%w#1", "tensor<4xf32>"}, // a packed result
		{body[1].Ops[0], "%b", "tensor<4xf16>"},   // a label's argument
		{m.Body.Ops[1].Regions[0].Blocks[0].Ops[0], "%x", "tensor<8xi8>"},
		{m.Body.Ops[1].Regions[0].Blocks[0].Ops[0], "%y", ""}, // another function's value
	} {
		def, ok := d.Lookup(tc.user, tc.ref)
		if !ok {
			if tc.want != "" {
				t.Errorf("%s: not found", tc.ref)
			}
			continue
		}
		if tc.want == "" {
			t.Errorf("%s: found %+v", tc.ref, def)
			continue
		}
		if got, why := d.Type(def); got != tc.want {
			t.Errorf("%s: %q (%s), want %q", tc.ref, got, why, tc.want)
		}
	}
}
