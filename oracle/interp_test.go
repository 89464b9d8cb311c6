package oracle

import (
	"fmt"
	"math"
	"testing"

	"github.com/arcpass/arc/ir"
)

// TestInterpretValues checks the interpreter's results against sums,
// maxima and products computed here from its inputs, for each process-group
// strategy.
func TestInterpretValues(t *testing.T) {
	ar := func(res, operand, elem, op, attrs string) string {
		return fmt.Sprintf(`    %s = "stablehlo.all_reduce"(%s) ({
      ^bb0(%%a: tensor<%s>, %%b: tensor<%s>):
        %%s = "stablehlo.%s"(%%a, %%b) : (tensor<%s>, tensor<%s>) -> tensor<%s>
        "stablehlo.return"(%%s) : (tensor<%s>) -> ()
    }) {%s} : (tensor<40x%s>) -> tensor<40x%s>
`, res, operand, elem, elem, op, elem, elem, elem, elem, attrs, elem, elem)
	}
	src := `module @m attributes {mhlo.num_replicas = 2 : i32, mhlo.num_partitions = 2 : i32} {
  func.func @main(%i: tensor<40xi32>, %f: tensor<40xf32>, %g: tensor<40xf16>) -> (tensor<40xi32>, tensor<40xf32>, tensor<40xf16>, tensor<40xi32>) {
` + ar("%0", "%i", "i32", "add", "replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>") +
		ar("%1", "%f", "f32", "maximum", "channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>") +
		ar("%2", "%g", "f16", "multiply", "channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[3, 0], [1, 2]]> : tensor<2x2xi64>, use_global_device_ids") +
		ar("%3", "%0", "i32", "xor", "replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>") + `    "func.return"(%0, %1, %2, %3) : (tensor<40xi32>, tensor<40xf32>, tensor<40xf16>, tensor<40xi32>) -> ()
  }
}
`
	m, err := ir.ParseString("m.mlir", src)
	if err != nil {
		t.Fatal(err)
	}
	g, err := GridOf(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	tr, err := interpret(m, g, Options{}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.slots) != 4 || tr.crossChecked != 4 {
		t.Fatalf("%d slots, %d checked against package spec", len(tr.slots), tr.crossChecked)
	}
	// Processes by flattened index: 0 = (0,0), 1 = (0,1), 2 = (1,0), 3 = (1,1).
	members := [][][]int{
		{{0, 2}, {1, 3}}, // cross_replica: replicas 0 and 1 in each partition
		{{0, 2, 1, 3}},   // cross_replica_and_partition: all four
		{{3, 0}, {1, 2}}, // flattened ids 3, 0 and 1, 2
		{{2, 0}, {3, 1}}, // cross_replica, replica 1 first
	}
	for k, s := range tr.slots {
		for _, grp := range members[k] {
			for i := range s.in.procs[0] {
				e := s.in.elem
				var want uint64
				switch k {
				case 0:
					want = uint64(uint32(s.in.procs[grp[0]][i]) + uint32(s.in.procs[grp[1]][i]))
				case 1:
					v := math.Inf(-1)
					for _, p := range grp {
						v = math.Max(v, e.toFloat(s.in.procs[p][i]))
					}
					want = e.fromFloat(v)
				case 2:
					want = e.fromFloat(e.toFloat(s.in.procs[grp[0]][i]) * e.toFloat(s.in.procs[grp[1]][i]))
				case 3:
					want = s.in.procs[grp[0]][i] ^ s.in.procs[grp[1]][i]
					if s.in != tr.slots[0].out {
						t.Fatalf("the xor does not read the sum's result")
					}
				}
				for _, p := range grp {
					if got := s.out.procs[p][i]; got != want {
						t.Fatalf("slot %d, process %d, element %d: %#x, want %#x", k, p, i, got, want)
					}
				}
			}
		}
	}
	// Leaves are the same on every run and differ between processes.
	a, b := tr.slots[0].in, leafValue(0, tr.slots[0].operandKey, elemOf("i32"), 40, 4)
	if fmt.Sprint(a.procs) != fmt.Sprint(b.procs) || fmt.Sprint(a.procs[0]) == fmt.Sprint(a.procs[1]) {
		t.Errorf("leaf values are not deterministic per process")
	}
}

// TestInterpretControlFlow: all-reduces in while bodies, case branches and
// nested functions each get their slot, and values from enclosing regions
// resolve.
func TestInterpretControlFlow(t *testing.T) {
	src := `module @cf attributes {stablehlo.num_replicas = 2 : i64} {
  func.func @main(%x: tensor<8xf32>, %p: tensor<i32>) -> tensor<8xf32> {
    %0 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8xf32>) -> tensor<8xf32>
    %1 = "stablehlo.case"(%p) ({
      %2 = "stablehlo.all_reduce"(%0) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = stablehlo.maximum %a, %b : tensor<f32>
        stablehlo.return %s : tensor<f32>
      }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8xf32>) -> tensor<8xf32>
      stablehlo.return %2 : tensor<8xf32>
    }, {
      %3 = func.call @f(%0) : (tensor<8xf32>) -> tensor<8xf32>
      stablehlo.return %3 : tensor<8xf32>
    }) : (tensor<i32>) -> tensor<8xf32>
    return %1 : tensor<8xf32>
  }
  func.func private @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %0 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>} : (tensor<8xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}
`
	m, err := ir.ParseString("cf.mlir", src)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := interpret(m, Grid{Replicas: 2, Partitions: 1}, Options{}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range tr.slots {
		got = append(got, s.red.op+" "+s.operandKey)
	}
	// The case reads %0 (the first all-reduce's result); @f's all-reduce
	// reads its argument, a leaf.
	want := "[sum a1.0 max ar(a1.0)#0 sum a7.0]" // op 1 is @main, op 7 @f (op 0 the module)
	if fmt.Sprint(got) != want {
		t.Errorf("slots %v, want %s", got, want)
	}
}
