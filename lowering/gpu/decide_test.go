package gpu_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/lowering"
	"github.com/arcpass/arc/passes"
	"github.com/arcpass/arc/passes/topology"
)

const (
	kib = int64(1) << 10
	mib = int64(1) << 20
)

func target(t *testing.T, name string) passes.Target {
	t.Helper()
	tg, err := lowering.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

// iota returns the group [from, from+1, ..., from+n-1].
func iota(from, n int64) []int64 {
	g := make([]int64, n)
	for i := range g {
		g[i] = from + int64(i)
	}
	return g
}

// sum is an all-reduce row summing n bytes of dtype over groups.
func sum(dtype string, n int64, groups ...[]int64) passes.Row {
	size := 0
	for _, g := range groups {
		size = max(size, len(g))
	}
	return passes.Row{Op: "all_reduce", DType: dtype, Bytes: n, Reduction: "sum", Groups: groups, GroupSize: size}
}

func decide(t *testing.T, tg string, opts passes.Options, row passes.Row) passes.Decision {
	t.Helper()
	d, err := target(t, tg).Decide(row, opts)
	if err != nil {
		t.Fatalf("%s, %s %d B over %v: %v", tg, row.DType, row.Bytes, row.Groups, err)
	}
	return d
}

// TestEligibility checks every rule that keeps an all-reduce native, and
// that a row one step inside each rule is lowered.
func TestEligibility(t *testing.T) {
	four := iota(0, 4)
	lowered := &ir.Collective{Kind: "all_reduce", Op: &ir.Op{Name: "stablehlo.custom_call"}, Arc: &ir.ArcLowering{Lowering: "oneshot"}} // arc's call
	f32, f64 := ir.TensorType{Shape: []int64{1024}, Elem: "f32"}, ir.TensorType{Shape: []int64{1024}, Elem: "f64"}
	promoted := &ir.Collective{OperandTypes: []ir.TensorType{f32}, ResultTypes: []ir.TensorType{f64}}
	mirrored := &ir.Collective{OperandTypes: []ir.TensorType{f32}, ResultTypes: []ir.TensorType{f32}}
	unresolved := &ir.Collective{Unresolved: "replica_groups: mesh @m is not a mesh the module defines"}
	partial := mustTopology(t, `{"name": "partial", "devices": [{"id": 0, "node": "a"}, {"id": 1, "node": "a"}, {"id": 2, "node": "a"}, {"id": 3, "node": "a"}, {"id": 4, "node": "b"}, {"id": 5, "node": "b"}],
		"links": [{"a": 0, "b": 1}, {"a": 0, "b": 2}, {"a": 1, "b": 2}, {"a": 2, "b": 3, "kind": "host"}, {"a": 4, "b": 5}]}`)
	with := func(row passes.Row, edit func(*passes.Row)) passes.Row { edit(&row); return row }
	cases := []struct {
		name   string
		target string
		opts   passes.Options
		row    passes.Row
		reason string // "" when arc lowers the row
	}{
		{"target none", "none", passes.Options{}, sum("f16", 4*kib, four), "target none: the identity pipeline lowers nothing"},
		{"reduce_scatter", "cuda:nvlink", passes.Options{}, with(sum("f16", 4*kib, four), func(r *passes.Row) { r.Op = "reduce_scatter" }), "arc lowers all-reduces only"},
		{"lowered before", "cuda:nvlink", passes.Options{}, with(sum("f16", 4*kib, four), func(r *passes.Row) { r.Collective = lowered }), "already lowered by arc"},
		{"promoted result", "cuda:nvlink", passes.Options{}, with(sum("f32", 4*kib, four), func(r *passes.Row) { r.Collective = promoted }),
			"its result types are not its operand types (a promoted element type or dynamic sizes): arc's lowerings keep the operand's type"},
		{"TPU: promoted result", "tpu:v6e-8", passes.Options{}, with(sum("f32", 4*kib, four), func(r *passes.Row) { r.Collective = promoted }),
			"its result types are not its operand types (a promoted element type or dynamic sizes): arc's lowerings keep the operand's type"},
		{"mirrored result", "cuda:nvlink", passes.Options{}, with(sum("f32", 4*kib, four), func(r *passes.Row) { r.Collective = mirrored }), ""},
		{"groups of an unknown mesh", "cuda:nvlink", passes.Options{}, with(sum("f32", 4*kib, four), func(r *passes.Row) { r.Collective = unresolved }),
			"groups unknown: replica_groups: mesh @m is not a mesh the module defines"},
		{"max", "cuda:nvlink", passes.Options{}, with(sum("f16", 4*kib, four), func(r *passes.Row) { r.Reduction = "max" }), "reduction is max: arc's kernels only sum"},
		{"product on ROCm", "rocm:mi300x", passes.Options{}, with(sum("f16", 4*kib, four), func(r *passes.Row) { r.Reduction = "product" }), "reduction is product: arc's kernels only sum"},
		{"other", "cuda:pcie", passes.Options{}, with(sum("f32", 4*kib, four), func(r *passes.Row) { r.Reduction = "other" }), "reduction is other: arc's kernels only sum"},
		{"f64", "cuda:nvlink", passes.Options{}, sum("f64", 4*kib, four), "dtype f64: arc's kernels take f16, bf16 and f32"},
		{"i32", "rocm:mi355x", passes.Options{}, sum("i32", 4*kib, four), "dtype i32: arc's kernels take f16, bf16 and f32"},
		{"f8", "cuda:nvlink", passes.Options{}, sum("f8E4M3FN", 4*kib, four), "dtype f8E4M3FN: arc's kernels take f16, bf16 and f32"},
		{"f16", "cuda:nvlink", passes.Options{}, sum("f16", 4*kib, four), ""},
		{"bf16", "cuda:nvlink", passes.Options{}, sum("bf16", 4*kib, four), ""},
		{"f32", "cuda:nvlink", passes.Options{}, sum("f32", 4*kib, four), ""},
		{"dynamic shape", "cuda:nvlink", passes.Options{}, with(sum("f32", -1, four), func(r *passes.Row) { r.Shape = []int64{4, -1} }), "dynamic shape"},
		{"size unknown", "cuda:nvlink", passes.Options{}, with(sum("f32", -1, four), func(r *passes.Row) { r.Shape = []int64{1 << 62, 4} }), "no size known for tensor<4611686018427387904x4xf32> (an element type of no fixed width, or more than 2^63 bytes)"},
		{"empty", "cuda:nvlink", passes.Options{}, sum("f32", 0, four), "empty tensor"},
		// Any size: a scalar f32 (a loss), one f16, counts no multiple of 8.
		{"a scalar f32", "cuda:nvlink", passes.Options{}, with(sum("f32", 4, four), func(r *passes.Row) { r.Shape = []int64{} }), ""},
		{"a scalar f16", "rocm:mi300x", passes.Options{}, with(sum("f16", 2, four), func(r *passes.Row) { r.Shape = []int64{} }), ""},
		{"8 bytes", "cuda:nvlink", passes.Options{}, sum("f16", 8, four), ""},
		{"4104 bytes", "rocm:mi300x", passes.Options{}, sum("f16", 4104, four), ""},
		{"16 bytes", "cuda:nvlink", passes.Options{}, sum("f16", 16, four), ""},
		{"below --min-bytes", "cuda:nvlink", passes.Options{MinBytes: 4096}, sum("f16", 4080, four), "below --min-bytes 4096"},
		{"at --min-bytes", "cuda:nvlink", passes.Options{MinBytes: 4096}, sum("f16", 4096, four), ""},
		{"at --max-bytes", "cuda:nvlink", passes.Options{MaxBytes: 4096}, sum("f16", 4096, four), ""},
		{"above --max-bytes", "cuda:nvlink", passes.Options{MaxBytes: 4096}, sum("f16", 4112, four), "above --max-bytes 4096"},
		{"no groups", "cuda:nvlink", passes.Options{}, sum("f16", 4*kib), "no replica groups, and the module does not say how many replicas the op spans"},
		{"groups of different sizes", "cuda:nvlink", passes.Options{}, sum("f16", 4*kib, iota(0, 2), iota(2, 4)), "groups of different sizes"},
		{"groups of 1", "cuda:nvlink", passes.Options{}, sum("f16", 4*kib, iota(0, 1), iota(1, 1)), "groups of one device: nothing to exchange"},
		{"groups of 2", "cuda:nvlink", passes.Options{}, sum("f16", 4*kib, iota(0, 2), iota(2, 2)), ""},
		{"groups of 3", "cuda:nvlink", passes.Options{}, sum("f16", 4*kib, iota(0, 3)), "group size 3: arc's kernels run on 2, 4 or 8 devices (6 for one-shot)"},
		{"groups of 4", "rocm:mi300x", passes.Options{}, sum("f16", 4*kib, iota(0, 4), iota(4, 4)), ""},
		{"groups of 5", "rocm:mi300x", passes.Options{}, sum("f16", 4*kib, iota(0, 5)), "group size 5: arc's kernels run on 2, 4 or 8 devices (6 for one-shot)"},
		{"groups of 6", "cuda:nvlink", passes.Options{}, sum("f16", 4*kib, iota(0, 6)), ""},
		{"groups of 8", "cuda:nvlink", passes.Options{}, sum("f16", 4*kib, iota(0, 8)), ""},
		{"groups of 16", "cuda:nvlink", passes.Options{}, sum("f16", 4*kib, iota(0, 16)), "group size 16: arc's kernels run on 2, 4 or 8 devices (6 for one-shot)"},
		{"spanning hosts", "cuda:nvlink", passes.Options{}, sum("f16", 4*kib, iota(6, 4)), "group [6 7 8 9] spans hosts of 8 devices"},
		{"second host", "rocm:mi300x", passes.Options{}, sum("f16", 4*kib, iota(8, 8)), ""},
		{"topology: peers", "cuda:pcie", passes.Options{Topology: partial}, sum("f16", 4*kib, iota(0, 3)[:2]), ""},
		{"topology: not fully peer-connected", "cuda:pcie", passes.Options{Topology: partial}, sum("f16", 4*kib, iota(0, 4)), "group [0 1 2 3] is not fully peer-connected: 0 cannot reach 3's memory"},
		{"topology: through the host", "cuda:pcie", passes.Options{Topology: partial}, sum("f16", 4*kib, []int64{2, 3}), "group [2 3] is not fully peer-connected: 2 cannot reach 3's memory"},
		{"topology: host-staged target needs no peers", "cuda:pcie-nop2p", passes.Options{Topology: partial}, sum("f16", 4*kib, iota(0, 4)), ""},
		{"topology: spanning nodes", "cuda:pcie", passes.Options{Topology: partial}, sum("f16", 4*kib, []int64{0, 4}), `group [0 4] spans nodes "a" and "b"`},
		{"topology: unknown device", "cuda:pcie", passes.Options{Topology: partial}, sum("f16", 4*kib, []int64{4, 6}), "device 6 is not in the topology partial"},
		{"processes: host-staged across two", "cuda:pcie-nop2p", passes.Options{DeviceProcesses: map[int64]int{0: 0, 1: 1, 2: 2, 3: 3}}, sum("f16", 4*kib, four),
			"group [0 1 2 3] runs in 4 processes: the host-staged link (cuda:pcie-nop2p) across processes has not run on a GPU yet"},
		{"processes: host-staged in one", "cuda:pcie-nop2p", passes.Options{DeviceProcesses: map[int64]int{0: 0, 1: 0, 2: 0, 3: 0, 4: 1}}, sum("f16", 4*kib, four), ""},
		{"processes: peers across two", "cuda:pcie", passes.Options{DeviceProcesses: map[int64]int{0: 0, 1: 1, 2: 2, 3: 3}}, sum("f16", 4*kib, four), ""},
		{"partitioned, outside manual", "cuda:nvlink", passes.Options{}, with(sum("f16", 4*kib, four), func(r *passes.Row) { r.Partitions = 4 }),
			"outside a manual region of a partitioned program (num_partitions = 4): XLA's SPMD partitioner refuses a side-effecting custom call there; in shard_map's body arc lowers it"},
		{"partitioned, manual", "cuda:nvlink", passes.Options{}, with(sum("f16", 4*kib, four), func(r *passes.Row) { r.Partitions, r.Manual = 4, true }), ""},
		{"TPU: partitioned, outside manual", "tpu:v6e-8", passes.Options{}, with(sum("f32", 4*kib, four), func(r *passes.Row) { r.Partitions = 4 }), ""},
		{"TPU: max", "tpu:v6e-8", passes.Options{}, with(sum("f32", 4*kib, four), func(r *passes.Row) { r.Reduction = "max" }), ""},
		{"TPU: i32", "tpu:v6e-8", passes.Options{}, sum("i32", 4*kib, four), ""},
		{"TPU: 6 bytes", "tpu:v6e-8", passes.Options{}, sum("f16", 6, four), ""},
		{"TPU: groups of 3", "tpu:v6e-8", passes.Options{}, sum("f32", 4*kib, iota(0, 3)), ""},
		{"TPU: groups of 1", "tpu:v6e-8", passes.Options{}, sum("f32", 4*kib, iota(0, 1)), "groups of one device: nothing to exchange"},
		{"TPU: reduce_scatter", "tpu:v6e-8", passes.Options{}, with(sum("f32", 4*kib, four), func(r *passes.Row) { r.Op = "reduce_scatter" }), "arc lowers all-reduces only"},
	}
	for _, c := range cases {
		d := decide(t, c.target, c.opts, c.row)
		switch {
		case c.reason == "" && d.Lowering == "native":
			t.Errorf("%s: native (%s), want a lowering", c.name, d.Reason)
		case c.reason != "" && (d.Lowering != "native" || d.Reason != c.reason):
			t.Errorf("%s: %s (%s), want native (%s)", c.name, d.Lowering, d.Reason, c.reason)
		}
	}
}

func mustTopology(t *testing.T, js string) *topology.Topology {
	t.Helper()
	topo, err := topology.Parse("t.json", []byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return topo
}

// TestThresholdEdges checks the sizes where the built-in profiles change the
// decision: just below, at and just above the crossings measured on 2 x H200,
// the estimated one-shot maximums, vLLM's QuickReduce minimums (--quant) and
// the crossovers where native wins.
func TestThresholdEdges(t *testing.T) {
	cases := []struct {
		why         string
		target      string
		quant       string
		world       int64
		dtype       string
		edge        int64
		below, from string // lowering:codec below the edge, and from it on
	}{
		// World 2 on cuda:nvlink and cuda:pcie-nop2p: the crossings of the H200
		// run (docs/bench), interpolated on log axes between measured sizes.
		{"measured: two-shot overtakes one-shot", "cuda:nvlink", "none", 2, "f16", 8297072, "oneshot:none", "twoshot:fp"},
		{"measured: two-shot overtakes one-shot", "cuda:nvlink", "none", 2, "bf16", 7997328, "oneshot:none", "twoshot:fp"},
		{"measured: int4 overtakes one-shot", "cuda:nvlink", "int4", 2, "f16", 1947232, "oneshot:none", "twoshot:int4"},
		{"measured: int8 overtakes one-shot", "cuda:nvlink", "int8", 2, "bf16", 5373216, "oneshot:none", "twoshot:int8"},
		{"measured: fp8 overtakes one-shot", "cuda:nvlink", "fp8", 2, "bf16", 4681488, "oneshot:none", "lowprec:fp8"},
		{"measured: two-shot overtakes one-shot", "cuda:pcie-nop2p", "none", 2, "f16", 2207968, "oneshot:none", "twoshot:fp"},
		{"measured: two-shot within 5% of native", "cuda:pcie-nop2p", "none", 2, "bf16", 80937920 + 16, "twoshot:fp", "native:none"},
		{"measured: fp8 overtakes one-shot", "cuda:pcie-nop2p", "fp8", 2, "f16", 843984, "oneshot:none", "lowprec:fp8"},
		{"measured: int4 overtakes one-shot", "cuda:pcie-nop2p", "int4", 2, "bf16", 1015312, "oneshot:none", "twoshot:int4"},
		// Elsewhere (f32, worlds 4 and 8, other targets) the estimates decide.
		{"one-shot maximum", "cuda:nvlink", "none", 2, "f32", 8*mib + 16, "oneshot:none", "twoshot:fp"},
		{"one-shot maximum", "cuda:pcie", "none", 2, "bf16", 4*mib + 16, "oneshot:none", "twoshot:fp"},
		{"one-shot maximum", "cuda:pcie-nop2p", "none", 2, "f32", 2*mib + 16, "oneshot:none", "twoshot:fp"},
		{"one-shot maximum", "rocm:mi300x", "none", 2, "f16", 8*mib + 16, "oneshot:none", "quickreduce:fp"},
		{"one-shot maximum", "rocm:mi355x", "none", 2, "f32", 8*mib + 16, "oneshot:none", "quickreduce:fp"},
		{"vLLM INT8 minimum, fp16 TP4", "rocm:mi300x", "int8", 4, "f16", 16 * mib, "quickreduce:fp", "quickreduce:int8"},
		{"vLLM INT8 minimum, bf16 TP4", "rocm:mi300x", "int8", 4, "bf16", 64 * mib, "quickreduce:fp", "quickreduce:int8"},
		{"vLLM INT4 minimum, bf16 TP2", "rocm:mi355x", "int4", 2, "bf16", 8 * mib, "oneshot:none", "quickreduce:int4"},
		{"vLLM INT4 minimum, fp16 TP8", "rocm:mi300x", "int4", 8, "f16", 2 * mib, "quickreduce:fp", "quickreduce:int4"},
		{"vLLM INT6 minimum, fp16 TP4", "rocm:mi355x", "int6", 4, "f16", 4 * mib, "quickreduce:fp", "quickreduce:int6"},
	}
	for _, c := range cases {
		opts := passes.Options{Quant: c.quant}
		for _, n := range []int64{c.edge - 16, c.edge, c.edge + 16} {
			d := decide(t, c.target, opts, sum(c.dtype, n, iota(0, c.world)))
			want := c.from
			if n < c.edge {
				want = c.below
			}
			if got := d.Lowering + ":" + d.Codec; got != want {
				t.Errorf("%s: %s --quant %s, %s x %d at %d B: %s (%s), want %s", c.why, c.target, c.quant, c.dtype, c.world, n, got, d.Reason, want)
			}
		}
	}
}

// TestBuiltinBounds pins the size bounds the built-in profiles carry: the
// bounds arc tune fitted to the H200 run (world 2, f16 and bf16, on
// cuda:nvlink and cuda:pcie-nop2p); elsewhere the estimated one-shot maximums
// and vLLM's QuickReduce minimums per codec (_QR_MIN_SIZE, MB, order INT8,
// INT6, INT4; FP is left unbounded so that arc's two-shot covers the sizes
// below it), with arc's fp8 following INT8 and int4r INT4.
func TestBuiltinBounds(t *testing.T) {
	type bounds struct{ min, max int64 } // {-1, -1}: off
	off := bounds{-1, -1}
	// From passes/profiles/*.json (docs/bench/genprofiles.go). On NVLink every
	// two-shot starts where it beats one-shot by 5% and runs to the largest
	// size: no size is left to native. Host-staged, two-shot fp stops at
	// 77 MiB, above which native was measured as fast.
	host := map[string]bounds{"oneshot": {0, 3484944}, "twoshot:fp": {2207968, 80937920}, "twoshot:fp8": {843984, 0},
		"twoshot:int8": {1230064, 0}, "twoshot:int6": {1230064, 0}, "twoshot:int4": {1015312, 0}, "twoshot:int4r": off}
	measured := map[string]map[string]map[string]bounds{
		"cuda:nvlink": {
			"f16": {"oneshot": {0, 32859392}, "twoshot:fp": {8297072, 0}, "twoshot:fp8": {4509024, 0},
				"twoshot:int8": {2782848, 0}, "twoshot:int6": {3169504, 0}, "twoshot:int4": {1947232, 0}, "twoshot:int4r": off},
			"bf16": {"oneshot": {0, 28052528}, "twoshot:fp": {7997328, 0}, "twoshot:fp8": {4681488, 0},
				"twoshot:int8": {5373216, 0}, "twoshot:int6": {4498784, 0}, "twoshot:int4": {2220528, 0}, "twoshot:int4r": off},
		},
		"cuda:pcie-nop2p": {"f16": host, "bf16": host},
	}
	for name, byType := range measured {
		p := passes.ProfileOf(target(t, name))
		for dt, want := range byType {
			for key, b := range want {
				c, ok := p.Lookup(2, dt, key)
				got := bounds{c.MinBytes, c.MaxBytes}
				if c.Off {
					got = off
				}
				if !ok || got != b {
					t.Errorf("%s w2 %s %s: %v (found %v), want %v", name, dt, key, got, ok, b)
				}
			}
		}
	}
	for name, want := range map[string]int64{"cuda:nvlink": 8 * mib, "cuda:pcie": 4 * mib, "cuda:pcie-nop2p": 2 * mib, "cuda:pcie-2numa": 2 * mib, "rocm:mi300x": 8 * mib, "rocm:mi355x": 8 * mib} {
		p := passes.ProfileOf(target(t, name))
		for _, w := range []int{2, 4, 6, 8} {
			for _, dt := range []string{"f16", "bf16", "f32"} {
				if w == 2 && measured[name][dt] != nil {
					continue
				}
				c, ok := p.Lookup(w, dt, "oneshot")
				if !ok || c.MaxBytes != want || c.MinBytes != 0 {
					t.Errorf("%s w%d %s oneshot: %d to %d B, want up to %d", name, w, dt, c.MinBytes, c.MaxBytes, want)
				}
				for _, key := range []string{"twoshot:fp", "hier:fp"} {
					if c, ok := p.Lookup(w, dt, key); ok && (c.MinBytes != 0 || c.Off) {
						t.Errorf("%s w%d %s %s has a lower bound (%d B, off %v): a dead zone below it", name, w, dt, key, c.MinBytes, c.Off)
					}
				}
			}
		}
	}
	vllm := map[string]map[int][3]int64{ // -1: off
		"f16":  {2: {2, 2, 1}, 4: {16, 4, 2}, 8: {4, 4, 2}},
		"bf16": {2: {8, 8, 8}, 4: {64, 64, 16}, 8: {-1, -1, -1}},
	}
	for _, name := range []string{"rocm:mi300x", "rocm:mi355x"} {
		p := passes.ProfileOf(target(t, name))
		for dt, byWorld := range vllm {
			for w, mb := range byWorld {
				for i, codecs := range [][]string{{"int8", "fp8"}, {"int6"}, {"int4", "int4r"}} {
					for _, codec := range codecs {
						c, ok := p.Lookup(w, dt, "twoshot:"+codec)
						switch {
						case !ok:
							t.Errorf("%s w%d %s: no twoshot:%s", name, w, dt, codec)
						case mb[i] < 0 && !c.Off:
							t.Errorf("%s w%d %s twoshot:%s is on; vLLM turns it off", name, w, dt, codec)
						case mb[i] >= 0 && (c.Off || c.MinBytes != mb[i]*mib):
							t.Errorf("%s w%d %s twoshot:%s from %d B, want %d MiB", name, w, dt, codec, c.MinBytes, mb[i])
						}
					}
				}
			}
		}
	}
}

// TestProfileBoundsAreInclusive checks the policy's reading of a profile's
// bounds: MinBytes and MaxBytes are allowed sizes, Off turns a lowering off,
// and a size no arc kernel may take stays native with the bounds in the reason.
func TestProfileBoundsAreInclusive(t *testing.T) {
	prof := &passes.Profile{Target: "cuda:nvlink", Costs: map[string]map[string]map[string]passes.Cost{"4": {"f16": {
		"native":       {LatencyUS: 100, GBps: 1},
		"oneshot":      {LatencyUS: 1, GBps: 1000, MinBytes: 64 * kib, MaxBytes: 1 * mib},
		"twoshot:fp":   {LatencyUS: 2, GBps: 1000, Off: true},
		"twoshot:int8": {LatencyUS: 2, GBps: 1000, MinBytes: 4 * mib},
	}}}}
	opts := passes.Options{Profile: prof, Quant: "int8"}
	for _, c := range []struct {
		n      int64
		want   string
		reason string
	}{
		{64*kib - 16, "native", "no arc kernel fits this size: oneshot needs 64 KiB to 1 MiB, twoshot:fp needs a profile that enables it, twoshot:int8 needs 4 MiB to any size"},
		{64 * kib, "oneshot", ""},
		{1 * mib, "oneshot", ""},
		{1*mib + 16, "native", ""},
		{4*mib - 16, "native", ""},
		{4 * mib, "twoshot", ""},
	} {
		d := decide(t, "cuda:nvlink", opts, sum("f16", c.n, iota(0, 4)))
		if d.Lowering != c.want || (c.reason != "" && d.Reason != c.reason) {
			t.Errorf("%d B: %s (%s), want %s %s", c.n, d.Lowering, d.Reason, c.want, c.reason)
		}
	}
}

// smallSizes are what a program psums besides tensors: a scalar (2 or 4
// bytes), a few elements.
var smallSizes = []int64{2, 4, 6, 8, 10, 12, 14}

// sizes are 16 B to 256 MiB in steps of 2^(1/8), multiples of 16.
func sizes() []int64 {
	var out []int64
	for k := 32; k <= 8*28; k++ {
		n := int64(math.Pow(2, float64(k)/8)) / 16 * 16
		if len(out) == 0 || n != out[len(out)-1] {
			out = append(out, n)
		}
	}
	return out
}

var gpuTargets = []string{"cuda:nvlink", "cuda:pcie", "cuda:pcie-nop2p", "cuda:pcie-2numa", "rocm:mi300x", "rocm:mi355x"}

// TestNeverSlowerThanNativeAndNoDeadZone walks every GPU target, --quant,
// dtype, world and size, from a scalar up. The profile says which of arc's kernels may run
// (the exact ones and the options' codec, within the kernel's size bounds)
// and what each costs;
// the choice must be the cheapest of them when it beats native, and native
// otherwise. So no size is left native while an allowed kernel is estimated
// faster, and no kernel is chosen that is estimated slower than native.
func TestNeverSlowerThanNativeAndNoDeadZone(t *testing.T) {
	for _, name := range gpuTargets {
		tg := target(t, name)
		prof := passes.ProfileOf(tg)
		for _, quant := range passes.Quants {
			opts := passes.Options{Quant: quant, Profile: prof} // the built-in profile, built once
			for _, w := range []int64{2, 4, 6, 8} {
				for _, dt := range []string{"f16", "bf16", "f32"} {
					keys := []string{"oneshot", "twoshot:fp", "hier:fp"}
					if quant != "none" && quant != "fp" {
						keys = append(keys, "twoshot:"+quant, "hier:"+quant)
					}
					native, _ := prof.Lookup(int(w), dt, "native")
					for _, n := range append(slices.Clone(smallSizes), sizes()...) {
						best, bestKey := native.At(n), "native"
						for _, key := range keys {
							c, ok := prof.Lookup(int(w), dt, key)
							if ok && !c.Off && n >= c.MinBytes && (c.MaxBytes == 0 || n <= c.MaxBytes) && c.At(n) < best {
								best, bestKey = c.At(n), key
							}
						}
						d, err := tg.Decide(sum(dt, n, iota(0, w)), opts)
						if err != nil {
							t.Fatal(err)
						}
						where := func() string {
							return fmt.Sprintf("%s --quant %s, %s x%d, %d B", name, quant, dt, w, n)
						}
						if bestKey == "native" {
							if d.Lowering != "native" {
								t.Fatalf("%s: %s at %.2f us, native %.2f us: slower than native", where(), d.Lowering, d.EstUS, d.NativeUS)
							}
							continue
						}
						if d.Lowering == "native" {
							t.Fatalf("%s: native (%s) while %s is estimated at %.2f us against native %.2f us", where(), d.Reason, bestKey, best, native.At(n))
						}
						if d.EstUS != best || d.EstUS >= d.NativeUS {
							t.Fatalf("%s: %s:%s at %.2f us, but %s is allowed at %.2f us (native %.2f)", where(), d.Algo, d.Codec, d.EstUS, bestKey, best, d.NativeUS)
						}
					}
				}
			}
		}
	}
}

// TestNativeCrossovers finds, for every GPU target, dtype and world, the
// sizes where the cheapest allowed kernel and native trade places, and checks
// the decision flips exactly there: 16 bytes before, arc's kernel is chosen
// when it is estimated faster, native when it is not.
func TestNativeCrossovers(t *testing.T) {
	flips := 0
	for _, name := range gpuTargets {
		opts := passes.Options{Profile: passes.ProfileOf(target(t, name))}
		for _, w := range []int64{2, 4, 6, 8} {
			for _, dt := range []string{"f16", "bf16", "f32"} {
				row := func(n int64) passes.Decision { return decide(t, name, opts, sum(dt, n, iota(0, w))) }
				prev := row(16)
				for _, n := range sizes()[1:] {
					d := row(n)
					if (d.Lowering == "native") == (prev.Lowering == "native") {
						prev = d
						continue
					}
					// Bisect to the first multiple of 16 on d's side.
					lo, hi := n/2/16*16, n
					for hi-lo > 16 {
						mid := (lo + hi) / 2 / 16 * 16
						if (row(mid).Lowering == "native") == (d.Lowering == "native") {
							hi = mid
						} else {
							lo = mid
						}
					}
					before, at := row(hi-16), row(hi)
					for _, x := range []passes.Decision{before, at} {
						if arc := x.Lowering != "native"; arc != (x.EstUS < x.NativeUS) || arc && x.EstUS >= x.NativeUS {
							t.Errorf("%s %s x%d: %s at %.3f us, native %.3f us", name, dt, w, x.Lowering, x.EstUS, x.NativeUS)
						}
					}
					if (before.Lowering == "native") == (at.Lowering == "native") {
						t.Errorf("%s %s x%d: no flip between %d and %d B", name, dt, w, hi-16, hi)
					}
					flips++
					prev = d
				}
			}
		}
	}
	if flips == 0 {
		t.Fatal("no crossover found: the walk is broken")
	}
}

func TestForce(t *testing.T) {
	four := iota(0, 4)
	force := func(s string) map[int]passes.Force { // "INDEX=LOWERING[:CODEC]", as --force reads it
		idx, rest, _ := strings.Cut(s, "=")
		i, err := strconv.Atoi(idx)
		if idx == "all" {
			i, err = passes.ForceAll, nil
		}
		if err != nil {
			t.Fatalf("force %q: %v", s, err)
		}
		low, codec, _ := strings.Cut(rest, ":")
		return map[int]passes.Force{i: {Lowering: low, Codec: codec}}
	}
	ok := []struct {
		target, force string
		row           passes.Row
		want          string // lowering:codec:algo
	}{
		{"cuda:nvlink", "0=oneshot", sum("f16", 64*mib, four), "oneshot:none:oneshot"}, // beyond its 8 MiB maximum, and slower than native
		{"cuda:nvlink", "0=twoshot", sum("f16", 4*kib, four), "twoshot:fp:twoshot"},
		{"cuda:nvlink", "0=twoshot:int8", sum("f16", 4*kib, four), "twoshot:int8:twoshot"}, // a codec --quant did not allow
		{"cuda:nvlink", "0=native", sum("f16", 4*kib, four), "native:none:"},
		{"cuda:pcie", "0=lowprec", sum("bf16", 4*mib, four), "lowprec:fp8:twoshot"},
		{"cuda:pcie-2numa", "0=lowprec", sum("f16", 4*mib, iota(0, 8)), "lowprec:fp8:hier"},
		{"cuda:pcie-2numa", "0=twoshot:int4", sum("f16", 4*mib, iota(0, 8)), "twoshot:int4:hier"},
		{"rocm:mi300x", "0=quickreduce:int4", sum("bf16", 16*kib, four), "quickreduce:int4:twoshot"}, // below vLLM's minimum
		{"rocm:mi300x", "0=twoshot", sum("f16", 16*kib, four), "quickreduce:fp:twoshot"},
		{"cuda:nvlink", "0=quickreduce", sum("f16", 16*kib, four), "twoshot:fp:twoshot"}, // the two words name one kernel
		{"rocm:mi355x", "0=oneshot", sum("f32", 1*mib, iota(0, 6)), "oneshot:none:oneshot"},
		{"tpu:v6e-8", "0=ring", sum("f32", 4*kib, four), "ring:none:"},
		{"tpu:v6e-8", "0=native", sum("f32", 4*kib, four), "native:none:"},
	}
	for _, c := range ok {
		d, err := target(t, c.target).Decide(c.row, passes.Options{Force: force(c.force)})
		if err != nil {
			t.Errorf("%s --force %s: %v", c.target, c.force, err)
			continue
		}
		if got := d.Lowering + ":" + d.Codec + ":" + d.Algo; got != c.want {
			t.Errorf("%s --force %s: %s (%s), want %s", c.target, c.force, got, d.Reason, c.want)
		}
		if !strings.HasPrefix(d.Reason, "forced") && c.target != "tpu:v6e-8" { // ring is what TPU targets do anyway
			t.Errorf("%s --force %s: reason %q does not say it was forced", c.target, c.force, d.Reason)
		}
	}
	fail := []struct {
		target, force string
		row           passes.Row
		want          string
	}{
		{"cuda:nvlink", "0=oneshot", sum("f16", 0, four), "--force 0=oneshot: empty tensor"},
		{"cuda:nvlink", "0=twoshot", sum("f16", 4*kib, iota(0, 3)), "--force 0=twoshot: group size 3"},
		{"cuda:nvlink", "0=twoshot", sum("f16", 4*kib, iota(0, 6)), "--force 0=twoshot: no such kernel for cuda:nvlink at world 6"},
		{"cuda:nvlink", "0=ring", sum("f16", 4*kib, four), "--force 0=ring: ring is a TPU lowering"},
		{"rocm:mi300x", "0=lowprec", sum("f16", 4*kib, four), "--force 0=lowprec: no such kernel"},
		{"tpu:v6e-8", "0=oneshot", sum("f16", 4*kib, four), "--force 0=oneshot: TPU targets lower all-reduces to ring only"},
		{"none", "0=oneshot", sum("f16", 4*kib, four), "--force 0=oneshot: target none"},
	}
	for _, c := range fail {
		_, err := target(t, c.target).Decide(c.row, passes.Options{Force: force(c.force)})
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s --force %s: %v, want an error starting %q", c.target, c.force, err, c.want)
		}
	}
	// A force of another row leaves this one to the policy.
	d := decide(t, "cuda:nvlink", passes.Options{Force: force("1=native")}, sum("f16", 4*kib, four))
	if d.Lowering != "oneshot" {
		t.Errorf("row 0 with a force of row 1: %s", d.Lowering)
	}
}

// TestForceAll: all=LOWERING applies to every all-reduce row it can; a row it
// cannot take stays native with the reason instead of failing the compile;
// a row's own INDEX entry wins over it.
func TestForceAll(t *testing.T) {
	four := iota(0, 4)
	all := map[int]passes.Force{passes.ForceAll: {Lowering: "twoshot", Codec: "int8"}}
	maxRow := sum("f16", 4*kib, four)
	maxRow.Reduction = "max"
	for _, c := range []struct {
		target      string
		force       map[int]passes.Force
		row         passes.Row
		want, inWhy string
	}{
		{"cuda:nvlink", all, sum("f16", 4*kib, four), "twoshot:int8", "forced by --force"},
		{"cuda:nvlink", all, sum("bf16", 64*mib, iota(0, 2)), "twoshot:int8", "forced by --force"},
		{"cuda:nvlink", all, maxRow, "native:none", "reduction is max"},
		{"cuda:nvlink", all, sum("f16", 4*kib, iota(0, 6)), "native:none", "--force all=twoshot:int8: no such kernel for cuda:nvlink at world 6"},
		{"tpu:v6e-8", all, sum("f32", 4*kib, four), "native:none", "--force all=twoshot:int8: TPU targets lower all-reduces to ring only"},
		{"cuda:nvlink", map[int]passes.Force{passes.ForceAll: {Lowering: "twoshot", Codec: "int8"}, 0: {Lowering: "oneshot"}},
			sum("f16", 4*kib, four), "oneshot:none", "forced by --force"},
		{"cuda:nvlink", map[int]passes.Force{passes.ForceAll: {Lowering: "native"}}, sum("f16", 4*kib, four), "native:none", "forced native"},
	} {
		d, err := target(t, c.target).Decide(c.row, passes.Options{Force: c.force})
		if err != nil {
			t.Errorf("%s %v: %v", c.target, c.force, err)
			continue
		}
		if got := d.Lowering + ":" + d.Codec; got != c.want || !strings.Contains(d.Reason, c.inWhy) {
			t.Errorf("%s %v, %s %d B x %d: %s (%s), want %s (%s)", c.target, c.force, c.row.DType, c.row.Bytes, c.row.GroupSize, got, d.Reason, c.want, c.inWhy)
		}
	}
}

// TestDecideOnALoadedProfile: the policy runs on a --profile file: 64 KiB
// may take the one-shot kernel, 64 KiB + 16 may not (and two-shot is off).
func TestDecideOnALoadedProfile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.json")
	if err := os.WriteFile(path, []byte(`{"target": "cuda:nvlink", "source": "a test", "costs": {"4": {"f16": {
      "native": {"points": [[4096, 20], [1048576, 30]]},
      "oneshot": {"latency_us": 5, "gbps": 100, "max_bytes": 65536},
      "twoshot:fp": {"off": true}}}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := passes.LoadProfile(path)
	if err != nil {
		t.Fatal(err)
	}
	opts := passes.Options{Profile: p}
	if d := decide(t, "cuda:nvlink", opts, sum("f16", 64*kib, iota(0, 4))); d.Lowering != "oneshot" {
		t.Errorf("64 KiB: %s (%s)", d.Lowering, d.Reason)
	}
	if d := decide(t, "cuda:nvlink", opts, sum("f16", 64*kib+16, iota(0, 4))); d.Lowering != "native" {
		t.Errorf("64 KiB + 16: %s (%s)", d.Lowering, d.Reason)
	}
}

// TestQuantNotUsedSaysWhy: when --quant names a codec the decision does not
// use, the reason says why (a bf16 TP8 model on MI300X asked for
// int4 falls back to fp, which vLLM's table keeps off there).
func TestQuantNotUsedSaysWhy(t *testing.T) {
	for _, c := range []struct {
		target, quant, dtype string
		bytes, world         int64
		want                 string
	}{
		{"rocm:mi300x", "int4", "bf16", 8 * mib, 8, "; --quant int4 not used: the rocm:mi300x profile keeps twoshot:int4 off for bf16 at world 8"},
		{"rocm:mi300x", "int8", "f16", 4 * mib, 4, "; --quant int8 not used: the rocm:mi300x profile allows twoshot:int8 from 16 MiB to any size"},
		{"cuda:pcie", "int8", "f16", 4 * kib, 4, "; --quant int8 not used: twoshot int8 is slower here"},
		{"cuda:nvlink", "int8", "f16", 4 * kib, 6, "; --quant int8 not used: world 6 has only the one-shot kernel"},
	} {
		d := decide(t, c.target, passes.Options{Quant: c.quant}, sum(c.dtype, c.bytes, iota(0, c.world)))
		if d.Lowering == "native" || !strings.Contains(d.Reason, c.want) {
			t.Errorf("%s --quant %s, %s %d B over %d: %s (%s), want the reason to say %q", c.target, c.quant, c.dtype, c.bytes, c.world, d.Lowering, d.Reason, c.want)
		}
	}
	if d := decide(t, "cuda:nvlink", passes.Options{Quant: "none"}, sum("f16", 64*mib, iota(0, 2))); strings.Contains(d.Reason, "not used") {
		t.Errorf("--quant none: %s", d.Reason)
	}
}

// TestEverySizeTakesOneshot: a psum of a scalar (a loss, a token count in
// f32) or of a few elements, in every dtype the kernels sum, takes arc's
// one-shot kernel on every GPU target and world, at the one-shot
// estimate, which at these sizes is its latency (within 0.05 us of what 16
// bytes cost).
func TestEverySizeTakesOneshot(t *testing.T) {
	for _, name := range gpuTargets {
		tg := target(t, name)
		prof := passes.ProfileOf(tg)
		for _, w := range []int64{2, 4, 6, 8} {
			for _, dt := range []string{"f16", "bf16", "f32"} {
				es := int64(2)
				if dt == "f32" {
					es = 4
				}
				one, _ := prof.Lookup(int(w), dt, "oneshot")
				for _, elems := range []int64{1, 3, 5, 7, 17, 1023} {
					row := sum(dt, elems*es, iota(0, w))
					if elems == 1 {
						row.Shape = []int64{} // a rank-0 tensor
					}
					d := decide(t, name, passes.Options{}, row)
					where := fmt.Sprintf("%s %s x%d, %d elements", name, dt, w, elems)
					if d.Lowering != "oneshot" || d.Algo != "oneshot" || !strings.HasPrefix(d.Reason, "oneshot: est ") {
						t.Fatalf("%s: %s (%s), want oneshot", where, d.Lowering, d.Reason)
					}
					if d.EstUS != one.At(elems*es) || d.EstUS >= d.NativeUS {
						t.Fatalf("%s: est %.3f us (native %.3f), want the profile's oneshot %.3f", where, d.EstUS, d.NativeUS, one.At(elems*es))
					}
					if elems*es <= 16 && math.Abs(d.EstUS-one.At(16)) > 0.05 {
						t.Fatalf("%s: est %.3f us, want one-shot's latency, %.3f as at 16 bytes", where, d.EstUS, one.At(16))
					}
				}
			}
		}
	}
}
