// arc: --target cuda:nvlink
// want: lowered
// A ring of the four replicas: sources unique, targets unique, all below
// num_replicas. Valid, and the all-reduce beside it lowers.
module @m attributes {mhlo.num_replicas = 4 : i32} {
  func.func @main(%x: tensor<4096xf16>, %y: tensor<4x8xf32>) -> (tensor<4096xf16>, tensor<4x8xf32>) {
    %sum = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f16>, %b: tensor<f16>):
      %t = stablehlo.add %a, %b : tensor<f16>
      stablehlo.return %t : tensor<f16>
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<4096xf16>) -> tensor<4096xf16>
    %other = "stablehlo.collective_permute"(%y) {source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
    return %sum, %other : tensor<4096xf16>, tensor<4x8xf32>
  }
}
