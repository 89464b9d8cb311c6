package ir

import (
	"strings"
	"testing"
)

const opWithProps = `module @m {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = "stablehlo.all_reduce"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {arc.lowering = "native", arc.codec = "int8", other = 1} : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
`

// edited applies one edit to the all-reduce of opWithProps and returns the
// op's text.
func edited(t *testing.T, edit func(*Editor, *Op) error) string {
	t.Helper()
	m, err := ParseString("m.mlir", opWithProps)
	if err != nil {
		t.Fatal(err)
	}
	var op *Op
	m.Walk(func(o *Op) bool {
		if o.Name == "stablehlo.all_reduce" {
			op = o
		}
		return op == nil
	})
	ed := m.Edit()
	if err := edit(ed, op); err != nil {
		t.Fatal(err)
	}
	out, err := ed.Apply()
	if err != nil {
		t.Fatal(err)
	}
	var got string
	out.Walk(func(o *Op) bool {
		if o.Name == "stablehlo.all_reduce" {
			got = out.Text(o)
		}
		return got == ""
	})
	return got
}

func TestReplaceAttrsDropsStaleEntries(t *testing.T) {
	drop := []string{"arc.lowering", "arc.codec", "arc.reason"}
	got := edited(t, func(ed *Editor, op *Op) error {
		return ed.ReplaceAttrs(op, drop, []string{"arc.lowering", "arc.reason"}, []string{`"twoshot"`, `"why"`})
	})
	if want := `{arc.lowering = "twoshot", other = 1, arc.reason = "why"} :`; !strings.Contains(got, want) {
		t.Errorf("lacks %s:\n%s", want, got)
	}
	// Nothing to drop: the dictionary is edited in place, as SetAttrs does.
	got = edited(t, func(ed *Editor, op *Op) error {
		return ed.ReplaceAttrs(op, []string{"arc.absent"}, []string{"arc.codec"}, []string{`"fp"`})
	})
	if want := `{arc.lowering = "native", arc.codec = "fp", other = 1} :`; !strings.Contains(got, want) {
		t.Errorf("lacks %s:\n%s", want, got)
	}
	// Dropping every entry drops the dictionary.
	got = edited(t, func(ed *Editor, op *Op) error {
		return ed.ReplaceAttrs(op, []string{"arc.lowering", "arc.codec", "other"}, nil, nil)
	})
	if want := "    }) : (tensor<4xf32>)"; !strings.Contains(got, want) {
		t.Errorf("lacks %q:\n%s", want, got)
	}
}

func TestSetModuleAttrs(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"module @m attributes {mhlo.num_partitions = 2 : i32} {\n}\n", `module @m attributes {mhlo.num_partitions = 2 : i32, arc.target = "t"} {`},
		{"module @m {\n}\n", `module @m attributes {arc.target = "t"} {`},
		{"module {\n}\n", `module attributes {arc.target = "t"} {`},
		{"module @m attributes {arc.target = \"old\", x = 1} {\n}\n", `module @m attributes {arc.target = "t", x = 1} {`},
	} {
		m, err := ParseString("m.mlir", c.src)
		if err != nil {
			t.Fatal(err)
		}
		ed := m.Edit()
		if err := ed.SetModuleAttrs([]string{"arc.target"}, []string{`"t"`}); err != nil {
			t.Fatal(err)
		}
		out, err := ed.Apply()
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(out.Src, c.want) {
			t.Errorf("%q became %q, want %q", c.src, out.Src, c.want)
		}
	}
	// An implicit module is written out as the module MLIR reads it as:
	// alias definitions before it, resource sections after it.
	for _, c := range []struct{ src, want string }{
		{"func.func @f() {\n  return\n}\n", "module attributes {a.b = 1} {\nfunc.func @f() {\n  return\n}\n}\n"},
		{"#l = loc(\"x\")\nfunc.func @f() {\n  return\n} // end\n#k = loc(\"y\")\n  func.func @g() {\n  return\n}",
			"#l = loc(\"x\")\n#k = loc(\"y\")\nmodule attributes {a.b = 1} {\nfunc.func @f() {\n  return\n} // end\n\n  func.func @g() {\n  return\n}\n}"},
		{"module @a {\n}\nmodule @b {\n}\n{-#\n#-}\n", "module attributes {a.b = 1} {\nmodule @a {\n}\nmodule @b {\n}\n}\n{-#\n#-}\n"},
	} {
		m, err := ParseString("m.mlir", c.src)
		if err != nil {
			t.Fatal(err)
		}
		if m.ModuleOp() != nil {
			t.Fatalf("%q: a module op", c.src)
		}
		ed := m.Edit()
		if err := ed.SetModuleAttrs([]string{"a.b"}, []string{"1"}); err != nil {
			t.Fatal(err)
		}
		out, err := ed.Apply()
		if err != nil {
			t.Fatal(err)
		}
		if out.Src != c.want {
			t.Errorf("%q became\n%s\nwant\n%s", c.src, out.Src, c.want)
		}
		if out.ModuleOp() == nil || out.Info() != (Info{}) {
			t.Errorf("%q: no explicit module (%v)", c.src, out.Info())
		}
	}
}

func TestAttributeValues(t *testing.T) {
	if elems, ok := SplitArray(`["a", "b, c", [1, 2]]`); !ok || len(elems) != 3 || elems[1] != `"b, c"` || elems[2] != "[1, 2]" {
		t.Errorf("SplitArray: %q %v", elems, ok)
	}
	if _, ok := SplitArray(`"[not an array]"`); ok {
		t.Error("a string read as an array")
	}
	if entries, ok := SplitDict(`{A = "x y", b}`); !ok || len(entries) != 2 || entries[0].Name != "A" || Unquote(entries[0].Value) != "x y" || entries[1].Name != "b" {
		t.Errorf("SplitDict: %v %v", entries, ok)
	}
	if got := StripType("7.5 : f64"); got != "7.5" {
		t.Errorf("StripType: %q", got)
	}
	if rows, err := DenseInts("dense<[[0, 1], [2, -1]]> : tensor<2x2xi64>"); err != nil || len(rows) != 2 || rows[1][1] != -1 {
		t.Errorf("DenseInts: %v %v", rows, err)
	}
}
