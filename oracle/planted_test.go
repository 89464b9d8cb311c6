package oracle_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/arcpass/arc"
	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/oracle"
)

// allReduce prints a generic all_reduce of one operand.
func allReduce(result, operand, typ, elem, op, attrs string) string {
	return fmt.Sprintf(`    %s = "stablehlo.all_reduce"(%s) ({
      ^bb0(%%a: tensor<%s>, %%b: tensor<%s>):
        %%s = "stablehlo.%s"(%%a, %%b) : (tensor<%s>, tensor<%s>) -> tensor<%s>
        "stablehlo.return"(%%s) : (tensor<%s>) -> ()
    }) {%s} : (%s) -> %s
`, result, operand, elem, elem, op, elem, elem, elem, elem, attrs, typ, typ)
}

// module wraps ops in a module of r replicas and p partitions whose main
// takes %x0..%x3 of type typ and returns rets.
func module(r, p int, typ string, body string, rets ...string) string {
	types := strings.TrimSuffix(strings.Repeat(typ+", ", len(rets)), ", ")
	return fmt.Sprintf(`module @planted attributes {mhlo.num_replicas = %d : i32, mhlo.num_partitions = %d : i32} {
  func.func @main(%%x0: %s, %%x1: %s, %%x2: %s, %%x3: %s) -> (%s) {
%s    "func.return"(%s) : (%s) -> ()
  }
}
`, r, p, typ, typ, typ, typ, types, body, strings.Join(rets, ", "), types)
}

func parse(t *testing.T, name, src string) *ir.Module {
	t.Helper()
	m, err := ir.ParseString(name, src)
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, src)
	}
	return m
}

func compile(t *testing.T, src string, opt arc.Options) string {
	t.Helper()
	out, _, err := arc.Compile("in.mlir", []byte(src), opt)
	if err != nil {
		t.Fatalf("compile %s: %v\n%s", opt.Target, err, src)
	}
	return string(out)
}

// edit replaces old by new in s, exactly once.
func edit(t *testing.T, s, old, new string) string {
	t.Helper()
	if n := strings.Count(s, old); n != 1 {
		t.Fatalf("%q occurs %d times in\n%s", old, n, s)
	}
	return strings.Replace(s, old, new, 1)
}

// mustDetect checks that the oracle rejects the lowered module with a
// message holding want.
func mustDetect(t *testing.T, orig, lowered, want string, opt oracle.Options) {
	t.Helper()
	err := oracle.Check(parse(t, "orig.mlir", orig), parse(t, "lowered.mlir", lowered), opt)
	var mm *oracle.MismatchError
	if !errors.As(err, &mm) || !strings.Contains(err.Error(), want) {
		t.Errorf("oracle: %v\nwant a mismatch saying %q; lowered module:\n%s", err, want, lowered)
	}
}

func mustAgree(t *testing.T, orig, lowered string, opt oracle.Options) {
	t.Helper()
	if err := oracle.Check(parse(t, "orig.mlir", orig), parse(t, "lowered.mlir", lowered), opt); err != nil {
		t.Errorf("oracle: %v; lowered module:\n%s", err, lowered)
	}
}

const f32x = "tensor<1024xf32>"

var nvlink = arc.Options{Target: "cuda:nvlink"}

func TestDetectsWrongGroups(t *testing.T) {
	orig := module(4, 1, f32x, allReduce("%0", "%x0", f32x, "f32", "add", "replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>"), "%0")
	low := compile(t, orig, nvlink)
	mustAgree(t, orig, low, oracle.Options{})
	bad := edit(t, low, "devices = array<i64: 0, 1, 2, 3>", "devices = array<i64: 0, 2, 1, 3>") // the ids the runtime runs on
	mustDetect(t, orig, bad, "process (0, 0) reduces with [(0, 0) (2, 0)]", oracle.Options{})
	// The same pairs in another order inside each group: a reordered sum,
	// which the oracle accepts.
	mustAgree(t, orig, edit(t, low, "devices = array<i64: 0, 1, 2, 3>", "devices = array<i64: 1, 0, 3, 2>"), oracle.Options{})
}

func TestDetectsMaxTurnedIntoSum(t *testing.T) {
	groups := "replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>"
	maxOrig := module(4, 1, f32x, allReduce("%0", "%x0", f32x, "f32", "maximum", groups), "%0")
	sumOrig := module(4, 1, f32x, allReduce("%0", "%x0", f32x, "f32", "add", groups), "%0")
	// arc's call of the sum, claimed for the max.
	mustDetect(t, maxOrig, compile(t, sumOrig, nvlink), "arc_allreduce oneshot/f32/w4 sums f32, but the original computes max over f32", oracle.Options{})
	// A native max whose region became an add.
	low := compile(t, maxOrig, nvlink)
	mustAgree(t, maxOrig, low, oracle.Options{})
	mustDetect(t, maxOrig, edit(t, low, `"stablehlo.maximum"`, `"stablehlo.add"`), "the computation is sum over f32, the original's max over f32", oracle.Options{})
}

// TestDetectsPartitions: the case a device-blind lowering gets wrong. With 2 replicas and 2 partitions
// and no channel, [[0, 1]] means devices {0, 1} and {2, 3} under XLA's
// default assignment; pairing devices 0 and 1 alone leaves 2 and 3 waiting.
func TestDetectsPartitions(t *testing.T) {
	body := allReduce("%0", "%x0", f32x, "f32", "add", "replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>")
	orig := module(2, 2, f32x, body, "%0")
	call := func(groups string, world int) string {
		return fmt.Sprintf(`    %%0 = "stablehlo.custom_call"(%%x0) {api_version = 4 : i32, backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", groups = array<i64: %s>, link = "peer", world = %d : i64}, call_target_name = "arc_allreduce", has_side_effect = true} : (%s) -> %s
`, groups, world, f32x, f32x)
	}
	right := module(2, 2, f32x, call("0, 1, 2, 3", 2), "%0")
	mustAgree(t, orig, right, oracle.Options{})
	mustDetect(t, orig, module(2, 2, f32x, call("0, 1", 2), "%0"), "process (0, 1) (device 2) is in no group", oracle.Options{})
	mustDetect(t, orig, module(2, 2, f32x, call("0, 2, 1, 3", 2), "%0"), "process (0, 0) reduces with [(0, 0) (0, 1)]", oracle.Options{})
	// A permuted device assignment moves the processes: the call that was
	// right now pairs the wrong devices.
	swap := oracle.Options{Assignment: func(p oracle.Process) int64 { return p.Replica*2 + p.Partition }}
	mustDetect(t, orig, right, "reduces with", swap)
	mustAgree(t, orig, module(2, 2, f32x, call("0, 2, 1, 3", 2), "%0"), swap)
	// With a channel (cross_replica_and_partition) the same groups hold
	// all four devices.
	chanOrig := module(2, 2, f32x, allReduce("%0", "%x0", f32x, "f32", "add", "channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>"), "%0")
	mustAgree(t, chanOrig, module(2, 2, f32x, call("0, 1, 2, 3", 4), "%0"), oracle.Options{})
	mustDetect(t, chanOrig, right, "reduces with", oracle.Options{})
}

func TestDetectsWiring(t *testing.T) {
	typ := "tensor<256xf32>"
	body := fmt.Sprintf(`    %%0:2 = "stablehlo.all_reduce"(%%x0, %%x1) ({
      ^bb0(%%a: tensor<f32>, %%b: tensor<f32>):
        %%s = "stablehlo.add"(%%a, %%b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (%s, %s) -> (%s, %s)
    %%1 = "stablehlo.multiply"(%%0#0, %%0#1) : (%s, %s) -> %s
`, typ, typ, typ, typ, typ, typ, typ)
	orig := module(4, 1, typ, body, "%1", "%0#1")
	low := compile(t, orig, nvlink)
	mustAgree(t, orig, low, oracle.Options{})
	if !strings.Contains(low, `"stablehlo.multiply"(%arc0, %arc1)`) {
		t.Fatalf("the packed results were not split as the test expects:\n%s", low)
	}
	mustDetect(t, orig, edit(t, low, `"stablehlo.multiply"(%arc0, %arc1)`, `"stablehlo.multiply"(%arc1, %arc0)`),
		"stablehlo.multiply at lowered.mlir:", oracle.Options{})
	// A call of the wrong operand.
	mustDetect(t, orig, edit(t, low, `"stablehlo.custom_call"(%x1)`, `"stablehlo.custom_call"(%x2)`),
		"reduces %x2 (an argument of func.func", oracle.Options{})
	// An all-reduce dropped: its result replaced by its operand.
	dropped := edit(t, low, `"stablehlo.multiply"(%arc0, %arc1)`, `"stablehlo.multiply"(%x0, %arc1)`)
	mustDetect(t, orig, dropped, "reads [%x0 (an argument of func.func", oracle.Options{})
}

func TestDetectsQuantization(t *testing.T) {
	typ := "tensor<65536xf16>"
	orig := module(4, 1, typ, allReduce("%0", "%x0", typ, "f16", "add", "replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>"), "%0")
	low := compile(t, orig, arc.Options{Target: "cuda:nvlink", Quant: "int4", Force: []string{"0=twoshot:int4"}})
	if !strings.Contains(low, `codec = "int4"`) {
		t.Fatalf("no int4 call:\n%s", low)
	}
	mustAgree(t, orig, low, oracle.Options{Quant: "int4"})
	mustDetect(t, orig, low, `quantizes with int4, which the options do not allow (--quant "")`, oracle.Options{})
	fp := compile(t, orig, arc.Options{Target: "cuda:nvlink", Force: []string{"0=twoshot:fp"}})
	mustAgree(t, orig, fp, oracle.Options{})
	// A call the input holds, kept as it is: its codec too needs the
	// options' permission.
	mustAgree(t, low, low, oracle.Options{Quant: "int4"})
	mustDetect(t, low, low, `quantizes with int4, which the options do not allow (--quant "")`, oracle.Options{})
}

// TestDetectsReorderedNonCommutative: TPU rings reorder groups, which
// StableHLO allows only where the computation does not care: the order of a
// group is the order of the reduction.
func TestDetectsReorderedNonCommutative(t *testing.T) {
	groups := "replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>"
	ring := "replica_groups = dense<[[0, 1, 3, 2]]> : tensor<1x4xi64>"
	for _, c := range []struct {
		op, elem string
		ok       bool
	}{{"add", "f32", true}, {"add", "bf16", true}, {"maximum", "f16", true}, {"multiply", "f32", true}, {"add", "i32", true}, {"subtract", "f32", false}} {
		typ := "tensor<64x" + c.elem + ">"
		orig := module(4, 1, typ, allReduce("%0", "%x0", typ, c.elem, c.op, groups), "%0")
		low := module(4, 1, typ, allReduce("%0", "%x0", typ, c.elem, c.op, ring), "%0")
		if c.ok {
			mustAgree(t, orig, low, oracle.Options{})
		} else {
			mustDetect(t, orig, low, "the groups were reordered, and the computation is not one the oracle knows to be commutative", oracle.Options{})
		}
		// Another set is wrong whatever the computation.
		mustDetect(t, orig, module(4, 1, typ, allReduce("%0", "%x0", typ, c.elem, c.op, "replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>"), "%0"), "reduces with", oracle.Options{})
	}
}

func TestRejectsInvalidOriginals(t *testing.T) {
	for _, c := range []struct{ typ, body, want string }{
		{"tensor<8xf16>", allReduce("%0", "%x0", "tensor<8xf16>", "f32", "add", "replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>"), "result 0 is tensor<8xf16> but the computation returns f32 (C7)"},
		{"tensor<8xf32>", allReduce("%0", "%x0", "tensor<8xf32>", "f16", "add", "replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>"), "the computation takes f16, to which operand 0's f32 does not promote (C5)"},
		{f32x, allReduce("%0", "%x0", f32x, "f32", "add", "replica_groups = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>"), "id 1 appears twice"},
		{f32x, allReduce("%0", "%x0", f32x, "f32", "add", "replica_groups = dense<[[0, 1, 2, 3, 4]]> : tensor<1x5xi64>"), "id 4 is outside [0, 4)"},
		{f32x, allReduce("%0", "%x0", f32x, "f32", "add", "replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids"), "(C4)"},
	} {
		src := module(4, 1, c.typ, c.body, "%0")
		_, err := oracle.Run(parse(t, "in.mlir", src), oracle.Options{})
		var inv *oracle.InvalidError
		if !errors.As(err, &inv) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("oracle.Run: %v, want an invalid module saying %q:\n%s", err, c.want, src)
		}
	}
}

// TestCallDevices: a call's devices array (global ids, group-major) is
// what runs; its groups then only name the op's ids.
func TestCallDevices(t *testing.T) {
	orig := module(2, 2, f32x, allReduce("%0", "%x0", f32x, "f32", "add", "replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>"), "%0")
	// devices are global ids, groups the same processes as flattened ids
	// (replica * 2 + partition), both group-major.
	call := func(devices, groups string) string {
		return module(2, 2, f32x, fmt.Sprintf(`    %%0 = "stablehlo.custom_call"(%%x0) {api_version = 4 : i32, backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", devices = array<i64: %s>, groups = array<i64: %s>, link = "peer", world = 2 : i64}, call_target_name = "arc_allreduce", has_side_effect = true} : (%s) -> %s
`, devices, groups, f32x, f32x), "%0")
	}
	mustAgree(t, orig, call("0, 1, 2, 3", "0, 2, 1, 3"), oracle.Options{})
	mustAgree(t, orig, call("3, 2, 0, 1", "3, 1, 0, 2"), oracle.Options{})
	mustDetect(t, orig, call("0, 2, 1, 3", "0, 1, 2, 3"), "reduces with", oracle.Options{})
}

// TestUnknownGroups: an all-reduce whose mesh package ir cannot resolve has
// groups the oracle cannot read; the lowering must leave it as it is.
func TestUnknownGroups(t *testing.T) {
	attrs := "channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @nowhere, axes = [#stablehlo.axis_ref<name = \"tp\">]>, use_global_device_ids"
	orig := module(1, 2, f32x, allReduce("%0", "%x0", f32x, "f32", "add", attrs), "%0")
	mustAgree(t, orig, compile(t, orig, nvlink), oracle.Options{})
	call := `    %0 = "stablehlo.custom_call"(%x0) {api_version = 4 : i32, backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", devices = array<i64: 0, 1>, groups = array<i64: 0, 1>, link = "peer", world = 2 : i64}, call_target_name = "arc_allreduce", has_side_effect = true} : (tensor<1024xf32>) -> tensor<1024xf32>
`
	mustDetect(t, orig, module(1, 2, f32x, call, "%0"), "the original's groups are unknown", oracle.Options{})
	mustDetect(t, orig, module(1, 2, f32x, allReduce("%0", "%x0", f32x, "f32", "maximum", attrs), "%0"), "the original's groups are unknown", oracle.Options{})
}

// TestUnstatedGrid: a module without num_replicas or num_partitions is
// read on the first grid its all-reduces all fit (here 1 replica x 2
// partitions, which neither op names alone), as package spec reads it; one
// with an op that fits no grid is invalid; one whose ops each fit a grid,
// but not the same one, is a NoCommonGridError.
func TestUnstatedGrid(t *testing.T) {
	typ := "tensor<8xi64>"
	body := allReduce("%0", "%x0", typ, "i64", "add", "channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids") +
		allReduce("%1", "%0", typ, "i64", "and", "replica_groups = dense<[[0]]> : tensor<1x1xi64>")
	src := strings.Replace(module(1, 1, typ, body, "%1"), " attributes {mhlo.num_replicas = 1 : i32, mhlo.num_partitions = 1 : i32}", "", 1)
	if n, err := oracle.Run(parse(t, "in.mlir", src), oracle.Options{}); err != nil || n != 2 {
		t.Errorf("oracle.Run: %d all-reduce operands, %v", n, err)
	}
	bad := strings.Replace(src, "dense<[[0]]> : tensor<1x1xi64>", "dense<[[0, 0]]> : tensor<1x2xi64>", 1)
	var inv *oracle.InvalidError
	if _, err := oracle.Run(parse(t, "in.mlir", bad), oracle.Options{}); !errors.As(err, &inv) {
		t.Errorf("oracle.Run of ids named twice: %v", err)
	}
	// 2 replicas and 4: each op fits a grid, no grid fits both. Package
	// spec accepts the module and lowers neither op.
	two := strings.Replace(src, "dense<[[0]]> : tensor<1x1xi64>", "dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>", 1)
	two = strings.Replace(two, "channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids", "replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>", 1)
	var none *oracle.NoCommonGridError
	if _, err := oracle.Run(parse(t, "in.mlir", two), oracle.Options{}); !errors.As(err, &none) || errors.As(err, &inv) {
		t.Errorf("oracle.Run of counts that disagree: %v, want a NoCommonGridError", err)
	}
	// Its lowering must keep both all-reduces as written.
	mustAgree(t, two, two, oracle.Options{})
	mustDetect(t, two, strings.Replace(two, "dense<[[0, 1]]>", "dense<[[1, 0]]>", 1), "changes its all-reduces", oracle.Options{})
	// With one of them invalid on every grid, the module is invalid.
	worse := strings.Replace(two, "dense<[[0, 1]]> : tensor<1x2xi64>", "dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>", 1)
	if _, err := oracle.Run(parse(t, "in.mlir", worse), oracle.Options{}); !errors.As(err, &inv) {
		t.Errorf("oracle.Run of counts that disagree, ids named twice: %v, want an InvalidError", err)
	}
}
