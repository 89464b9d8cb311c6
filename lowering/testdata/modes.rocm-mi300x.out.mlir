// The process-group modes on 2 replicas x 2 partitions, 8 KiB f16 sums:
// which devices each op's groups name (XLA's default assignment: device =
// partition * 2 + replica; the golden variant "assignment" permutes it).
module @modes attributes {mhlo.num_replicas = 2 : i32, mhlo.num_partitions = 2 : i32, arc.target = "rocm:mi300x"} {
  func.func @main(%x: tensor<4096xf16>) -> (tensor<4096xf16>, tensor<4096xf16>, tensor<4096xf16>) {
    // cross_replica (no channel): the group runs in each partition.
    %0 = "stablehlo.custom_call"(%x) {api_version = 4 : i32, arc.est_us = 9.18 : f64, arc.lowering = "oneshot", arc.native_us = 22.93 : f64, arc.reason = "oneshot: est 9.2 us vs native 22.9 us (2.5x)", backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", devices = array<i64: 0, 1, 2, 3>, groups = array<i64: 0, 2, 1, 3>, link = "peer", world = 2 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<4096xf16>) -> tensor<4096xf16>
    // cross_replica_and_partition (a channel): the replicas of every partition together.
    %1 = "stablehlo.custom_call"(%x) {api_version = 4 : i32, arc.est_us = 10.18 : f64, arc.lowering = "oneshot", arc.native_us = 26.09 : f64, arc.reason = "oneshot: est 10.2 us vs native 26.1 us (2.6x)", backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", devices = array<i64: 0, 1, 2, 3>, groups = array<i64: 0, 2, 1, 3>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<4096xf16>) -> tensor<4096xf16>
    // flattened_ids (a channel and use_global_device_ids): replica * 2 + partition.
    %2 = "stablehlo.custom_call"(%x) {api_version = 4 : i32, arc.est_us = 9.18 : f64, arc.lowering = "oneshot", arc.native_us = 22.93 : f64, arc.reason = "oneshot: est 9.2 us vs native 22.9 us (2.5x)", backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", devices = array<i64: 0, 2, 1, 3>, groups = array<i64: 0, 1, 2, 3>, link = "peer", world = 2 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<4096xf16>) -> tensor<4096xf16>
    "func.return"(%0, %1, %2) : (tensor<4096xf16>, tensor<4096xf16>, tensor<4096xf16>) -> ()
  }
}
