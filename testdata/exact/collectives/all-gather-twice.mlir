// arc: --target cuda:nvlink
// want: error 12:5 replica id #1 seen more than once
// all_gather_c2: each id once. Replica 1 is in both groups; MLIR refuses the
// module, whatever arc does with its all-reduce.
module @m attributes {mhlo.num_replicas = 4 : i32} {
  func.func @main(%x: tensor<4096xf16>, %y: tensor<4x8xf32>) -> (tensor<4096xf16>, tensor<4x16xf32>) {
    %sum = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f16>, %b: tensor<f16>):
      %t = stablehlo.add %a, %b : tensor<f16>
      stablehlo.return %t : tensor<f16>
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<4096xf16>) -> tensor<4096xf16>
    %other = "stablehlo.all_gather"(%y) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>} : (tensor<4x8xf32>) -> tensor<4x16xf32>
    return %sum, %other : tensor<4096xf16>, tensor<4x16xf32>
  }
}
