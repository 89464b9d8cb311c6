// arc: --target cuda:pcie-2numa --quant fp8
// Eight ranks over two NUMA halves: the large sum becomes the
// hierarchical low-precision kernel (algo hier, codec fp8).
// (decided by select with these flags)
module @hier attributes {stablehlo.num_replicas = 8 : i64, arc.target = "cuda:pcie-2numa"} {
  func.func @main(%a: tensor<67108864xf16>) -> (tensor<67108864xf16>) {
    %0 = "stablehlo.custom_call"(%a) {api_version = 4 : i32, arc.est_us = 11460.34 : f64, arc.lowering = "lowprec", arc.native_us = 23067.86 : f64, arc.reason = "lowprec fp8 (hier): est 11460.3 us vs native 23067.9 us (2.0x)", backend_config = {algo = "hier", cast = 0 : i64, codec = "fp8", devices = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, groups = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, link = "peer", world = 8 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<67108864xf16>) -> tensor<67108864xf16>
    "func.return"(%0) : (tensor<67108864xf16>) -> ()
  }
}
