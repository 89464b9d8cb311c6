module @jit_body attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32, arc.target = "tpu:v6e-256", arc.env = {LIBTPU_INIT_ARGS = "--xla_tpu_force_1d_allreduce_at_chunk_count=1"}} {
  sdy.mesh @mesh = <["tp"=2]> {stablehlo.mesh = {axes = [{name = "tp", size = 2 : i64}]}}
  sdy.mesh @mesh_0 = <["tp"=2]> {stablehlo.mesh = {axes = [{name = "tp", size = 2 : i64}]}}
  func.func public @main(%arg0: tensor<6x512xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"tp"}]>}, %arg1: tensor<6x512xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"tp"}]>}) -> (tensor<f32> {jax.result_info = "result"}) {
    %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{}, {"tp"}]>, <@mesh, [{}, {"tp"}]>] out_shardings=[<@mesh, []>] manual_axes={"tp"} (%arg2: tensor<6x256xf32>, %arg3: tensor<6x256xf32>) {
      %1 = stablehlo.subtract %arg2, %arg3 : tensor<6x256xf32>
      %2 = chlo.square %1 : tensor<6x256xf32> -> tensor<6x256xf32>
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %3 = stablehlo.reduce(%2 init: %cst) applies stablehlo.add across dimensions = [0, 1] : (tensor<6x256xf32>, tensor<f32>) -> tensor<f32>
      %cst_0 = stablehlo.constant dense<1.536000e+03> : tensor<f32>
      %4 = stablehlo.divide %3, %cst_0 : tensor<f32>
      %5 = "stablehlo.all_reduce"(%4) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
      ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
        %7 = stablehlo.add %arg4, %arg5 : tensor<f32>
        stablehlo.return %7 : tensor<f32>
      }) {arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 1]]> : tensor<1x2xi64>, arc.ring_max_hops = 1 : i64} : (tensor<f32>) -> tensor<f32>
      %cst_1 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %6 = stablehlo.divide %5, %cst_1 : tensor<f32>
      sdy.return %6 : tensor<f32>
    } : (tensor<6x512xf32>, tensor<6x512xf32>) -> tensor<f32>
    return %0 : tensor<f32>
  }
}
