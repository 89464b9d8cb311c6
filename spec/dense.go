package spec

import (
	"errors"
	"fmt"
	"math"

	"github.com/arcpass/arc/ir"
)

// dense is a replica_groups attribute written as dense elements,
// dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, read without expanding a splat.
type dense struct {
	shape []int64 // the declared type's shape
	elem  string
	// n is the number of elements the type declares (math.MaxInt64 when
	// that overflows).
	n     int64
	splat bool
	value int64   // the splat's element
	flat  []int64 // every element in row-major order, when not a splat
}

// denseError is a problem in the text of a dense attribute, at byte off of it.
type denseError struct {
	off int
	msg string
}

func (e *denseError) Error() string { return e.msg }

// parseDense reads dense<LITERAL> : TYPE as MLIR's parser does (package ir
// reads it), and asks for integer elements. It keeps at most as many
// elements as the text spells out.
func parseDense(v string) (*dense, error) {
	d, err := ir.ParseDense(v)
	if err != nil {
		var de *ir.DenseError
		if errors.As(err, &de) {
			return nil, &denseError{de.Off, de.Msg}
		}
		return nil, &denseError{0, err.Error()}
	}
	if d.Ints == nil {
		return nil, &denseError{ir.Closing(v, len("dense")) + 1, fmt.Sprintf("replica groups must be integers, found %s", d.Type.Elem)}
	}
	out := &dense{shape: d.Type.Shape, elem: d.Type.Elem, n: 1, splat: d.Splat}
	for _, s := range out.shape {
		if s != 0 && out.n > math.MaxInt64/s {
			out.n = math.MaxInt64
			break
		}
		out.n *= s
	}
	switch {
	case d.Splat:
		out.value = d.Ints[0]
	case len(d.Ints) > 0:
		out.flat = d.Ints
	}
	return out, nil
}
