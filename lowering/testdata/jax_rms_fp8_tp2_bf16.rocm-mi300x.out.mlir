module @jit_body attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32, arc.target = "rocm:mi300x"} {
  sdy.mesh @mesh = <["tp"=2]> {stablehlo.mesh = {axes = [{name = "tp", size = 2 : i64}]}}
  sdy.mesh @mesh_0 = <["tp"=2]> {stablehlo.mesh = {axes = [{name = "tp", size = 2 : i64}]}}
  func.func public @main(%arg0: tensor<6x512xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"tp"}]>}, %arg1: tensor<512x384xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {}]>}, %arg2: tensor<6x384xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg3: tensor<384xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> (tensor<6x384xbf16> {jax.result_info = "result[0]"}, tensor<6x384xbf16> {jax.result_info = "result[1]"}, tensor<6x384xf8E4M3FN> {jax.result_info = "result[2]"}) {
    %0:3 = sdy.manual_computation(%arg0, %arg1, %arg2, %arg3) in_shardings=[<@mesh, [{}, {"tp"}]>, <@mesh, [{"tp"}, {}]>, <@mesh, [{}, {}]>, <@mesh, [{}]>] out_shardings=[<@mesh, [{}, {}]>, <@mesh, [{}, {}]>, <@mesh, [{}, {}]>] manual_axes={"tp"} (%arg4: tensor<6x256xbf16>, %arg5: tensor<256x384xbf16>, %arg6: tensor<6x384xbf16>, %arg7: tensor<384xbf16>) {
      %1 = stablehlo.dot_general %arg4, %arg5, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<6x256xbf16>, tensor<256x384xbf16>) -> tensor<6x384xbf16>
      %3, %19 = "stablehlo.custom_call"(%1, %arg6, %arg7) {api_version = 4 : i32, arc.est_us = 9.1 : f64, arc.fuse = "rmsnorm", arc.fuse_reason = "fused with the residual add and rmsnorm row 384, mean div 384, eps 1e-06, weight f32: est 12.2 us vs 13.0 us with the norm's own kernel", arc.lowering = "oneshot", arc.native_us = 22.24 : f64, arc.reason = "oneshot: est 9.1 us vs native 22.2 us (2.4x)", backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", devices = array<i64: 0, 1>, eps = 0x358637BD : f32, groups = array<i64: 0, 1>, link = "peer", mean = "div", norm = "rmsnorm", row = 384 : i64, scale = 0x43C00000 : f32, weight = "f32", world = 2 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[0]> : tensor<1xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>]} : (tensor<6x384xbf16>, tensor<6x384xbf16>, tensor<384xbf16>) -> (tensor<6x384xbf16>, tensor<6x384xbf16>)
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %cst_0 = stablehlo.constant dense<3.840000e+02> : tensor<f32>
      %cst_1 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
      %20 = stablehlo.convert %19 : (tensor<6x384xbf16>) -> tensor<6x384xf32>
      %cst_2 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
      %21 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<6x384xf32>
      %22 = stablehlo.divide %20, %21 : tensor<6x384xf32>
      %cst_3 = stablehlo.constant dense<-4.480000e+02> : tensor<f32>
      %cst_4 = stablehlo.constant dense<4.480000e+02> : tensor<f32>
      %23 = func.call @clip(%22, %cst_3, %cst_4) : (tensor<6x384xf32>, tensor<f32>, tensor<f32>) -> tensor<6x384xf32>
      %24 = stablehlo.convert %23 : (tensor<6x384xf32>) -> tensor<6x384xf8E4M3FN>
      sdy.return %3, %19, %24 : tensor<6x384xbf16>, tensor<6x384xbf16>, tensor<6x384xf8E4M3FN>
    } : (tensor<6x512xbf16>, tensor<512x384xbf16>, tensor<6x384xbf16>, tensor<384xbf16>) -> (tensor<6x384xbf16>, tensor<6x384xbf16>, tensor<6x384xf8E4M3FN>)
    return %0#0, %0#1, %0#2 : tensor<6x384xbf16>, tensor<6x384xbf16>, tensor<6x384xf8E4M3FN>
  }
  func.func private @clip(%arg0: tensor<6x384xf32>, %arg1: tensor<f32>, %arg2: tensor<f32>) -> tensor<6x384xf32> {
    %0 = stablehlo.convert %arg1 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<6x384xf32>
    %2 = stablehlo.maximum %1, %arg0 : tensor<6x384xf32>
    %3 = stablehlo.convert %arg2 : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<6x384xf32>
    %5 = stablehlo.minimum %4, %2 : tensor<6x384xf32>
    return %5 : tensor<6x384xf32>
  }
}
