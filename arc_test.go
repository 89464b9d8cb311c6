package arc_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/arcpass/arc"
	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/lowering/tpu"
	"github.com/arcpass/arc/passes"
)

// inputs returns every module the tests know: the golden inputs of
// lowering/testdata and the fixtures of testdata/fixtures, by path.
func inputs(t *testing.T) map[string][]byte {
	t.Helper()
	out := modules(t, "lowering/testdata/*.mlir", "testdata/fixtures/*.mlir")
	if len(out) < 10 {
		t.Fatalf("found %d input modules; the tests need the testdata of lowering/ and testdata/fixtures", len(out))
	}
	return out
}

// modules reads the modules the patterns match, golden outputs left out.
func modules(t *testing.T, patterns ...string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, pattern := range patterns {
		paths, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			if strings.HasSuffix(p, ".out.mlir") {
				continue
			}
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			out[p] = src
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// compile compiles one input for target. ok is false when the target
// refuses the arc_allreduce calls the input holds, as TPU targets and
// cuda:pcie-nop2p refuse lowering/testdata/lowered_cuda.mlir's (lowering's
// TestGolden pins the messages); any other error fails the test.
func compile(t *testing.T, name string, src []byte, target string) (out []byte, rep *passes.Report, ok bool) {
	t.Helper()
	out, rep, err := arc.Compile(name, src, arc.Options{Target: target})
	if err != nil && strings.Contains(err.Error(), ": arc's call is not one "+target+" runs here: ") {
		return nil, nil, false
	}
	if err != nil {
		t.Fatalf("%s for %s: %v", name, target, err)
	}
	return out, rep, true
}

func TestTargetNoneIsTheIdentity(t *testing.T) {
	ins := inputs(t)
	for _, path := range sortedKeys(ins) {
		out, _, _ := compile(t, path, ins[path], "none")
		if !bytes.Equal(out, ins[path]) {
			t.Errorf("%s: --target none changed the module", path)
		}
	}
}

// TestInspectReadsTheDecisionsBack checks that the report of a lowered
// module, read from the module alone (what arc inspect shows), holds the
// decisions the compile reported (read from the module select decided).
// Split multi-operand ops list their operands in a new order, so rows are
// compared as a set.
func TestInspectReadsTheDecisionsBack(t *testing.T) {
	ins := inputs(t)
	for _, target := range arc.Targets() {
		if target == "none" {
			continue
		}
		for _, path := range sortedKeys(ins) {
			out, rep, ok := compile(t, path, ins[path], target)
			if !ok {
				continue
			}
			m, err := ir.Parse(path, out)
			if err != nil {
				t.Fatal(err)
			}
			back, err := passes.NewReport(m, target, nil)
			if err != nil {
				t.Fatal(err)
			}
			want, got := decisions(rep), decisions(back)
			if !slices.Equal(want, got) {
				t.Errorf("%s for %s: inspect of the lowered module reads\n%s\nwant\n%s",
					path, target, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		}
	}
}

// decisions lists each all-reduce row's decision as the module records it,
// times rounded as arc writes them.
func decisions(r *passes.Report) []string {
	var out []string
	for _, row := range r.Collectives {
		if row.Op != "all_reduce" {
			continue
		}
		s := fmt.Sprintf("%s %v %d %s/%s/%s/%s cast=%v %q", row.DType, row.Shape, row.GroupSize, row.Lowering, row.Codec, row.Algo, row.Link, row.CastBF16ToFP16, row.Reason)
		s += fmt.Sprintf(" est=%.2f native=%.2f", row.EstUS, row.NativeUS)
		if row.Lowering == "ring" {
			s += fmt.Sprintf(" ring=%v hops=%d", ringOf(row).Groups, ringOf(row).MaxHops)
		}
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// TestTPUKeepsGroupMembers checks that ring ordering never moves a device to
// another group: every op keeps the same groups (of devices, and of
// processes: a ring holds flattened process ids) as sets.
func TestTPUKeepsGroupMembers(t *testing.T) {
	ins := inputs(t)
	for _, target := range arc.Targets() {
		if !strings.HasPrefix(target, "tpu:") {
			continue
		}
		for _, path := range sortedKeys(ins) {
			m, err := ir.Parse(path, ins[path])
			if err != nil {
				t.Fatal(err)
			}
			before, err := passes.NewReport(m, "", nil)
			if err != nil {
				t.Fatal(err)
			}
			_, after, ok := compile(t, path, ins[path], target)
			if !ok {
				continue
			}
			if len(before.Collectives) != len(after.Collectives) {
				t.Fatalf("%s for %s: %d rows became %d", path, target, len(before.Collectives), len(after.Collectives))
			}
			for i, row := range after.Collectives {
				if got, want := members(row.Groups), members(before.Collectives[i].Groups); got != want {
					t.Errorf("%s for %s: row %d: groups %s became %s", path, target, i, want, got)
				}
				if row.Lowering == "ring" && members(ringOf(row).Groups) != members(before.Collectives[i].Flattened) {
					t.Errorf("%s for %s: row %d: ring %v does not hold the process groups %v", path, target, i, ringOf(row).Groups, before.Collectives[i].Flattened)
				}
			}
		}
	}
}

// ringOf is a row's rings (none: the zero value).
func ringOf(row passes.Row) tpu.Rings {
	if r := tpu.RingsOf(row.Decision); r != nil {
		return *r
	}
	return tpu.Rings{}
}

// members prints groups as sorted sets in a sorted list.
func members(groups [][]int64) string {
	sets := make([]string, len(groups))
	for i, g := range groups {
		s := slices.Clone(g)
		slices.Sort(s)
		sets[i] = fmt.Sprint(s)
	}
	sort.Strings(sets)
	return strings.Join(sets, " ")
}

// TestV6e8Rings checks the orders the issue names: an 8-device group on
// v6e-8 (a 2x4 mesh, ids x-minor) is the 1-hop ring 0,2,4,6,7,5,3,1, and the
// tp=4 groups of dp=2 x tp=4 are the 1-hop rings of the 2x2 squares.
func TestV6e8Rings(t *testing.T) {
	src, err := os.ReadFile("lowering/testdata/sizes_w8.mlir")
	if err != nil {
		t.Fatal(err)
	}
	_, rep, _ := compile(t, "sizes_w8.mlir", src, "tpu:v6e-8")
	for _, row := range rep.Collectives {
		if got := fmt.Sprint(ringOf(row).Groups); got != "[[0 2 4 6 7 5 3 1]]" || ringOf(row).MaxHops != 1 || row.Lowering != "ring" {
			t.Fatalf("row %d: %s ring %s, %d hops; want ring [[0 2 4 6 7 5 3 1]], 1 hop", row.Index, row.Lowering, got, ringOf(row).MaxHops)
		}
	}
	src, err = os.ReadFile("lowering/testdata/mesh2d.mlir")
	if err != nil {
		t.Fatal(err)
	}
	out, rep, _ := compile(t, "mesh2d.mlir", src, "tpu:v6e-8")
	tp := rep.Collectives[0] // the all-reduce over "tp"
	if got := fmt.Sprint(ringOf(tp).Groups); got != "[[0 1 3 2] [4 5 7 6]]" || ringOf(tp).MaxHops != 1 {
		t.Errorf("tp groups: ring %s, %d hops; want [[0 1 3 2] [4 5 7 6]], 1 hop", got, ringOf(tp).MaxHops)
	}
	// The mesh-axes groups became explicit groups over global device ids.
	want := `replica_groups = dense<[[0, 1, 3, 2], [4, 5, 7, 6]]> : tensor<2x4xi64>, use_global_device_ids}>`
	if !bytes.Contains(out, []byte(want)) {
		t.Errorf("the lowered module does not hold %s", want)
	}
	if got := rep.Env["LIBTPU_INIT_ARGS"]; got != "--xla_tpu_force_1d_allreduce_at_chunk_count=1" {
		t.Errorf("LIBTPU_INIT_ARGS = %q", got)
	}
}

func TestCompileRejectsBadOptions(t *testing.T) {
	src, err := os.ReadFile("lowering/testdata/multi_operand.mlir")
	if err != nil {
		t.Fatal(err)
	}
	usage := []struct {
		name string
		opt  arc.Options
		want string
	}{
		{"no target", arc.Options{}, "--target is required"},
		{"unknown target", arc.Options{Target: "cuda:sxm"}, `unknown target "cuda:sxm"`},
		{"tpu slice arc does not know", arc.Options{Target: "tpu:v6e-2"}, `unknown target "tpu:v6e-2"`},
		{"quant", arc.Options{Target: "cuda:nvlink", Quant: "int3"}, `--quant "int3"`},
		{"force syntax", arc.Options{Target: "cuda:nvlink", Force: []string{"0:oneshot"}}, `--force "0:oneshot": want INDEX=LOWERING[:CODEC]`},
		{"force lowering", arc.Options{Target: "cuda:nvlink", Force: []string{"0=fast"}}, `unknown lowering "fast"`},
		{"force codec", arc.Options{Target: "cuda:nvlink", Force: []string{"0=twoshot:int3"}}, `unknown codec "int3"`},
		{"byte range", arc.Options{Target: "cuda:nvlink", MinBytes: 100, MaxBytes: 10}, "do not make a range"},
		{"negative bytes", arc.Options{Target: "cuda:nvlink", MinBytes: -1}, "do not make a range"},
		// A --force entry the module cannot take is the usage's fault too.
		{"force index out of range", arc.Options{Target: "cuda:nvlink", Force: []string{"9=oneshot"}}, "--force 9: the module has 9 collective operand(s)"},
		{"force an ineligible row", arc.Options{Target: "cuda:nvlink", Force: []string{"5=oneshot"}}, "--force 5=oneshot: empty tensor"},
		{"force a ring on a GPU", arc.Options{Target: "cuda:nvlink", Force: []string{"0=ring"}}, "ring is a TPU lowering"},
		{"force a kernel on a TPU", arc.Options{Target: "tpu:v6e-8", Force: []string{"0=oneshot"}}, "TPU targets lower all-reduces to ring only"},
	}
	for _, c := range usage {
		_, _, err := arc.Compile("m.mlir", src, c.opt)
		var ue *arc.UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want a usage error containing %q", c.name, err, c.want)
		}
	}
	input := []struct {
		name string
		opt  arc.Options
		want string
	}{
		{"missing profile", arc.Options{Target: "cuda:nvlink", Profile: "no/such/profile.json"}, "no/such/profile.json"},
		{"missing topology", arc.Options{Target: "cuda:nvlink", Topology: "no/such/topology.json"}, "no/such/topology.json"},
	}
	for _, c := range input {
		_, _, err := arc.Compile("m.mlir", src, c.opt)
		var ue *arc.UsageError
		if err == nil || errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an input error containing %q", c.name, err, c.want)
		}
	}
}

// TestCompileReportsInputErrorsWhereTheyAre checks that a broken input is
// reported at its own line and column, as FILE:LINE:COL: message, whatever
// the target does to the text around it.
func TestCompileReportsInputErrorsWhereTheyAre(t *testing.T) {
	src, err := os.ReadFile("lowering/testdata/multi_operand.mlir")
	if err != nil {
		t.Fatal(err)
	}
	broken := bytes.Replace(src, []byte(`"stablehlo.multiply"(%4#0, %4#0)`), []byte(`"stablehlo.multiply"(%4#0, %9)`), 1)
	if bytes.Equal(broken, src) {
		t.Fatal("the fixture changed: nothing to break")
	}
	for _, target := range []string{"none", "cuda:nvlink", "rocm:mi300x", "tpu:v6e-8"} {
		_, _, err := arc.Compile("m.mlir", broken, arc.Options{Target: target})
		if got, want := fmt.Sprint(err), "m.mlir:30:37: %9 is used but not defined"; got != want {
			t.Errorf("%s: got %q, want %q", target, got, want)
		}
	}
}

// TestForceAll: --force all=LOWERING lowers every all-reduce it can that way
// and leaves the others native with their reason; an INDEX entry wins for its
// row, and still fails where its lowering cannot apply.
func TestForceAll(t *testing.T) {
	src, err := os.ReadFile("lowering/testdata/multi_operand.mlir")
	if err != nil {
		t.Fatal(err)
	}
	_, rep, err := arc.Compile("m.mlir", src, arc.Options{Target: "cuda:nvlink", Force: []string{"all=twoshot:int8", "0=oneshot"}})
	if err != nil {
		t.Fatal(err)
	}
	forced, native := 0, 0
	for _, r := range rep.Collectives {
		got := r.Lowering + ":" + r.Codec
		switch {
		case r.Index == 0 && got != "oneshot:none":
			t.Errorf("row 0: %s (%s), want its own force, oneshot", got, r.Reason)
		case r.Index != 0 && got == "twoshot:int8":
			forced++
		case r.Index != 0 && r.Lowering == "native" && r.Reason != "":
			native++
		case r.Index != 0:
			t.Errorf("row %d: %s (%s), want twoshot:int8 or native with a reason", r.Index, got, r.Reason)
		}
	}
	if forced == 0 || native == 0 || rep.Collectives[5].Lowering != "native" {
		t.Errorf("%d rows forced, %d left native (row 5: %s, %s); want both kinds, row 5 native",
			forced, native, rep.Collectives[5].Lowering, rep.Collectives[5].Reason)
	}
	if _, _, err := arc.Compile("m.mlir", src, arc.Options{Target: "cuda:nvlink", Force: []string{"all=twoshot:int8", "5=oneshot"}}); err == nil ||
		!strings.Contains(err.Error(), "--force 5=oneshot: empty tensor") {
		t.Errorf("an INDEX force of an ineligible row beside all=: %v", err)
	}
}

// TestWriteOutputsForTheVerifier writes every input and its output for every
// target into $ARC_VERIFY_DIR (in.NAME.mlir, out.NAME@TARGET.mlir), for
// devtest/verify_stablehlo.py to run StableHLO's own verifier over
// (jaxlib, on the GPU machine). Without the variable it does nothing.
func TestWriteOutputsForTheVerifier(t *testing.T) {
	dir := os.Getenv("ARC_VERIFY_DIR")
	if dir == "" {
		t.Skip("ARC_VERIFY_DIR is not set")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ins := modules(t, "lowering/testdata/*.mlir", "testdata/fixtures/*.mlir", "examples/*/model.mlir",
		"ir/testdata/*.mlir", "ir/testdata/*/*.mlir", "passes/testdata/*/*.mlir", "lowering/*/testdata/*/*.mlir",
		"testdata/exact/*/*.mlir")
	written := 0
	for _, path := range sortedKeys(ins) {
		name := strings.NewReplacer("../", "", "/", "_").Replace(strings.TrimSuffix(path, ".mlir"))
		if err := os.WriteFile(filepath.Join(dir, "in."+name+".mlir"), ins[path], 0o644); err != nil {
			t.Fatal(err)
		}
		for _, target := range arc.Targets() {
			out, _, err := arc.Compile(path, ins[path], arc.Options{Target: target})
			if err != nil {
				continue // refused inputs are the contract tests' business
			}
			file := filepath.Join(dir, "out."+name+"@"+strings.ReplaceAll(target, ":", "-")+".mlir")
			if err := os.WriteFile(file, out, 0o644); err != nil {
				t.Fatal(err)
			}
			written++
		}
	}
	t.Logf("%d inputs, %d outputs in %s", len(ins), written, dir)
}

// The lowering carries out the norms the fuse pass matched (passes.Row's
// Fusion) without matching them again; a compile of fuse's output alone
// matches them afresh. Both give the same module, byte for byte.
func TestFusionsCarriedAsMatchedAgain(t *testing.T) {
	files := []string{"examples/llama/model.mlir", "testdata/fuse/jax_weight_io.mlir", "testdata/fuse/jax_f32_rank3.mlir",
		"testdata/fuse/f32_h_returned.mlir", "testdata/fuse/jax_llama_layer.mlir", "testdata/fuse/two_sums_one_add.mlir", "testdata/fuse/gemma_weight_after_add.mlir",
		"testdata/fixtures/jax_llama_block_tp4_f32.mlir"}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		whole, _, err := arc.Compile(f, src, arc.Options{Target: "cuda:nvlink"})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if !bytes.Contains(whole, []byte(`norm = "rmsnorm"`)) {
			t.Fatalf("%s: nothing fused", f)
		}
		fused, _, err := arc.Compile(f, src, arc.Options{Target: "cuda:nvlink", Passes: []string{"analyse", "select", "fuse"}})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		apart, _, err := arc.Compile(f, fused, arc.Options{Target: "cuda:nvlink", Passes: []string{"lower-cuda", "verify"}})
		if err != nil {
			t.Fatalf("%s, lowered apart: %v", f, err)
		}
		if !bytes.Equal(whole, apart) {
			t.Errorf("%s: the lowering of fuse's matches differs from a lowering that matches again", f)
		}
	}
}
