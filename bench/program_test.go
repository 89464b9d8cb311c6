package bench

import (
	"math"
	"path/filepath"
	"slices"
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
		// program to XLA unchanged: it only registers arc's kernels. It
		// compiles it again, with the settings xlarun gives a lowered
		// program (ProxySettings): the calls stay, and the all-reduces left
		// native hold that decision, so they stay as written.
		settings, err := ProxySettings(text)
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		if again, err := proxyCompile(t, text, settings); err != nil || string(again) != text {
			t.Errorf("%s: the pass-through proxy changed the program (err %v)", l, err)
		}
	}
}

// proxyCompile compiles a lowered program as xlarun's proxy does: for the
// chain's target, lowering nothing new (MinBytes beyond any size), with
// the program's settings (arc_NAME=VALUE, as the proxy reads them).
func proxyCompile(t *testing.T, text string, settings []XLAFlag) ([]byte, error) {
	t.Helper()
	opt := arc.Options{Target: "cuda:nvlink", MinBytes: math.MaxInt64}
	var lines []string
	for _, s := range settings {
		lines = append(lines, strings.ReplaceAll(strings.TrimPrefix(s.Name, "arc_"), "_", "-")+"="+s.Value)
	}
	if err := opt.SetLines(strings.Join(lines, "\n"), func(name string) string { return name }); err != nil {
		t.Fatalf("settings %v: %v", settings, err)
	}
	out, _, err := arc.Compile("<program>", []byte(text), opt)
	return out, err
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

// TestProxySettings: a lowered chain's calls need the proxy's compile to
// allow what they send beyond the order of the additions, as the compile
// that wrote them did: the lossy codec (arc_quant), and nothing for exact
// ones; without it the proxy's arc refuses them.
func TestProxySettings(t *testing.T) {
	for _, l := range Lowerings {
		text, chose, err := LowerChain(LowerOptions{Target: "cuda:nvlink"}, l, "f16", 1<<20, 2, 3)
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		settings, err := ProxySettings(text)
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		_, codec, _ := strings.Cut(chose, ":")
		var want []XLAFlag
		if codec != "" && codec != "fp" {
			want = []XLAFlag{{Name: "arc_quant", Value: codec}}
		}
		if !slices.Equal(settings, want) {
			t.Errorf("%s: settings %v, want %v", l, settings, want)
		}
		if _, err := proxyCompile(t, text, nil); want != nil && err == nil {
			t.Errorf("%s: the proxy's compile without the settings keeps a lossy call", l)
		}
	}
	cast, err := ProxySettings(`%0 = "stablehlo.custom_call"(%x) {backend_config = {algo = "twoshot", cast = 1 : i64, codec = "fp", groups = array<i64: 0, 1>, link = "peer", world = 2 : i64}, call_target_name = "arc_allreduce"} : (tensor<64xbf16>) -> tensor<64xbf16>`)
	if err != nil || !slices.Equal(cast, []XLAFlag{{Name: "arc_cast_bf16_to_fp16", Value: "true"}}) {
		t.Errorf("a cast call: %v, %v", cast, err)
	}
}
