module @jit_body attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["tp"=2]> {stablehlo.mesh = {axes = [{name = "tp", size = 2 : i64}]}}
  sdy.mesh @mesh_0 = <["tp"=2]> {stablehlo.mesh = {axes = [{name = "tp", size = 2 : i64}]}}
  func.func public @main(%arg0: tensor<6x512xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"tp"}]>}, %arg1: tensor<512x384xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {}]>}, %arg2: tensor<6x384xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg3: tensor<384xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> (tensor<6x384xf32> {jax.result_info = "result[0]"}, tensor<6x384xf32> {jax.result_info = "result[1]"}) {
    %0:2 = sdy.manual_computation(%arg0, %arg1, %arg2, %arg3) in_shardings=[<@mesh, [{}, {"tp"}]>, <@mesh, [{"tp"}, {}]>, <@mesh, [{}, {}]>, <@mesh, [{}]>] out_shardings=[<@mesh, [{}, {}]>, <@mesh, [{}, {}]>] manual_axes={"tp"} (%arg4: tensor<6x256xf32>, %arg5: tensor<256x384xf32>, %arg6: tensor<6x384xf32>, %arg7: tensor<384xf32>) {
      %1 = stablehlo.dot_general %arg4, %arg5, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<6x256xf32>, tensor<256x384xf32>) -> tensor<6x384xf32>
      %2 = "stablehlo.all_reduce"(%1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh_0, axes = [#stablehlo.axis_ref<name = "tp">]>, use_global_device_ids}> ({
      ^bb0(%arg8: tensor<f32>, %arg9: tensor<f32>):
        %19 = stablehlo.add %arg8, %arg9 : tensor<f32>
        stablehlo.return %19 : tensor<f32>
      }) : (tensor<6x384xf32>) -> tensor<6x384xf32>
      %3 = stablehlo.add %arg6, %2 : tensor<6x384xf32>
      %4 = chlo.square %3 : tensor<6x384xf32> -> tensor<6x384xf32>
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %5 = stablehlo.reduce(%4 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<6x384xf32>, tensor<f32>) -> tensor<6xf32>
      %6 = stablehlo.broadcast_in_dim %5, dims = [0] : (tensor<6xf32>) -> tensor<6x1xf32>
      %cst_0 = stablehlo.constant dense<3.840000e+02> : tensor<f32>
      %7 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<6x1xf32>
      %8 = stablehlo.divide %6, %7 : tensor<6x1xf32>
      %cst_1 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
      %9 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<6x1xf32>
      %10 = stablehlo.add %8, %9 : tensor<6x1xf32>
      %11 = stablehlo.rsqrt %10 : tensor<6x1xf32>
      %12 = stablehlo.broadcast_in_dim %11, dims = [0, 1] : (tensor<6x1xf32>) -> tensor<6x384xf32>
      %13 = stablehlo.multiply %3, %12 : tensor<6x384xf32>
      %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %14 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<384xf32>
      %15 = stablehlo.add %14, %arg7 : tensor<384xf32>
      %16 = stablehlo.broadcast_in_dim %15, dims = [1] : (tensor<384xf32>) -> tensor<1x384xf32>
      %17 = stablehlo.broadcast_in_dim %16, dims = [0, 1] : (tensor<1x384xf32>) -> tensor<6x384xf32>
      %18 = stablehlo.multiply %13, %17 : tensor<6x384xf32>
      sdy.return %3, %18 : tensor<6x384xf32>, tensor<6x384xf32>
    } : (tensor<6x512xf32>, tensor<512x384xf32>, tensor<6x384xf32>, tensor<384xf32>) -> (tensor<6x384xf32>, tensor<6x384xf32>)
    return %0#0, %0#1 : tensor<6x384xf32>, tensor<6x384xf32>
  }
}
