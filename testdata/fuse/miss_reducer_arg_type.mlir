// gomlx's Gemma-style RMSNorm whose reduction body declares its second
// argument bf16 while its add reads it as f32: MLIR refuses such a use, and
// the matcher, reading the reduction body's uses, does not fuse it.
// fuse: not stablehlo.add at 26:11 uses %rhs as tensor<f32>, which is tensor<bf16>
module @block attributes {stablehlo.num_replicas = 4} {
  func.func @main(%x: tensor<6x128xf32>, %wo: tensor<128x384xf32>, %residual: tensor<6x384xf32>, %w: tensor<384xf32>) -> (tensor<6x384xf32>, tensor<6x384xf32>) {
    %0 = "stablehlo.dot_general"(%x, %wo) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<6x128xf32>, tensor<128x384xf32>) -> tensor<6x384xf32>
    %2 = "stablehlo.all_reduce"(%0) ({
      ^computation(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %1 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%1) : (tensor<f32>) -> ()
    }) { replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64> } : (tensor<6x384xf32>) -> tensor<6x384xf32>
    %3 = "stablehlo.add"(%residual, %2) : (tensor<6x384xf32>, tensor<6x384xf32>) -> tensor<6x384xf32>
    %4 = "stablehlo.multiply"(%3, %3) : (tensor<6x384xf32>, tensor<6x384xf32>) -> tensor<6x384xf32>
    %5 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %6 = "stablehlo.reduce"(%4, %5) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<bf16>) :
          %1 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%1) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 1> } : (tensor<6x384xf32>, tensor<f32>) -> tensor<6xf32>
    %7 = "stablehlo.constant"() { value = dense<0.0026041667442768812> : tensor<f32> } : () -> tensor<f32>
    %8 = "stablehlo.broadcast_in_dim"(%7) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<6xf32>
    %9 = "stablehlo.multiply"(%6, %8) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
    %10 = "stablehlo.reshape"(%9) : (tensor<6xf32>) -> tensor<6x1xf32>
    %11 = "stablehlo.constant"() { value = dense<9.999999974752427e-07> : tensor<f32> } : () -> tensor<f32>
    %12 = "stablehlo.broadcast_in_dim"(%11) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<6x1xf32>
    %13 = "stablehlo.add"(%10, %12) : (tensor<6x1xf32>, tensor<6x1xf32>) -> tensor<6x1xf32>
    %14 = "stablehlo.rsqrt"(%13) : (tensor<6x1xf32>) -> tensor<6x1xf32>
    %15 = "stablehlo.broadcast_in_dim"(%14) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<6x1xf32>) -> tensor<6x384xf32>
    %16 = "stablehlo.multiply"(%3, %15) : (tensor<6x384xf32>, tensor<6x384xf32>) -> tensor<6x384xf32>
    %17 = "stablehlo.constant"() { value = dense<1.0> : tensor<f32> } : () -> tensor<f32>
    %18 = "stablehlo.broadcast_in_dim"(%17) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<384xf32>
    %19 = "stablehlo.add"(%18, %w) : (tensor<384xf32>, tensor<384xf32>) -> tensor<384xf32>
    %20 = "stablehlo.reshape"(%19) : (tensor<384xf32>) -> tensor<1x384xf32>
    %21 = "stablehlo.broadcast_in_dim"(%20) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x384xf32>) -> tensor<6x384xf32>
    %22 = "stablehlo.multiply"(%16, %21) : (tensor<6x384xf32>, tensor<6x384xf32>) -> tensor<6x384xf32>
    "stablehlo.return"(%3, %22) : (tensor<6x384xf32>, tensor<6x384xf32>) -> ()
  }
}
