// arc: --target cuda:nvlink
// want: error 13:5 replica id #7 is out of range: flattened_ids mode numbers flattened ids 0 to 3
// reduce_scatter_C5: flattened ids below num_replicas x num_partitions. The
// module runs on 2 x 2 processes, and the op names 8: MLIR, which does not
// see the grid, accepts it; the specification does not.
module @m attributes {mhlo.num_replicas = 2 : i32, mhlo.num_partitions = 2 : i32} {
  func.func @main(%x: tensor<4096xf16>, %y: tensor<4x8xf32>) -> (tensor<4096xf16>, tensor<4x1xf32>) {
    %sum = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f16>, %b: tensor<f16>):
      %t = stablehlo.add %a, %b : tensor<f16>
      stablehlo.return %t : tensor<f16>
    }) {replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, use_global_device_ids} : (tensor<4096xf16>) -> tensor<4096xf16>
    %other = "stablehlo.reduce_scatter"(%y) ({
    ^bb0(%l: tensor<f32>, %r: tensor<f32>):
      %s = stablehlo.add %l, %r : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {scatter_dimension = 1 : i64, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, use_global_device_ids} : (tensor<4x8xf32>) -> tensor<4x1xf32>
    return %sum, %other : tensor<4096xf16>, tensor<4x1xf32>
  }
}
