// arc: --target cuda:pcie
// want: lowered twoshot fp algo=twoshot
// A tensor-parallel sum in the manual region GSPMD's shard_map makes (the
// op's own sharding is {manual}), with XLA frontend attributes: the call
// keeps both, and computes the sum the all-reduce did.
module @manual_kept attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @main(%x: tensor<512x512xf32>) -> tensor<512x512xf32> {
    %0 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, mhlo.frontend_attributes = {_scheduling_group_id = "7"}, mhlo.sharding = "{manual}", replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids} : (tensor<512x512xf32>) -> tensor<512x512xf32>
    return %0 : tensor<512x512xf32>
  }
}
