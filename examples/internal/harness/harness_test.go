package harness

import (
	"bytes"
	"github.com/arcpass/arc/examples/internal/exampletest"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
	"github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/spf13/pflag"

	"github.com/arcpass/arc/examples/internal/megatron"
)

func TestCompare(t *testing.T) {
	nan := float32(math.NaN())
	for _, tc := range []struct {
		name      string
		got, want []float32
		differ    int
		maxAbs    float64
		relL2     float64
	}{
		{"equal", []float32{1, -2, 0}, []float32{1, -2, 0}, 0, 0, 0},
		{"NaN equals NaN", []float32{nan, 3}, []float32{nan, 3}, 0, 0, 0},
		{"beside a NaN", []float32{nan, 3, 4.5}, []float32{nan, 3, 4}, 1, 0.5, 0.1},
		{"one element", []float32{3, 4.5}, []float32{3, 4}, 1, 0.5, 0.1}, // ||(0, .5)|| / ||(3, 4)|| = 0.1
		{"NaN against a number", []float32{nan, 1}, []float32{2, 1}, 1, math.Inf(1), math.Inf(1)},
	} {
		d := Compare(tc.got, tc.want)
		if d.N != len(tc.want) || d.Differ != tc.differ || d.MaxAbs != tc.maxAbs || math.Abs(d.RelL2-tc.relL2) > 1e-12 && d.RelL2 != tc.relL2 {
			t.Errorf("%s: %+v, want differ %d, max %v, rel %v", tc.name, d, tc.differ, tc.maxAbs, tc.relL2)
		}
	}
}

func TestMedianAndJoin(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		var d []time.Duration
		for _, x := range v {
			d = append(d, time.Duration(x)*time.Millisecond)
		}
		return d
	}
	for _, tc := range []struct {
		in   []time.Duration
		want time.Duration
	}{{ms(5, 1, 3), 3 * time.Millisecond}, {ms(4, 1, 3, 2), 2500 * time.Microsecond}, {nil, 0}} {
		if got := Median(tc.in); got != tc.want {
			t.Errorf("Median(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
	// Two rows of 4 columns, held by 2 ranks as 2 columns each.
	got := JoinColumns([][]float32{{0, 1, 4, 5}, {2, 3, 6, 7}}, 2)
	if !slices.Equal(got, []float32{0, 1, 2, 3, 4, 5, 6, 7}) {
		t.Errorf("JoinColumns = %v", got)
	}
}

func TestTolerance(t *testing.T) {
	for _, tc := range []struct {
		dt          dtypes.DType
		tp, reduces int
		want        float64
	}{
		{dtypes.BFloat16, 2, 4, 4.0 / 128}, // 4 all-reduces, one order: 4 ulps of bf16 (eps 2^-7)
		{dtypes.BFloat16, 8, 1, 7.0 / 128}, // 8 ranks: up to 7 roundings apart
		{dtypes.Float16, 2, 8, 8.0 / 1024}, // eps 2^-10
		{dtypes.Float32, 2, 1, math.Ldexp(1, -23)},
	} {
		if got := Tolerance(tc.dt, tc.tp, tc.reduces); got != tc.want {
			t.Errorf("Tolerance(%s, tp %d, %d reduces) = %g, want %g", tc.dt, tc.tp, tc.reduces, got, tc.want)
		}
	}
}

// small is a two-block model of attention and MLP, small enough for the CPU.
type small struct{}

func (small) Name() string           { return "small" }
func (small) Describe(s Spec) string { return "a small test model" }
func (small) Check(s Spec) error     { return nil }

func (small) Tensors(s Spec) []megatron.Tensor {
	ts := []megatron.Tensor{{Name: "x", DType: s.DType, Shape: []int{8, 16}, Init: megatron.Init{Kind: megatron.Uniform, Scale: 1}}}
	ts = append(ts, megatron.NormTensors("n.", s.DType, 16)...)
	ts = append(ts, megatron.AttentionTensors("a.", s.DType, 16, 4, 4)...)
	ts = append(ts, megatron.MLPTensors("m.", s.DType, 16, 32)...)
	return append(ts, megatron.Tensor{Name: "head", DType: s.DType, Shape: []int{16, 8}, Split: megatron.Columns,
		Init: megatron.Init{Kind: megatron.Uniform, Scale: 0.25}})
}

func (small) Build(w megatron.Weights, s Spec, reduce megatron.Reduce) []Output {
	x := w.Get("x")
	attn := megatron.AttentionShape{Batch: 2, Seq: 4, Heads: 4 / s.TP, HeadDim: 4}
	x = graph.Add(x, megatron.Attention(megatron.Norm(x, w, "n."), w, "a.", attn, reduce))
	y := graph.Add(x, megatron.MLP(x, w, "m.", reduce))
	return []Output{
		{Name: "attn", Node: x, Reduces: 1},
		{Name: "mlp", Node: y, Reduces: 2},
		{Name: "logits", Node: graph.MatMul(y, w.Get("head")), Split: megatron.Columns, Reduces: 2},
	}
}

// TestMeasureOnCPU runs everything after the backends are made: compiling,
// reading arc's dumps, uploading, comparing and timing, with the CPU backend
// on both sides (one rank, so there is nothing to all-reduce).
func TestMeasureOnCPU(t *testing.T) {
	for _, dt := range []struct {
		name string
		dt   dtypes.DType
	}{{"f32", dtypes.Float32}, {"bf16", dtypes.BFloat16}} { // the CPU backend has no f16
		t.Run(dt.name, func(t *testing.T) {
			dir := t.TempDir()
			program := "module @small attributes {stablehlo.num_replicas = 1} {\n}\n"
			for _, f := range []string{"arc-0001-before.mlir", "arc-0001-after.mlir"} {
				if err := os.WriteFile(filepath.Join(dir, f), []byte(program), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			dump := filepath.Join(t.TempDir(), "model.mlir")
			var out bytes.Buffer
			r := &runner{
				flags: Flags{TP: 1, DType: dt.name, Seed: 1, Quant: "none", Steps: 3, Warmup: 1, Dump: dump},
				model: small{}, spec: Spec{TP: 1, DType: dt.dt}, out: &out, log: &out,
			}
			b := cpu(t)
			if err := r.measure(b, b, dir); err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			text := out.String()
			if !r.passed {
				t.Errorf("the same backend on both sides did not pass:\n%s", text)
			}
			for _, row := range []string{"attn", "mlp", "logits"} {
				if !regexp.MustCompile(`(?m)^  ` + row + ` +0 +0 +0\.00% .* yes +yes, yes$`).MatchString(text) {
					t.Errorf("no exact, agreeing %s row:\n%s", row, text)
				}
			}
			if !regexp.MustCompile(`(?m)^RESULT small quant=none tp=1 dtype=` + dt.name +
				` final_max_abs=0 final_rel_l2=0 .*within_tol=yes ranks_agree=yes native_ms=[0-9.]+ arc_ms=.* pass=yes$`).MatchString(text) {
				t.Errorf("no passing RESULT line:\n%s", text)
			}
			if got, _ := os.ReadFile(dump); string(got) != program {
				t.Errorf("--dump wrote %q, want arc's before dump", got)
			}
		})
	}
}

// TestCompareCatchesADifference: arc's side runs on other inputs (seed 2):
// without quantization that fails; with it, the error is only reported.
func TestCompareCatchesADifference(t *testing.T) {
	for _, quant := range []string{"none", "int8"} {
		r := &runner{flags: Flags{TP: 1, DType: "f32", Seed: 1, Quant: quant}, model: small{},
			spec: Spec{TP: 1, DType: dtypes.Float32}, out: &bytes.Buffer{}}
		b := cpu(t)
		arc, err := r.compile("arc", b, "small", megatron.AllReduce)
		if err != nil {
			t.Fatal(err)
		}
		native, err := r.compile("native", b, "small", megatron.AllReduce)
		if err != nil {
			t.Fatal(err)
		}
		hostNative, _ := r.hostInputs()
		r.flags.Seed = 2
		hostArc, _ := r.hostInputs()
		ts := small{}.Tensors(r.spec)
		if arc.inputs, err = upload(b, ts, hostArc, 1); err != nil {
			t.Fatal(err)
		}
		if native.inputs, err = upload(b, ts, hostNative, 1); err != nil {
			t.Fatal(err)
		}
		if err := r.compare(arc, native); err != nil {
			t.Fatal(err)
		}
		text := r.out.(*bytes.Buffer).String()
		if want := quant != "none"; r.passed != want {
			t.Errorf("quant %s: passed %v, want %v:\n%s", quant, r.passed, want, text)
		}
		if within := map[string]string{"none": "no", "int8": "n/a"}[quant]; !strings.Contains(r.result[0], "within_tol="+within) {
			t.Errorf("quant %s: %q, want within_tol=%s", quant, r.result[0], within)
		}
	}
}

func cpu(t *testing.T) backends.Backend { return exampletest.CPU(t) }

func TestFindDumps(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("arc-0001-before.mlir", "module @model attributes {} {old}")
	write("arc-0001-after.mlir", "old after")
	write("arc-0002-before.mlir", "module @model_control {}")
	write("arc-0002-after.mlir", "control after")
	write("arc-0003-before.mlir", "module @model attributes {} {new}")
	write("arc-0003-after.mlir", "new after")
	before, after, err := findDumps(dir, "model")
	if err != nil || before != "module @model attributes {} {new}" || after != "new after" {
		t.Errorf("findDumps = %q, %q, %v; want the newest @model pair", before, after, err)
	}
	if _, _, err := findDumps(dir, "other"); err == nil {
		t.Error("found a program @other")
	}
}

func TestFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"--help"}, ExitOK, "--dump-only"},
		{[]string{"--tp", "0"}, ExitUsage, "--tp 0"},
		{[]string{"--quant", "int3"}, ExitUsage, `--quant "int3"`},
		{[]string{"--dtype", "f64"}, ExitUsage, `--dtype "f64"`},
		{[]string{"--steps", "0"}, ExitUsage, "--steps 0"},
		{[]string{"--dump-only"}, ExitUsage, "--dump-only needs --dump"},
		{[]string{"extra"}, ExitUsage, "unexpected arguments"},
		{[]string{"--no-such-flag"}, ExitUsage, "unknown flag"},
	} {
		fs := pflag.NewFlagSet("small", pflag.ContinueOnError)
		var out, errs bytes.Buffer
		if code := Main(fs, small{}, "a test", tc.args, &out, &errs); code != tc.code || !strings.Contains(errs.String(), tc.msg) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", tc.args, code, errs.String(), tc.code, tc.msg)
		}
	}
}

func TestDumpOnly(t *testing.T) {
	fs := pflag.NewFlagSet("small", pflag.ContinueOnError)
	var out, errs bytes.Buffer
	if code := Main(fs, small{}, "a test", []string{"--dump-only", "--dump", "-", "--tp", "2"}, &out, &errs); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	text := out.String()
	if !strings.HasPrefix(text, "module @small attributes {stablehlo.num_replicas = 2}") ||
		strings.Count(text, `"stablehlo.all_reduce"`) != 2 {
		t.Errorf("--dump-only wrote no 2-rank program with 2 all-reduces:\n%s", text)
	}
}
