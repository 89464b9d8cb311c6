package ir

import (
	"strings"
	"testing"
)

// TestAttributeRules: MLIR's rules for attribute dictionaries and the
// values in them, with MLIR's messages at its positions; "" for a module
// MLIR reads.
func TestAttributeRules(t *testing.T) {
	op := func(dict string) string { return `"x.y"() ` + dict + ` : () -> ()` }
	many := ""
	for i := 0; i < 20; i++ {
		many += "k" + strings.Repeat("x", i) + " = 1, "
	}
	for _, tc := range []struct{ name, src, want string }{
		// Repeated keys, wherever MLIR reads a dictionary.
		{"attribute dictionary", op(`{a = 1, b = 2, a = 3}`), "1:24: duplicate key 'a' in dictionary attribute"},
		{"quoted and bare", op(`{"a" = 1, a}`), "1:19: duplicate key 'a' in dictionary attribute"},
		{"an escape spells the same key", op(`{"a" = 1, "\61" = 2}`), "1:19: duplicate key 'a' in dictionary attribute"},
		{"unit attributes", op(`{u, v, u}`), "1:16: duplicate key 'u' in dictionary attribute"},
		{"properties", `"x.y"() <{p = 1, p = 2}> : () -> ()`, "1:18: duplicate key 'p' in dictionary attribute"},
		{"nested dictionary", op(`{d = {k = 1, k = 2}}`), "1:22: duplicate key 'k' in dictionary attribute"},
		{"dictionary in an array", op(`{l = [{k = 1}, {k = 1, k = 2}]}`), "1:32: duplicate key 'k' in dictionary attribute"},
		{"many keys", op(`{` + many + `kxxx = 2}`), "1:340: duplicate key 'kxxx' in dictionary attribute"},
		{"module attributes", "module attributes {mhlo.num_replicas = 2 : i32,\n    mhlo.num_replicas = 4 : i32} {\n}\n", "2:5: duplicate key 'mhlo.num_replicas' in dictionary attribute"},
		{"function attributes", "func.func @f() attributes {a, a} {\n  return\n}\n", "1:31: duplicate key 'a' in dictionary attribute"},
		{"argument attributes", "func.func @f(%a: tensor<f32> {jax.x = 1, jax.x = 2}) {\n  return\n}\n", "1:42: duplicate key 'jax.x' in dictionary attribute"},
		{"result attributes", "func.func @f() -> (tensor<f32> {r, r}) {\n  return\n}\n", "1:36: duplicate key 'r' in dictionary attribute"},
		{"a stablehlo op's attr-dict", "%0 = stablehlo.custom_call @f(%a) {api_version = 2 : i32, api_version = 1 : i32} : (tensor<f32>) -> tensor<f32>\n", "1:59: duplicate key 'api_version' in dictionary attribute"},
		{"keys that differ", op(`{a = 1, "a " = 2, A = 3, a.b = {a = 1}}`), ""},
		{"another dialect's braces are its own", `%0 = sdy.manual_computation(%a) in_shardings=[<@m, [{"x"}]>] out_shardings=[<@m, [{"x"}]>] manual_axes={"x", "x"} (%b: tensor<4xf32>) {` + "\n  sdy.return %b : tensor<4xf32>\n} : (tensor<8xf32>) -> tensor<8xf32>\n", ""},
		{"convolution's window", "%0 = stablehlo.convolution(%a, %b) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], stride = [1]} {batch_group_count = 1 : i64} : (tensor<1x4x1xf32>, tensor<1x1x1xf32>) -> tensor<1x4x1xf32>\n", ""},
		{"an empty name", op(`{"" = 1}`), `1:10: expected valid attribute name`},

		// Integers against their types.
		{"i1", op(`{a = 1 : i1, b = 0 : i1, c = -1 : i1, d = true, e = false}`), ""},
		{"2 : i1", op(`{a = 2 : i1}`), "1:14: integer constant out of range for attribute"},
		{"-2 : i1", op(`{a = -2 : i1}`), "1:15: integer constant out of range for attribute"},
		{"i8", op(`{a = 255 : i8, b = -128 : i8, c = 0xFF : i8}`), ""},
		{"258 : i8", op(`{mhlo.x = 258 : i8}`), "1:19: integer constant out of range for attribute"},
		{"-129 : i8", op(`{a = -129 : i8}`), "1:15: integer constant out of range for attribute"},
		{"si8", op(`{a = 127 : si8, b = -128 : si8}`), ""},
		{"128 : si8", op(`{a = 128 : si8}`), "1:14: integer constant out of range for attribute"},
		{"ui8", op(`{a = 255 : ui8}`), ""},
		{"256 : ui8", op(`{a = 256 : ui8}`), "1:14: integer constant out of range for attribute"},
		{"-1 : ui8", op(`{a = -1 : ui8}`), "1:15: negative integer literal not valid for unsigned integer type"},
		{"-0", op(`{a = -0 : i32}`), "1:15: integer constant out of range for attribute"},
		{"no type is i64", op(`{a = 18446744073709551615, b = -9223372036854775808}`), ""},
		{"too big for i64", op(`{a = 18446744073709551616}`), "1:14: integer constant out of range for attribute"},
		{"index", op(`{a = 9223372036854775807 : index, b = -1 : index}`), ""},
		{"index sign bit", op(`{a = 0x8000000000000000 : index}`), "1:14: integer constant out of range for attribute"},
		{"hex out of range", op(`{a = 0x100 : i8}`), "1:14: integer constant out of range for attribute"},
		{"negative hex", op(`{a = -0x80 : i8, b = -0x1 : i64}`), ""},
		{"hex floats", op(`{a = 0x3F800000 : f32, b = 0x7C00 : f16, c = 0x0 : bf16, d = 1.5 : f32}`), ""},
		{"decimal float", op(`{a = 5 : f32}`), "1:14: unexpected decimal integer literal for a floating point value"},
		{"negative hex float", op(`{a = -0x1 : f32}`), "1:15: hexadecimal float literal should not have a leading minus"},
		{"hex float too wide", op(`{a = 0x1FFFF : f16}`), "1:14: hexadecimal float constant out of range for type"},
		{"0X1", op(`{a = 0X1 : i32}`), "1:15: expected '}' in attribute dictionary"},
		{"0x", op(`{a = 0x, b = 1}`), "1:15: expected '}' in attribute dictionary"},
		{"two numbers", op(`{a = 1 2}`), "1:15: expected '}' in attribute dictionary"},
		{"a minus alone", op(`{a = - , b}`), "1:15: expected constant integer or floating point value"},
		{"in an array", op(`{a = [1 : i8, 300 : i8]}`), "1:23: integer constant out of range for attribute"},
		{"0X1 in an array", op(`{a = [0X1]}`), "1:16: expected ',' or ']'"},
		{"a type alias", op(`{a = 300 : !t, b = 5 : tensor<i8>}`), ""},
		{"on a later line", "\"x.y\"() {a = 1\n  // a comment\n  b = 2} : () -> ()", "1:15: expected '}' in attribute dictionary"},

		// Dense arrays: MLIR reports at the token after the element.
		{"dense array", op(`{a = array<i8: 1, -128, 255>, b = array<i1: true, false>, c = array<f32: 1.0>, d = array<i64>}`), ""},
		{"dense array range", op(`{a = array<i8: 1, 300, 2>}`), "1:30: integer constant out of range"},
		{"dense array bool", op(`{a = array<i8: true>}`), "1:24: expected i1 type for 'true' or 'false' values"},
		{"dense array i1 integer", op(`{a = array<i1: 1>}`), "1:25: expected 'true' or 'false' values for i1 type"},

		// Dense elements, where MLIR reads them.
		{"dense hex", op(`{g = dense<[[0x0, 0x1]]> : tensor<1x2xi64>}`), ""},
		{"dense in properties", `"x.y"() <{g = dense<[[0, 300]]> : tensor<1x2xi8>}> : () -> ()`, "1:26: integer constant out of range for type"},
		{"dense after its type", op(`{g = dense<1> : tensor<i8> x}`), "1:35: expected '}' in attribute dictionary"},
		{"dense with a comment", "\"x.y\"() {g = dense<[1, // one\n  2]> : tensor<2xi8>} : () -> ()", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseString("a.mlir", tc.src)
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
