// arc: --target cuda:nvlink
// want: error 12:5 Invalid replica id -1
// An all-reduce may pad ragged groups with -1; all_to_all may not, its
// groups all being of split_count ids.
module @m attributes {mhlo.num_replicas = 3 : i32} {
  func.func @main(%x: tensor<4096xf16>, %y: tensor<4x8xf32>) -> (tensor<4096xf16>, tensor<8x4xf32>) {
    %sum = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f16>, %b: tensor<f16>):
      %t = stablehlo.add %a, %b : tensor<f16>
      stablehlo.return %t : tensor<f16>
    }) {replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>} : (tensor<4096xf16>) -> tensor<4096xf16>
    %other = "stablehlo.all_to_all"(%y) {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1], [2, -1]]> : tensor<2x2xi64>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
    return %sum, %other : tensor<4096xf16>, tensor<8x4xf32>
  }
}
