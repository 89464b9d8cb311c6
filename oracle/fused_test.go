package oracle_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/arcpass/arc"
	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/oracle"
)

// fusedModules are programs whose norms arc fuses: gomlx's, JAX's Llama
// blocks (printed by JAX) and JAX-shaped ones written by hand.
var fusedModules = []string{"../examples/llama/model.mlir", "../testdata/fuse/jax_weight_io.mlir",
	"../testdata/fuse/jax_f32_rank3.mlir", "../testdata/fuse/f32_h_returned.mlir", "../testdata/fuse/jax_llama_layer.mlir",
	"../testdata/fixtures/jax_llama_block_tp2_bf16.mlir", "../testdata/fixtures/jax_llama_block_tp4_f32.mlir",
	"../testdata/fixtures/jax_llama_block_tp8_bf16.mlir"}

func compileFused(t *testing.T, file string) (orig, low *ir.Module, text string) {
	t.Helper()
	src := mustRead(t, file)
	var err error
	if orig, err = ir.Parse(file, src); err != nil {
		t.Fatal(err)
	}
	out, _, err := arc.Compile(file, src, arc.Options{Target: "cuda:nvlink"})
	if err != nil {
		t.Fatal(err)
	}
	text = string(out)
	if !strings.Contains(text, `norm = "rmsnorm"`) {
		t.Fatalf("%s: nothing fused", file)
	}
	if low, err = ir.ParseString("out.mlir", text); err != nil {
		t.Fatal(err)
	}
	return orig, low, text
}

// The oracle interprets the fused calls: the removed ops on the first rows,
// each call's h and y bit for bit from the same operands.
func TestFusedCallsCheck(t *testing.T) {
	for _, f := range fusedModules {
		orig, low, _ := compileFused(t, f)
		for seed := range uint64(3) {
			if err := oracle.Check(orig, low, oracle.Options{Seed: seed}); err != nil {
				t.Errorf("%s, seed %d: %v", f, seed, err)
			}
		}
	}
}

// A fused call that computes another norm than the ops it replaced, or
// takes its operands in another order, is a mismatch.
func TestFusedCallsPlanted(t *testing.T) {
	orig, _, text := compileFused(t, "../examples/llama/model.mlir")
	first := strings.Index(text, `norm = "rmsnorm"`)
	line := strings.LastIndexByte(text[:first], '\n') + 1
	end := line + strings.IndexByte(text[line:], '\n')
	for _, c := range []struct{ from, to string }{
		{`mean = "mul"`, `mean = "div"`},
		{`weight = "f32"`, `weight = "io"`},
		{`scale = 0x39000000`, `scale = 0x39000001`},
		{`(%125, %2, %b0_mlp_norm)`, `(%125, %b0_mlp_norm, %2)`},
		{`algo = "oneshot"`, `algo = "twoshot"`},
	} {
		mutated := text[:line] + strings.Replace(text[line:end], c.from, c.to, 1) + text[end:]
		if mutated == text {
			t.Fatalf("%q is not in the fused call", c.from)
		}
		low, err := ir.ParseString("planted.mlir", mutated)
		if err != nil {
			t.Fatal(err)
		}
		var mm *oracle.MismatchError
		if err := oracle.Check(orig, low, oracle.Options{}); !errors.As(err, &mm) {
			t.Errorf("%s -> %s: %v, want a mismatch", c.from, c.to, err)
		}
	}
}
