// arc: --target cuda:pcie
// want: native outside a manual region of a partitioned program
// A tensor-parallel sum under Shardy outside shard_map's manual region, with
// XLA frontend attributes: the SPMD partitioner partitions it as one logical
// op, and refuses a side-effecting custom call with its replicated sharding
// (on the GPU machine: "side-effect HLO cannot have a replicated
// sharding"), so it stays native.
module @sdy_kept attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @tp = <["model"=4]>
  func.func @main(%x: tensor<512x512xf32>) -> tensor<512x512xf32> {
    %0 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, mhlo.frontend_attributes = {_scheduling_group_id = "7"}, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, sdy.sharding = #sdy.sharding_per_value<[<@tp, [{}, {}]>]>, use_global_device_ids} : (tensor<512x512xf32>) -> tensor<512x512xf32>
    return %0 : tensor<512x512xf32>
  }
}
