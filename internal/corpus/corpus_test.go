package corpus

import (
	"reflect"
	"strings"
	"testing"
)

func TestSplit(t *testing.T) {
	text := "// RUN: opt %s\n\nfunc.func @a()\n// -----\n\n// -----   \nfunc.func @b()\n  // ----- trailing words\n// only a comment\n"
	got := Split(text)
	want := []Piece{
		{"// RUN: opt %s\n\nfunc.func @a()\n", 1},
		{"func.func @b()\n", 7},
		{"// only a comment\n", 9},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Split:\n got %+v\nwant %+v", got, want)
	}
	if got := Split("no marker, no newline"); len(got) != 1 || got[0] != (Piece{"no marker, no newline", 1}) {
		t.Errorf("Split of one line: %+v", got)
	}
}

func TestDiagnostics(t *testing.T) {
	piece := strings.Join([]string{
		`func.func @f(%x: tensor<f32>) {`,
		`  // expected-error@+1 {{'stablehlo.all_reduce' op replica groups are bad}}`,
		`  %0 = "stablehlo.all_reduce"(%x) ({`,
		`  // expected-error @-1 {{no quoted op here}}`,
		`  // expected-note @below {{see {{.*}} below}}`,
		`  // expected-warning @below {{skips the note above}}`,
		`  stablehlo.return %x : tensor<f32>`,
		`  "test.op"() : () -> () // expected-remark {{same line}}`,
		`  // expected-error-re @unknown {{anywhere}}`,
		`}`,
	}, "\n")
	want := []Diagnostic{
		{Kind: "error", Line: 3, Op: "stablehlo.all_reduce", Msg: "'stablehlo.all_reduce' op replica groups are bad"},
		{Kind: "error", Line: 3, Op: "stablehlo.all_reduce", Msg: "no quoted op here"},
		{Kind: "note", Line: 7, Op: "stablehlo.return", Msg: "see {{.*}} below"},
		{Kind: "warning", Line: 7, Op: "stablehlo.return", Msg: "skips the note above"},
		{Kind: "remark", Line: 8, Op: "test.op", Msg: "same line"},
		{Kind: "error", Line: 0, Op: "", Msg: "anywhere"},
	}
	got := Diagnostics(piece)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Diagnostics:\n got %+v\nwant %+v", got, want)
	}
	if !Invalid(got) || Invalid(got[2:3]) || Invalid(got[4:5]) {
		t.Error("Invalid: errors and warnings make a piece invalid, notes and remarks do not")
	}
}

func TestJAXModules(t *testing.T) {
	py := "x = dict(\n    mlir_module_text=r\"\"\"\nmodule @m {\n}\n\"\"\",\n    other=1)\ny = dict(mlir_module_text = \"\"\"module @n {}\"\"\")\n"
	got := JAXModules(py)
	want := []Piece{{"\nmodule @m {\n}\n", 2}, {"module @n {}", 7}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("JAXModules:\n got %+v\nwant %+v", got, want)
	}
}

func TestRunPasses(t *testing.T) {
	for _, c := range []struct {
		file string
		want []string
	}{
		{"// RUN: opt %s -split-input-file -verify-diagnostics | FileCheck %s", nil},
		{"// RUN: opt --mlir-print-op-generic --allow-unregistered-dialect -verify-diagnostics %s -o -", nil},
		{"// RUN: opt --refine -split-input-file \\\n// RUN:   --cse -verify-diagnostics %s", []string{"--refine", "--cse"}},
		// The RUN line that checks diagnostics with the fewest passes.
		{"// RUN: opt --a --b -verify-diagnostics %s\n// RUN: opt --c -verify-diagnostics %s\n// RUN: opt %s | FileCheck %s", []string{"--c"}},
		{"// RUN: opt %s | FileCheck %s", []string{NoRun}},
	} {
		if got := RunPasses(c.file); !reflect.DeepEqual(got, c.want) {
			t.Errorf("RunPasses(%q) = %q, want %q", c.file, got, c.want)
		}
	}
}
