// The process-group modes on 2 replicas x 2 partitions, 8 KiB f16 sums:
// which devices each op's groups name (XLA's default assignment: device =
// partition * 2 + replica; the golden variant "assignment" permutes it).
module @modes attributes {mhlo.num_replicas = 2 : i32, mhlo.num_partitions = 2 : i32, arc.target = "cuda:pcie-2numa"} {
  func.func @main(%x: tensor<4096xf16>) -> (tensor<4096xf16>, tensor<4096xf16>, tensor<4096xf16>) {
    // cross_replica (no channel): the group runs in each partition.
    %0 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f16>, %b: tensor<f16>):
      %s = stablehlo.add %a, %b : tensor<f16>
      stablehlo.return %s : tensor<f16>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, arc.lowering = "native", arc.reason = "outside a manual region of a partitioned program (num_partitions = 2): XLA's SPMD partitioner refuses a side-effecting custom call there; in shard_map's body arc lowers it"} : (tensor<4096xf16>) -> tensor<4096xf16>
    // cross_replica_and_partition (a channel): the replicas of every partition together.
    %1 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f16>, %b: tensor<f16>):
      %s = stablehlo.add %a, %b : tensor<f16>
      stablehlo.return %s : tensor<f16>
    }) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, arc.lowering = "native", arc.reason = "outside a manual region of a partitioned program (num_partitions = 2): XLA's SPMD partitioner refuses a side-effecting custom call there; in shard_map's body arc lowers it"} : (tensor<4096xf16>) -> tensor<4096xf16>
    // flattened_ids (a channel and use_global_device_ids): replica * 2 + partition.
    %2 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f16>, %b: tensor<f16>):
      %s = stablehlo.add %a, %b : tensor<f16>
      stablehlo.return %s : tensor<f16>
    }) {channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids, arc.lowering = "native", arc.reason = "outside a manual region of a partitioned program (num_partitions = 2): XLA's SPMD partitioner refuses a side-effecting custom call there; in shard_map's body arc lowers it"} : (tensor<4096xf16>) -> tensor<4096xf16>
    "func.return"(%0, %1, %2) : (tensor<4096xf16>, tensor<4096xf16>, tensor<4096xf16>) -> ()
  }
}
