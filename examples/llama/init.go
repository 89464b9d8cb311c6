package main

import (
	"hash/fnv"

	"github.com/gomlx/gomlx/pkg/core/dtypes"
	"github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/shapes"

	"github.com/arcpass/arc/examples/internal/megatron"
)

// The weights of a 70B-parameter model are too many to draw on the host and
// copy (some 70 GB per rank at tp 2): each shard is drawn on its GPU by a
// small program instead, offset + scale * (2u - 1) with u uniform in [0, 1)
// from a 32-bit hash of the element's index and a seed, one program per
// shape and element type. fill (in Go) is the same function, for the tests.

// fillGraph builds that program: parameters seed (uint32), scale and offset
// (float32), one output of dims in dt.
func fillGraph(g *graph.Graph, dt dtypes.DType, dims []int) *graph.Node {
	seed := graph.Parameter(g, "seed", shapes.Make(dtypes.Uint32))
	scale := graph.Parameter(g, "scale", shapes.Make(dtypes.Float32))
	offset := graph.Parameter(g, "offset", shapes.Make(dtypes.Float32))
	n := 1
	for _, d := range dims {
		n *= d
	}
	u32 := func(v uint32) *graph.Node { return graph.Const(g, v) }
	// x >> k is x / 2^k for unsigned integers; XLA turns the division into a shift.
	shr := func(x *graph.Node, k uint) *graph.Node { return graph.Div(x, u32(1<<k)) }
	// Every step involves the seed, so that XLA has no large constant to fold
	// on the host (it folds elementwise ops of iotas up to 45M elements).
	x := graph.Mul(graph.BitwiseXor(graph.Iota(g, shapes.Make(dtypes.Uint32, n), 0), seed), u32(hashMul1))
	x = graph.Mul(graph.BitwiseXor(x, shr(x, 16)), u32(hashMul2))
	x = graph.Mul(graph.BitwiseXor(x, shr(x, 13)), u32(hashMul3))
	x = graph.BitwiseXor(x, shr(x, 16))
	u := graph.MulScalar(graph.ConvertDType(shr(x, 8), dtypes.Float32), 1.0/(1<<24))
	v := graph.Add(graph.Mul(graph.AddScalar(graph.MulScalar(u, 2), -1), scale), offset)
	return graph.Reshape(graph.ConvertDType(v, dt), dims...)
}

const hashMul1, hashMul2, hashMul3 = 0x9E3779B1, 0x85EBCA6B, 0xC2B2AE35

// fill is fillGraph's function in Go: element i of the shard, in float32
// (before rounding to the element type).
func fill(seed uint32, scale, offset float32, i int) float32 {
	x := (uint32(i) ^ seed) * hashMul1
	x = (x ^ x>>16) * hashMul2
	x = (x ^ x>>13) * hashMul3
	x ^= x >> 16
	u := float32(x>>8) * (1.0 / (1 << 24))
	return (u*2-1)*scale + offset
}

// fillParams are the seed, scale and offset that draw rank's shard of t as
// t.Init asks: uniform in [-Scale, Scale) or every element Scale. A split
// tensor's shards are drawn each with its own seed; a replicated one is the
// same on every rank, as Megatron's split needs. Tokens are drawn on the
// host (megatron.Tensor.Values).
func fillParams(t megatron.Tensor, seed uint64, rank int) (uint32, float32, float32) {
	if t.Split == megatron.Replicated {
		rank = 0
	}
	h := fnv.New32a()
	h.Write([]byte(t.Name))
	s := h.Sum32() ^ uint32(seed)*0x27D4EB2F ^ uint32(rank+1)*0x165667B1
	if t.Init.Kind == megatron.Const {
		return s, 0, float32(t.Init.Scale)
	}
	return s, float32(t.Init.Scale), 0
}
