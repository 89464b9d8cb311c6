package arc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStrict: --strict fails, at a position, on what would otherwise pass
// silently: nothing lowered (groups that do not fit, size bounds, a module
// without all-reduces), a module lowered before for another target, and a
// --quant codec no all-reduce uses.
func TestStrict(t *testing.T) {
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("lowering", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	src, err := os.ReadFile(filepath.Join("testdata", "fixtures", "goxla_allreduce_4rep.mlir"))
	if err != nil {
		t.Fatal(err)
	}
	lowered := read("goxla_allreduce_4rep.cuda-nvlink.out.mlir")
	none := []byte("module @m {\n  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n    return %x : tensor<4xf32>\n  }\n}\n")
	for _, c := range []struct {
		name string
		src  []byte
		opt  Options
		want string // "" for success
	}{
		{"lowered", src, Options{Target: "cuda:nvlink"}, ""},
		{"lowered again for its own target", lowered, Options{Target: "cuda:nvlink"}, ""},
		{"the identity target lowers nothing by design", src, Options{Target: "none"}, ""},
		{"groups that do not fit", src, Options{Target: "tpu:v6e-1"},
			"m.mlir:3:5: --strict: nothing lowered for tpu:v6e-1: 2 all-reduce operands stay native: "},
		{"size bounds", src, Options{Target: "cuda:nvlink", MaxBytes: 1024},
			"m.mlir:3:5: --strict: nothing lowered for cuda:nvlink: 2 all-reduce operands stay native: above --max-bytes 1024 (row 0); reducer is max, arc's kernels sum (row 1)"},
		{"no all-reduce", none, Options{Target: "cuda:nvlink"}, "m.mlir:1:1: --strict: nothing lowered for cuda:nvlink: the module has no all-reduce"},
		{"lowered for another target", lowered, Options{Target: "rocm:mi300x"},
			"m.mlir:1:1: --strict: the module was lowered for cuda:nvlink (arc.target), not rocm:mi300x: compile the program as it was before arc"},
		{"lowered for another target, to none", lowered, Options{Target: "none"}, "m.mlir:1:1: --strict: the module was lowered for cuda:nvlink"},
		// A codec asked for and used by no row: each row says why.
		{"a --quant the GPU does not pick", src, Options{Target: "cuda:nvlink", Quant: "int8"},
			"m.mlir:3:5: --strict: --quant int8 is used by no all-reduce: twoshot int8 is slower here (est 13.0 us) (row 0); reducer is max, arc's kernels sum (row 1)"},
		{"a --quant the profile keeps off", src, Options{Target: "rocm:mi300x", Quant: "INT8"},
			"m.mlir:3:5: --strict: --quant int8 is used by no all-reduce: the rocm:mi300x profile allows twoshot:int8 from 16 MiB"},
		{"a --quant on a target without codecs", src, Options{Target: "tpu:v6e-4", Quant: "int4"},
			"m.mlir:3:5: --strict: --quant int4 is used by no all-reduce: TPU targets keep XLA's all-reduce"},
		{"a --quant that is used", read("sizes_w4.mlir"), Options{Target: "cuda:nvlink", Quant: "int8"}, ""},
	} {
		c.opt.Strict = true
		_, _, err := Compile("m.mlir", c.src, c.opt)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want)):
			t.Errorf("%s: %v, want %s...", c.name, err, c.want)
		}
		c.opt.Strict = false
		if _, _, err := Compile("m.mlir", c.src, c.opt); err != nil {
			t.Errorf("%s, not strict: %v", c.name, err)
		}
	}
}

// TestStrictFromEnv: ARC_STRICT and ARC_PROFILE_ANY_TARGET reach Options,
// as the proxies read them.
func TestStrictFromEnv(t *testing.T) {
	env := map[string]string{"ARC_STRICT": "1", "ARC_PROFILE_ANY_TARGET": "yes", "ARC_QUANT": "INT4"}
	var o Options
	if err := o.SetFromEnv(func(k string) (string, bool) { v, ok := env[k]; return v, ok }); err != nil {
		t.Fatal(err)
	}
	if !o.Strict || !o.ProfileAnyTarget || o.Quant != "int4" {
		t.Errorf("from the environment: %+v", o)
	}
	env["ARC_STRICT"] = "sometimes"
	if err := o.SetFromEnv(func(k string) (string, bool) { v, ok := env[k]; return v, ok }); err == nil || !strings.HasPrefix(err.Error(), `ARC_STRICT="sometimes"`) {
		t.Errorf("a bad ARC_STRICT: %v", err)
	}
}

// TestQuantNote: a --quant codec that no row uses is said once in the
// report (and so in --explain), with why; a codec in use is not.
func TestQuantNote(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "fixtures", "goxla_allreduce_4rep.mlir"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		opt  Options
		want string
	}{
		{Options{Target: "tpu:v6e-4", Quant: "int8"}, "--quant int8 is used by no all-reduce: TPU targets keep XLA's all-reduce (its groups in ring order), which sends the values as they are"},
		{Options{Target: "none", Quant: "int8"}, "--quant int8 is used by no all-reduce: target none lowers nothing"},
		{Options{Target: "cuda:nvlink", Quant: "int8"}, "--quant int8 is used by no all-reduce: twoshot int8 is slower here (est 13.0 us) (row 0); reducer is max, arc's kernels sum (row 1)"},
		{Options{Target: "cuda:nvlink"}, ""},
	} {
		_, rep, err := Compile("m.mlir", src, c.opt)
		if err != nil {
			t.Fatal(err)
		}
		var table strings.Builder
		if err := rep.WriteTable(&table); err != nil {
			t.Fatal(err)
		}
		switch {
		case c.want == "" && len(rep.Notes) > 0:
			t.Errorf("%+v: notes %q", c.opt, rep.Notes)
		case c.want != "" && (len(rep.Notes) != 1 || rep.Notes[0] != c.want):
			t.Errorf("%+v: notes %q, want %q", c.opt, rep.Notes, c.want)
		case c.want != "" && strings.Count(table.String(), c.want) != 1:
			t.Errorf("%+v: the table does not say %q once:\n%s", c.opt, c.want, table.String())
		}
	}
}
