// arc: --target cuda:pcie
// want: native the type of %t is not stated where it is defined (vendor.fused_scale at 9:5)
// A list after ':' on another dialect's op may be its operands' types
// (arith.cmpf %a, %b : f32 returns i1): %t's type is not certain, so the
// all-reduce that reads it keeps its own op rather than arc's typed call.
module @vendor attributes {mhlo.num_replicas = 4 : i32} {
  func.func @main(%a: tensor<4096xf32>, %k: tensor<f32>) -> tensor<4096xf32> {
    // a custom dialect's op, printed in its own form
    %t = vendor.fused_scale %a, %k : tensor<4096xf32>
    %sum = "stablehlo.all_reduce"(%t) ({
    ^bb0(%l: tensor<f32>, %r: tensor<f32>):
      %s = stablehlo.add %l, %r : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<4096xf32>) -> tensor<4096xf32>
    return %sum : tensor<4096xf32>
  }
}
