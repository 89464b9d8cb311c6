// arc: --target cuda:nvlink
// want: lowered oneshot
// JAX's RMSNorm after a psum in shard_map's manual region (Shardy's
// manual_computation): fused, and the call keeps the frontend attributes of
// the all-reduce and of the ops it replaces.
module @block attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["tp"=2]>
  func.func public @main(%arg0: tensor<8x256xbf16>, %arg1: tensor<8x256xbf16>, %arg2: tensor<256xbf16>) -> (tensor<8x256xbf16>, tensor<8x256xbf16>) {
    %out:2 = sdy.manual_computation(%arg0, %arg1, %arg2) in_shardings=[<@mesh, [{"tp"}, {}]>, <@mesh, [{"tp"}, {}]>, <@mesh, [{}]>] out_shardings=[<@mesh, [{"tp"}, {}]>, <@mesh, [{"tp"}, {}]>] manual_axes={"tp"} (%x: tensor<4x256xbf16>, %r: tensor<4x256xbf16>, %w: tensor<256xbf16>) {
      %0 = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
      ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
        %s = stablehlo.add %a, %b : tensor<bf16>
        stablehlo.return %s : tensor<bf16>
      }) {mhlo.frontend_attributes = {_scheduling_group_id = "3"}} : (tensor<4x256xbf16>) -> tensor<4x256xbf16>
      %1 = stablehlo.add %r, %0 : tensor<4x256xbf16>
      %2 = stablehlo.convert %1 : (tensor<4x256xbf16>) -> tensor<4x256xf32>
      %3 = stablehlo.multiply %2, %2 : tensor<4x256xf32>
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %4 = stablehlo.reduce(%3 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<4x256xf32>, tensor<f32>) -> tensor<4xf32>
      %5 = stablehlo.reshape %4 : (tensor<4xf32>) -> tensor<4x1xf32>
      %cst_0 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
      %6 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
      %7 = stablehlo.divide %5, %6 : tensor<4x1xf32>
      %cst_1 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
      %8 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
      %9 = stablehlo.add %7, %8 : tensor<4x1xf32>
      %10 = stablehlo.rsqrt %9 : tensor<4x1xf32>
      %11 = stablehlo.broadcast_in_dim %10, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x256xf32>
      %12 = stablehlo.multiply %2, %11 : tensor<4x256xf32>
      %13 = stablehlo.convert %12 : (tensor<4x256xf32>) -> tensor<4x256xbf16>
      %14 = stablehlo.broadcast_in_dim %w, dims = [1] : (tensor<256xbf16>) -> tensor<4x256xbf16>
      %15 = stablehlo.multiply %13, %14 {mhlo.frontend_attributes = {_xla_stream = "2"}} : tensor<4x256xbf16>
      sdy.return %1, %15 : tensor<4x256xbf16>, tensor<4x256xbf16>
    } : (tensor<8x256xbf16>, tensor<8x256xbf16>, tensor<256xbf16>) -> (tensor<8x256xbf16>, tensor<8x256xbf16>)
    return %out#0, %out#1 : tensor<8x256xbf16>, tensor<8x256xbf16>
  }
}
