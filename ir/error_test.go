package ir

import (
	"errors"
	"strings"
	"testing"
)

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`%0 = "stablehlo.add"(%a, %b : (tensor<f32>) -> tensor<f32>`, "1:21: '(' is not closed"},
		{"module {\n  func.func @f() {\n    return\n", "2:18: region is not closed"},
		{"module {\n", "1:8: region is not closed"},
		{`%0 = "stablehlo.add(%a) : () -> ()`, "1:6: string is not closed"},
		{"\"x.y\"() {s = \"abc\n\"} : () -> ()", "1:14: string is not closed"},
		{`%0 = "x.y"(%a] : () -> ()`, "1:14: expected ')' to close '(' opened at 1:11, found ']'"},
		{"%0 = \"x.y\"() {a = [1, 2} : () -> ()", "1:24: expected ']' to close '[' opened at 1:19, found '}'"},
		{"%0 = \"x.y\"() {\n  a = dense<[1]> : tensor<1xi64>\n : () -> ()\n", "1:14: '{' is not closed"},
		{"module {\n  \"x.y\"(%a : () -> ()\n}\n", "3:1: expected ')' to close '(' opened at 2:8, found '}'"},
		{"}\n", "1:1: unexpected '}' at the top level"},
		{"module {\n}\n}\n", "3:1: unexpected '}' at the top level"},
		{`"x.y"() : () -> ())`, "1:19: expected an operation, found ')'"},
		{`"x.y"() : tensor<f32>> -> ()`, "1:11: expected a function type: '(' and the operand types"},
		{`"x.y"() : (tensor<f32>>) -> ()`, "1:23: expected ')' to close '(' opened at 1:11, found '>'"},
		{`"x.y"() {a = 1}`, "1:16: expected ':' and the type of x.y"},
		{`"x.y" {a = 1} : () -> ()`, "1:7: expected '(' and the operands of x.y"},
		{`"x.y"() ({}, ) : () -> ()`, "1:14: expected a region of x.y"},
		{`"x.y"() ({} {}) : () -> ()`, "1:13: expected ',' or ')' after a region of x.y"},
		{`"x.y"() : () tensor<f32>`, "1:14: expected '->' and the result types"},
		{`"x.y"() : () -> <f32>`, "1:17: expected a type"},
		{`%0 "stablehlo.add"(%a) : () -> ()`, "1:4: expected '=' after the results"},
		{`%0, = "x.y"() : () -> ()`, "1:5: expected a result name"},
		{`%0 %1 = "x.y"() : () -> ()`, "1:4: expected '=' after the results"},
		{`%0:x = "x.y"() : () -> ()`, "1:4: expected a result count after ':'"},
		{`%0:0 = "x.y"() : () -> ()`, "1:4: expected named operation to have at least 1 result"},
		{`% = "x.y"() : () -> ()`, "1:1: expected a value name after '%'"},
		{"%0 =", "1:5: expected an operation name"},
		{"%0 = 42 : i32", "1:6: expected an operation, found '4'"},
		{"\x00", "1:1: expected an operation, found byte 0x00"},
		{"module {\n  (%a)\n}", "2:3: expected an operation, found '('"},
		{"\"x.y\"() ({\n^: \n}) : () -> ()", "2:1: expected a block name after '^'"},
		{"\"x.y\"() ({\n^bb0(%a: tensor<f32>)\n  \"x.r\"() : () -> ()\n}) : () -> ()", "2:22: expected ':' after block label ^bb0"},
		{"\"x.y\"() ({\n^bb0(%a: tensor<f32>:\n}) : () -> ()", "3:1: expected ')' to close '(' opened at 2:5, found '}'"},
		{"\"x.y\"() ({\n^bb0(%a: tensor<f32>", "2:5: '(' is not closed"},
		{"module {\n}\n{-#\n  dialect_resources: {}\n", "3:1: resource section '{-#' is not closed by '#-}'"},
		{strings.Repeat("\"x.y\"() ({\n", 5000), "4097:10: regions nested more than 4096 deep"},
		{"\"x.y\"() {a = " + strings.Repeat("[", 5000), "1:4109: brackets nested more than 4096 deep"},
	} {
		m, err := ParseString("bad.mlir", tc.src)
		if m != nil {
			t.Errorf("%.40q: a module with an error", tc.src)
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%.40q: error %v (%T), want an *ir.Error", tc.src, err, err)
			continue
		}
		if got := err.Error(); got != "bad.mlir:"+tc.want {
			t.Errorf("%.40q:\n got %s\nwant bad.mlir:%s", tc.src, got, tc.want)
		}
	}
}

func TestErrorWithoutFileName(t *testing.T) {
	_, err := ParseString("", "}")
	if err == nil || err.Error() != "<input>:1:1: unexpected '}' at the top level" {
		t.Errorf("error %v", err)
	}
}

func TestPositionCRLF(t *testing.T) {
	m := mustParse(t, "a.b\r\n  c.d\r\n")
	if p := m.Position(int(m.Body.Ops[1].Start)); p != (Pos{2, 3}) {
		t.Errorf("position of the second op %v, want 2:3", p)
	}
}

// TestPositionOf: the uncached lookup agrees with Module.Position at every
// offset, and clamps offsets outside the text.
func TestPositionOf(t *testing.T) {
	src := "a.b\r\n  c.d\n\n\te.f\n"
	m := mustParse(t, src)
	for off := 0; off <= len(src); off++ {
		if got, want := PositionOf([]byte(src), off), m.Position(off); got != want {
			t.Errorf("offset %d: PositionOf %v, Position %v", off, got, want)
		}
	}
	if p := PositionOf([]byte(src), -5); p != (Pos{1, 1}) {
		t.Errorf("offset -5: %v, want 1:1", p)
	}
	if p, end := PositionOf([]byte(src), 999), PositionOf([]byte(src), len(src)); p != end {
		t.Errorf("offset 999: %v, want the end, %v", p, end)
	}
}

func TestCollectiveErrors(t *testing.T) {
	region := "({\n^bb0(%a: tensor<f32>, %b: tensor<f32>):\n  \"stablehlo.return\"(%a) : (tensor<f32>) -> ()\n})"
	for _, tc := range []struct{ src, want string }{
		{"sdy.mesh @m = <[\"x\"=4]>\n%0 = \"stablehlo.all_gather\"(%x) {replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @m, axes = [#stablehlo.axis_ref<name = \"x\", sub_axis_info = (3)2>]>} : (tensor<4xf32>) -> tensor<8xf32>",
			"2:1: stablehlo.all_gather: replica_groups: sub-axis (3)2 does not divide axis \"x\" of size 4"},
		{"%0 = \"stablehlo.all_reduce\"(%x) " + region + " : (vector<4xf32>) -> tensor<4xf32>",
			"1:1: stablehlo.all_reduce: operand type: not a tensor type: \"vector<4xf32>\""},
		{"%0 = \"stablehlo.all_reduce\"(%x) " + region + " : (tensor<4xf32>) -> tensor<4x>",
			"1:1: stablehlo.all_reduce: result type: tensor type \"tensor<4x>\" has no element type"},
		{"%0:2 = \"stablehlo.all_reduce\"(%x, %y) " + region + " : (tensor<4xf32>) -> tensor<4xf32>",
			"1:1: stablehlo.all_reduce: 2 operands but 1 operand types"},
		{"%0 = \"stablehlo.collective_permute\"(%x) {source_target_pairs = dense<0> : tensor<1x1x1xi64>} : (tensor<4xf32>) -> tensor<4xf32>",
			"1:1: stablehlo.collective_permute: source_target_pairs: expected a static tensor of rank 1 or 2, found tensor<1x1x1xi64>"},
		{"%0 = \"stablehlo.all_gather\"(%x) {channel_handle = #stablehlo.channel_handle<handle = x, type = 1>} : (tensor<4xf32>) -> tensor<8xf32>",
			"1:1: stablehlo.all_gather: bad channel_handle \"#stablehlo.channel_handle<handle = x, type = 1>\""},
		{"sdy.mesh @m = <[\"x\"=2], device_ids=[0]>\n", "1:1: sdy.mesh @m: 1 device ids for 2 devices"},
	} {
		m := mustParse(t, tc.src)
		_, err := m.Collectives()
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%.50q: error %v (%T), want an *ir.Error", tc.src, err, err)
			continue
		}
		if got := err.Error(); got != "test.mlir:"+tc.want {
			t.Errorf("%.50q:\n got %s\nwant test.mlir:%s", tc.src, got, tc.want)
		}
	}
}

// TestContinuationAfterBlankLines: a pretty op may continue after blank lines
// (its type, "cond {"); a statement after them starts a new op.
func TestContinuationAfterBlankLines(t *testing.T) {
	blank := strings.Repeat("\n  \r\n", 10000)
	m := mustParse(t, `%0 = stablehlo.add %a, %b`+blank+`: tensor<f32>`+blank+`%1 = stablehlo.negate %0 : tensor<f32>`)
	if len(m.Body.Ops) != 2 || !strings.HasSuffix(m.Text(m.Body.Ops[0]), "\n: tensor<f32>") {
		t.Errorf("%d ops; the first ends %q", len(m.Body.Ops), m.Text(m.Body.Ops[0])[len(m.Text(m.Body.Ops[0]))-15:])
	}
}

func TestLeadingSymbol(t *testing.T) {
	for _, tc := range []struct{ in, name, rest string }{
		{"@mesh = <[\"x\"=2]>", "mesh", " = <[\"x\"=2]>"},
		{"@jit_f.1 attributes {}", "jit_f.1", " attributes {}"},
		{`@"my module" attributes {}`, "my module", " attributes {}"},
		{`@"a\"b" x`, `a"b`, " x"},
		{"@", "", ""},
	} {
		name, rest, ok := leadingSymbol(tc.in)
		if !ok || name != tc.name || rest != tc.rest {
			t.Errorf("leadingSymbol(%q) = %q, %q, %v; want %q, %q", tc.in, name, rest, ok, tc.name, tc.rest)
		}
	}
	if _, rest, ok := leadingSymbol("attributes {}"); ok || rest != "attributes {}" {
		t.Errorf("leadingSymbol without '@': ok %v, rest %q", ok, rest)
	}
}
