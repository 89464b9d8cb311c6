package oracle_test

import (
	"strings"
	"testing"

	"github.com/arcpass/arc"
	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/oracle"
)

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
