package arc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStrict: --strict fails, at a position, on what would otherwise pass
// silently: nothing lowered (groups that do not fit, size bounds, a module
// without all-reduces) and a module lowered before for another target.
func TestStrict(t *testing.T) {
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("lowering", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	src := read("goxla_allreduce_4rep.mlir")
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
