// arc: --target cuda:nvlink
// Groups of a larger world: each call names its group's devices, for
// groups of consecutive and of strided ranks.
// (decided by select with these flags)
module @groups attributes {stablehlo.num_replicas = 8 : i64, arc.target = "cuda:nvlink"} {
  func.func @main(%a: tensor<4194304xf16>, %b: tensor<8192xf16>) -> (tensor<4194304xf16>, tensor<8192xf16>) {
    %0 = "stablehlo.custom_call"(%a) {api_version = 4 : i32, arc.est_us = 45.95 : f64, arc.lowering = "twoshot", arc.native_us = 68.2 : f64, arc.reason = "twoshot fp: est 46.0 us vs native 68.2 us (1.5x)", backend_config = {algo = "twoshot", cast = 0 : i64, codec = "fp", devices = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, groups = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<4194304xf16>) -> tensor<4194304xf16>
    %1 = "stablehlo.custom_call"(%b) {api_version = 4 : i32, arc.est_us = 5.2 : f64, arc.lowering = "oneshot", arc.native_us = 22.87 : f64, arc.reason = "oneshot: est 5.2 us vs native 22.9 us (4.4x)", backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", devices = array<i64: 0, 4, 1, 5, 2, 6, 3, 7>, groups = array<i64: 0, 4, 1, 5, 2, 6, 3, 7>, link = "peer", world = 2 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<8192xf16>) -> tensor<8192xf16>
    "func.return"(%0, %1) : (tensor<4194304xf16>, tensor<8192xf16>) -> ()
  }
}
