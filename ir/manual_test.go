package ir

import "testing"

func TestManual(t *testing.T) {
	src := `module @m attributes {mhlo.num_partitions = 2 : i32} {
  sdy.mesh @mesh = <["x"=2]>
  func.func public @main(%a: tensor<8xf32>) -> tensor<8xf32> {
    %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%b: tensor<4xf32>) {
      %1 = stablehlo.negate %b : tensor<4xf32>
      %2 = func.call @body(%1) : (tensor<4xf32>) -> tensor<4xf32>
      sdy.return %2 : tensor<4xf32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    %3 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, [{}]>] manual_axes={} (%c: tensor<8xf32>) {
      %4 = stablehlo.negate %c : tensor<8xf32>
      sdy.return %4 : tensor<8xf32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    %5 = stablehlo.negate %3 {mhlo.sharding = "{manual}"} : tensor<8xf32>
    %6 = stablehlo.negate %5 : tensor<8xf32>
    %7 = func.call @both(%6) : (tensor<8xf32>) -> tensor<8xf32>
    return %7 : tensor<8xf32>
  }
  func.func private @body(%x: tensor<4xf32>) -> tensor<4xf32> {
    %8 = stablehlo.negate %x : tensor<4xf32>
    %9 = func.call @both(%8) : (tensor<4xf32>) -> tensor<4xf32>
    return %9 : tensor<4xf32>
  }
  func.func private @both(%x: tensor<4xf32>) -> tensor<4xf32> {
    %10 = stablehlo.negate %x : tensor<4xf32>
    return %10 : tensor<4xf32>
  }
}
`
	m, err := ParseString("t.mlir", src)
	if err != nil {
		t.Fatal(err)
	}
	mc := m.Manual()
	want := map[string]bool{"%1": true, "%2": true, "%4": false, "%5": false, "%6": false, "%8": true, "%10": false}
	m.Walk(func(op *Op) bool {
		var name string
		m.Values(op, func(v ValueRef) {
			if v.Kind == Result {
				name = v.Name
			}
		})
		if w, ok := want[name]; ok && op.Name != "sdy.manual_computation" {
			if got := mc.Of(op); got != w {
				t.Errorf("%s (%s): manual %v, want %v", name, op.Name, got, w)
			}
			delete(want, name)
		}
		return true
	})
	if len(want) > 0 {
		t.Errorf("not seen: %v", want)
	}
}
