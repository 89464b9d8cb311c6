package arc_test

import (
	"bytes"
	"fmt"
	"strings"
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
// and for none, which parses, analyses and verifies only. The x-none
// metric is a target's time over none's, timed in the same run just before
// (the faster of two runs; docs/PERFORMANCE.md, "Compile time").
func BenchmarkNorms(b *testing.B) {
	for _, n := range []int{2000, 4000, 8000, 16000} {
		benchTargets(b, fmt.Sprintf("n=%d", n), benchmodule.Norms(n), []arc.Options{
			{Target: "none"}, {Target: "cuda:nvlink"}, {Target: "cuda:nvlink", Fuse: "false"},
		})
	}
}

// BenchmarkPacked compiles modules of N two-operand all-reduces in one
// function with packed results (benchmodule.Packed), whose lowering
// renames the uses of each one's results: once quadratic in N.
func BenchmarkPacked(b *testing.B) {
	for _, n := range []int{2000, 8000} {
		benchTargets(b, fmt.Sprintf("n=%d", n), benchmodule.Packed(n), []arc.Options{{Target: "none"}, {Target: "cuda:nvlink"}})
	}
}

// benchTargets times Compile of src for each of opts, as sub-benchmarks
// NAME/TARGET, with the x-none metric.
func benchTargets(b *testing.B, name string, src []byte, opts []arc.Options) {
	compile := func(b *testing.B, opt arc.Options) {
		if _, _, err := arc.Compile("bench.mlir", src, opt); err != nil {
			b.Fatal(err)
		}
	}
	for _, opt := range opts {
		label := strings.ReplaceAll(opt.Target, ":", "-")
		if opt.Fuse == "false" {
			label += "-nofuse"
		}
		b.Run(name+"/"+label, func(b *testing.B) {
			var none time.Duration
			if opt.Target != "none" {
				for range 2 {
					start := time.Now()
					compile(b, arc.Options{Target: "none"})
					if d := time.Since(start); none == 0 || d < none {
						none = d
					}
				}
			}
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				compile(b, opt)
			}
			b.ReportMetric(float64(len(src))/(1<<20), "input-MB")
			if none > 0 {
				b.ReportMetric(float64(b.Elapsed())/float64(b.N)/float64(none), "x-none")
			}
		})
	}
}
