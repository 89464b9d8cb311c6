package ir

import (
	"bytes"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/arcpass/arc/internal/benchmodule"
)

// roundTrip parses src and prints it into out.
func roundTrip(tb testing.TB, src []byte, out *bytes.Buffer) *Module {
	m, err := Parse("bench.mlir", src)
	if err != nil {
		tb.Fatal(err)
	}
	out.Reset()
	if err := m.Print(out); err != nil {
		tb.Fatal(err)
	}
	return m
}

// memoryUse measures one parse of src: the bytes allocated during it (with
// the collector off, an upper bound of the peak heap it adds) and the bytes
// the module keeps alive, both relative to the input size.
func memoryUse(tb testing.TB, src []byte) (allocated, live float64) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	var before, during, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	m, err := Parse("bench.mlir", src)
	if err != nil {
		tb.Fatal(err)
	}
	runtime.ReadMemStats(&during)
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(m)
	n := float64(len(src))
	return float64(during.TotalAlloc-before.TotalAlloc) / n, float64(after.HeapAlloc-before.HeapAlloc) / n
}

func BenchmarkRoundTrip(b *testing.B) {
	src := benchmodule.Build(b, "../testdata/fixtures/jax_tp_mlp_bf16_2dev.mlir", 50<<20)
	var out bytes.Buffer
	out.Grow(len(src))
	allocated, live := memoryUse(b, src)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		roundTrip(b, src, &out)
	}
	b.StopTimer()
	if !bytes.Equal(out.Bytes(), src) {
		b.Fatal("the round trip changed the text")
	}
	b.ReportMetric(float64(len(src))/(1<<20), "input-MB")
	b.ReportMetric(allocated, "alloc/input")
	b.ReportMetric(live, "live/input")
}

// TestBenchModule checks that the benchmark's module is what it claims: it
// round-trips, and holds one all-reduce per layer, each reading the layer's
// own value.
func TestBenchModule(t *testing.T) {
	src := benchmodule.Build(t, "../testdata/fixtures/jax_tp_mlp_bf16_2dev.mlir", 256<<10)
	var out bytes.Buffer
	m := roundTrip(t, src, &out)
	if !bytes.Equal(out.Bytes(), src) {
		t.Fatal("round trip changed the text")
	}
	cs, err := m.Collectives()
	if err != nil {
		t.Fatal(err)
	}
	layers := bytes.Count(src, []byte("stablehlo.dot_general")) / 2
	if len(cs) != layers || layers < 50 {
		t.Fatalf("%d all-reduces for %d layers", len(cs), layers)
	}
	for i, c := range cs {
		if want := fmt.Sprintf("%%l%d_15", i); c.Kind != "all_reduce" || len(c.Operands) != 1 || c.Operands[0] != want || c.Bytes() != 16384 {
			t.Fatalf("all-reduce %d: %s of %v (%d bytes), want one of %s", i, c.Kind, c.Operands, c.Bytes(), want)
		}
	}
}

// memoryInputs are modules of about size bytes that each stress one part of
// the tree: a JAX program (the round-trip benchmark's), the smallest ops
// (one letter and a line break each), block labels, empty regions, generic
// ops, and all-reduces whose groups expand from a mesh.
func memoryInputs(tb testing.TB, size int) map[string][]byte {
	repeat := func(head, unit, tail string) []byte {
		n := max(1, (size-len(head)-len(tail))/len(unit))
		return []byte(head + strings.Repeat(unit, n) + tail)
	}
	allReduce := `%r = "stablehlo.all_reduce"(%x) <{replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @m, axes = [#stablehlo.axis_ref<name = "y">]>}> ({
^bb0(%a: tensor<f32>, %b: tensor<f32>):
  stablehlo.return %a : tensor<f32>
}) : (tensor<8xf32>) -> tensor<8xf32>
`
	return map[string][]byte{
		"jax":       benchmodule.Build(tb, "../testdata/fixtures/jax_tp_mlp_bf16_2dev.mlir", size),
		"tiny-ops":  repeat("module {\n", "a.b\n", "}\n"),
		"labels":    repeat("module {\n\"x.y\"() ({\n", "^b:\n", "}) : () -> ()\n}\n"),
		"regions":   repeat("module {\n", "a.b{\n}\n", "}\n"),
		"generic":   repeat("module {\n", "\"a\"():()->()\n", "}\n"),
		"mesh-axes": repeat("module {\nsdy.mesh @m = <[\"x\"=4096, \"y\"=4096]>\n", allReduce, "}\n"),
	}
}

// BenchmarkParseMemory reports the bytes that ParseModule (and, for the
// all-reduces, Collectives) allocates per input byte, with the collector
// off: an upper bound of the memory a module of N bytes takes, N times the
// factor (docs/PERFORMANCE.md has the figures).
func BenchmarkParseMemory(b *testing.B) {
	inputs := memoryInputs(b, 8<<20)
	for _, name := range []string{"jax", "tiny-ops", "labels", "regions", "generic", "mesh-axes"} {
		src := inputs[name]
		b.Run(name, func(b *testing.B) {
			var allocated float64
			for b.Loop() {
				allocated = parseAllocated(b, src)
			}
			b.SetBytes(int64(len(src)))
			b.ReportMetric(allocated, "alloc/input")
		})
	}
}

// parseAllocated parses src, reads its collectives and returns the bytes
// allocated per input byte, the module's own copy of the text included.
func parseAllocated(tb testing.TB, src []byte) float64 {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	m, err := ParseModule("bench.mlir", src)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := m.Collectives(); err != nil {
		tb.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(m)
	return float64(after.TotalAlloc-before.TotalAlloc) / float64(len(src))
}

// Every input of BenchmarkParseMemory parses: a benchmark the parser's
// rules broke would otherwise fail only when someone runs it.
func TestMemoryInputsParse(t *testing.T) {
	for name, src := range memoryInputs(t, 64<<10) {
		m, err := ParseModule("bench.mlir", src)
		if err == nil {
			_, err = m.Collectives()
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
