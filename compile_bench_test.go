package arc_test

import (
	"bytes"
	"fmt"
	"testing"
	"time"

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

// BenchmarkNorms compiles modules of N norm blocks (benchmodule.Norms: a
// psum, the residual add and an RMSNorm in f32, as JAX prints them) for
// cuda:nvlink, which fuses each norm into its all-reduce, with fusion off,
// and for none, which parses, analyses, verifies and prints only. The
// x-none metric is a target's time over none's, timed in the same run just
// before (docs/PERFORMANCE.md, "Compile time").
func BenchmarkNorms(b *testing.B) {
	for _, n := range []int{2000, 4000, 8000, 16000} {
		src := benchmodule.Norms(n)
		compile := func(b *testing.B, opt arc.Options) {
			if _, _, err := arc.Compile("norms.mlir", src, opt); err != nil {
				b.Fatal(err)
			}
		}
		for _, c := range []struct {
			name string
			opt  arc.Options
		}{
			{"none", arc.Options{Target: "none"}},
			{"cuda-nvlink", arc.Options{Target: "cuda:nvlink"}},
			{"cuda-nvlink-nofuse", arc.Options{Target: "cuda:nvlink", Fuse: "false"}},
		} {
			b.Run(fmt.Sprintf("n=%d/%s", n, c.name), func(b *testing.B) {
				var none time.Duration
				if c.opt.Target != "none" {
					start := time.Now()
					compile(b, arc.Options{Target: "none"})
					none = time.Since(start)
				}
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				for b.Loop() {
					compile(b, c.opt)
				}
				b.ReportMetric(float64(len(src))/(1<<20), "input-MB")
				if none > 0 {
					b.ReportMetric(float64(b.Elapsed())/float64(b.N)/float64(none), "x-none")
				}
			})
		}
	}
}
