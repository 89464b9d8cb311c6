// Every collective in the spellings the public tests use: generic with a
// dictionary or properties, variadic operands, dense, splat, hex, empty and
// mesh-axes groups, channel handles, and an all-reduce whose result
// promotes its operand's element type (results/ has more).
module @collectives attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 4 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%x : tensor<8xf32>, %y : tensor<4xi32>, %z : tensor<4xf32>) -> tensor<8xf64> {
    %0:2 = "stablehlo.all_reduce"(%x, %z) ({
      ^bb0(%arg0 : tensor<f32>, %arg1 : tensor<f32>):
        %s = stablehlo.add %arg0, %arg1 : tensor<f32>
        stablehlo.return %s : tensor<f32>
    }) {
      replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>,
      // channel_id = 0
      channel_handle = #stablehlo.channel_handle<handle = 0, type = 0>
    } : (tensor<8xf32>, tensor<4xf32>) -> (tensor<8xf32>, tensor<4xf32>)
    %1 = "stablehlo.all_reduce"(%0#0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f64>, %b: tensor<f64>):
      %m = stablehlo.maximum %a, %b : tensor<f64>
      stablehlo.return %m : tensor<f64>
    }) : (tensor<8xf32>) -> tensor<8xf64>
    %4 = "stablehlo.all_reduce"(%x) <{replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = [#stablehlo.axis_ref<name = "y">]>, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<8xf32>) -> tensor<8xf32>
    %5 = "stablehlo.all_gather"(%4) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, use_global_device_ids} : (tensor<8xf32>) -> tensor<16xf32>
    %6:2 = "stablehlo.all_gather"(%x, %y) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : (tensor<8xf32>, tensor<4xi32>) -> (tensor<16xf32>, tensor<8xi32>)
    %7 = "stablehlo.reduce_scatter"(%5) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : (tensor<16xf32>) -> tensor<8xf32>
    %8 = "stablehlo.all_to_all"(%7) {split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : (tensor<8xf32>) -> tensor<8xf32>
    %9:2 = "stablehlo.all_to_all"(%8, %8) <{concat_dimension = 0 : i64, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, split_count = 2 : i64, split_dimension = 0 : i64}> : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
    %10 = "stablehlo.collective_permute"(%9#0) {source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>} : (tensor<8xf32>) -> tensor<8xf32>
    %11 = "stablehlo.collective_broadcast"(%10) {replica_groups = dense<[[1, 0], [3, 2]]> : tensor<2x2xi64>} : (tensor<8xf32>) -> tensor<8xf32>
    %12 = stablehlo.convert %11 : (tensor<8xf32>) -> tensor<8xf64>
    %13 = stablehlo.add %12, %1 : tensor<8xf64>
    return %13 : tensor<8xf64>
  }
}
