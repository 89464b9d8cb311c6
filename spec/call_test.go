package spec

import (
	"fmt"
	"strings"
	"testing"

	"github.com/arcpass/arc/decision"
	"github.com/arcpass/arc/ir"
)

// TestCallGroups: the groups of arc's call are held to the module's grid as
// those of an all-reduce in flattened_ids mode (every process once), its
// processes placed on devices by the device assignment; a module that does
// not state num_replicas has as many as its calls and all-reduces name.
func TestCallGroups(t *testing.T) {
	call := func(groups string, world int) string {
		return fmt.Sprintf(`    %%c = "stablehlo.custom_call"(%%x) {backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", groups = array<i64: %s>, link = "peer", world = %d : i64}, call_target_name = "arc_allreduce"} : (tensor<8xf32>) -> tensor<8xf32>`, groups, world)
	}
	allReduce := func(groups string) string {
		return `    %r = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = ` + groups + `} : (tensor<8xf32>) -> tensor<8xf32>`
	}
	for _, c := range []struct {
		name, attrs string
		ops         []string
		da          string
		want        string // the call's processes and devices, or the error
	}{
		{"stated replicas", "stablehlo.num_replicas = 4 : i64", []string{call("0, 1, 2, 3", 2)}, "", "[[{0 0} {1 0}] [{2 0} {3 0}]] on [[0 1] [2 3]]"},
		{"replicas the call names", "", []string{call("0, 1, 2, 3", 4)}, "", "[[{0 0} {1 0} {2 0} {3 0}]] on [[0 1 2 3]]"},
		{"partitions: XLA's default placement", "stablehlo.num_replicas = 2 : i64, stablehlo.num_partitions = 2 : i64", []string{call("0, 1, 2, 3", 2)}, "",
			"[[{0 0} {0 1}] [{1 0} {1 1}]] on [[0 2] [1 3]]"},
		{"partitions: an assignment", "stablehlo.num_replicas = 2 : i64, stablehlo.num_partitions = 2 : i64", []string{call("0, 1, 2, 3", 2)}, "0,1;2,3",
			"[[{0 0} {0 1}] [{1 0} {1 1}]] on [[0 1] [2 3]]"},
		{"partitions the module does not state", "stablehlo.num_replicas = 2 : i64", []string{call("0, 1, 2, 3", 2)}, "",
			"test.mlir:3:5: stablehlo.custom_call: groups name process 2, but the module's grid has 2 processes (num_replicas x num_partitions = 2 x 1)"},
		{"an all-reduce and a call agree", "", []string{allReduce("dense<[[0, 1]]> : tensor<1x2xi64>"), call("1, 0", 2)}, "", "[[{1 0} {0 0}]] on [[1 0]]"},
		{"an all-reduce and a call disagree", "", []string{allReduce("dense<[[0, 1]]> : tensor<1x2xi64>"), call("0, 1, 2, 3", 2)}, "",
			"test.mlir:8:5: stablehlo.custom_call: arc's call cannot be checked against the module's process grid: the module does not state num_replicas and its all-reduces name different numbers of replicas (2 at 3:5, 4 at 8:5)"},
		{"a grid attribute that is no count", `stablehlo.num_replicas = ""`, []string{call("0, 1", 2)}, "",
			`test.mlir:3:5: stablehlo.custom_call: arc's call cannot be checked against the module's process grid: the module's stablehlo.num_replicas = "" is not a count of processes`},
		{"a negative id", "stablehlo.num_replicas = 2 : i64", []string{call("0, -1", 2)}, "",
			"test.mlir:3:5: stablehlo.custom_call: groups name process -1: a process is replica * num_partitions + partition, from 0"},
		{"an id twice", "stablehlo.num_replicas = 2 : i64", []string{call("1, 1", 2)}, "", "test.mlir:3:5: stablehlo.custom_call: process 1 is in the groups twice"},
		{"a process left out", "stablehlo.num_replicas = 4 : i64", []string{call("0, 2", 2)}, "",
			"test.mlir:3:5: stablehlo.custom_call: groups hold 2 of the module's 4 processes (num_replicas x num_partitions = 4 x 1): a process in no group would wait for its call forever"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := "module @m attributes {" + c.attrs + "} {\n  func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {\n" + strings.Join(c.ops, "\n") + "\n    return %x : tensor<8xf32>\n  }\n}\n"
			m, err := ir.ParseString("test.mlir", src)
			if err != nil {
				t.Fatal(err)
			}
			cs, err := decision.Collectives(m)
			if err != nil {
				t.Fatal(err)
			}
			var da DeviceAssignment
			if c.da != "" {
				if da, err = ParseDeviceAssignment(c.da); err != nil {
					t.Fatal(err)
				}
			}
			got := ""
			res, err := CheckAll(m, cs, da)
			if err != nil {
				got = err.Error()
			} else {
				r := res[len(res)-1]
				if r.NotLowerable != "already lowered by arc" || r.Mode != FlattenedIDs {
					t.Errorf("the call's result: mode %v, %q", r.Mode, r.NotLowerable)
				}
				got = fmt.Sprintf("%v on %v", r.Processes, r.Groups)
			}
			if !strings.HasPrefix(got, c.want) {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}
