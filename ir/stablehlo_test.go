package ir

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// firstOp parses one op inside a function and returns it.
func firstOp(t *testing.T, op string) (*Module, *Op) {
	t.Helper()
	src := "func.func @f(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<f32>) {\n  " + op + "\n  return\n}\n"
	m, err := ParseString("t.mlir", src)
	if err != nil {
		t.Fatalf("%s: %v", op, err)
	}
	return m, m.Body.Ops[0].Regions[0].Blocks[0].Ops[0]
}

func TestHLOReadsBothForms(t *testing.T) {
	for _, tc := range []struct {
		op   string
		want string // kind results <- operands : ins -> outs | attr=value ...
	}{
		{`%0 = stablehlo.add %a, %b : tensor<4x8xf32>`,
			"add [%0] <- [%a %b] : [4x8xf32 4x8xf32] -> [4x8xf32]"},
		{`%0 = "stablehlo.add"(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>`,
			"add [%0] <- [%a %b] : [4x8xf32 4x8xf32] -> [4x8xf32]"},
		{`%0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<4x8xf32>`,
			"broadcast_in_dim [%0] <- [%c] : [f32] -> [4x8xf32] | broadcast_dimensions=[]"},
		{`%0 = "stablehlo.broadcast_in_dim"(%c) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8xf32>`,
			"broadcast_in_dim [%0] <- [%c] : [f32] -> [4x8xf32] | broadcast_dimensions=array<i64>"},
		{`%0 = stablehlo.reduce(%a init: %c) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>`,
			"reduce [%0] <- [%a %c] : [4x8xf32 f32] -> [4xf32] | applies=stablehlo.add dimensions=[1]"},
		// a location's text is never read as the op's
		{`%0 = stablehlo.reduce(%a init: %c) applies stablehlo.maximum across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32> loc("applies stablehlo.add across dimensions = [0]")`,
			"reduce [%0] <- [%a %c] : [4x8xf32 f32] -> [4xf32] | applies=stablehlo.maximum dimensions=[1]"},
		{`%0 = stablehlo.constant dense<2.5> : tensor<f32>`,
			"constant [%0] <- [] : [] -> [f32] | value=dense<2.5> : tensor<f32>"},
		// a constant's attributes are not its value
		{`%0 = stablehlo.constant {note = dense<512.0> : tensor<f32>} dense<1024.0> : tensor<f32>`,
			"constant [%0] <- [] : [] -> [f32] | note=dense<512.0> : tensor<f32> value=dense<1024.0> : tensor<f32>"},
		{`%0 = "stablehlo.constant"() <{value = dense<0x3F800000> : tensor<f32>}> {note = dense<7.0> : tensor<f32>} : () -> tensor<f32>`,
			"constant [%0] <- [] : [] -> [f32] | value=dense<0x3F800000> : tensor<f32> note=dense<7.0> : tensor<f32>"},
		{`%0 = stablehlo.convert %a {mhlo.sharding = "{manual}"} : (tensor<4x8xf32>) -> tensor<4x8xbf16>`,
			`convert [%0] <- [%a] : [4x8xf32] -> [4x8xbf16] | mhlo.sharding="{manual}"`},
		// JAX's jnp.square: a chlo op, its dialect kept in the kind
		{`%0 = chlo.square %a : tensor<6x384xf32> -> tensor<6x384xf32>`,
			"chlo.square [%0] <- [%a] : [6x384xf32] -> [6x384xf32]"},
		{`%0 = "chlo.square"(%a) : (tensor<6x384xf32>) -> tensor<6x384xf32>`,
			"chlo.square [%0] <- [%a] : [6x384xf32] -> [6x384xf32]"},
	} {
		m, op := firstOp(t, tc.op)
		h, ok := m.HLO(op)
		if !ok {
			t.Errorf("%s: not read", tc.op)
			continue
		}
		types := func(ts []TensorType) []string {
			var out []string
			for _, x := range ts {
				out = append(out, strings.TrimSuffix(strings.TrimPrefix(x.String(), "tensor<"), ">"))
			}
			return out
		}
		got := fmt.Sprintf("%s %v <- %v : %v -> %v", h.Kind, h.Results, h.Operands, types(h.OperandTypes), types(h.ResultTypes))
		if len(h.attrs) > 0 {
			var as []string
			for _, a := range h.attrs {
				as = append(as, a.Name+"="+a.Value)
			}
			got += " | " + strings.Join(as, " ")
		}
		if got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.op, got, tc.want)
		}
	}
}

func TestHLOSplatAndReducer(t *testing.T) {
	for _, tc := range []struct {
		op    string
		splat float32
		ok    bool
	}{
		{`%0 = stablehlo.constant dense<2.5> : tensor<f32>`, 2.5, true},
		{`%0 = stablehlo.constant dense<0x3DCCCCCD> : tensor<f32>`, 0.1, true},
		{`%0 = stablehlo.constant dense<1.000000e-01> : tensor<f32>`, 0.1, true},
		{`%0 = stablehlo.constant {note = dense<512.0> : tensor<f32>} dense<1024.0> : tensor<f32>`, 1024, true},
		{`%0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>`, 0, false},
		{`%0 = stablehlo.constant dense<1.0> : tensor<bf16>`, 0, false},
	} {
		m, op := firstOp(t, tc.op)
		h, ok := m.HLO(op)
		if !ok {
			t.Fatalf("%s: not read", tc.op)
		}
		v, ok := h.SplatF32()
		if ok != tc.ok || ok && v != tc.splat {
			t.Errorf("%s: splat %v %v, want %v %v", tc.op, v, ok, tc.splat, tc.ok)
		}
	}
	for _, tc := range []struct {
		op, want string
	}{
		{`%0 = stablehlo.reduce(%a init: %c) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>`, "stablehlo.add"},
		{`%0 = stablehlo.reduce(%a init: %c) applies stablehlo.maximum across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32> loc("applies stablehlo.add ")`, "stablehlo.maximum"},
		{`%0 = "stablehlo.reduce"(%a, %c) <{dimensions = array<i64: 1>}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %y, %x : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>`, "stablehlo.add"},
		{`%0 = "stablehlo.reduce"(%a, %c) <{dimensions = array<i64: 1>}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %x : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>`, ""},
		{`%0 = stablehlo.reduce(%a init: %c) across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
     reducer(%x: tensor<f32>, %y: tensor<f32>)  {
      %s = stablehlo.multiply %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }`, "stablehlo.multiply"},
	} {
		m, op := firstOp(t, tc.op)
		h, ok := m.HLO(op)
		if !ok {
			t.Fatalf("%s: not read", tc.op)
		}
		if got := m.Reducer(h); got != tc.want {
			t.Errorf("%s: reducer %q, want %q", tc.op, got, tc.want)
		}
		if dims, ok := h.Ints("dimensions"); !ok || !slices.Equal(dims, []int64{1}) {
			t.Errorf("%s: dimensions %v %v", tc.op, dims, ok)
		}
	}
}
