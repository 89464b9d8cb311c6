module @crlf attributes {stablehlo.num_replicas = 2} {
  func.func @main(%x: tensor<2xf16>) -> tensor<2xf16> {
    // a comment, CRLF too
    %0 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f16>, %b: tensor<f16>):
      %1 = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
      "stablehlo.return"(%1) : (tensor<f16>) -> ()
    }) {
      replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>
    } : (tensor<2xf16>) -> tensor<2xf16>
    "stablehlo.return"(%0) : (tensor<2xf16>) -> ()
  }
}
