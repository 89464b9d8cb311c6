package bench

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arcpass/arc"
	"github.com/arcpass/arc/internal/golden"
)

// checkGolden compares got with testdata/name, or rewrites the file with -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), []byte(got))
}

func TestProgramText(t *testing.T) {
	checkGolden(t, "chain_f16_w2_k2.mlir", ProgramText("f16", 2048, 2, 2, true))
	checkGolden(t, "control_f16_w2_k2.mlir", ProgramText("f16", 2048, 2, 2, false))
	checkGolden(t, "chain_bf16_w4_k1.mlir", ProgramText("bf16", 64, 4, 1, true))
}

// TestProgramsParse: arc reads both programs the way it reads gomlx's; the
// chain has K all-reduces of the cell's size and the control none.
func TestProgramsParse(t *testing.T) {
	for _, chain := range []bool{true, false} {
		_, rep, err := arc.Compile("p", []byte(ProgramText("bf16", 1<<20, 2, 5, chain)), arc.Options{Target: "none"})
		if err != nil {
			t.Fatal(err)
		}
		want := 0
		if chain {
			want = 5
		}
		if len(rep.Collectives) != want {
			t.Fatalf("chain=%v: %d collectives, want %d", chain, len(rep.Collectives), want)
		}
		for _, r := range rep.Collectives {
			if r.Bytes != 2<<20 || r.DType != "bf16" || r.Reduction != "sum" || r.GroupSize != 2 {
				t.Errorf("row %d: %d bytes of %s, %s over %d ranks; want 2 MiB of bf16 summed over 2", r.Index, r.Bytes, r.DType, r.Reduction, r.GroupSize)
			}
		}
	}
}

func TestLowerChain(t *testing.T) {
	o := LowerOptions{Target: "cuda:nvlink"}
	text, chose, err := LowerChain(o, "twoshot:int8", "f16", 2048, 2, 2)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "chain_f16_w2_k2_twoshot_int8.mlir", text)
	if chose != "twoshot:int8" {
		t.Errorf("chose %q", chose)
	}
	for _, l := range Lowerings {
		text, chose, err := LowerChain(o, l, "f16", 1<<20, 2, 3)
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		calls := strings.Count(text, `call_target_name = "arc_allreduce"`)
		switch {
		case l == Auto:
			if chose == "" || chose == "native" {
				t.Errorf("auto at 1 MiB on cuda:nvlink chose %q; the built-in profile prefers an arc kernel there", chose)
			}
		case l.IsNative():
			if calls != 0 || chose != "native" || strings.Count(text, "stablehlo.all_reduce") != 3 {
				t.Errorf("%s: %d arc calls, chose %q, want 3 XLA all-reduces", l, calls, chose)
			}
		case calls != 3 || chose != l.Key():
			t.Errorf("%s: %d arc calls, chose %q; want 3 calls of %s", l, calls, chose, l.Key())
		}
		// The proxy the XLA machine registers must hand every lowered
		// program to XLA unchanged: it only registers arc's kernels.
		again, _, err := arc.Compile("p", []byte(text), arc.Options{Target: "cuda:nvlink", MinBytes: math.MaxInt64})
		if err != nil || string(again) != text {
			t.Errorf("%s: the pass-through proxy changed the program (err %v)", l, err)
		}
	}
}

func TestLowerChainErrors(t *testing.T) {
	// FP8 under the policy needs --quant fp8, but forced it runs anyway;
	// a kernel the target lacks is an error naming it.
	if _, chose, err := LowerChain(LowerOptions{Target: "cuda:nvlink"}, "lowprec:fp8", "bf16", 4096, 2, 1); err != nil || chose != "twoshot:fp8" {
		t.Errorf("lowprec:fp8: chose %q, %v", chose, err)
	}
	if _, _, err := LowerChain(LowerOptions{Target: "cuda:nvlink"}, "twoshot:int8", "f16", 4096, 3, 1); err == nil ||
		!strings.Contains(err.Error(), "group size 3") {
		t.Errorf("world 3: %v, want arc's error about the group size", err)
	}
	if _, _, err := LowerChain(LowerOptions{Target: "cuda:nvlink", Quant: "int9"}, Auto, "f16", 4096, 2, 1); err == nil {
		t.Error("--quant int9 was accepted")
	}
}

func TestLowerChainWorld1(t *testing.T) {
	for _, l := range NativeLowerings {
		text, chose, err := LowerChain(LowerOptions{Target: "cuda:nvlink"}, l, "bf16", 1024, 1, 2)
		if err != nil || chose != "native" || len(text) == 0 {
			t.Errorf("%s at world 1: chose %q, %v", l, chose, err)
		}
	}
}
