// The residual add and rms_norm of devtest/llama_jax.py inside
// shard_map, as JAX lowers them (written by hand in its printed form):
// jnp.mean's keepdims as a broadcast that only adds a dimension of size 1,
// the weight converted to f32 before its broadcast, h returned as well.
// fuse: fused mean div 256 eps 1e-05 weight f32
module @jit_layer attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 2 : i32} {
  sdy.mesh @mesh = <["tp"=2]> {stablehlo.mesh = {axes = [{name = "tp", size = 2 : i64}]}}
  func.func public @main(%arg0: tensor<2x1x256xbf16>, %arg1: tensor<2x1x256xbf16>, %arg2: tensor<256xbf16>) -> (tensor<2x1x256xbf16>, tensor<2x1x256xbf16>) {
    %0:2 = sdy.manual_computation(%arg0, %arg1, %arg2) in_shardings=[<@mesh, [{}, {}, {}]>, <@mesh, [{}, {}, {}]>, <@mesh, [{}]>] out_shardings=[<@mesh, [{}, {}, {}]>, <@mesh, [{}, {}, {}]>] manual_axes={"tp"} (%arg3: tensor<2x1x256xbf16>, %arg4: tensor<2x1x256xbf16>, %arg5: tensor<256xbf16>) {
      %1 = "stablehlo.all_reduce"(%arg3) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = [#stablehlo.axis_ref<name = "tp">]>, use_global_device_ids}> ({
      ^bb0(%arg6: tensor<bf16>, %arg7: tensor<bf16>):
        %20 = stablehlo.add %arg6, %arg7 : tensor<bf16>
        stablehlo.return %20 : tensor<bf16>
      }) : (tensor<2x1x256xbf16>) -> tensor<2x1x256xbf16>
      %2 = stablehlo.add %arg4, %1 : tensor<2x1x256xbf16>
      %3 = stablehlo.convert %2 : (tensor<2x1x256xbf16>) -> tensor<2x1x256xf32>
      %4 = stablehlo.multiply %3, %3 : tensor<2x1x256xf32>
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %5 = stablehlo.reduce(%4 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<2x1x256xf32>, tensor<f32>) -> tensor<2x1xf32>
      %6 = stablehlo.broadcast_in_dim %5, dims = [0, 1] : (tensor<2x1xf32>) -> tensor<2x1x1xf32>
      %cst_0 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
      %7 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x1x1xf32>
      %8 = stablehlo.divide %6, %7 : tensor<2x1x1xf32>
      %cst_1 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
      %9 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2x1x1xf32>
      %10 = stablehlo.add %8, %9 : tensor<2x1x1xf32>
      %11 = stablehlo.rsqrt %10 : tensor<2x1x1xf32>
      %12 = stablehlo.broadcast_in_dim %11, dims = [0, 1, 2] : (tensor<2x1x1xf32>) -> tensor<2x1x256xf32>
      %13 = stablehlo.multiply %3, %12 : tensor<2x1x256xf32>
      %14 = stablehlo.convert %arg5 : (tensor<256xbf16>) -> tensor<256xf32>
      %15 = stablehlo.broadcast_in_dim %14, dims = [2] : (tensor<256xf32>) -> tensor<2x1x256xf32>
      %16 = stablehlo.multiply %13, %15 : tensor<2x1x256xf32>
      %17 = stablehlo.convert %16 : (tensor<2x1x256xf32>) -> tensor<2x1x256xbf16>
      sdy.return %2, %17 : tensor<2x1x256xbf16>, tensor<2x1x256xbf16>
    } : (tensor<2x1x256xbf16>, tensor<2x1x256xbf16>, tensor<256xbf16>) -> (tensor<2x1x256xbf16>, tensor<2x1x256xbf16>)
    return %0#0, %0#1 : tensor<2x1x256xbf16>, tensor<2x1x256xbf16>
  }
}
