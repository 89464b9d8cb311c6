// arc: --target cuda:nvlink
// want: error 12:5 cross_partition mode numbers partitions 0 to 1 (num_partitions = 2) (collective_permute_c4)
// With a channel, collective_permute pairs partitions: a module of two
// partitions has no partition 2, however many replicas it has.
module @m attributes {mhlo.num_replicas = 4 : i32, mhlo.num_partitions = 2 : i32} {
  func.func @main(%x: tensor<4096xf16>, %y: tensor<4x8xf32>) -> (tensor<4096xf16>, tensor<4x8xf32>) {
    %sum = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f16>, %b: tensor<f16>):
      %t = stablehlo.add %a, %b : tensor<f16>
      stablehlo.return %t : tensor<f16>
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<4096xf16>) -> tensor<4096xf16>
    %other = "stablehlo.collective_permute"(%y) {source_target_pairs = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
    return %sum, %other : tensor<4096xf16>, tensor<4x8xf32>
  }
}
