// arc: --target rocm:mi355x --quant int8
// QuickReduce's int8 codec on four ranks of an MI355X.
// (decided by select with these flags)
module @int8 attributes {stablehlo.num_replicas = 4 : i64, arc.target = "rocm:mi355x"} {
  func.func @main(%a: tensor<33554432xf16>) -> (tensor<33554432xf16>) {
    %0 = "stablehlo.custom_call"(%a) {api_version = 4 : i32, arc.est_us = 331.68 : f64, arc.lowering = "quickreduce", arc.native_us = 603.28 : f64, arc.reason = "quickreduce int8: est 331.7 us vs native 603.3 us (1.8x)", backend_config = {algo = "twoshot", cast = 0 : i64, codec = "int8", devices = array<i64: 0, 1, 2, 3>, groups = array<i64: 0, 1, 2, 3>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<33554432xf16>) -> tensor<33554432xf16>
    "func.return"(%0) : (tensor<33554432xf16>) -> ()
  }
}
