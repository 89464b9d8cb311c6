package oracle_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/arcpass/arc"
	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/oracle"
)

// seedModules lists every fixture and testdata module of the repository.
func seedModules(t testing.TB) []string {
	var files []string
	for _, pat := range []string{"../testdata/fixtures/*.mlir", "../lowering/testdata/*.mlir", "../examples/*/model.mlir", "../ir/testdata/*.mlir"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	return files
}

// goldenTarget is the target a lowering golden (NAME.TARGET[.VARIANT].out.mlir)
// was written for, "" for other files.
func goldenTarget(file string) string {
	base := filepath.Base(file)
	if !strings.HasSuffix(base, ".out.mlir") {
		return ""
	}
	parts := strings.Split(base, ".")
	if len(parts) < 4 {
		return ""
	}
	t, _ := strings.CutPrefix(parts[1], "")
	if i := strings.IndexByte(t, '-'); i > 0 {
		t = t[:i] + ":" + t[i+1:]
	}
	return t
}

// TestFixturesEveryTarget: every fixture and testdata module that arc
// compiles for a target (each lowering golden for its own target, the other
// modules for every target) computes the same after lowering, on 64
// elements of each tensor.
func TestFixturesEveryTarget(t *testing.T) {
	checked := 0
	for _, f := range seedModules(t) {
		src := mustRead(t, f)
		orig, err := ir.Parse(f, src)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		targets := arc.Targets()
		if g := goldenTarget(f); g != "" {
			targets = []string{g}
		}
		for _, target := range targets {
			out, _, err := arc.Compile(f, src, arc.Options{Target: target})
			if err != nil {
				t.Logf("%s %s: rejected: %v", f, target, err)
				continue
			}
			low, err := ir.Parse(f+"."+target, out)
			if err != nil {
				t.Errorf("%s %s: output: %v", f, target, err)
				continue
			}
			if err := oracle.Check(orig, low, oracle.Options{MaxElems: 64}); err != nil {
				t.Errorf("%s %s: %v", f, target, err)
			}
			checked++
		}
	}
	t.Logf("%d compilations checked", checked)
}

// TestQuantizedLowerings: the sizes modules lowered with every quantized
// codec forced on every all-reduce the two-shot kernels take (and the
// hierarchical one on cuda:pcie-2numa) stay within each codec's bound, and
// are refused without the --quant that allows them.
func TestQuantizedLowerings(t *testing.T) {
	for _, f := range []string{"../lowering/testdata/sizes_w2.mlir", "../lowering/testdata/sizes_w8.mlir"} {
		src := mustRead(t, f)
		orig, err := ir.Parse(f, src)
		if err != nil {
			t.Fatal(err)
		}
		o, err := oracle.Prepare(orig, oracle.Options{MaxElems: 64})
		if err != nil {
			t.Fatal(err)
		}
		for _, target := range []string{"cuda:nvlink", "cuda:pcie-2numa", "rocm:mi300x"} {
			for _, q := range []string{"fp8", "int8", "int6", "int4", "int4r"} {
				out, _, err := arc.Compile(f, src, arc.Options{Target: target, Quant: q, Force: []string{"all=twoshot:" + q}})
				if err != nil {
					t.Fatalf("%s %s %s: %v", f, target, q, err)
				}
				if !strings.Contains(string(out), `codec = "`+q+`"`) {
					t.Fatalf("%s %s: no %s call", f, target, q)
				}
				low, err := ir.Parse("out.mlir", out)
				if err != nil {
					t.Fatal(err)
				}
				allowed, err := oracle.Prepare(orig, oracle.Options{MaxElems: 64, Quant: q})
				if err != nil {
					t.Fatal(err)
				}
				if err := allowed.Check(low); err != nil {
					t.Errorf("%s %s --quant %s: %v", f, target, q, err)
				}
				if err := o.Check(low); err == nil || !strings.Contains(err.Error(), "which the options do not allow") {
					t.Errorf("%s %s: %s calls accepted without --quant: %v", f, target, q, err)
				}
			}
		}
	}
}
