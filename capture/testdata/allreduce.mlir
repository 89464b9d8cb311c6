module @allreduce attributes {stablehlo.num_replicas = 4} {
  func.func @main(%x: tensor<16x512xbf16>, %w: tensor<512x128xbf16>) -> tensor<16x128xbf16> {
    %0 = "stablehlo.dot_general"(%x, %w) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<16x512xbf16>, tensor<512x128xbf16>) -> tensor<16x128xbf16>
    %2 = "stablehlo.all_reduce"(%0) ({
      ^computation(%lhs: tensor<bf16>, %rhs: tensor<bf16>) :
          %1 = "stablehlo.add"(%lhs, %rhs) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
          "stablehlo.return"(%1) : (tensor<bf16>) -> ()
    }) { replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64> } : (tensor<16x128xbf16>) -> tensor<16x128xbf16>
    "stablehlo.return"(%2) : (tensor<16x128xbf16>) -> ()
  }
}
