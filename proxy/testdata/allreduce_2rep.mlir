module @tp attributes {stablehlo.num_replicas = 2} {
  func.func @main(%x: tensor<16x512xf16>) -> tensor<16x512xf16> {
    %1 = "stablehlo.all_reduce"(%x) ({
      ^computation(%lhs: tensor<f16>, %rhs: tensor<f16>) :
          %0 = "stablehlo.add"(%lhs, %rhs) : (tensor<f16>, tensor<f16>) -> tensor<f16>
          "stablehlo.return"(%0) : (tensor<f16>) -> ()
    }) { replica_groups = dense<[[0, 1]]> : tensor<1x2xi64> } : (tensor<16x512xf16>) -> tensor<16x512xf16>
    "stablehlo.return"(%1) : (tensor<16x512xf16>) -> ()
  }
}
