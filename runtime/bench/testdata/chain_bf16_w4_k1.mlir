module @arc_bench_chain attributes {stablehlo.num_replicas = 4} {
  func.func @main(%x: tensor<64xbf16>, %d: tensor<64xbf16>) -> tensor<64xbf16> {
    %0 = "stablehlo.constant"() { value = dense<2.500000e-01> : tensor<64xbf16> } : () -> tensor<64xbf16>
    %2 = "stablehlo.all_reduce"(%x) ({
      ^computation(%lhs: tensor<bf16>, %rhs: tensor<bf16>) :
          %1 = "stablehlo.add"(%lhs, %rhs) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
          "stablehlo.return"(%1) : (tensor<bf16>) -> ()
    }) { replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64> } : (tensor<64xbf16>) -> tensor<64xbf16>
    %3 = "stablehlo.multiply"(%2, %0) : (tensor<64xbf16>, tensor<64xbf16>) -> tensor<64xbf16>
    %4 = "stablehlo.add"(%3, %d) : (tensor<64xbf16>, tensor<64xbf16>) -> tensor<64xbf16>
    %5 = "stablehlo.optimization_barrier"(%4) : (tensor<64xbf16>) -> tensor<64xbf16>
    "stablehlo.return"(%5) : (tensor<64xbf16>) -> ()
  }
}
