package ir

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestParseDense: dense elements read as MLIR's parser reads them, with its
// messages at its positions (the offset of the error in the text).
func TestParseDense(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		// Hex integers are the value's bits: signless types may use the
		// sign bit, and a negated one must fit as a signed value.
		{"dense<[[0x0, 0x1]]> : tensor<1x2xi64>", "[0 1] of [1 2]"},
		{"dense<[0xFF, 0x7f, -0x80]> : tensor<3xi8>", "[-1 127 -128] of [3]"},
		{"dense<0xFFFFFFFFFFFFFFFF> : tensor<2xi64>", "splat -1 of [2]"},
		{"dense<[0x100]> : tensor<1xi8>", "error at 7: integer constant out of range for type"},
		{"dense<[-0x81]> : tensor<1xi8>", "error at 8: integer constant out of range for type"},
		{"dense<[0xFF]> : tensor<1xui8>", "[255] of [1]"},
		{"dense<[0x80]> : tensor<1xsi8>", "error at 7: integer constant out of range for type"},
		{"dense<[0x0000000000000000000001]> : tensor<1xi1>", "[1] of [1]"},
		// MLIR's lexer: 0X1 is the integer 0 and the word X1; 0x without a
		// hex digit is 0 and x.
		{"dense<[0X1]> : tensor<1xi64>", "error at 8: expected ']'"},
		{"dense<[0x, 1]> : tensor<2xi64>", "error at 8: expected ']'"},
		{"dense<0X1> : tensor<1xi64>", "error at 7: expected '>'"},
		// Ranges of decimal integers.
		{"dense<[255, -128]> : tensor<2xi8>", "[-1 -128] of [2]"},
		{"dense<[256]> : tensor<1xi8>", "error at 7: integer constant out of range for type"},
		{"dense<[127, -128]> : tensor<2xsi8>", "[127 -128] of [2]"},
		{"dense<[128]> : tensor<1xsi8>", "error at 7: integer constant out of range for type"},
		{"dense<[-1]> : tensor<1xui8>", "error at 8: expected unsigned integer elements, but parsed negative value"},
		{"dense<[-0]> : tensor<1xi32>", "error at 8: integer constant out of range for type"},
		{"dense<[true, false, 1, 0, -1]> : tensor<5xi1>", "[1 0 1 0 1] of [5]"},
		{"dense<[2]> : tensor<1xi1>", "error at 7: integer constant out of range for type"},
		{"dense<[true]> : tensor<1xi8>", "error at 7: expected i1 type for 'true' or 'false' values"},
		{"dense<[- 5]> : tensor<1xi8>", "[-5] of [1]"},
		{"dense<[-x]> : tensor<1xi8>", "error at 8: expected integer or floating point literal"},
		{"dense<99999999999999999999999999> : tensor<i128>", "splat of []"},
		{"dense<170141183460469231731687303715884105728> : tensor<i128>", "splat of []"},
		{"dense<170141183460469231731687303715884105728> : tensor<si128>", "error at 6: integer constant out of range for type"},
		// Floats: an integer literal is a bit pattern, in hex.
		{"dense<[0x3F800000, 1.5, -2.0e+00]> : tensor<3xf32>", "of [3]"},
		{"dense<[0x7C00]> : tensor<1xf16>", "of [1]"},
		{"dense<[0x1FFFF]> : tensor<1xbf16>", "error at 7: hexadecimal float constant out of range for type"},
		{"dense<[-0x3C00]> : tensor<1xf16>", "error at 8: hexadecimal float literal should not have a leading minus"},
		{"dense<[1]> : tensor<1xf32>", "error at 7: unexpected decimal integer literal for a floating point value"},
		{"dense<[true]> : tensor<1xf32>", "error at 7: expected floating point literal"},
		{"dense<[1.5]> : tensor<1xi32>", "error at 7: expected integer elements, but parsed floating-point"},
		// The literal's shape, then the type, then the elements.
		{"dense<[[1, 2], [3]]> : tensor<2x2xi8>", "error at 18: tensor literal is invalid; ranks are not consistent between elements"},
		{"dense<[[1, 2], [3, [4]]]> : tensor<2x2xi8>", "error at 22: tensor literal is invalid; ranks are not consistent between elements"},
		{"dense<[[], [1]]> : tensor<2x1xi8>", "error at 14: tensor literal is invalid; ranks are not consistent between elements"},
		{"dense<[[[0]]]> : tensor<1x1xi64>", "error at 0: inferred shape of elements literal ([1, 1, 1]) does not match type ([1, 1])"},
		{"dense<[[300, 1]]> : tensor<1x1xi8>", "error at 0: inferred shape of elements literal ([1, 2]) does not match type ([1, 1])"},
		{"dense<[1, ]> : tensor<2xi8>", "error at 10: expected element literal of primitive type"},
		{"dense<[1 2]> : tensor<2xi8>", "error at 8: expected ']'"},
		{"dense<[1,\n  2\n  3]> : tensor<3xi8>", "error at 13: expected ']'"},
		{"dense<[1]>", "error at 10: expected ':'"},
		{"dense<[1]> : i8", "error at 0: elements literal must be a shaped type"},
		{"dense<[1]> : tensor<?xi8>", "error at 0: elements literal type must have static shape"},
		{"dense<[1]> : tensor<*xi8>", "error at 0: elements literal type must have static shape"},
		{"dense<> : tensor<0xi8>", "[] of [0]"},
		{"dense<> : tensor<2xi8>", "error at 0: parsed zero elements, but type (tensor<2xi8>) expected at least 1"},
		{"dense<[[]]> : tensor<1x0xi8>", "[] of [1 0]"},
		// Hex data: little-endian elements, all of them or a splat.
		{`dense<"0x01000200"> : tensor<2xi16>`, "[1 2] of [2]"},
		{`dense<"0xFFFF"> : tensor<3xi16>`, "splat -1 of [3]"},
		{`dense<"0x010002"> : tensor<2xi16>`, "error at 0: elements hex data size is invalid for provided type: tensor<2xi16>"},
		{`dense<"0X0100"> : tensor<1xi16>`, "error at 6: expected string containing hex digits starting with `0x`"},
		{`dense<"0x010"> : tensor<1xi16>`, "error at 6: expected string containing hex digits starting with `0x`"},
		{`dense<"0x0000803F"> : tensor<1xf32>`, "of [1]"},
		// Forms arc leaves to MLIR.
		{`dense<["a", "b"]> : tensor<2x!tf_type.string>`, "of [2]"},
		{"dense<[(1.0, 2.0)]> : tensor<1xcomplex<f32>>", "of [1]"},
		{"dense<[1, 2]> : vector<2xi8>", "unchecked"},
	} {
		d, err := ParseDense(tc.in)
		var got string
		var de *DenseError
		switch {
		case errors.As(err, &de):
			got = fmt.Sprintf("error at %d: %s", de.Off, de.Msg)
			if strings.HasPrefix(de.Msg, "expected dense elements of a ranked tensor type") {
				got = "unchecked"
			}
		case err != nil:
			got = "error " + err.Error()
		case d.Splat:
			got = fmt.Sprintf("splat %v of %v", strings.Trim(fmt.Sprint(d.Ints), "[]"), d.Type.Shape)
			got = strings.Replace(got, "splat  of", "splat of", 1)
		case d.Ints == nil:
			got = fmt.Sprintf("of %v", d.Type.Shape)
		default:
			got = fmt.Sprintf("%v of %v", d.Ints, d.Type.Shape)
		}
		if got != tc.want {
			t.Errorf("%s:\n  got  %s\n  want %s", tc.in, got, tc.want)
		}
	}
}

// TestDenseSplatStaysSmall: a splat of a huge type is one element.
func TestDenseSplatStaysSmall(t *testing.T) {
	d, err := ParseDense("dense<7> : tensor<4294967296x4294967296xi64>")
	if err != nil || !d.Splat || len(d.Ints) != 1 || d.Ints[0] != 7 {
		t.Fatalf("%+v, %v", d, err)
	}
}

func TestIntAttr(t *testing.T) {
	for _, tc := range []struct {
		in string
		n  int64
		ok bool
	}{
		{"4", 4, true},
		{"4 : i32", 4, true},
		{"0x4 : i32", 4, true},
		{"-1 : i64", -1, true},
		{"- 1", -1, true},
		{"0xFFFFFFFF : i32", -1, true},
		{"4294967295 : ui32", 4294967295, true},
		{"0x100000000 : i32", 0, false},
		{"-0", 0, false},
		{"-1 : ui8", 0, false},
		{"1 : i1", 1, true},
		{"1.0 : f32", 0, false},
		{"0x3F800000 : f32", 0, false},
		{"0X1", 0, false},
		{"true", 0, false},
		{"1 : !t", 0, false},
	} {
		if n, ok := IntAttr(tc.in); n != tc.n || ok != tc.ok {
			t.Errorf("IntAttr(%q) = %d, %v; want %d, %v", tc.in, n, ok, tc.n, tc.ok)
		}
	}
}
