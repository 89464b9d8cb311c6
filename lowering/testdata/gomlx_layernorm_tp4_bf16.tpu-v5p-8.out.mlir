module @layernorm attributes {stablehlo.num_replicas = 4, arc.target = "tpu:v5p-8", arc.env = {LIBTPU_INIT_ARGS = "--xla_tpu_force_1d_allreduce_at_chunk_count=1"}} {
  func.func @main(%x: tensor<6x128xbf16>, %wo: tensor<128x384xbf16>, %residual: tensor<6x384xbf16>, %w: tensor<384xbf16>, %b: tensor<384xbf16>) -> (tensor<6x384xbf16>, tensor<6x384xbf16>) {
    %0 = "stablehlo.dot_general"(%x, %wo) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<6x128xbf16>, tensor<128x384xbf16>) -> tensor<6x384xbf16>
    %2 = "stablehlo.all_reduce"(%0) ({
      ^computation(%lhs: tensor<bf16>, %rhs: tensor<bf16>) :
          %1 = "stablehlo.add"(%lhs, %rhs) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
          "stablehlo.return"(%1) : (tensor<bf16>) -> ()
    }) { replica_groups = dense<[[0, 1, 3, 2]]> : tensor<1x4xi64>, arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 1, 3, 2]]> : tensor<1x4xi64>, arc.ring_max_hops = 1 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1> } : (tensor<6x384xbf16>) -> tensor<6x384xbf16>
    %3 = "stablehlo.add"(%residual, %2) : (tensor<6x384xbf16>, tensor<6x384xbf16>) -> tensor<6x384xbf16>
    %4 = "stablehlo.convert"(%3) : (tensor<6x384xbf16>) -> tensor<6x384xf32>
    %6 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %7 = "stablehlo.reduce"(%4, %6) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %5 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%5) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 1> } : (tensor<6x384xf32>, tensor<f32>) -> tensor<6xf32>
    %8 = "stablehlo.constant"() { value = dense<0.0026041667442768812> : tensor<f32> } : () -> tensor<f32>
    %9 = "stablehlo.broadcast_in_dim"(%8) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<6xf32>
    %10 = "stablehlo.multiply"(%7, %9) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
    %11 = "stablehlo.reshape"(%10) : (tensor<6xf32>) -> tensor<6x1xf32>
    %12 = "stablehlo.broadcast_in_dim"(%11) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<6x1xf32>) -> tensor<6x384xf32>
    %13 = "stablehlo.subtract"(%4, %12) : (tensor<6x384xf32>, tensor<6x384xf32>) -> tensor<6x384xf32>
    %14 = "stablehlo.multiply"(%13, %13) : (tensor<6x384xf32>, tensor<6x384xf32>) -> tensor<6x384xf32>
    %15 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %16 = "stablehlo.reduce"(%14, %15) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %5 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%5) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 1> } : (tensor<6x384xf32>, tensor<f32>) -> tensor<6xf32>
    %17 = "stablehlo.broadcast_in_dim"(%8) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<6xf32>
    %18 = "stablehlo.multiply"(%16, %17) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
    %19 = "stablehlo.reshape"(%18) : (tensor<6xf32>) -> tensor<6x1xf32>
    %20 = "stablehlo.constant"() { value = dense<9.999999974752427e-07> : tensor<f32> } : () -> tensor<f32>
    %21 = "stablehlo.broadcast_in_dim"(%20) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<6x1xf32>
    %22 = "stablehlo.add"(%19, %21) : (tensor<6x1xf32>, tensor<6x1xf32>) -> tensor<6x1xf32>
    %23 = "stablehlo.rsqrt"(%22) : (tensor<6x1xf32>) -> tensor<6x1xf32>
    %24 = "stablehlo.broadcast_in_dim"(%23) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<6x1xf32>) -> tensor<6x384xf32>
    %25 = "stablehlo.multiply"(%13, %24) : (tensor<6x384xf32>, tensor<6x384xf32>) -> tensor<6x384xf32>
    %26 = "stablehlo.convert"(%w) : (tensor<384xbf16>) -> tensor<384xf32>
    %27 = "stablehlo.reshape"(%26) : (tensor<384xf32>) -> tensor<1x384xf32>
    %28 = "stablehlo.broadcast_in_dim"(%27) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x384xf32>) -> tensor<6x384xf32>
    %29 = "stablehlo.multiply"(%25, %28) : (tensor<6x384xf32>, tensor<6x384xf32>) -> tensor<6x384xf32>
    %30 = "stablehlo.convert"(%b) : (tensor<384xbf16>) -> tensor<384xf32>
    %31 = "stablehlo.reshape"(%30) : (tensor<384xf32>) -> tensor<1x384xf32>
    %32 = "stablehlo.broadcast_in_dim"(%31) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x384xf32>) -> tensor<6x384xf32>
    %33 = "stablehlo.add"(%29, %32) : (tensor<6x384xf32>, tensor<6x384xf32>) -> tensor<6x384xf32>
    %34 = "stablehlo.convert"(%33) : (tensor<6x384xf32>) -> tensor<6x384xbf16>
    "stablehlo.return"(%3, %34) : (tensor<6x384xbf16>, tensor<6x384xbf16>) -> ()
  }
}
