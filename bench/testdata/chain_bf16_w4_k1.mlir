module @arc_bench_chain attributes {stablehlo.num_replicas = 4} {
  func.func @main(%x: tensor<64xbf16>, %d: tensor<64xbf16>) -> tensor<64xbf16> {
    %0 = "stablehlo.constant"() { value = dense<2.500000e-01> : tensor<bf16> } : () -> tensor<bf16>
    %1 = "stablehlo.broadcast_in_dim"(%0) { broadcast_dimensions = array<i64> } : (tensor<bf16>) -> tensor<64xbf16>
    %3 = "stablehlo.all_reduce"(%x) ({
      ^computation(%lhs: tensor<bf16>, %rhs: tensor<bf16>) :
          %2 = "stablehlo.add"(%lhs, %rhs) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
          "stablehlo.return"(%2) : (tensor<bf16>) -> ()
    }) { replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64> } : (tensor<64xbf16>) -> tensor<64xbf16>
    %4 = "stablehlo.multiply"(%3, %1) : (tensor<64xbf16>, tensor<64xbf16>) -> tensor<64xbf16>
    %5 = "stablehlo.add"(%4, %d) : (tensor<64xbf16>, tensor<64xbf16>) -> tensor<64xbf16>
    %6 = "stablehlo.optimization_barrier"(%5) : (tensor<64xbf16>) -> tensor<64xbf16>
    "stablehlo.return"(%6) : (tensor<64xbf16>) -> ()
  }
}
