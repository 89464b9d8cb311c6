package arc_test

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/arcpass/arc"
)

// compileBenchModule builds a module of about size bytes as ir's round-trip
// benchmark does: the layer of the JAX tensor-parallel MLP fixture (two
// matmuls, a GELU and a bf16 all-reduce) repeated with fresh value names,
// each layer reading the one before.
func compileBenchModule(tb testing.TB, size int) []byte {
	tb.Helper()
	src, err := os.ReadFile("testdata/fixtures/jax_tp_mlp_bf16_2dev.mlir")
	if err != nil {
		tb.Fatal(err)
	}
	lines := strings.SplitAfter(string(src), "\n")
	head, layer, tail := strings.Join(lines[:5], ""), strings.Join(lines[5:29], ""), strings.Join(lines[30:], "")
	if !strings.Contains(layer, `%16 = "stablehlo.all_reduce"(%15)`) || !strings.HasPrefix(lines[29], "      sdy.return %16") {
		tb.Fatal("the fixture's layer is not where the benchmark expects it")
	}
	local := regexp.MustCompile(`%(\d+|cst(_\d+)?)\b`)
	var b strings.Builder
	b.Grow(size + len(layer))
	b.WriteString(head)
	prev := "%arg3"
	for i := 0; b.Len() < size-len(tail); i++ {
		l := local.ReplaceAllString(layer, fmt.Sprintf("%%l%d_$1", i))
		b.WriteString(strings.ReplaceAll(l, "%arg3,", prev+","))
		prev = fmt.Sprintf("%%l%d_16", i)
	}
	fmt.Fprintf(&b, "      sdy.return %s : tensor<16x512xbf16>\n", prev)
	b.WriteString(tail)
	return []byte(b.String())
}

// BenchmarkCompile compiles the 50 MB module (one all-reduce per 4 KiB or
// so) for a GPU target that lowers every all-reduce, report included.
func BenchmarkCompile(b *testing.B) {
	src := compileBenchModule(b, 50<<20)
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
