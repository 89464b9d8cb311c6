package tpu_test

import (
	"fmt"
	"strings"
	"testing"

	_ "github.com/arcpass/arc/internal/golden" // accepts -update, as every test under lowering/ must
	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/lowering/tpu"
	"github.com/arcpass/arc/passes"
)

// lower runs the TPU pipeline (analyse, select, lower-tpu, verify) over src.
func lower(t *testing.T, target, src, libtpuArgs string) (string, *passes.Report) {
	t.Helper()
	m, err := ir.ParseString("m.mlir", src)
	if err != nil {
		t.Fatal(err)
	}
	slice, err := tpu.ParseTarget(target)
	if err != nil {
		t.Fatal(err)
	}
	tg := &tpu.Target{Slice: slice}
	s := &passes.State{Module: m, Target: tg, Options: passes.Options{Env: map[string]string{tpu.InitArgsVar: libtpuArgs}}}
	p := passes.Pipeline{Passes: passes.Passes(tg), VerifyEach: true}
	if err := p.Run(s); err != nil {
		t.Fatal(err)
	}
	rep, err := passes.NewReport(s.Module, target, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s.Module.Src, rep
}

// allReduce is a one-op module over 8 partitions, as JAX writes one, with
// the given groups attribute (and optional extra attributes).
func allReduce(groups string) string {
	return replicas(`mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32`, groups)
}

// global is groups in flattened-id mode, as JAX's shard_map writes them.
func global(groups string) string {
	return `channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, ` + groups + `, use_global_device_ids`
}

// replicas is a one-op module with the given module attributes.
func replicas(moduleAttrs, groups string) string {
	return `module @m attributes {` + moduleAttrs + `} {
  sdy.mesh @mesh = <["dp"=2, "tp"=4]>
  func.func @main(%x: tensor<1024xf32>) -> tensor<1024xf32> {
    %0 = "stablehlo.all_reduce"(%x) <{` + groups + `}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<1024xf32>) -> tensor<1024xf32>
    return %0 : tensor<1024xf32>
  }
}
`
}

func TestPassWritesMeshAxesGroupsOutOverGlobalIDs(t *testing.T) {
	// JAX's mesh-axes groups in flattened-id mode: the rings are written out
	// as explicit groups of the same ids, the mode's attributes kept.
	src := allReduce(global(`replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = [#stablehlo.axis_ref<name = "tp">]>`))
	out, rep := lower(t, "tpu:v6e-8", src, "")
	want := `<{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 3, 2], [4, 5, 7, 6]]> : tensor<2x4xi64>, use_global_device_ids}> ({`
	if !strings.Contains(out, want) {
		t.Errorf("lowered module lacks %s:\n%s", want, out)
	}
	if row := rep.Collectives[0]; row.Lowering != "ring" || tpu.RingsOf(row.Decision).MaxHops != 1 {
		t.Errorf("row: %s with %+v, want ring with 1 hop", row.Lowering, tpu.RingsOf(row.Decision))
	}
}

func TestPassMergesLibtpuArgs(t *testing.T) {
	src := allReduce(global(`replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>`))
	for _, c := range []struct{ user, want string }{
		{"", tpu.LibtpuRingFlag},
		{"--xla_dump_to=/tmp/d", tpu.LibtpuRingFlag + " --xla_dump_to=/tmp/d"},
		// The user's own setting of the flag wins and is kept as it is.
		{"--xla_tpu_force_1d_allreduce_at_chunk_count=2", "--xla_tpu_force_1d_allreduce_at_chunk_count=2"},
		// Bytes MLIR prints as \XX (a non-ASCII path, a quote) read back as they were.
		{`--xla_dump_to=/tmp/café "d"`, tpu.LibtpuRingFlag + ` --xla_dump_to=/tmp/café "d"`},
	} {
		_, rep := lower(t, "tpu:v6e-8", src, c.user)
		if got := rep.Env["LIBTPU_INIT_ARGS"]; got != c.want {
			t.Errorf("user %q: LIBTPU_INIT_ARGS = %q, want %q", c.user, got, c.want)
		}
	}
}

// TestPassKeepsTheEnvironmentOfALoweredModule: lowering a lowered module
// again changes nothing and still tells the user the flag its rings need.
func TestPassKeepsTheEnvironmentOfALoweredModule(t *testing.T) {
	once, _ := lower(t, "tpu:v6e-8", allReduce(global(`replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>`)), "")
	twice, rep := lower(t, "tpu:v6e-8", once, "")
	if twice != once {
		t.Errorf("second lowering changed the module:\n%s\nwas\n%s", twice, once)
	}
	if got := rep.Env["LIBTPU_INIT_ARGS"]; got != tpu.LibtpuRingFlag {
		t.Errorf("LIBTPU_INIT_ARGS = %q on the lowered module", got)
	}
	if row, r := rep.Collectives[0], tpu.RingsOf(rep.Collectives[0].Decision); row.Lowering != "ring" || r == nil || r.MaxHops != 1 || len(r.Groups) != 1 || len(r.Groups[0]) != 8 {
		t.Errorf("row read back: %+v", row)
	}
}

// TestPassLeavesNoEnvironmentWithoutRings: no ring, no flag to set.
func TestPassLeavesNoEnvironmentWithoutRings(t *testing.T) {
	// Groups of one device stay native.
	_, rep := lower(t, "tpu:v6e-8", allReduce(global(`replica_groups = dense<[[0], [1], [2], [3], [4], [5], [6], [7]]> : tensor<8x1xi64>`)), "--xla_dump_to=/tmp/d")
	if len(rep.Env) != 0 {
		t.Errorf("env %v for a module without rings", rep.Env)
	}
}

func TestPassKeepsGroupsThatDoNotFitTheSlice(t *testing.T) {
	src := allReduce(global(`replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>`))
	out, rep := lower(t, "tpu:v5e-4", src, "")
	row := rep.Collectives[0]
	if row.Lowering != "native" || !strings.Contains(row.Reason, "does not fit tpu:v5e-4") {
		t.Errorf("row: %s (%s), want native because the group does not fit", row.Lowering, row.Reason)
	}
	if !strings.Contains(out, `replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]>`) {
		t.Errorf("groups changed:\n%s", out)
	}
	if len(rep.Env) != 0 {
		t.Errorf("env %v without rings", rep.Env)
	}
}

// TestPassAddsAChannelForGlobalIDs: a cross-replica all-reduce (no
// channel) is written in flattened-id mode, which StableHLO spells with a
// channel and use_global_device_ids: a fresh handle, above every handle the
// module uses. On one partition the ids stay the replicas'.
func TestPassAddsAChannelForGlobalIDs(t *testing.T) {
	src := replicas(`stablehlo.num_replicas = 8 : i64`, `replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>`)
	out, _ := lower(t, "tpu:v6e-8", src, "")
	want := `<{replica_groups = dense<[[0, 1, 3, 2], [4, 5, 7, 6]]> : tensor<2x4xi64>, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>}> ({`
	if !strings.Contains(out, want) {
		t.Errorf("lowered module lacks %s:\n%s", want, out)
	}
}

// TestPassAddsAnMHLOChannel: an mhlo.all_reduce gets the channel handle of
// its own dialect (#mhlo.channel_handle): MHLO refuses StableHLO's.
func TestPassAddsAnMHLOChannel(t *testing.T) {
	src := strings.NewReplacer(`"stablehlo.all_reduce"`, `"mhlo.all_reduce"`, "stablehlo.add", "mhlo.add", "stablehlo.return", "mhlo.return").
		Replace(replicas(`mhlo.num_replicas = 8 : i32`, `replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>`))
	if !strings.Contains(src, `"mhlo.all_reduce"`) {
		t.Fatalf("no mhlo.all_reduce in:\n%s", src)
	}
	out, _ := lower(t, "tpu:v6e-8", src, "")
	want := `use_global_device_ids, channel_handle = #mhlo.channel_handle<handle = 1, type = 1>`
	if !strings.Contains(out, want) {
		t.Errorf("lowered module lacks %s:\n%s", want, out)
	}
}

// TestPassKeepsTheProcessesOfEveryPartition: a cross-replica all-reduce on
// 2 replicas x 4 partitions runs its group in each partition; written in
// flattened-id mode it names the same 4 process groups (devices p * 2 + r
// under XLA's default assignment).
func TestPassKeepsTheProcessesOfEveryPartition(t *testing.T) {
	src := replicas(`mhlo.num_replicas = 2 : i32, mhlo.num_partitions = 4 : i32`, `replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>`)
	out, rep := lower(t, "tpu:v6e-8", src, "")
	want := `replica_groups = dense<[[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids, channel_handle`
	if !strings.Contains(out, want) {
		t.Errorf("lowered module lacks %s:\n%s", want, out)
	}
	if got := rep.Collectives[0].Groups; len(got) != 4 || got[1][0] != 2 || got[1][1] != 3 {
		t.Errorf("device groups %v, want {0 1} {2 3} {4 5} {6 7}", got)
	}
}

// TestDeviceCoordsDecideTheRing: with the devices' coordinates (what the
// proxies pass from PJRT) the ring follows them: device ids numbered as
// JAX's mesh_utils numbers a tray (x spans 4) get JAX's ring, and the
// reason no longer says how ids were read.
func TestDeviceCoordsDecideTheRing(t *testing.T) {
	slice, err := tpu.ParseTarget("tpu:v6e-8")
	if err != nil {
		t.Fatal(err)
	}
	coords := map[int64][]int{}
	for id := range 8 {
		coords[int64(id)] = []int{id % 4, id / 4, 0}
	}
	row := passes.Row{Op: "all_reduce", DType: "f32", Bytes: 4096, Reduction: "sum", Groups: [][]int64{{0, 1, 2, 3, 4, 5, 6, 7}}, GroupSize: 8}
	tg := &tpu.Target{Slice: slice}
	d, err := tg.Decide(row, passes.Options{DeviceCoords: coords})
	if err != nil {
		t.Fatal(err)
	}
	if r := tpu.RingsOf(d); fmt.Sprint(r.Groups) != "[[0 1 2 3 7 6 5 4]]" || r.MaxHops != 1 || strings.Contains(d.Reason, "x-minor") {
		t.Errorf("ring %v, %d hops, reason %q", r.Groups, r.MaxHops, d.Reason)
	}
	offline, _ := tg.Decide(row, passes.Options{})
	if r := tpu.RingsOf(offline); fmt.Sprint(r.Groups) != "[[0 2 4 6 7 5 3 1]]" || !strings.Contains(offline.Reason, "(device ids read as x-minor chip coordinates)") {
		t.Errorf("offline: ring %v, reason %q", r.Groups, offline.Reason)
	}
	coords[7] = []int{0, 0, 0}
	if d, _ := tg.Decide(row, passes.Options{DeviceCoords: coords}); d.Lowering != "native" || !strings.Contains(d.Reason, "the devices' coordinates do not fit tpu:v6e-8") {
		t.Errorf("clashing coordinates: %s (%s)", d.Lowering, d.Reason)
	}
}

// TestPassOrdersSubByteTypes: an all-reduce of every StableHLO element type
// narrower than a byte, or with an 8-bit exponent, has a static size (its
// elements packed, as XLA lays them out) and gets its ring.
func TestPassOrdersSubByteTypes(t *testing.T) {
	for elem, bytes := range map[string]int64{
		"i2": 256, "i4": 512, "ui2": 256, "ui4": 512, "f4E2M1FN": 512, "f6E2M3FN": 768, "f6E3M2FN": 768,
		"f8E8M0FNU": 1024, "f8E3M4": 1024, "i1": 1024,
	} {
		src := strings.ReplaceAll(allReduce(global(`replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>`)), "f32", elem)
		if elem == "i1" {
			src = strings.ReplaceAll(src, "stablehlo.add", "stablehlo.or")
		}
		_, rep := lower(t, "tpu:v6e-8", src, "")
		if row := rep.Collectives[0]; row.Lowering != "ring" || row.Bytes != bytes {
			t.Errorf("%s: %s (%s), %d bytes; want a ring over %d bytes", elem, row.Lowering, row.Reason, row.Bytes, bytes)
		}
	}
}
