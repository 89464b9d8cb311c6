module @arc_bench_control attributes {stablehlo.num_replicas = 2} {
  func.func @main(%x: tensor<2048xf16>, %d: tensor<2048xf16>) -> tensor<2048xf16> {
    %0 = "stablehlo.constant"() { value = dense<5.000000e-01> : tensor<f16> } : () -> tensor<f16>
    %1 = "stablehlo.broadcast_in_dim"(%0) { broadcast_dimensions = array<i64> } : (tensor<f16>) -> tensor<2048xf16>
    %2 = "stablehlo.multiply"(%x, %1) : (tensor<2048xf16>, tensor<2048xf16>) -> tensor<2048xf16>
    %3 = "stablehlo.add"(%2, %d) : (tensor<2048xf16>, tensor<2048xf16>) -> tensor<2048xf16>
    %4 = "stablehlo.optimization_barrier"(%3) : (tensor<2048xf16>) -> tensor<2048xf16>
    %5 = "stablehlo.multiply"(%4, %1) : (tensor<2048xf16>, tensor<2048xf16>) -> tensor<2048xf16>
    %6 = "stablehlo.add"(%5, %d) : (tensor<2048xf16>, tensor<2048xf16>) -> tensor<2048xf16>
    %7 = "stablehlo.optimization_barrier"(%6) : (tensor<2048xf16>) -> tensor<2048xf16>
    "stablehlo.return"(%7) : (tensor<2048xf16>) -> ()
  }
}
