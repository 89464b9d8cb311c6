module @jit_body attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32, arc.target = "tpu:v5p-8", arc.env = {LIBTPU_INIT_ARGS = "--xla_tpu_force_1d_allreduce_at_chunk_count=1"}} {
  sdy.mesh @mesh = <["tp"=2]> {stablehlo.mesh = {axes = [{name = "tp", size = 2 : i64}]}}
  sdy.mesh @mesh_0 = <["tp"=2]> {stablehlo.mesh = {axes = [{name = "tp", size = 2 : i64}]}}
  func.func public @main(%arg0: tensor<6x512xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"tp"}]>}, %arg1: tensor<512x384xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {}]>}, %arg2: tensor<6x384xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg3: tensor<384xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg4: tensor<384xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> (tensor<6x384xbf16> {jax.result_info = "result[0]"}, tensor<6x384xbf16> {jax.result_info = "result[1]"}) {
    %0:2 = sdy.manual_computation(%arg0, %arg1, %arg2, %arg3, %arg4) in_shardings=[<@mesh, [{}, {"tp"}]>, <@mesh, [{"tp"}, {}]>, <@mesh, [{}, {}]>, <@mesh, [{}]>, <@mesh, [{}]>] out_shardings=[<@mesh, [{}, {}]>, <@mesh, [{}, {}]>] manual_axes={"tp"} (%arg5: tensor<6x256xbf16>, %arg6: tensor<256x384xbf16>, %arg7: tensor<6x384xbf16>, %arg8: tensor<384xbf16>, %arg9: tensor<384xbf16>) {
      %1 = stablehlo.dot_general %arg5, %arg6, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<6x256xbf16>, tensor<256x384xbf16>) -> tensor<6x384xbf16>
      %2 = "stablehlo.all_reduce"(%1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
      ^bb0(%arg10: tensor<bf16>, %arg11: tensor<bf16>):
        %32 = stablehlo.add %arg10, %arg11 : tensor<bf16>
        stablehlo.return %32 : tensor<bf16>
      }) {arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 1]]> : tensor<1x2xi64>, arc.ring_max_hops = 1 : i64} : (tensor<6x384xbf16>) -> tensor<6x384xbf16>
      %3 = stablehlo.add %arg7, %2 : tensor<6x384xbf16>
      %4 = stablehlo.convert %3 : (tensor<6x384xbf16>) -> tensor<6x384xf32>
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %5 = stablehlo.reduce(%4 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<6x384xf32>, tensor<f32>) -> tensor<6xf32>
      %6 = stablehlo.broadcast_in_dim %5, dims = [0] : (tensor<6xf32>) -> tensor<6x1xf32>
      %cst_0 = stablehlo.constant dense<3.840000e+02> : tensor<f32>
      %7 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<6x1xf32>
      %8 = stablehlo.divide %6, %7 : tensor<6x1xf32>
      %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<6x1xf32>) -> tensor<6x384xf32>
      %10 = stablehlo.subtract %4, %9 : tensor<6x384xf32>
      %11 = chlo.square %10 : tensor<6x384xf32> -> tensor<6x384xf32>
      %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %12 = stablehlo.reduce(%11 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<6x384xf32>, tensor<f32>) -> tensor<6xf32>
      %13 = stablehlo.broadcast_in_dim %12, dims = [0] : (tensor<6xf32>) -> tensor<6x1xf32>
      %cst_2 = stablehlo.constant dense<3.840000e+02> : tensor<f32>
      %14 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<6x1xf32>
      %15 = stablehlo.divide %13, %14 : tensor<6x1xf32>
      %16 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<6x1xf32>) -> tensor<6x384xf32>
      %17 = stablehlo.subtract %4, %16 : tensor<6x384xf32>
      %cst_3 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
      %18 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<6x1xf32>
      %19 = stablehlo.add %15, %18 : tensor<6x1xf32>
      %20 = stablehlo.rsqrt %19 : tensor<6x1xf32>
      %21 = stablehlo.broadcast_in_dim %20, dims = [0, 1] : (tensor<6x1xf32>) -> tensor<6x384xf32>
      %22 = stablehlo.multiply %17, %21 : tensor<6x384xf32>
      %23 = stablehlo.convert %arg8 : (tensor<384xbf16>) -> tensor<384xf32>
      %24 = stablehlo.broadcast_in_dim %23, dims = [1] : (tensor<384xf32>) -> tensor<1x384xf32>
      %25 = stablehlo.broadcast_in_dim %24, dims = [0, 1] : (tensor<1x384xf32>) -> tensor<6x384xf32>
      %26 = stablehlo.multiply %22, %25 : tensor<6x384xf32>
      %27 = stablehlo.convert %arg9 : (tensor<384xbf16>) -> tensor<384xf32>
      %28 = stablehlo.broadcast_in_dim %27, dims = [1] : (tensor<384xf32>) -> tensor<1x384xf32>
      %29 = stablehlo.broadcast_in_dim %28, dims = [0, 1] : (tensor<1x384xf32>) -> tensor<6x384xf32>
      %30 = stablehlo.add %26, %29 : tensor<6x384xf32>
      %31 = stablehlo.convert %30 : (tensor<6x384xf32>) -> tensor<6x384xbf16>
      sdy.return %3, %31 : tensor<6x384xbf16>, tensor<6x384xbf16>
    } : (tensor<6x512xbf16>, tensor<512x384xbf16>, tensor<6x384xbf16>, tensor<384xbf16>, tensor<384xbf16>) -> (tensor<6x384xbf16>, tensor<6x384xbf16>)
    return %0#0, %0#1 : tensor<6x384xbf16>, tensor<6x384xbf16>
  }
}
