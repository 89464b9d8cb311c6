// arc: --target cuda:pcie
// want: lowered twoshot fp algo=twoshot
// want: native outside a manual region of a partitioned program
// A tensor-parallel sum in shard_map's manual region (Shardy's
// manual_computation), with XLA frontend attributes: the call keeps them,
// and computes the sum the all-reduce did. The same sum outside the region,
// marked {manual} GSPMD's way, stays native: under Shardy XLA gives arc's
// call no sharding there and refuses it.
module @manual_kept attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["model"=4]>
  func.func @main(%x: tensor<2048x512xf32>) -> (tensor<2048x512xf32>, tensor<512x512xf32>) {
    %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"model"}, {}]>] out_shardings=[<@mesh, [{"model"}, {}]>] manual_axes={"model"} (%y: tensor<512x512xf32>) {
      %1 = "stablehlo.all_reduce"(%y) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %s : tensor<f32>
      }) {channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, mhlo.frontend_attributes = {_scheduling_group_id = "7"}, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids} : (tensor<512x512xf32>) -> tensor<512x512xf32>
      sdy.return %1 : tensor<512x512xf32>
    } : (tensor<2048x512xf32>) -> tensor<2048x512xf32>
    %2 = stablehlo.slice %x [0:512, 0:512] : (tensor<2048x512xf32>) -> tensor<512x512xf32>
    %3 = "stablehlo.all_reduce"(%2) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>, mhlo.sharding = "{manual}", replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids} : (tensor<512x512xf32>) -> tensor<512x512xf32>
    return %0, %3 : tensor<2048x512xf32>, tensor<512x512xf32>
  }
}
