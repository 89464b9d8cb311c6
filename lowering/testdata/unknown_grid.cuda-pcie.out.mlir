// A module that states num_partitions but not num_replicas, whose
// all-reduces imply different counts: 4 replicas for the first (replica ids
// in cross_replica_and_partition mode), 2 for the second (4 flattened ids on
// 2 partitions). Each op is valid on some grid, none on every grid the
// module could run on, so its devices are unknown: every target keeps both
// ops exactly as they are (a TPU ring of the ids as if they were devices
// would change which processes reduce together).
module @unknown_grid attributes {mhlo.num_partitions = 2 : i32, arc.target = "cuda:pcie"} {
  func.func @main(%x: tensor<4096xf32>) -> tensor<4096xf32> {
    %0 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, arc.lowering = "native", arc.reason = "the module does not state num_replicas and its all-reduces name different numbers of replicas (4 at 10:5, 2 at 15:5)"} : (tensor<4096xf32>) -> tensor<4096xf32>
    %1 = "stablehlo.all_reduce"(%0) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, use_global_device_ids, arc.lowering = "native", arc.reason = "the module does not state num_replicas and its all-reduces name different numbers of replicas (4 at 10:5, 2 at 15:5)"} : (tensor<4096xf32>) -> tensor<4096xf32>
    return %1 : tensor<4096xf32>
  }
}
