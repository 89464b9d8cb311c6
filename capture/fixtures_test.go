package capture

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/pkg/core/distributed"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
	"github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/shapes"

	"github.com/arcpass/arc/internal/golden"
)

// The norms open models put after a row-parallel matmul's all-reduce, as a
// gomlx user writes them: each block returns the residual sum h and the
// norm's output y. Rows of 384 (not a power of two), 6 rows, 4 ranks.
const (
	fixtureRanks, fixtureRows, fixtureHidden, fixtureInner = 4, 6, 384, 128
	fixtureEps                                             = 1e-6
)

// gemmaNorm is Gemma's RMSNorm: y = h * rsqrt(mean(h*h) + eps) * (1 + w),
// in f32, converted back.
func gemmaNorm(h, w *graph.Node) *graph.Node {
	h32 := graph.ConvertDType(h, dtypes.Float32)
	z := graph.Mul(h32, graph.Rsqrt(graph.AddScalar(graph.ReduceAndKeep(graph.Square(h32), graph.ReduceMean, -1), fixtureEps)))
	scale := graph.OnePlus(graph.ConvertDType(w, dtypes.Float32))
	return graph.ConvertDType(graph.Mul(z, graph.InsertAxes(scale, 0)), h.DType())
}

// layerNorm is LayerNorm with a weight and a bias (GPT-2, OPT, Phi), in f32:
// the mean of the squared deviations.
func layerNorm(h, w, b *graph.Node) *graph.Node {
	h32 := graph.ConvertDType(h, dtypes.Float32)
	centered := graph.Sub(h32, graph.ReduceAndKeep(h32, graph.ReduceMean, -1))
	variance := graph.ReduceAndKeep(graph.Square(centered), graph.ReduceMean, -1)
	y := graph.Mul(centered, graph.Rsqrt(graph.AddScalar(variance, fixtureEps)))
	row := func(v *graph.Node) *graph.Node { return graph.InsertAxes(graph.ConvertDType(v, dtypes.Float32), 0) }
	return graph.ConvertDType(graph.Add(graph.Mul(y, row(w)), row(b)), h.DType())
}

// normBlock is the program of one block: h = residual + psum(x · wo), then
// the norm of h.
func normBlock(t *testing.T, b backends.Backend, norm string, dt dtypes.DType) (*graph.Graph, []*graph.Node) {
	t.Helper()
	mesh, err := distributed.NewDeviceMesh([]int{fixtureRanks}, []string{"tp"})
	if err != nil {
		t.Fatal(err)
	}
	g := graph.NewGraph(b, norm)
	if err := g.SetSPMD(mesh); err != nil {
		t.Fatal(err)
	}
	x := graph.Parameter(g, "x", shapes.Make(dt, fixtureRows, fixtureInner))
	wo := graph.Parameter(g, "wo", shapes.Make(dt, fixtureInner, fixtureHidden))
	residual := graph.Parameter(g, "residual", shapes.Make(dt, fixtureRows, fixtureHidden))
	w := graph.Parameter(g, "w", shapes.Make(dt, fixtureHidden))
	h := graph.Add(residual, g.Distributed().AllReduceOne(graph.MatMul(x, wo), backends.ReduceOpSum))
	switch norm {
	case "gemma":
		return g, []*graph.Node{h, gemmaNorm(h, w)}
	case "layernorm":
		bias := graph.Parameter(g, "b", shapes.Make(dt, fixtureHidden))
		return g, []*graph.Node{h, layerNorm(h, w, bias)}
	}
	t.Fatalf("no norm %q", norm)
	return nil, nil
}

// TestNormFixtures writes what gomlx hands PJRT for each norm block and
// dtype to ../testdata/fixtures/gomlx_NORM_tp4_DTYPE.mlir (-update
// rewrites them), byte for byte: lowering's goldens read them as inputs,
// so arc's decisions on them are goldens too.
func TestNormFixtures(t *testing.T) {
	b, err := NewBackend(fixtureRanks)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Finalize()
	for _, norm := range []string{"gemma", "layernorm"} {
		for _, dt := range []struct {
			name string
			dt   dtypes.DType
		}{{"bf16", dtypes.BFloat16}, {"f32", dtypes.Float32}} {
			t.Run(norm+"/"+dt.name, func(t *testing.T) {
				var program string
				if err := Catch(func() {
					g, outs := normBlock(t, b, norm, dt.dt)
					program, err = Compile(g, outs...)
				}); err != nil {
					t.Fatal(err)
				}
				if err != nil {
					t.Fatal(err)
				}
				golden.Check(t, filepath.Join("..", "testdata", "fixtures", fmt.Sprintf("gomlx_%s_tp%d_%s.mlir", norm, fixtureRanks, dt.name)), []byte(program))
			})
		}
	}
}
