// arc: --target cuda:nvlink
// want: error 12:5 group size of replica_groups must be 4
// all_to_all_c8: each group holds split_count ids. Groups of two cannot
// split a tensor four ways.
module @m attributes {mhlo.num_replicas = 4 : i32} {
  func.func @main(%x: tensor<4096xf16>, %y: tensor<4x8xf32>) -> (tensor<4096xf16>, tensor<16x2xf32>) {
    %sum = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f16>, %b: tensor<f16>):
      %t = stablehlo.add %a, %b : tensor<f16>
      stablehlo.return %t : tensor<f16>
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<4096xf16>) -> tensor<4096xf16>
    %other = "stablehlo.all_to_all"(%y) {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 4 : i64, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : (tensor<4x8xf32>) -> tensor<16x2xf32>
    return %sum, %other : tensor<4096xf16>, tensor<16x2xf32>
  }
}
