// arc: --target rocm:mi300x --cast-bf16-to-fp16
// A bf16 sum decided for QuickReduce's fp codec with arc.cast becomes a
// call that sends it as f16 (cast = 1).
// (decided by select with these flags)
module @cast attributes {stablehlo.num_replicas = 2 : i64, arc.target = "rocm:mi300x"} {
  func.func @main(%a: tensor<16777216xbf16>) -> (tensor<16777216xbf16>) {
    %0 = "stablehlo.custom_call"(%a) {api_version = 4 : i32, arc.est_us = 736.6 : f64, arc.lowering = "quickreduce", arc.native_us = 741.93 : f64, arc.reason = "quickreduce fp: est 736.6 us vs native 741.9 us (1.0x)", backend_config = {algo = "twoshot", cast = 1 : i64, codec = "fp", devices = array<i64: 0, 1>, groups = array<i64: 0, 1>, link = "peer", world = 2 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<16777216xbf16>) -> tensor<16777216xbf16>
    "func.return"(%0) : (tensor<16777216xbf16>) -> ()
  }
}
