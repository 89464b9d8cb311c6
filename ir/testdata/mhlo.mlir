// MHLO, as XLA's tests and older exporters write it: generic and pretty
// ops, MHLO's channel handle and enums, and its collectives.
module @mhlo attributes {mhlo.num_replicas = 4 : i64, mhlo.num_partitions = 1 : i64} {
  func.func @main(%arg0: tensor<8xf32> {mhlo.sharding = "{replicated}"}, %arg1: tensor<4x2xi32>) -> tensor<8xf32> {
    %0 = mhlo.constant dense<1.000000e+00> : tensor<8xf32>
    %1 = mhlo.add %arg0, %0 : tensor<8xf32>
    %2 = "mhlo.all_reduce"(%1) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = mhlo.add %a, %b : tensor<f32>
      mhlo.return %s : tensor<f32>
    }) {channel_handle = #mhlo.channel_handle<handle = 5, type = 0>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : (tensor<8xf32>) -> tensor<8xf32>
    %3 = "mhlo.all_reduce"(%2) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = "mhlo.minimum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "mhlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids, channel_handle = #mhlo.channel_handle<handle = 6, type = 1>} : (tensor<8xf32>) -> tensor<8xf32>
    %4 = "mhlo.all_gather"(%3) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<8xf32>) -> tensor<32xf32>
    %5 = "mhlo.reduce_scatter"(%4) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = mhlo.add %a, %b : tensor<f32>
      mhlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64} : (tensor<32xf32>) -> tensor<8xf32>
    %6 = "mhlo.collective_permute"(%5) {source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>} : (tensor<8xf32>) -> tensor<8xf32>
    %7 = "mhlo.compare"(%6, %0) {comparison_direction = #mhlo<comparison_direction GE>} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %8 = mhlo.select %7, %6, %0 : tensor<8xi1>, tensor<8xf32>
    %c = mhlo.constant dense<0> : tensor<i32>
    %9 = mhlo.reduce(%arg1 init: %c) applies mhlo.add across dimensions = [1] : (tensor<4x2xi32>, tensor<i32>) -> tensor<4xi32>
    %10 = "mhlo.convert"(%9) : (tensor<4xi32>) -> tensor<4xf32>
    %11 = "mhlo.concatenate"(%10, %10) {dimension = 0 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
    %12 = mhlo.multiply %8, %11 {mhlo.frontend_attributes = {_xla_stream_annotation = "1"}} : tensor<8xf32>
    func.return %12 : tensor<8xf32>
  }
}
