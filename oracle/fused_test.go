package oracle_test

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/arcpass/arc"
	"github.com/arcpass/arc/abi"
	"github.com/arcpass/arc/internal/normgen"
	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/oracle"
)

// fusedModules are programs whose norms arc fuses: gomlx's, JAX's Llama
// blocks (printed by JAX) and JAX-shaped ones written by hand.
var fusedModules = []string{"../examples/llama/model.mlir", "../testdata/fuse/jax_weight_io.mlir",
	"../testdata/fuse/jax_f32_rank3.mlir", "../testdata/fuse/f32_h_returned.mlir", "../testdata/fuse/gemma_weight_after_add.mlir", "../testdata/fuse/jax_llama_layer.mlir",
	"../testdata/fuse/odd_rows_f32.mlir",
	"../testdata/fixtures/jax_llama_block_tp2_bf16.mlir", "../testdata/fixtures/jax_llama_block_tp4_f32.mlir",
	"../testdata/fixtures/jax_llama_block_tp8_bf16.mlir", "../testdata/fixtures/jax_gemma_io_tp2_bf16.mlir",
	"../testdata/fixtures/jax_gemma_io_tp2_f32.mlir", "../testdata/fixtures/jax_gemma_tp2_f32.mlir",
	"../testdata/fixtures/jax_rms_fp8_tp2_bf16.mlir"}

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

// lowerNorm compiles src for cuda:nvlink and requires a fused call.
func lowerNorm(t *testing.T, what, src string) string {
	t.Helper()
	out, _, err := arc.Compile("in.mlir", []byte(src), arc.Options{Target: "cuda:nvlink"})
	if err != nil {
		t.Fatalf("%s: %v\n%s", what, err, src)
	}
	if !strings.Contains(string(out), `norm = "rmsnorm"`) {
		t.Fatalf("%s: nothing fused\n%s", what, src)
	}
	return string(out)
}

// mustMismatch checks that the oracle finds lowered to compute something
// else than orig, saying want.
func mustMismatch(t *testing.T, what, orig, lowered, want string, opt oracle.Options) {
	t.Helper()
	err := oracle.Check(parse(t, "orig.mlir", orig), parse(t, "lowered.mlir", lowered), opt)
	var mm *oracle.MismatchError
	if !errors.As(err, &mm) || !strings.Contains(err.Error(), want) {
		t.Errorf("%s: %v\nwant a mismatch saying %q", what, err, want)
	}
}

// The matcher's mistakes, made by hand: the lowering of the program a
// mistaken matcher reads, handed to the oracle as the lowering of the
// program itself. The oracle reads the program with its own eyes: a
// constant's value, not another dense value its attribute dictionary holds;
// a reduction's maximum, whatever its location says; the weight's type
// where the program states it. Each is a mismatch.
func TestFusedMatcherMistakes(t *testing.T) {
	attr := regexp.MustCompile(`\{note = (dense<[^>]*>) : tensor<f32>\} dense<[^>]*>`)
	attrGeneric := regexp.MustCompile(`\{note = (dense<[^>]*>) : tensor<f32>, value = dense<[^>]*>( : [^,]*), zz = [^}]*\}`)
	for _, generic := range []bool{false, true} {
		for sub := range 2 {
			// Constants read from their attribute dictionaries.
			c := normgen.Case{Generic: generic, Elem: sub, Shape: 1 + sub, Mean: sub, Eps: 2, Near: normgen.ConstAttr, Sub: sub}
			prog := c.Module()
			misread := attr.ReplaceAllString(prog, "$1")
			if generic {
				misread = attrGeneric.ReplaceAllString(prog, "{value = $1$2}")
			}
			if misread == prog {
				t.Fatalf("%s: no constant with a dictionary", c)
			}
			mustMismatch(t, c.String(), prog, lowerNorm(t, c.String(), misread), "the fused call", oracle.Options{})

			// A maximum taken for a sum (its location saying otherwise).
			for _, near := range []int{normgen.MaxReducer, normgen.MaxLocAdd} {
				c := normgen.Case{Generic: generic, Elem: sub, Shape: 3, Weight: sub, Near: near, Sub: sub}
				sum := c
				sum.Near = normgen.Exact
				mustMismatch(t, c.String(), c.Module(), lowerNorm(t, sum.String(), sum.Module()), "the ops it replaced", oracle.Options{})
			}
		}
		// Another function's weight: the program multiplies by an f32
		// weight, the call takes it as bf16.
		c := normgen.Case{Generic: generic, Shape: 0}
		prog := c.Module()
		low := lowerNorm(t, c.String(), prog)
		conv := `stablehlo.convert %w : (tensor<64xbf16>) -> tensor<64xf32>`
		to := `stablehlo.reshape %w : (tensor<64xf32>) -> tensor<64xf32>`
		if generic {
			conv, to = `"stablehlo.convert"(%w) : (tensor<64xbf16>) -> tensor<64xf32>`, `"stablehlo.reshape"(%w) : (tensor<64xf32>) -> tensor<64xf32>`
		}
		prog = edit(t, edit(t, prog, conv, to), "%w: tensor<64xbf16>", "%w: tensor<64xf32>")
		mustMismatch(t, c.String()+", an f32 weight", prog, low, "takes %w (an argument of func.func at 3:", oracle.Options{})
	}
}

// A fused call whose epsilon is one ulp off is a mismatch, where epsilon
// counts (1024, against means of squares near 20: every row's mean + eps
// moves by one ulp, and about half the rows' factors with it).
func TestFusedEpsilonOneUlp(t *testing.T) {
	for _, generic := range []bool{false, true} {
		c := normgen.Case{Generic: generic, Elem: 1, Shape: 7} // f32, 32 rows of 32: every row interpreted
		prog := edit(t, c.Module(), "dense<1.000000e-06>", "dense<1.024000e+03>")
		low := lowerNorm(t, c.String(), prog)
		mustAgree(t, prog, low, oracle.Options{})
		mustMismatch(t, c.String(), prog, edit(t, low, "eps = 0x44800000 : f32", "eps = 0x44800001 : f32"), "the fused call", oracle.Options{})
	}
}

// Every fused call of the generated seeds is interpreted: a call whose
// scale is doubled, or whose epsilon is another, is a mismatch (every form,
// type, weight placement, shadowed name and callee the seeds hold).
func TestFusedSeedsPlanted(t *testing.T) {
	scale := regexp.MustCompile(`scale = 0x([0-9A-F]{8}) : f32`)
	eps := regexp.MustCompile(`eps = 0x[0-9A-F]{8} : f32`)
	n := 0
	for _, c := range normgen.Seeds() {
		src := c.Module()
		out, _, err := arc.Compile("in.mlir", []byte(src), arc.Options{Target: "cuda:nvlink"})
		if err != nil || !strings.Contains(string(out), `norm = "rmsnorm"`) {
			continue
		}
		n++
		low := string(out)
		doubled := scale.ReplaceAllStringFunc(low, func(s string) string {
			bits, _ := strconv.ParseUint(scale.FindStringSubmatch(s)[1], 16, 32)
			return fmt.Sprintf("scale = 0x%08X : f32", bits+1<<23)
		})
		mustMismatch(t, c.String()+", scale doubled", src, doubled, "the fused call", oracle.Options{MaxElems: 32})
		other := eps.ReplaceAllString(low, "eps = 0x41000000 : f32") // 8
		mustMismatch(t, c.String()+", eps 8", src, other, "the fused call", oracle.Options{MaxElems: 32})
	}
	if n < 40 {
		t.Errorf("%d seeds fused", n)
	}
}

// A lowering may move a pure op earlier (the ops that make Gemma's weight
// 1 + w, which the fused call in the add's place reads), but computing the
// weight otherwise, or moving an op that is not pure, is a mismatch.
func TestFusedMovedOps(t *testing.T) {
	src := string(mustRead(t, "../testdata/fuse/gemma_weight_after_add.mlir"))
	orig := strings.Replace(src, "    return %1, %13", "    %s1 = stablehlo.sine %arg2 : tensor<256xf32>\n    %s2 = stablehlo.cosine %arg2 : tensor<256xf32>\n    return %1, %13", 1)
	low := lowerNorm(t, "gemma", orig)
	if err := oracle.Check(parse(t, "orig.mlir", orig), parse(t, "lowered.mlir", low), oracle.Options{}); err != nil {
		t.Fatalf("the lowering with the weight's ops moved: %v", err)
	}
	other := strings.Replace(low, "%w1 = stablehlo.add %one, %arg2", "%w1 = stablehlo.subtract %one, %arg2", 1)
	if other == low {
		t.Fatal("no moved add in the lowered module")
	}
	mustMismatch(t, "the weight computed otherwise", orig, other, "stands where the original has stablehlo.add", oracle.Options{})
	sine, cosine := "    %s1 = stablehlo.sine %arg2 : tensor<256xf32>\n", "    %s2 = stablehlo.cosine %arg2 : tensor<256xf32>\n"
	swapped := strings.Replace(low, sine+cosine, cosine+sine, 1)
	if swapped == low {
		t.Fatal("no sine and cosine in the lowered module")
	}
	mustMismatch(t, "an op that is not pure moved", orig, swapped, "only pure ops move", oracle.Options{})
}

// layerNormModules are LayerNorms arc matches: gomlx's and JAX's (printed
// by them) and JAX-shaped ones written by hand, both variances, with and without a
// bias, sums from +0 and from -0.
var layerNormModules = []string{"../testdata/fixtures/gomlx_layernorm_tp4_f32.mlir", "../testdata/fixtures/gomlx_layernorm_tp4_bf16.mlir",
	"../testdata/fuse/layernorm_f32.mlir", "../testdata/fuse/layernorm_jax_bf16.mlir", "../testdata/fuse/layernorm_fast_jax_bf16.mlir",
	"../testdata/fixtures/jax_layernorm_tp2_bf16.mlir", "../testdata/fixtures/jax_layernorm_tp2_f32.mlir",
	"../testdata/fixtures/jax_layernorm_fast_tp2_bf16.mlir", "../testdata/fixtures/jax_layernorm_fast_tp2_f32.mlir"}

// withLayerNormKernels lets the compile fuse LayerNorm, as a build whose
// kernels run it does.
func withLayerNormKernels(t *testing.T) {
	was := abi.KernelNorms
	abi.KernelNorms = abi.NormKinds
	t.Cleanup(func() { abi.KernelNorms = was })
}

// The oracle interprets LayerNorm's fused calls as RMSNorm's: the removed
// ops against reference/norm, bit for bit; a call whose recipe is off
// (its variance, its mean, its epsilon, a bias dropped) is a mismatch.
func TestLayerNormFusedCallsCheck(t *testing.T) {
	withLayerNormKernels(t)
	for _, f := range layerNormModules {
		src := mustRead(t, f)
		orig, err := ir.Parse(f, src)
		if err != nil {
			t.Fatal(err)
		}
		out, _, err := arc.Compile(f, src, arc.Options{Target: "cuda:nvlink"})
		if err != nil {
			t.Fatal(err)
		}
		text := string(out)
		if !strings.Contains(text, `norm = "layernorm`) {
			t.Fatalf("%s: no LayerNorm fused", f)
		}
		for seed := range uint64(3) {
			if err := oracle.Check(orig, parse(t, "out.mlir", text), oracle.Options{Seed: seed}); err != nil {
				t.Errorf("%s, seed %d: %v", f, seed, err)
			}
		}
		kind := regexp.MustCompile(`norm = "(layernorm\w*)"`).FindStringSubmatch(text)[1]
		mean := regexp.MustCompile(`mean = "(\w+)"`).FindStringSubmatch(text)[1]
		// (The two variances differ only by roundings, which the rows the
		// oracle interprets often do not show: reference/norm's tests and
		// the GPU's tell them apart.)
		for _, c := range []struct{ from, to string }{
			{`norm = "` + kind + `"`, `norm = "rmsnorm"`},
			{`eps = 0x3`, `eps = 0x4`}, // an epsilon of 2 or more
			{`mean = "` + mean + `"`, `mean = "` + map[string]string{"mul": "div", "div": "mul"}[mean] + `"`},
		} {
			mutated := strings.Replace(text, c.from, c.to, 1)
			if mutated == text {
				t.Fatalf("%s: %q is not in the fused call", f, c.from)
			}
			low, err := ir.ParseString("planted.mlir", mutated)
			if err != nil {
				t.Fatal(err)
			}
			var mm *oracle.MismatchError
			if err := oracle.Check(orig, low, oracle.Options{}); !errors.As(err, &mm) {
				t.Errorf("%s: %s -> %s: %v, want a mismatch", f, c.from, c.to, err)
			}
		}
	}
}

// normgen's LayerNorms (both variances; h - mean once or twice; the fast
// variance unclamped and mean - h, which must not fuse) in every printed
// form, type, mean and weight placement: with the kernels' gate lifted,
// exactly the cases normgen calls exact fuse, as their kind, and the
// oracle agrees with every one, fused or not.
func TestLayerNormGenerated(t *testing.T) {
	withLayerNormKernels(t)
	fused := 0
	for _, generic := range []bool{false, true} {
		for elem := range 3 {
			for mean := range 4 {
				for sub := range 5 {
					c := normgen.Case{Generic: generic, Elem: elem, Shape: (elem + mean + sub) % 4, Mean: mean, Near: normgen.LayerNorm, Sub: sub,
						Square: (mean+sub)%2 == 1, Return: (mean + sub) % 3, Weight: (elem + sub) % 3}
					src := c.Module()
					out, _, err := arc.Compile("gen.mlir", []byte(src), arc.Options{Target: "cuda:nvlink"})
					if err != nil {
						t.Fatalf("%s: %v", c, err)
					}
					kind := regexp.MustCompile(`norm = "(layernorm\w*)"`).FindStringSubmatch(string(out))
					if got, want := kind != nil, c.LayerExact(); got != want {
						t.Errorf("%s: fused %v, want %v", c, got, want)
					}
					if kind != nil {
						fused++
						if want := map[bool]string{false: "layernorm", true: "layernorm_fast"}[sub == 2]; kind[1] != want {
							t.Errorf("%s: fused as %s, want %s", c, kind[1], want)
						}
					}
					if err := oracle.Check(parse(t, "gen.mlir", src), parse(t, "out.mlir", string(out)), oracle.Options{}); err != nil {
						t.Errorf("%s: %v", c, err)
					}
				}
			}
		}
	}
	if fused < 10 {
		t.Errorf("%d generated LayerNorms fused", fused)
	}
	t.Logf("%d of 120 fused", fused)
}
