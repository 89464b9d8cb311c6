package lowering_test

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arcpass/arc"
	"github.com/arcpass/arc/internal/golden"
)

// targets are the targets every input is lowered for.
var targets = []string{
	"none", "cuda:nvlink", "cuda:pcie", "cuda:pcie-nop2p", "cuda:pcie-2numa", "rocm:mi300x", "rocm:mi355x",
	"tpu:v6e-8", "tpu:v5e-4", "tpu:v5p-8", "tpu:v6e-256",
}

// variants lower one input for one target with options other than the
// defaults of `arc compile`.
var variants = []struct {
	name, input, target string
	set                 func(*arc.Options)
}{
	{"quant-int8", "sizes_w4", "cuda:nvlink", func(o *arc.Options) { o.Quant = "int8" }},
	{"quant-int8", "sizes_w4", "rocm:mi300x", func(o *arc.Options) { o.Quant = "int8" }},
	{"quant-int4", "sizes_w8", "rocm:mi300x", func(o *arc.Options) { o.Quant = "int4" }},
	{"quant-int4", "sizes_w2", "rocm:mi355x", func(o *arc.Options) { o.Quant = "int4" }},
	{"quant-int4", "sizes_w2", "cuda:pcie", func(o *arc.Options) { o.Quant = "int4" }},
	{"quant-fp8", "sizes_w8", "cuda:pcie-2numa", func(o *arc.Options) { o.Quant = "fp8" }},
	{"quant-fp8", "sizes_w2", "cuda:pcie-nop2p", func(o *arc.Options) { o.Quant = "fp8" }},
	{"cast-bf16-to-fp16", "sizes_w2", "rocm:mi300x", func(o *arc.Options) { o.CastBF16ToFP16 = true }},
	{"bytes", "sizes_w4", "cuda:pcie", func(o *arc.Options) { o.MinBytes, o.MaxBytes = 64<<10, 16<<20 }},
	{"force", "multi_operand", "cuda:nvlink", func(o *arc.Options) {
		o.Force = []string{"0=twoshot:int8", "1=native", "2=twoshot", "6=oneshot"}
	}},
	{"force", "multi_operand", "rocm:mi300x", func(o *arc.Options) {
		o.Force = []string{"1=quickreduce:int4", "4=twoshot"}
	}},
	{"topology", "groups", "cuda:pcie", func(o *arc.Options) { o.Topology = "testdata/pcie-partial.topology.json" }},
	{"libtpu", "mesh2d", "tpu:v6e-8", func(o *arc.Options) { o.LibtpuInitArgs = "--xla_dump_to=/tmp/dump" }},
	// A permuted device assignment: replica 0 on devices 3 and 0, replica 1 on 1 and 2.
	{"assignment", "modes", "cuda:nvlink", func(o *arc.Options) { o.DeviceAssignment = "3,0;1,2" }},
	{"assignment", "modes", "tpu:v6e-4", func(o *arc.Options) { o.DeviceAssignment = "3,0;1,2" }},
}

// refused are the cases a target refuses, with the error: lowered_cuda
// holds arc's calls as cuda:nvlink writes them (the peer link), which TPU
// targets and cuda:pcie-nop2p (the host link) do not run.
var refused = map[string]string{
	"lowered_cuda.cuda-pcie-nop2p": "lowered_cuda.mlir:9:5: stablehlo.custom_call: arc's call is not one cuda:pcie-nop2p runs here: link peer: cuda:pcie-nop2p's kernels reach their peers through host",
	"lowered_cuda.tpu-v6e-8":       "lowered_cuda.mlir:9:5: stablehlo.custom_call: arc's call is not one tpu:v6e-8 runs here: TPU targets run none of arc's kernels",
	"lowered_cuda.tpu-v5e-4":       "lowered_cuda.mlir:9:5: stablehlo.custom_call: arc's call is not one tpu:v5e-4 runs here: TPU targets run none of arc's kernels",
	"lowered_cuda.tpu-v5p-8":       "lowered_cuda.mlir:9:5: stablehlo.custom_call: arc's call is not one tpu:v5p-8 runs here: TPU targets run none of arc's kernels",
	"lowered_cuda.tpu-v6e-256":     "lowered_cuda.mlir:9:5: stablehlo.custom_call: arc's call is not one tpu:v6e-256 runs here: TPU targets run none of arc's kernels",
}

// TestGolden lowers every input for every target (and the variants) and
// compares the module and the report with NAME.TARGET[.VARIANT].out.mlir and
// .report.json, TARGET spelled with '-' for ':'; a refused case with its
// error (refused).
func TestGolden(t *testing.T) {
	made := map[string]bool{}
	inputs := Inputs(t)
	run := func(input, target, variant string, opt arc.Options) {
		base := input + "." + strings.ReplaceAll(target, ":", "-")
		if variant != "" {
			base += "." + variant
		}
		t.Run(base, func(t *testing.T) {
			src, err := os.ReadFile(inputs[input])
			if err != nil {
				t.Fatal(err)
			}
			opt.VerifyEach = true
			out, rep, err := arc.Compile(input+".mlir", src, opt)
			if want, ok := refused[base]; ok {
				if err == nil || err.Error() != want {
					t.Fatalf("%v, want the error %s", err, want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var js bytes.Buffer
			if err := rep.WriteJSON(&js); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", base+".out.mlir"), out)
			golden.Check(t, filepath.Join("testdata", base+".report.json"), js.Bytes())
		})
		if _, ok := refused[base]; !ok {
			made[base+".out.mlir"], made[base+".report.json"] = true, true
		}
	}
	for _, input := range slices.Sorted(maps.Keys(inputs)) {
		for _, target := range targets {
			run(input, target, "", arc.Options{Target: target})
		}
	}
	for _, v := range variants {
		if _, ok := inputs[v.input]; !ok {
			t.Errorf("variant %s: no input testdata/%s.mlir", v.name, v.input)
		}
		opt := arc.Options{Target: v.target}
		v.set(&opt)
		run(v.input, v.target, v.name, opt)
	}

	// A golden file no case writes is left from a renamed case or input.
	entries, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".out.mlir") && !strings.HasSuffix(name, ".report.json") || made[name] {
			continue
		}
		if *golden.Update {
			os.Remove(filepath.Join("testdata", name))
			continue
		}
		t.Errorf("testdata/%s: no case writes it (go test ./lowering/... -update removes it)", name)
	}
}

// Inputs lists the golden inputs by name, with their paths: testdata/NAME.mlir
// (outputs excluded) and the shared fixtures, ../testdata/fixtures/NAME.mlir,
// read where they are rather than copied.
func Inputs(t testing.TB) map[string]string {
	var paths []string
	for _, pattern := range []string{filepath.Join("testdata", "*.mlir"), filepath.Join("..", "testdata", "fixtures", "*.mlir")} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, m...)
	}
	names := map[string]string{}
	for _, p := range paths {
		if strings.HasSuffix(p, ".out.mlir") {
			continue
		}
		name := strings.TrimSuffix(filepath.Base(p), ".mlir")
		if other, dup := names[name]; dup {
			t.Fatalf("%s and %s: one input name, two files", other, p)
		}
		names[name] = p
	}
	if len(names) == 0 {
		t.Fatal("no inputs in testdata")
	}
	return names
}
