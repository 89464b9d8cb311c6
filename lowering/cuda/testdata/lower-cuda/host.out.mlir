// arc: --target cuda:pcie-nop2p
// Without peer access the kernels stage through host memory: the calls
// say link host.
// (decided by select with these flags)
module @host attributes {stablehlo.num_replicas = 2 : i64, arc.target = "cuda:pcie-nop2p"} {
  func.func @main(%a: tensor<8192xf16>, %b: tensor<16777216xf16>) -> (tensor<8192xf16>, tensor<16777216xf16>) {
    %0 = "stablehlo.custom_call"(%a) {api_version = 4 : i32, arc.est_us = 18.86 : f64, arc.lowering = "oneshot", arc.native_us = 22.41 : f64, arc.reason = "oneshot: est 18.9 us vs native 22.4 us (1.2x)", backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", devices = array<i64: 0, 1>, groups = array<i64: 0, 1>, link = "host", world = 2 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<8192xf16>) -> tensor<8192xf16>
    %1 = "stablehlo.custom_call"(%b) {api_version = 4 : i32, arc.est_us = 1098.0 : f64, arc.lowering = "twoshot", arc.native_us = 1204.9 : f64, arc.reason = "twoshot fp: est 1098.0 us vs native 1204.9 us (1.1x)", backend_config = {algo = "twoshot", cast = 0 : i64, codec = "fp", devices = array<i64: 0, 1>, groups = array<i64: 0, 1>, link = "host", world = 2 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<16777216xf16>) -> tensor<16777216xf16>
    "func.return"(%0, %1) : (tensor<8192xf16>, tensor<16777216xf16>) -> ()
  }
}
