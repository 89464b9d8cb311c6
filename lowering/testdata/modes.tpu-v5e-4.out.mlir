// The process-group modes on 2 replicas x 2 partitions, 8 KiB f16 sums:
// which devices each op's groups name (XLA's default assignment: device =
// partition * 2 + replica; the golden variant "assignment" permutes it).
module @modes attributes {mhlo.num_replicas = 2 : i32, mhlo.num_partitions = 2 : i32, arc.target = "tpu:v5e-4", arc.env = {LIBTPU_INIT_ARGS = "--xla_tpu_force_1d_allreduce_at_chunk_count=1"}} {
  func.func @main(%x: tensor<4096xf16>) -> (tensor<4096xf16>, tensor<4096xf16>, tensor<4096xf16>) {
    // cross_replica (no channel): the group runs in each partition.
    %0 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f16>, %b: tensor<f16>):
      %s = stablehlo.add %a, %b : tensor<f16>
      stablehlo.return %s : tensor<f16>
    }) {replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, arc.ring_max_hops = 1 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>} : (tensor<4096xf16>) -> tensor<4096xf16>
    // cross_replica_and_partition (a channel): the replicas of every partition together.
    %1 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f16>, %b: tensor<f16>):
      %s = stablehlo.add %a, %b : tensor<f16>
      stablehlo.return %s : tensor<f16>
    }) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 2, 3, 1]]> : tensor<1x4xi64>, arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 3, 1]]> : tensor<1x4xi64>, arc.ring_max_hops = 1 : i64, use_global_device_ids} : (tensor<4096xf16>) -> tensor<4096xf16>
    // flattened_ids (a channel and use_global_device_ids): replica * 2 + partition.
    %2 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f16>, %b: tensor<f16>):
      %s = stablehlo.add %a, %b : tensor<f16>
      stablehlo.return %s : tensor<f16>
    }) {channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids, arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, arc.ring_max_hops = 1 : i64} : (tensor<4096xf16>) -> tensor<4096xf16>
    "func.return"(%0, %1, %2) : (tensor<4096xf16>, tensor<4096xf16>, tensor<4096xf16>) -> ()
  }
}
