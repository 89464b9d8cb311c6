package passes_test

import (
	"strings"
	"testing"

	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/passes"
)

// verifyModule is a valid module; each case of TestVerifyRejects breaks it
// in one place.
const verifyModule = `module @m {
  func.func @main(%x: tensor<16xf32>, %y: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
    %0:2 = "stablehlo.all_reduce"(%x, %y) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<16xf32>, tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>)
    %1 = stablehlo.add %0#0, %0#1 : tensor<16xf32>
    %2 = "stablehlo.custom_call"(%1) {api_version = 4 : i32, backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", groups = array<i64: 0, 1>, link = "peer", world = 2 : i64}, call_target_name = "arc_allreduce", has_side_effect = true} : (tensor<16xf32>) -> tensor<16xf32>
    "func.return"(%1, %2) : (tensor<16xf32>, tensor<16xf32>) -> ()
  }
}
`

func TestVerifyAcceptsAValidModule(t *testing.T) {
	m, err := ir.ParseString("m.mlir", verifyModule)
	if err != nil {
		t.Fatal(err)
	}
	if err := passes.Verify(m); err != nil {
		t.Fatal(err)
	}
}

// TestVerifyUnboundResults: MLIR lets an op bind none of its results
// (Shardy's tests write "stablehlo.send"(...) -> !stablehlo.token alone);
// only a named list must match the type.
func TestVerifyUnboundResults(t *testing.T) {
	src := verifyModule[:strings.Index(verifyModule, "    \"func.return\"")] +
		`    "stablehlo.custom_call"(%1) {call_target_name = "foo"} : (tensor<16xf32>) -> tensor<16xf32>
    "func.return"(%1, %2) : (tensor<16xf32>, tensor<16xf32>) -> ()
  }
}
`
	m, err := ir.ParseString("m.mlir", src)
	if err != nil {
		t.Fatal(err)
	}
	if err := passes.Verify(m); err != nil {
		t.Fatal(err)
	}
}

// TestVerifyCommentInOperands: a comment in an operand list is no operand.
func TestVerifyCommentInOperands(t *testing.T) {
	src := strings.Replace(verifyModule, `"stablehlo.custom_call"(%1)`, "\"stablehlo.custom_call\"(%1 // the sum\n)", 1)
	m, err := ir.ParseString("m.mlir", src)
	if err != nil {
		t.Fatal(err)
	}
	if err := passes.Verify(m); err != nil {
		t.Fatal(err)
	}
}

// TestVerifyAllReduceTypes: StableHLO lets an all-reduce's result promote
// the element type and leave sizes dynamic (is_promotable, compatible
// shapes); such modules are valid input.
func TestVerifyAllReduceTypes(t *testing.T) {
	for _, result := range []string{"tensor<16xf64>", "tensor<?xf32>", "tensor<?xf64>"} {
		src := strings.Replace(verifyModule, `-> (tensor<16xf32>, tensor<16xf32>)
    %1`, `-> (tensor<16xf32>, `+result+`)
    %1`, 1)
		m, err := ir.ParseString("m.mlir", src)
		if err != nil {
			t.Fatal(err)
		}
		if err := passes.Verify(m); err != nil {
			t.Errorf("result %s: %v", result, err)
		}
	}
}

func TestVerifyRejects(t *testing.T) {
	for _, c := range []struct{ name, old, new, want string }{
		{"undefined use", `stablehlo.add %0#0, %0#1`, `stablehlo.add %0#0, %9`,
			"m.mlir:8:30: %9 is used but not defined"},
		{"use of a region's value outside it", `"func.return"(%1, %2)`, `"func.return"(%s, %2)`,
			"m.mlir:10:19: %s is used but not defined"},
		{"double definition", `%2 = "stablehlo.custom_call"`, `%1 = "stablehlo.custom_call"`,
			"m.mlir:9:5: %1 is defined twice (first at 8:5)"},
		{"block argument defined twice", `^bb0(%a: tensor<f32>, %b: tensor<f32>)`, `^bb0(%a: tensor<f32>, %a: tensor<f32>)`,
			"m.mlir:4:27: %a is defined twice (first at 4:10)"},
		{"a % that names nothing", `stablehlo.add %0#0, %0#1`, `stablehlo.add %0#0, %{}`,
			"m.mlir:8:30: expected a value name after '%'"},
		{"an operand that is not a value", `"stablehlo.custom_call"(%1)`, `"stablehlo.custom_call"(0)`,
			"m.mlir:9:5: stablehlo.custom_call: operand 0 (0) is not a value"},
		{"a word after a value", `"stablehlo.custom_call"(%1)`, "\"stablehlo.custom_call\"(%1\nmodule )",
			"m.mlir:9:5: stablehlo.custom_call: operand 0 (%1 module) is not a value"},
		{"result number out of range", `stablehlo.add %0#0, %0#1`, `stablehlo.add %0#0, %0#5`,
			"m.mlir:8:30: %0#5: %0 has 2 result(s)"},
		{"more results than types", `%2 = "stablehlo.custom_call"`, `%2, %3 = "stablehlo.custom_call"`,
			"m.mlir:9:5: stablehlo.custom_call defines 2 result(s) but its type has 1"},
		{"more operands than types", `"func.return"(%1, %2) : (tensor<16xf32>, tensor<16xf32>)`, `"func.return"(%1, %2, %1) : (tensor<16xf32>, tensor<16xf32>)`,
			"m.mlir:10:5: func.return takes 3 operand(s) but its type has 2"},
		{"all-reduce result type", `-> (tensor<16xf32>, tensor<16xf32>)
    %1`, `-> (tensor<16xf32>, tensor<16xf16>)
    %1`, "m.mlir:3:5: 'stablehlo.all_reduce' op inferred type(s) 'tensor<16xf32>', 'tensor<16xf32>' are incompatible with return type(s) of operation 'tensor<16xf32>', 'tensor<16xf16>'"},
		{"all-reduce result count", `(tensor<16xf32>, tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>)
    %1`, `(tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %1`, "m.mlir:3:5: stablehlo.all_reduce defines 2 result(s) but its type has 1"},
		{"all-reduce result shape", `-> (tensor<16xf32>, tensor<16xf32>)
    %1`, `-> (tensor<16xf32>, tensor<8xf32>)
    %1`, "m.mlir:3:5: 'stablehlo.all_reduce' op inferred type(s) 'tensor<16xf32>', 'tensor<16xf32>' are incompatible with return type(s) of operation 'tensor<16xf32>', 'tensor<8xf32>'"},
		{"all-reduce result of another class", `-> (tensor<16xf32>, tensor<16xf32>)
    %1`, `-> (tensor<16xf32>, tensor<16xi32>)
    %1`, "m.mlir:3:5: 'stablehlo.all_reduce' op inferred type(s) 'tensor<16xf32>', 'tensor<16xf32>' are incompatible with return type(s) of operation 'tensor<16xf32>', 'tensor<16xi32>'"},
		{"arc's call promotes", `: (tensor<16xf32>) -> tensor<16xf32>
    "func.return"`, `: (tensor<16xf32>) -> tensor<16xf64>
    "func.return"`, "m.mlir:9:5: stablehlo.custom_call: operand 0 is tensor<16xf32> but result 0 is tensor<16xf64>"},
		{"arc's call changes the type", `: (tensor<16xf32>) -> tensor<16xf32>
    "func.return"`, `: (tensor<16xf32>) -> tensor<8xf32>
    "func.return"`, "m.mlir:9:5: stablehlo.custom_call: operand 0 is tensor<16xf32> but result 0 is tensor<8xf32>"},
	} {
		src := strings.Replace(verifyModule, c.old, c.new, 1)
		if src == verifyModule {
			t.Fatalf("%s: %q is not in the module", c.name, c.old)
		}
		m, err := ir.ParseString("m.mlir", src)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		err = passes.Check(m, nil) // Verify, then the specification's rules for all-reduces
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: %v, want %s", c.name, err, c.want)
		}
		if _, positioned := err.(*ir.Error); !positioned {
			t.Errorf("%s: %T is not a positioned error", c.name, err)
		}
	}
}

// TestVerifySiblingScopes: the names a region defines go out of scope where
// it ends, so sibling regions may each define their own %a and %s, while
// the module's values stay in scope.
func TestVerifySiblingScopes(t *testing.T) {
	second := strings.Replace(verifyModule[strings.Index(verifyModule, `    %0:2 =`):strings.Index(verifyModule, `    %1 =`)], "%0:2", "%9:2", 1)
	src := strings.Replace(verifyModule, `    %1 =`, second+`    %1 =`, 1)
	m, err := ir.ParseString("m.mlir", src)
	if err != nil {
		t.Fatal(err)
	}
	if err := passes.Verify(m); err != nil {
		t.Fatal(err)
	}
	// Checked twice (the verify pass of a module no pass changed), a broken
	// module fails the same way both times.
	broken, err := ir.ParseString("m.mlir", strings.Replace(src, `stablehlo.add %0#0, %0#1`, `stablehlo.add %0#0, %s`, 1))
	if err != nil {
		t.Fatal(err)
	}
	first, again := passes.Check(broken, nil), passes.Check(broken, nil)
	if first == nil || again == nil || first.Error() != again.Error() || !strings.Contains(first.Error(), "%s is used but not defined") {
		t.Errorf("checked twice: %v, then %v", first, again)
	}
}
