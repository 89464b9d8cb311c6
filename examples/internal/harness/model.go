package harness

import (
	"fmt"

	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/pkg/core/distributed"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
	"github.com/gomlx/gomlx/pkg/core/graph"

	"github.com/arcpass/arc/capture"
	"github.com/arcpass/arc/examples/internal/megatron"
)

// Spec is how a model is laid out: tp ranks, one element type.
type Spec struct {
	TP    int
	DType dtypes.DType
}

// Elem names the element type as the flags do: bf16, f16 or f32.
func (s Spec) Elem() string {
	d, err := megatron.NumDType(s.DType)
	if err != nil {
		return s.DType.String()
	}
	return d.String()
}

// Model is an example's network.
type Model interface {
	// Name names the program: gomlx prints it as `module @Name`.
	Name() string
	// Describe is one line of sizes, for the report.
	Describe(s Spec) string
	// Check reports sizes that do not split over s.TP ranks.
	Check(s Spec) error
	// Tensors are the program's inputs, in parameter order.
	Tensors(s Spec) []megatron.Tensor
	// Build makes the program's outputs from its parameters; reduce is how
	// row-parallel layers sum their partial products.
	Build(w megatron.Weights, s Spec, reduce megatron.Reduce) []Output
}

// Output is one value the program returns, on every rank.
type Output struct {
	Name string
	Node *graph.Node
	// Split is Replicated (every rank holds the whole value) or Columns
	// (rank r holds the r-th block of the last axis).
	Split megatron.Split
	// Reduces is the number of all-reduces on the way to this output, which
	// sets how far arc without quantization may be from native (Tolerance).
	Reduces int
}

// Program builds m's SPMD program on backend over a mesh of s.TP devices
// (axis "tp"), named name. It returns the graph, not yet compiled, and its
// outputs. With one rank there is no mesh and nothing to reduce.
func Program(backend backends.Backend, m Model, s Spec, name string, reduce megatron.Reduce) (*graph.Graph, []Output, error) {
	g := graph.NewGraph(backend, name)
	if s.TP > 1 {
		mesh, err := distributed.NewDeviceMesh([]int{s.TP}, []string{"tp"})
		if err != nil {
			return nil, nil, err
		}
		if err := g.SetSPMD(mesh); err != nil {
			return nil, nil, err
		}
	} else {
		reduce = megatron.Skip // the sum over one rank is its partial product
	}
	var outs []Output
	err := capture.Catch(func() {
		w, err := megatron.Params(g, m.Tensors(s), s.TP)
		if err != nil {
			panic(err)
		}
		outs = m.Build(w, s, reduce)
	})
	if err != nil {
		return nil, nil, fmt.Errorf("building %s: %w", name, err)
	}
	return g, outs, nil
}

func nodes(outs []Output) []*graph.Node {
	ns := make([]*graph.Node, len(outs))
	for i, o := range outs {
		ns[i] = o.Node
	}
	return ns
}
