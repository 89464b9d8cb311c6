module @arc_bench_chain attributes {stablehlo.num_replicas = 2} {
  func.func @main(%x: tensor<2048xf16>, %d: tensor<2048xf16>) -> tensor<2048xf16> {
    %0 = "stablehlo.constant"() { value = dense<5.000000e-01> : tensor<2048xf16> } : () -> tensor<2048xf16>
    %2 = "stablehlo.custom_call"(%x) {api_version = 4 : i32, arc.est_us = 11.01 : f64, arc.lowering = "twoshot", arc.native_us = 17.6 : f64, arc.reason = "forced by --force; est 11.0 us vs native 17.6 us", backend_config = {algo = "twoshot", cast = 0 : i64, codec = "int8", groups = array<i64: 0, 1>, link = "peer", world = 2 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<2048xf16>) -> tensor<2048xf16>
    %3 = "stablehlo.multiply"(%2, %0) : (tensor<2048xf16>, tensor<2048xf16>) -> tensor<2048xf16>
    %4 = "stablehlo.add"(%3, %d) : (tensor<2048xf16>, tensor<2048xf16>) -> tensor<2048xf16>
    %5 = "stablehlo.optimization_barrier"(%4) : (tensor<2048xf16>) -> tensor<2048xf16>
    %7 = "stablehlo.custom_call"(%5) {api_version = 4 : i32, arc.est_us = 11.01 : f64, arc.lowering = "twoshot", arc.native_us = 17.6 : f64, arc.reason = "forced by --force; est 11.0 us vs native 17.6 us", backend_config = {algo = "twoshot", cast = 0 : i64, codec = "int8", groups = array<i64: 0, 1>, link = "peer", world = 2 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<2048xf16>) -> tensor<2048xf16>
    %8 = "stablehlo.multiply"(%7, %0) : (tensor<2048xf16>, tensor<2048xf16>) -> tensor<2048xf16>
    %9 = "stablehlo.add"(%8, %d) : (tensor<2048xf16>, tensor<2048xf16>) -> tensor<2048xf16>
    %10 = "stablehlo.optimization_barrier"(%9) : (tensor<2048xf16>) -> tensor<2048xf16>
    "stablehlo.return"(%10) : (tensor<2048xf16>) -> ()
  }
}
