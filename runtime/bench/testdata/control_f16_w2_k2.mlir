module @arc_bench_control attributes {stablehlo.num_replicas = 2} {
  func.func @main(%x: tensor<2048xf16>, %d: tensor<2048xf16>) -> tensor<2048xf16> {
    %0 = "stablehlo.constant"() { value = dense<5.000000e-01> : tensor<2048xf16> } : () -> tensor<2048xf16>
    %1 = "stablehlo.multiply"(%x, %0) : (tensor<2048xf16>, tensor<2048xf16>) -> tensor<2048xf16>
    %2 = "stablehlo.add"(%1, %d) : (tensor<2048xf16>, tensor<2048xf16>) -> tensor<2048xf16>
    %3 = "stablehlo.optimization_barrier"(%2) : (tensor<2048xf16>) -> tensor<2048xf16>
    %4 = "stablehlo.multiply"(%3, %0) : (tensor<2048xf16>, tensor<2048xf16>) -> tensor<2048xf16>
    %5 = "stablehlo.add"(%4, %d) : (tensor<2048xf16>, tensor<2048xf16>) -> tensor<2048xf16>
    %6 = "stablehlo.optimization_barrier"(%5) : (tensor<2048xf16>) -> tensor<2048xf16>
    "stablehlo.return"(%6) : (tensor<2048xf16>) -> ()
  }
}
