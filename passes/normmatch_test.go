package passes

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arcpass/arc/ir"
)

// The matcher on the cases of testdata/fuse: each file's "// fuse:" line
// says "fused" and the recipe (a LayerNorm's kind first; then "bias" and
// "from -0" where they hold), or "not" and words of the reason. A "// fp8:"
// line says the FP8 epilogue after y: its op, scale and clip, or "not" and
// words of the reason; without one, the case has none.
func TestMatchNormCases(t *testing.T) {
	files, _ := filepath.Glob("../testdata/fuse/*.mlir")
	if len(files) == 0 {
		t.Fatal("no cases in testdata/fuse")
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var want, wantFP8 string
			for _, line := range strings.Split(string(src), "\n") {
				if w, ok := strings.CutPrefix(line, "// fuse: "); ok {
					want = w
				}
				if w, ok := strings.CutPrefix(line, "// fp8: "); ok {
					wantFP8 = w
				}
			}
			m, err := ir.ParseModule(path, src)
			if err != nil {
				t.Fatal(err)
			}
			cs, err := m.Collectives()
			if err != nil || len(cs) == 0 {
				t.Fatalf("no collective: %v", err)
			}
			fz, why, near := MatchNorm(m, cs[0].Op)
			if fz == nil && !near {
				t.Errorf("no residual add found before: %s", why)
			}
			got := "not " + why
			if fz != nil {
				r := fz.Recipe
				got = "fused"
				if r.Layer() {
					got += " " + r.Norm
				}
				got += fmt.Sprintf(" mean %s %g eps %g weight %s", r.Mean, r.Scale, r.Eps, r.Weight)
				if r.Bias {
					got += " bias"
				}
				if math.Signbit(float64(r.Init)) {
					got += " from -0"
				}
			}
			if fused := strings.HasPrefix(want, "fused"); fused != (fz != nil) || fused && got != want || !fused && !strings.Contains(got, strings.TrimPrefix(want, "not ")) {
				t.Errorf("got %q\nwant %q", got, want)
			}
			if fz == nil {
				return
			}
			gotFP8 := ""
			switch {
			case fz.FP8 != nil:
				gotFP8 = fmt.Sprintf("%s %g by %s", fz.FP8.Op, fz.FP8.Scale, fz.FP8.Clip)
			case fz.FP8Miss != "":
				gotFP8 = "not " + fz.FP8Miss
			}
			if matched := !strings.HasPrefix(wantFP8, "not "); matched && gotFP8 != wantFP8 || !matched && !strings.HasPrefix(gotFP8, "not ") || !matched && !strings.Contains(gotFP8, strings.TrimPrefix(wantFP8, "not ")) {
				t.Errorf("fp8: got %q\nwant %q", gotFP8, wantFP8)
			}
		})
	}
}

// The gomlx llama example: the residual add and RMSNorm after each of its
// four all-reduces, every op of the norm but the shared constants.
func TestMatchNormGomlxLlama(t *testing.T) {
	src, err := os.ReadFile("../examples/llama/model.mlir")
	if err != nil {
		t.Fatal(err)
	}
	m, err := ir.ParseModule("model.mlir", src)
	if err != nil {
		t.Fatal(err)
	}
	cs, _ := m.Collectives()
	fused := 0
	for _, c := range cs {
		fz, why, _ := MatchNorm(m, c.Op)
		if fz == nil {
			t.Errorf("%v: not fused: %s", c.Pos, why)
			continue
		}
		fused++
		if r := fz.Recipe; r.Row != 8192 || r.Mean != "mul" || r.Scale != 1.0/8192 || r.Eps != float32(9.999999747378752e-06) || r.Weight != "f32" {
			t.Errorf("%v: recipe %v", c.Pos, r)
		}
		if len(fz.Ops) != 16 || !strings.Contains(m.Text(fz.Ops[0]), "stablehlo.add") || fz.Y != strings.Fields(m.Text(fz.Ops[15]))[0] {
			t.Errorf("%v: %d ops, from %q", c.Pos, len(fz.Ops), m.Text(fz.Ops[0]))
		}
		for _, op := range fz.Ops {
			if strings.Contains(m.Text(op), "stablehlo.constant") {
				t.Errorf("%v: removes a constant: %s", c.Pos, m.Text(op))
			}
		}
	}
	if fused != 4 {
		t.Errorf("%d of %d all-reduces fused, want 4", fused, len(cs))
	}
}

// The JAX Llama-shaped blocks that devtest/jax_llama_block.py prints
// (testdata/fixtures/jax_llama_block_tp*_*.mlir, printed by JAX on the CPU):
// both all-reduces of each block, the attention's and the MLP's, are followed
// by the residual add and an RMSNorm (the next sub-layer's), and both fuse.
func TestMatchNormJAXFixtures(t *testing.T) {
	files, _ := filepath.Glob("../testdata/fixtures/jax_llama_block_*.mlir")
	if len(files) == 0 {
		t.Skip("no JAX Llama block fixtures in testdata/fixtures yet")
	}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m, err := ir.ParseModule(path, src)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := m.Collectives()
		if err != nil {
			t.Fatal(err)
		}
		fused := 0
		for _, c := range cs {
			if c.Kind != "all_reduce" {
				continue
			}
			fz, why, near := MatchNorm(m, c.Op)
			if fz != nil {
				fused++
			} else if near {
				t.Errorf("%s:%v: a residual add follows but %s", filepath.Base(path), c.Pos, why)
			}
		}
		if fused != 2 {
			t.Errorf("%s: %d norms fused, want the block's 2", filepath.Base(path), fused)
		}
	}
}

// A sum that no add reads is not a fusion, said without reading the
// module's def-use (the 50 MB benchmark module's all-reduces feed dots);
// one an add reads, in any form, is matched in full.
func TestMatchWithoutAddReadsNoDefUse(t *testing.T) {
	const head = `func.func @f(%x: tensor<8x64xf32>, %r: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %0 = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8x64xf32>) -> tensor<8x64xf32>
`
	for _, c := range []struct {
		name, body string
		read       bool
	}{
		{"a multiply reads it", "  %1 = stablehlo.multiply %0, %r : tensor<8x64xf32>\n  return %1 : tensor<8x64xf32>\n}\n", false},
		{"a pretty add reads it", "  %1 = stablehlo.add %r, %0 : tensor<8x64xf32>\n  return %1 : tensor<8x64xf32>\n}\n", true},
		{"a generic add reads it", "  %1 = \"stablehlo.add\"(%0, %r) : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>\n  return %1 : tensor<8x64xf32>\n}\n", true},
	} {
		m, err := ir.ParseString("a.mlir", head+c.body)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := m.Collectives()
		if err != nil || len(cs) != 1 {
			t.Fatalf("%s: collectives %v, %v", c.name, cs, err)
		}
		nm := NewNormMatcher(m)
		fz, why, near := nm.Match(cs[0])
		if fz != nil {
			t.Errorf("%s: fused", c.name)
		}
		if (nm.g != nil) != c.read || near != c.read {
			t.Errorf("%s: def-use read %v, near miss %v (%s), want %v", c.name, nm.g != nil, near, why, c.read)
		}
	}
}

// JAX's own print of an FP8 quantization after RMSNorm, inside a manual
// computation, the clip a call of a private function.
func TestMatchNormFP8JaxFixture(t *testing.T) {
	path := "../testdata/fixtures/jax_rms_fp8_tp2_bf16.mlir"
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := ir.ParseModule(path, src)
	if err != nil {
		t.Fatal(err)
	}
	cs, _ := m.Collectives()
	if len(cs) != 1 {
		t.Fatalf("%d collectives", len(cs))
	}
	fz, why, _ := MatchNorm(m, cs[0].Op)
	if fz == nil {
		t.Fatal(why)
	}
	e := fz.FP8
	if e == nil {
		t.Fatalf("no FP8 epilogue: %s", fz.FP8Miss)
	}
	if e.Op != "div" || e.Scale != 0.05 || e.Lo != -448 || e.Hi != 448 || e.Clip != "call @clip" || e.Q != "%24" || len(e.Ops) != 4 {
		t.Errorf("epilogue %+v", e)
	}
	if last := e.Ops[len(e.Ops)-1]; !strings.Contains(m.Text(last), "f8E4M3FN") {
		t.Errorf("the epilogue's last op is %s", m.Text(last))
	}
	for _, op := range e.Ops {
		if slices.Contains(fz.Ops, op) {
			t.Errorf("the fusion replaces the epilogue's %s", m.Text(op))
		}
	}
}
