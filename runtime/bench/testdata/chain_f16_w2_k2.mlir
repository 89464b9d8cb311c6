module @arc_bench_chain attributes {stablehlo.num_replicas = 2} {
  func.func @main(%x: tensor<2048xf16>, %d: tensor<2048xf16>) -> tensor<2048xf16> {
    %0 = "stablehlo.constant"() { value = dense<5.000000e-01> : tensor<2048xf16> } : () -> tensor<2048xf16>
    %2 = "stablehlo.all_reduce"(%x) ({
      ^computation(%lhs: tensor<f16>, %rhs: tensor<f16>) :
          %1 = "stablehlo.add"(%lhs, %rhs) : (tensor<f16>, tensor<f16>) -> tensor<f16>
          "stablehlo.return"(%1) : (tensor<f16>) -> ()
    }) { replica_groups = dense<[[0, 1]]> : tensor<1x2xi64> } : (tensor<2048xf16>) -> tensor<2048xf16>
    %3 = "stablehlo.multiply"(%2, %0) : (tensor<2048xf16>, tensor<2048xf16>) -> tensor<2048xf16>
    %4 = "stablehlo.add"(%3, %d) : (tensor<2048xf16>, tensor<2048xf16>) -> tensor<2048xf16>
    %5 = "stablehlo.optimization_barrier"(%4) : (tensor<2048xf16>) -> tensor<2048xf16>
    %7 = "stablehlo.all_reduce"(%5) ({
      ^computation(%lhs: tensor<f16>, %rhs: tensor<f16>) :
          %6 = "stablehlo.add"(%lhs, %rhs) : (tensor<f16>, tensor<f16>) -> tensor<f16>
          "stablehlo.return"(%6) : (tensor<f16>) -> ()
    }) { replica_groups = dense<[[0, 1]]> : tensor<1x2xi64> } : (tensor<2048xf16>) -> tensor<2048xf16>
    %8 = "stablehlo.multiply"(%7, %0) : (tensor<2048xf16>, tensor<2048xf16>) -> tensor<2048xf16>
    %9 = "stablehlo.add"(%8, %d) : (tensor<2048xf16>, tensor<2048xf16>) -> tensor<2048xf16>
    %10 = "stablehlo.optimization_barrier"(%9) : (tensor<2048xf16>) -> tensor<2048xf16>
    "stablehlo.return"(%10) : (tensor<2048xf16>) -> ()
  }
}
