package main

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
	"github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/shapes"
	"github.com/gomlx/gomlx/pkg/core/tensors"

	"github.com/arcpass/arc/capture"
	"github.com/arcpass/arc/examples/internal/exampletest"
	"github.com/arcpass/arc/examples/internal/harness"
	"github.com/arcpass/arc/examples/internal/megatron"
)

func TestShippedModelIsWhatTheProgramWrites(t *testing.T) { exampletest.CheckProgram(t, run) }

func TestShippedModelCompilesForEveryTarget(t *testing.T) { exampletest.CheckReports(t) }

func TestShippedModelInspect(t *testing.T) { exampletest.CheckInspect(t) }

func TestFlags(t *testing.T) {
	exampletest.CheckUsageErrors(t, run, []exampletest.UsageError{
		{Args: []string{"--kv-heads", "8", "--tp", "16"}, Msg: "--kv-heads 8 do not split over --tp 16"},
		{Args: []string{"--heads", "64", "--kv-heads", "6"}, Msg: "--heads 64 do not share --kv-heads 6 evenly"},
		{Args: []string{"--heads", "5"}, Msg: "--hidden 8192 is not a whole number of --heads 5"},
		{Args: []string{"--hidden", "192", "--heads", "64", "--kv-heads", "8"}, Msg: "head size 3 (--hidden / --heads) is odd"},
		{Args: []string{"--vocab", "1001"}, Msg: "--vocab 1001 does not split over --tp 2"},
		{Args: []string{"--ffn", "7"}, Msg: "--ffn 7 does not split over --tp 2"},
		{Args: []string{"--context", "0"}, Msg: "must be positive"},
		{Args: []string{"--shapes", "decode:8,train:4"}, Msg: `--shapes: "train:4": want decode:BATCH or prefill:TOKENS`},
		{Args: []string{"--shapes", "prefill:0"}, Msg: `"prefill:0"`},
		{Args: []string{"--variants", "native,auto:int9"}, Msg: `auto's codec must be one of`},
		{Args: []string{"--variants", "native,twoshot:int3"}, Msg: `unknown lowering "twoshot:int3"`},
		{Args: []string{"--variants", "auto,AUTO"}, Msg: "auto listed twice"},
		{Args: []string{"--target", "cuda:nowhere"}, Msg: "--target"},
		{Args: []string{"--dump-only"}, Msg: "--dump-only needs --dump FILE"},
		{Args: []string{"--memory-fraction", "1.5"}, Msg: "--memory-fraction 1.5"},
		{Args: []string{"--dtype", "f64"}, Msg: `--dtype "f64"`},
	})
}

// tiny is a Llama small enough for the CPU: 4 heads sharing 2 key-value
// heads of 4, so that tp 2 gives each rank one key-value head and its two
// query heads.
func tiny() *llama {
	return &llama{layers: 1, hidden: 16, heads: 4, kvHeads: 2, ffn: 24, vocab: 12, context: 5, theta: 10000}
}

// TestDumpOnlySizes: the flags shape the program. A decode step of batch 3
// over 2 ranks: one key-value head of 4 per rank, half the MLP and
// vocabulary, a cache per block, two all-reduces per block; a prefill has
// no cache and returns the last token's logits; the control no all-reduce.
func TestDumpOnlySizes(t *testing.T) {
	args := []string{"--dump-only", "--dump", "-", "--tp", "2", "--layers", "3", "--hidden", "16", "--heads", "4",
		"--kv-heads", "2", "--ffn", "24", "--vocab", "12", "--context", "5", "--dtype", "f32"}
	dump := func(shapes string) string {
		var out, errs bytes.Buffer
		if code := run(append(args, "--shapes", shapes), &out, &errs); code != 0 {
			t.Fatalf("exit %d: %s", code, errs.String())
		}
		return out.String()
	}
	p := dump("decode:3,prefill:7")
	for _, want := range []string{
		"module @llama attributes {stablehlo.num_replicas = 2}",
		"%b2_wq: tensor<16x8xf32>", "%b2_wk: tensor<16x4xf32>", "%b2_wv: tensor<16x4xf32>", "%b2_wo: tensor<8x16xf32>",
		"%b2_w_gate: tensor<16x12xf32>", "%b2_w_down: tensor<12x16xf32>", "%lm_head: tensor<16x6xf32>",
		"%tokens: tensor<3x1xi32>", "%b2_k_cache: tensor<3x5x4xf32>", "-> tensor<3x6xf32>",
	} {
		if !strings.Contains(p, want) {
			t.Errorf("decode program lacks %q", want)
		}
	}
	if n := strings.Count(p, `"stablehlo.all_reduce"`); n != 6 {
		t.Errorf("%d all-reduces, want two per block (6)", n)
	}
	p = dump("prefill:7")
	if !strings.Contains(p, "%tokens: tensor<1x7xi32>") || strings.Contains(p, "cache") || !strings.Contains(p, "-> tensor<1x6xf32>") {
		t.Errorf("prefill program: tokens, caches or logits wrong:\n%.600s", p)
	}

	m := tiny()
	r, err := newRunner(m, options{tp: 2, steps: 1, jobs: 1, memFraction: 0.9, dtype: "f32", shapes: "decode:2",
		variants: "native"}, &bytes.Buffer{}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	cb := captureBackend(t, 2)
	control, err := r.capture(cb, step{N: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(control, "module @llama_control ") || strings.Contains(control, "all_reduce") {
		t.Errorf("the control program keeps all-reduces or its name:\n%.300s", control)
	}
}

// TestVariants: what each variant hands XLA for a decode step at tp 2 on
// cuda:nvlink: native unchanged, arc's policy oneshot at 64 bytes with the
// residual add and RMSNorm that follow in its kernel (not with
// auto-unfused), int8 allowed but not worth it there, int8 forced on every
// all-reduce, unfused (the tiny model's rows of 16 are not whole codec
// blocks, which two-shot's fused kernel needs).
func TestVariants(t *testing.T) {
	vs, err := parseVariants("native, native+symm+oneshot, auto, AUTO:int8, twoshot:int8, auto:none")
	if err == nil {
		t.Fatal("auto and auto:none both accepted")
	}
	if vs, err = parseVariants("native,native+symm+oneshot,auto,AUTO:int8,twoshot:int8,auto-unfused"); err != nil {
		t.Fatal(err)
	}
	m := tiny()
	r, err := newRunner(m, options{tp: 2, steps: 1, jobs: 1, memFraction: 0.9, dtype: "f32", shapes: "decode:2",
		variants: "native"}, &bytes.Buffer{}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	src, err := r.capture(captureBackend(t, 2), step{N: 2}, megatron.AllReduce)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ name, chose, flags string }{
		{"native", "-", ""},
		{"native+oneshot+symm", "-", "--xla_gpu_unsupported_use_all_reduce_one_shot_kernel=true --xla_gpu_experimental_enable_nccl_symmetric_buffers=true"},
		{"auto", "oneshot+rmsnorm x2", ""},
		{"auto:int8", "oneshot+rmsnorm x2", ""},
		{"twoshot:int8", "twoshot:int8 x2", ""},
		{"auto-unfused", "oneshot x2", ""},
	}
	for i, v := range vs {
		text, chose, err := v.lower(src, "cuda:nvlink")
		if err != nil {
			t.Fatalf("%s: %v", v.name, err)
		}
		var flags []string
		for _, f := range v.native.XLAFlags() {
			flags = append(flags, f.String())
		}
		if v.name != want[i].name || chose != want[i].chose || strings.Join(flags, " ") != want[i].flags {
			t.Errorf("variant %d: %s chose %q with flags %q; want %+v", i, v.name, chose, flags, want[i])
		}
		if v.isNative() != (text == src) {
			t.Errorf("%s: native %v, program changed %v", v.name, v.isNative(), text != src)
		}
	}
}

func captureBackend(t *testing.T, n int) backends.Backend {
	t.Helper()
	b, err := capture.NewBackend(n)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Finalize)
	return b
}

// cpuRun builds m's program for one rank on the pure-Go CPU backend and runs
// it on that rank's shards (drawn from seed 1, with some tensors' values
// replaced), returning its one output.
func cpuRun(t *testing.T, m *llama, tp, rank int, values map[string][]float32, build func(w megatron.Weights) *graph.Node) []float32 {
	t.Helper()
	spec := harness.Spec{TP: tp, DType: dtypes.Float32}
	ts := m.Tensors(spec)
	for name := range values {
		found := false
		for _, x := range ts {
			found = found || x.Name == name
		}
		if !found {
			ts = append(ts, megatron.Tensor{Name: name, DType: dtypes.Float32, Shape: []int{len(values[name])}})
		}
	}
	g := graph.NewGraph(exampletest.CPU(t), "llama")
	var out *graph.Node
	err := capture.Catch(func() {
		w, err := megatron.Params(g, ts, tp)
		if err != nil {
			panic(err)
		}
		out = build(w)
		g.Compile(out)
	})
	if err != nil {
		t.Fatal(err)
	}
	var in []any
	for _, x := range ts {
		v, ok := values[x.Name]
		if !ok {
			v = x.Values(1)
		}
		shard, err := x.Shard(v, tp, rank)
		if err != nil {
			t.Fatal(err)
		}
		shape, _ := x.ShardShape(tp)
		if x.DType == dtypes.Int32 {
			ints := make([]int32, len(shard))
			for i, f := range shard {
				ints[i] = int32(f)
			}
			in = append(in, tensors.FromFlatDataAndDimensions(ints, shape...))
			continue
		}
		in = append(in, tensors.FromFlatDataAndDimensions(shard, shape...))
	}
	var res []*tensors.Tensor
	if err := capture.Catch(func() { res = g.Run(in...) }); err != nil {
		t.Fatal(err)
	}
	return tensors.MustCopyFlatData[float32](res[0])
}

func relL2(got, want []float32) float64 {
	var e, r float64
	for i := range want {
		d := float64(got[i]) - float64(want[i])
		e += d * d
		r += float64(want[i]) * float64(want[i])
	}
	return math.Sqrt(e / r)
}

// TestBlocksSplitLikeTheWhole checks Megatron's identity for both blocks
// and both step kinds: the whole block's output equals the sum of the
// ranks' partial outputs, which is what the all-reduce computes; for
// attention it holds only if each rank's query heads meet their own
// key-value head (grouped-query attention split by whole key-value heads).
func TestBlocksSplitLikeTheWhole(t *testing.T) {
	for _, s := range []step{{N: 3}, {Prefill: true, N: 4}} {
		m := tiny()
		m.step = s
		tokens := s.Tokens()
		x := megatron.Tensor{Name: "x", DType: dtypes.Float32, Shape: []int{tokens * m.hidden}, Init: megatron.Init{Kind: megatron.Uniform, Scale: 1}}
		xv := x.Values(7)
		for _, blk := range []string{"attention", "mlp"} {
			build := func(tp int) func(w megatron.Weights) *graph.Node {
				return func(w megatron.Weights) *graph.Node {
					in := graph.Reshape(w.Get("x"), tokens, m.hidden)
					if blk == "mlp" {
						return swiGLU(in, w, "b0.", megatron.Skip)
					}
					batch, seq := s.N, 1
					a := attn{batch: batch, seq: seq, heads: m.heads / tp, kvHeads: m.kvHeads / tp, dim: m.headDim(), past: m.context}
					if s.Prefill {
						a = attn{batch: 1, seq: s.N, heads: m.heads / tp, kvHeads: m.kvHeads / tp, dim: m.headDim()}
					}
					return m.attention(in, w, "b0.", a, megatron.Skip)
				}
			}
			whole := cpuRun(t, m, 1, 0, map[string][]float32{"x": xv}, build(1))
			sum := make([]float32, len(whole))
			for rank := range 2 {
				for i, v := range cpuRun(t, m, 2, rank, map[string][]float32{"x": xv}, build(2)) {
					sum[i] += v
				}
			}
			if rel := relL2(sum, whole); rel > 1e-5 || math.IsNaN(rel) {
				t.Errorf("%s %s: the ranks' partial outputs sum to the whole block's within %.3g (rel L2), want float32 rounding", s, blk, rel)
			}
		}
	}
}

// TestDecodeContinuesPrefill: a decode step after a KV cache of the first
// tokens' keys and values gives the logits a prefill of all the tokens
// gives for its last one: positions, rotary embeddings, the causal mask,
// the cache and the key-value groups agree between the two programs.
func TestDecodeContinuesPrefill(t *testing.T) {
	m := tiny()
	const n = 6 // tokens: the prefill's, the cache's n-1 and one decoded
	tokens := []float32{3, 7, 1, 11, 0, 5}
	m.step = step{Prefill: true, N: n}
	want := cpuRun(t, m, 1, 0, map[string][]float32{"tokens": tokens}, func(w megatron.Weights) *graph.Node {
		return m.Build(w, harness.Spec{TP: 1, DType: dtypes.Float32}, megatron.Skip)[0].Node
	})
	// The cache: block 0's keys (rotated) and values of the first n-1 tokens.
	m.step = step{Prefill: true, N: n - 1}
	cache := map[string][]float32{}
	for _, kv := range []string{"wk", "wv"} {
		cache[kv] = cpuRun(t, m, 1, 0, map[string][]float32{"tokens": tokens[:n-1]}, func(w megatron.Weights) *graph.Node {
			x := graph.Gather(w.Get("embed"), graph.InsertAxes(w.Get("tokens"), -1))
			x = rmsNorm(graph.Reshape(x, n-1, m.hidden), w.Get("b0.attn_norm"))
			y := graph.Reshape(graph.MatMul(x, w.Get("b0."+kv)), 1, n-1, m.kvHeads, m.headDim())
			if kv == "wk" {
				y = rope(y, graph.Iota(x.Graph(), shapes.Make(dtypes.Float32, n-1), 0), m.theta)
			}
			return y
		})
	}
	m.step, m.context = step{N: 1}, n-1
	got := cpuRun(t, m, 1, 0, map[string][]float32{"tokens": tokens[n-1:], "b0.k_cache": cache["wk"], "b0.v_cache": cache["wv"]},
		func(w megatron.Weights) *graph.Node {
			return m.Build(w, harness.Spec{TP: 1, DType: dtypes.Float32}, megatron.Skip)[0].Node
		})
	if len(got) != m.vocab || len(want) != m.vocab {
		t.Fatalf("%d and %d logits, want %d", len(got), len(want), m.vocab)
	}
	if rel := relL2(got, want); rel > 1e-5 || math.IsNaN(rel) {
		t.Errorf("decode after the cache differs from the prefill's last logits by %.3g (rel L2):\n got %v\nwant %v", rel, got, want)
	}
}

// TestRopeAndNorm against the formulas, computed in Go.
func TestRopeAndNorm(t *testing.T) {
	m := tiny()
	x := []float32{1, 2, 3, 4, -1, 0.5, 2, -3} // [1, 2 tokens, 1 head, 4]
	got := cpuRun(t, m, 1, 0, map[string][]float32{"x": x}, func(w megatron.Weights) *graph.Node {
		pos := graph.AddScalar(graph.Iota(w.Get("x").Graph(), shapes.Make(dtypes.Float32, 2), 0), 5)
		return rope(graph.Reshape(w.Get("x"), 1, 2, 1, 4), pos, 10000)
	})
	for tok := range 2 {
		p := float64(5 + tok)
		for i := range 2 {
			a := p * math.Pow(10000, -2*float64(i)/4)
			x1, x2 := float64(x[tok*4+i]), float64(x[tok*4+i+2])
			want := []float64{x1*math.Cos(a) - x2*math.Sin(a), x2*math.Cos(a) + x1*math.Sin(a)}
			for k, idx := range []int{tok*4 + i, tok*4 + i + 2} {
				if math.Abs(float64(got[idx])-want[k]) > 1e-5 {
					t.Errorf("rope token %d element %d: %v, want %v", tok, idx, got[idx], want[k])
				}
			}
		}
	}
	y := cpuRun(t, m, 1, 0, map[string][]float32{"x": x[:4], "g": {1, 2, 1, 0.5}}, func(w megatron.Weights) *graph.Node {
		return rmsNorm(graph.Reshape(w.Get("x"), 1, 4), w.Get("g"))
	})
	rms := math.Sqrt((1+4+9+16)/4.0 + 1e-5)
	for i, g := range []float64{1, 2, 1, 0.5} {
		if want := float64(x[i]) / rms * g; math.Abs(float64(y[i])-want) > 1e-6 {
			t.Errorf("rmsNorm element %d: %v, want %v", i, y[i], want)
		}
	}
}

// TestFillMatchesGo: the program that draws weights on the GPUs computes
// fill's values (run here on the CPU backend), uniform in [-scale, scale).
func TestFillMatchesGo(t *testing.T) {
	dims := []int{37, 29}
	for _, tc := range []struct {
		seed          uint32
		scale, offset float32
	}{{12345, 0.5, 0}, {1, 0, 1}, {0xFFFFFFFF, 3, -1}} {
		g := graph.NewGraph(exampletest.CPU(t), "fill")
		var res []*tensors.Tensor
		err := capture.Catch(func() {
			g.Compile(fillGraph(g, dtypes.Float32, dims))
			res = g.Run(tensors.FromScalar(tc.seed), tensors.FromScalar(tc.scale), tensors.FromScalar(tc.offset))
		})
		if err != nil {
			t.Fatal(err)
		}
		got := tensors.MustCopyFlatData[float32](res[0])
		var sum float64
		for i, v := range got {
			if want := fill(tc.seed, tc.scale, tc.offset, i); v != want {
				t.Fatalf("seed %d element %d: %v, want %v", tc.seed, i, v, want)
			}
			if v < tc.offset-tc.scale || (tc.scale > 0 && v >= tc.offset+tc.scale) {
				t.Fatalf("seed %d element %d: %v outside [%v, %v)", tc.seed, i, v, tc.offset-tc.scale, tc.offset+tc.scale)
			}
			sum += float64(v - tc.offset)
		}
		if mean := sum / float64(len(got)); math.Abs(mean) > 0.05*float64(tc.scale)+1e-9 {
			t.Errorf("seed %d: mean %.4f, want about 0", tc.seed, mean)
		}
	}
	// The shards of a split tensor and different tensors draw different
	// values; a replicated tensor (the embedding table) the same on every rank.
	w := tiny().weights(dtypes.BFloat16)
	if w[0].Name != "embed" || w[2].Name != "b0.wq" || w[3].Name != "b0.wk" {
		t.Fatalf("weights start %s %s %s", w[0].Name, w[2].Name, w[3].Name)
	}
	a, _, _ := fillParams(w[2], 1, 0)
	b, _, _ := fillParams(w[2], 1, 1)
	c, _, _ := fillParams(w[3], 1, 0)
	e0, _, _ := fillParams(w[0], 1, 0)
	e1, _, _ := fillParams(w[0], 1, 1)
	if a == b || a == c || e0 != e1 {
		t.Errorf("seeds: wq %d (rank 0) %d (rank 1), wk %d, embed %d %d: want all distinct but the embedding's", a, b, c, e0, e1)
	}
	if _, scale, offset := fillParams(w[1], 1, 0); w[1].Init.Kind != megatron.Const || scale != 0 || offset != 1 {
		t.Errorf("%s (a norm's gain): scale %v offset %v, want the constant 1", w[1].Name, scale, offset)
	}
}

// TestTinyOnCPU runs the tiny model's decode and prefill steps end to end on
// the CPU backend: logits of the right size, finite, and not all equal.
func TestTinyOnCPU(t *testing.T) {
	for _, s := range []step{{N: 2}, {Prefill: true, N: 5}} {
		m := tiny()
		m.layers, m.step = 2, s
		got := cpuRun(t, m, 1, 0, nil, func(w megatron.Weights) *graph.Node {
			return m.Build(w, harness.Spec{TP: 1, DType: dtypes.Float32}, megatron.Skip)[0].Node
		})
		rows := 1
		if !s.Prefill {
			rows = s.N
		}
		if len(got) != rows*m.vocab {
			t.Fatalf("%s: %d logits, want %d", s, len(got), rows*m.vocab)
		}
		lo, hi := got[0], got[0]
		for _, v := range got {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				t.Fatalf("%s: logit %v", s, v)
			}
			lo, hi = min(lo, v), max(hi, v)
		}
		if hi-lo < 1e-3 {
			t.Errorf("%s: logits all near %v", s, lo)
		}
	}
}

func TestSummary(t *testing.T) {
	var buf bytes.Buffer
	rows := []row{{step: step{N: 8}, variant: "native", ms: 2}, {step: step{N: 8}, variant: "auto", ms: 1},
		{step: step{Prefill: true, N: 2048}, variant: "native", ms: 100}, {step: step{Prefill: true, N: 2048}, variant: "auto", err: "boom"}}
	writeSummary(&buf, []step{{N: 8}, {Prefill: true, N: 2048}}, rows)
	for _, want := range []string{"decode:8                4000.0          8000.0", "prefill:2048           20480.0          failed"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, buf.String())
		}
	}
}

// TestOnGPUs: a 2-block model, native and arc, one decode and one prefill
// shape on 2 GPUs (skips without them).
func TestOnGPUs(t *testing.T) {
	exampletest.RunOnGPUs(t, run, "--layers", "2", "--hidden", "1024", "--heads", "8", "--kv-heads", "2", "--ffn", "2048",
		"--vocab", "4096", "--shapes", "decode:4,prefill:256", "--variants", "native,native+oneshot,auto,auto:int8")
}
