// Package benchmodule builds the large module arc's benchmarks time: ir's
// round trip and the root package's compile.
package benchmodule

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

// Build returns a module of about size bytes: the layer of the JAX
// tensor-parallel MLP fixture (two matmuls, a GELU and a bf16 all-reduce),
// read from fixture, repeated with fresh value names, each layer reading
// the one before.
func Build(tb testing.TB, fixture string, size int) []byte {
	tb.Helper()
	src, err := os.ReadFile(fixture)
	if err != nil {
		tb.Fatal(err)
	}
	lines := strings.SplitAfter(string(src), "\n")
	// Lines 6-29 are the layer: %1 = dot_general ... %16 = all_reduce; line 5
	// opens the manual computation and 30-34 close it.
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

// Norms returns a module of n norm blocks as JAX prints a tensor-parallel
// model's psum, residual add and RMSNorm in f32 (jnp.mean(h*h, axis=-1,
// keepdims=True), lax.rsqrt(ms + eps), times a weight): an all-reduce sum
// of the previous block's output, the residual add, convert to f32, h*h, a
// reduce add over the last dimension, keepdims as a broadcast_in_dim, a
// divide by the row's length and an add of eps (constants broadcast), rsqrt,
// broadcast_in_dim, a multiply by h, the weight (an argument of main of its
// own, converted and broadcast) multiplied in, and a convert back to bf16.
// Each block reads the one before (its sum and its h); main returns the last
// ones. About 1,600 bytes per block.
func Norms(n int) []byte {
	const (
		dim  = 4096
		bf16 = "tensor<8x4096xbf16>"
		f32  = "tensor<8x4096xf32>"
		row  = "tensor<8xf32>"
		row1 = "tensor<8x1xf32>"
	)
	var b strings.Builder
	b.Grow(n * 1700)
	b.WriteString("module @jit_norms attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 2 : i32} {\n")
	b.WriteString("  func.func public @main(%arg0: " + bf16 + ", %arg1: " + bf16)
	for i := range n {
		fmt.Fprintf(&b, ", %%arg%d: tensor<%dxbf16>", i+2, dim)
	}
	b.WriteString(") -> (" + bf16 + ", " + bf16 + ") {\n")
	v, c := 0, 0 // the next value number and constant suffix
	val := func() string { v++; return fmt.Sprintf("%%%d", v-1) }
	cst := func() string {
		c++
		if c == 1 {
			return "%cst"
		}
		return fmt.Sprintf("%%cst_%d", c-2)
	}
	y, h := "%arg0", "%arg1"
	for i := range n {
		sum := val()
		fmt.Fprintf(&b, "    %s = \"stablehlo.all_reduce\"(%s) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({\n", sum, y)
		fmt.Fprintf(&b, "    ^bb0(%%a%d: tensor<bf16>, %%b%d: tensor<bf16>):\n", i, i)
		s := val()
		fmt.Fprintf(&b, "      %s = stablehlo.add %%a%d, %%b%d : tensor<bf16>\n", s, i, i)
		fmt.Fprintf(&b, "      stablehlo.return %s : tensor<bf16>\n", s)
		fmt.Fprintf(&b, "    }) : (%s) -> %s\n", bf16, bf16)
		hh := val()
		fmt.Fprintf(&b, "    %s = stablehlo.add %s, %s : %s\n", hh, h, sum, bf16)
		h32 := val()
		fmt.Fprintf(&b, "    %s = stablehlo.convert %s : (%s) -> %s\n", h32, hh, bf16, f32)
		sq := val()
		fmt.Fprintf(&b, "    %s = stablehlo.multiply %s, %s : %s\n", sq, h32, h32, f32)
		zero := cst()
		fmt.Fprintf(&b, "    %s = stablehlo.constant dense<0.000000e+00> : tensor<f32>\n", zero)
		red := val()
		fmt.Fprintf(&b, "    %s = stablehlo.reduce(%s init: %s) applies stablehlo.add across dimensions = [1] : (%s, tensor<f32>) -> %s\n", red, sq, zero, f32, row)
		keep := val()
		fmt.Fprintf(&b, "    %s = stablehlo.broadcast_in_dim %s, dims = [0] : (%s) -> %s\n", keep, red, row, row1)
		div := cst()
		fmt.Fprintf(&b, "    %s = stablehlo.constant dense<%.6e> : tensor<f32>\n", div, float64(dim))
		divb := val()
		fmt.Fprintf(&b, "    %s = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> %s\n", divb, div, row1)
		ms := val()
		fmt.Fprintf(&b, "    %s = stablehlo.divide %s, %s : %s\n", ms, keep, divb, row1)
		eps := cst()
		fmt.Fprintf(&b, "    %s = stablehlo.constant dense<9.99999997E-7> : tensor<f32>\n", eps)
		epsb := val()
		fmt.Fprintf(&b, "    %s = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> %s\n", epsb, eps, row1)
		add := val()
		fmt.Fprintf(&b, "    %s = stablehlo.add %s, %s : %s\n", add, ms, epsb, row1)
		rs := val()
		fmt.Fprintf(&b, "    %s = stablehlo.rsqrt %s : %s\n", rs, add, row1)
		rsb := val()
		fmt.Fprintf(&b, "    %s = stablehlo.broadcast_in_dim %s, dims = [0, 1] : (%s) -> %s\n", rsb, rs, row1, f32)
		normed := val()
		fmt.Fprintf(&b, "    %s = stablehlo.multiply %s, %s : %s\n", normed, h32, rsb, f32)
		w32 := val()
		fmt.Fprintf(&b, "    %s = stablehlo.convert %%arg%d : (tensor<%dxbf16>) -> tensor<%dxf32>\n", w32, i+2, dim, dim)
		wb := val()
		fmt.Fprintf(&b, "    %s = stablehlo.broadcast_in_dim %s, dims = [1] : (tensor<%dxf32>) -> %s\n", wb, w32, dim, f32)
		out := val()
		fmt.Fprintf(&b, "    %s = stablehlo.multiply %s, %s : %s\n", out, normed, wb, f32)
		y = val()
		fmt.Fprintf(&b, "    %s = stablehlo.convert %s : (%s) -> %s\n", y, out, f32, bf16)
		h = hh
	}
	fmt.Fprintf(&b, "    return %s, %s : %s, %s\n  }\n}\n", y, h, bf16, bf16)
	return []byte(b.String())
}

// Packed returns a module of n two-operand all-reduces in one function,
// their results packed ("%0:2", read as "%0#0" and "%0#1"), each reading
// the one before: lowering one splits it into two calls and renames the
// uses of its results, once per all-reduce in the same scope.
func Packed(n int) []byte {
	const t = "tensor<4096xf32>"
	var b strings.Builder
	b.Grow(n * 520)
	b.WriteString("module @packed attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 2 : i32} {\n")
	fmt.Fprintf(&b, "  func.func public @main(%%x: %s, %%y: %s) -> (%s, %s) {\n", t, t, t, t)
	x, y := "%x", "%y"
	for i := range n {
		fmt.Fprintf(&b, "    %%%d:2 = \"stablehlo.all_reduce\"(%s, %s) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({\n", i, x, y)
		b.WriteString("    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n      %s = stablehlo.add %a, %b : tensor<f32>\n      stablehlo.return %s : tensor<f32>\n")
		fmt.Fprintf(&b, "    }) : (%s, %s) -> (%s, %s)\n", t, t, t, t)
		fmt.Fprintf(&b, "    %%m%d = stablehlo.multiply %%%d#0, %%%d#1 : %s\n", i, i, i, t)
		x, y = fmt.Sprintf("%%m%d", i), fmt.Sprintf("%%%d#1", i)
	}
	fmt.Fprintf(&b, "    return %s, %s : %s, %s\n  }\n}\n", x, y, t, t)
	return []byte(b.String())
}
