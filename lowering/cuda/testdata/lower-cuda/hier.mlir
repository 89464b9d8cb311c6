// arc: --target cuda:pcie-2numa --quant fp8
// Eight ranks over two NUMA halves: the large sum becomes the
// hierarchical low-precision kernel (algo hier, codec fp8).
// (decided by select with these flags)
module @hier attributes {stablehlo.num_replicas = 8 : i64, arc.target = "cuda:pcie-2numa"} {
  func.func @main(%a: tensor<67108864xf16>) -> (tensor<67108864xf16>) {
    %0 = "stablehlo.all_reduce"(%a) ({
      ^bb0(%x: tensor<f16>, %y: tensor<f16>):
        %s = "stablehlo.add"(%x, %y) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, arc.lowering = "lowprec", arc.codec = "fp8", arc.algo = "hier", arc.link = "peer", arc.cast = false, arc.reason = "lowprec fp8 (hier): est 11460.3 us vs native 23067.9 us (2.0x)", arc.est_us = 11460.34 : f64, arc.native_us = 23067.86 : f64} : (tensor<67108864xf16>) -> tensor<67108864xf16>
    "func.return"(%0) : (tensor<67108864xf16>) -> ()
  }
}
