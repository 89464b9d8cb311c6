package arc_test

import (
	"bytes"
	"testing"

	"github.com/arcpass/arc"
	"github.com/arcpass/arc/internal/benchmodule"
)

// BenchmarkCompile compiles the 50 MB module (one all-reduce per 4 KiB or
// so) for a GPU target that lowers every all-reduce, report included.
func BenchmarkCompile(b *testing.B) {
	src := benchmodule.Build(b, "testdata/fixtures/jax_tp_mlp_bf16_2dev.mlir", 50<<20)
	opt := arc.Options{Target: "cuda:nvlink"}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	var out []byte
	var rep any
	for b.Loop() {
		o, r, err := arc.Compile("bench.mlir", src, opt)
		if err != nil {
			b.Fatal(err)
		}
		out, rep = o, r
	}
	b.StopTimer()
	if !bytes.Contains(out, []byte(`call_target_name = "arc_allreduce"`)) || rep == nil {
		b.Fatal("the benchmark's module was not lowered")
	}
	b.ReportMetric(float64(len(src))/(1<<20), "input-MB")
}
