module @layernorm attributes {stablehlo.num_replicas = 4, arc.target = "rocm:mi300x"} {
  func.func @main(%x: tensor<6x128xf32>, %wo: tensor<128x384xf32>, %residual: tensor<6x384xf32>, %w: tensor<384xf32>, %b: tensor<384xf32>) -> (tensor<6x384xf32>, tensor<6x384xf32>) {
    %0 = "stablehlo.dot_general"(%x, %wo) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<6x128xf32>, tensor<128x384xf32>) -> tensor<6x384xf32>
    %2 = "stablehlo.custom_call"(%0) {api_version = 4 : i32, arc.est_us = 10.2 : f64, arc.lowering = "oneshot", arc.native_us = 26.1 : f64, arc.reason = "oneshot: est 10.2 us vs native 26.1 us (2.6x)", backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", devices = array<i64: 0, 1, 2, 3>, groups = array<i64: 0, 1, 2, 3>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<6x384xf32>) -> tensor<6x384xf32>
    %3 = "stablehlo.add"(%residual, %2) : (tensor<6x384xf32>, tensor<6x384xf32>) -> tensor<6x384xf32>
    %4 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %5 = "stablehlo.reduce"(%3, %4) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %1 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%1) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 1> } : (tensor<6x384xf32>, tensor<f32>) -> tensor<6xf32>
    %6 = "stablehlo.constant"() { value = dense<0.0026041667442768812> : tensor<f32> } : () -> tensor<f32>
    %7 = "stablehlo.broadcast_in_dim"(%6) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<6xf32>
    %8 = "stablehlo.multiply"(%5, %7) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
    %9 = "stablehlo.reshape"(%8) : (tensor<6xf32>) -> tensor<6x1xf32>
    %10 = "stablehlo.broadcast_in_dim"(%9) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<6x1xf32>) -> tensor<6x384xf32>
    %11 = "stablehlo.subtract"(%3, %10) : (tensor<6x384xf32>, tensor<6x384xf32>) -> tensor<6x384xf32>
    %12 = "stablehlo.multiply"(%11, %11) : (tensor<6x384xf32>, tensor<6x384xf32>) -> tensor<6x384xf32>
    %13 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %14 = "stablehlo.reduce"(%12, %13) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %1 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%1) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 1> } : (tensor<6x384xf32>, tensor<f32>) -> tensor<6xf32>
    %15 = "stablehlo.broadcast_in_dim"(%6) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<6xf32>
    %16 = "stablehlo.multiply"(%14, %15) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
    %17 = "stablehlo.reshape"(%16) : (tensor<6xf32>) -> tensor<6x1xf32>
    %18 = "stablehlo.constant"() { value = dense<9.999999974752427e-07> : tensor<f32> } : () -> tensor<f32>
    %19 = "stablehlo.broadcast_in_dim"(%18) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<6x1xf32>
    %20 = "stablehlo.add"(%17, %19) : (tensor<6x1xf32>, tensor<6x1xf32>) -> tensor<6x1xf32>
    %21 = "stablehlo.rsqrt"(%20) : (tensor<6x1xf32>) -> tensor<6x1xf32>
    %22 = "stablehlo.broadcast_in_dim"(%21) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<6x1xf32>) -> tensor<6x384xf32>
    %23 = "stablehlo.multiply"(%11, %22) : (tensor<6x384xf32>, tensor<6x384xf32>) -> tensor<6x384xf32>
    %24 = "stablehlo.reshape"(%w) : (tensor<384xf32>) -> tensor<1x384xf32>
    %25 = "stablehlo.broadcast_in_dim"(%24) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x384xf32>) -> tensor<6x384xf32>
    %26 = "stablehlo.multiply"(%23, %25) : (tensor<6x384xf32>, tensor<6x384xf32>) -> tensor<6x384xf32>
    %27 = "stablehlo.reshape"(%b) : (tensor<384xf32>) -> tensor<1x384xf32>
    %28 = "stablehlo.broadcast_in_dim"(%27) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x384xf32>) -> tensor<6x384xf32>
    %29 = "stablehlo.add"(%26, %28) : (tensor<6x384xf32>, tensor<6x384xf32>) -> tensor<6x384xf32>
    "stablehlo.return"(%3, %29) : (tensor<6x384xf32>, tensor<6x384xf32>) -> ()
  }
}
