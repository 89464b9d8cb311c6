module @arc_bench_chain attributes {stablehlo.num_replicas = 2} {
  func.func @main(%x: tensor<2048xf16>, %d: tensor<2048xf16>) -> tensor<2048xf16> {
    %0 = "stablehlo.constant"() { value = dense<5.000000e-01> : tensor<f16> } : () -> tensor<f16>
    %1 = "stablehlo.broadcast_in_dim"(%0) { broadcast_dimensions = array<i64> } : (tensor<f16>) -> tensor<2048xf16>
    %3 = "stablehlo.all_reduce"(%x) ({
      ^computation(%lhs: tensor<f16>, %rhs: tensor<f16>) :
          %2 = "stablehlo.add"(%lhs, %rhs) : (tensor<f16>, tensor<f16>) -> tensor<f16>
          "stablehlo.return"(%2) : (tensor<f16>) -> ()
    }) { replica_groups = dense<[[0, 1]]> : tensor<1x2xi64> } : (tensor<2048xf16>) -> tensor<2048xf16>
    %4 = "stablehlo.multiply"(%3, %1) : (tensor<2048xf16>, tensor<2048xf16>) -> tensor<2048xf16>
    %5 = "stablehlo.add"(%4, %d) : (tensor<2048xf16>, tensor<2048xf16>) -> tensor<2048xf16>
    %6 = "stablehlo.optimization_barrier"(%5) : (tensor<2048xf16>) -> tensor<2048xf16>
    %8 = "stablehlo.all_reduce"(%6) ({
      ^computation(%lhs: tensor<f16>, %rhs: tensor<f16>) :
          %7 = "stablehlo.add"(%lhs, %rhs) : (tensor<f16>, tensor<f16>) -> tensor<f16>
          "stablehlo.return"(%7) : (tensor<f16>) -> ()
    }) { replica_groups = dense<[[0, 1]]> : tensor<1x2xi64> } : (tensor<2048xf16>) -> tensor<2048xf16>
    %9 = "stablehlo.multiply"(%8, %1) : (tensor<2048xf16>, tensor<2048xf16>) -> tensor<2048xf16>
    %10 = "stablehlo.add"(%9, %d) : (tensor<2048xf16>, tensor<2048xf16>) -> tensor<2048xf16>
    %11 = "stablehlo.optimization_barrier"(%10) : (tensor<2048xf16>) -> tensor<2048xf16>
    "stablehlo.return"(%11) : (tensor<2048xf16>) -> ()
  }
}
