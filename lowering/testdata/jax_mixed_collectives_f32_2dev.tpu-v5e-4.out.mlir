module @jit_reds attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32, arc.target = "tpu:v5e-4", arc.env = {LIBTPU_INIT_ARGS = "--xla_tpu_force_1d_allreduce_at_chunk_count=1"}} {
  sdy.mesh @mesh = <["tp"=2]> {stablehlo.mesh = {axes = [{name = "tp", size = 2 : i64}]}}
  sdy.mesh @mesh_0 = <["tp"=2]> {stablehlo.mesh = {axes = [{name = "tp", size = 2 : i64}]}}
  func.func public @main(%arg0: tensor<16xf32>, %arg1: tensor<16xf32>, %arg2: tensor<128xf32>) -> (tensor<16xf32> {jax.result_info = "result[0]"}, tensor<16xf32> {jax.result_info = "result[1]"}, tensor<128xf32> {jax.result_info = "result[2]"}, tensor<64xf32> {jax.result_info = "result[3]"}, tensor<4x8xf32> {jax.result_info = "result[4]"}) {
    %0:5 = sdy.manual_computation(%arg0, %arg1, %arg2) in_shardings=[<@mesh, [{"tp"}]>, <@mesh, [{"tp"}]>, <@mesh, [{"tp"}]>] out_shardings=[<@mesh, [{"tp"}]>, <@mesh, [{"tp"}]>, <@mesh, [{"tp"}]>, <@mesh, [{"tp"}]>, <@mesh, [{"tp"}, {}]>] manual_axes={"tp"} (%arg3: tensor<8xf32>, %arg4: tensor<8xf32>, %arg5: tensor<64xf32>) {
      %1 = "stablehlo.all_reduce"(%arg3) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
      ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
        %7 = stablehlo.maximum %arg6, %arg7 : tensor<f32>
        stablehlo.return %7 : tensor<f32>
      }) {arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 1]]> : tensor<1x2xi64>, arc.ring_max_hops = 1 : i64} : (tensor<8xf32>) -> tensor<8xf32>
      %2 = "stablehlo.all_reduce"(%arg4) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
      ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
        %7 = stablehlo.minimum %arg6, %arg7 : tensor<f32>
        stablehlo.return %7 : tensor<f32>
      }) {arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 1]]> : tensor<1x2xi64>, arc.ring_max_hops = 1 : i64} : (tensor<8xf32>) -> tensor<8xf32>
      %3 = "stablehlo.all_reduce"(%arg5) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
      ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
        %7 = stablehlo.add %arg6, %arg7 : tensor<f32>
        stablehlo.return %7 : tensor<f32>
      }) {arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 1]]> : tensor<1x2xi64>, arc.ring_max_hops = 1 : i64} : (tensor<64xf32>) -> tensor<64xf32>
      %4 = "stablehlo.reduce_scatter"(%arg5) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh_0, axes = [#stablehlo.axis_ref<name = "tp">]>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
      ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
        %7 = stablehlo.add %arg6, %arg7 : tensor<f32>
        stablehlo.return %7 : tensor<f32>
      }) : (tensor<64xf32>) -> tensor<32xf32>
      %5 = stablehlo.broadcast_in_dim %arg3, dims = [1] : (tensor<8xf32>) -> tensor<1x8xf32>
      %6 = "stablehlo.all_gather"(%5) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh_0, axes = [#stablehlo.axis_ref<name = "tp">]>, use_global_device_ids}> : (tensor<1x8xf32>) -> tensor<2x8xf32>
      sdy.return %1, %2, %3, %4, %6 : tensor<8xf32>, tensor<8xf32>, tensor<64xf32>, tensor<32xf32>, tensor<2x8xf32>
    } : (tensor<16xf32>, tensor<16xf32>, tensor<128xf32>) -> (tensor<16xf32>, tensor<16xf32>, tensor<128xf32>, tensor<64xf32>, tensor<4x8xf32>)
    return %0#0, %0#1, %0#2, %0#3, %0#4 : tensor<16xf32>, tensor<16xf32>, tensor<128xf32>, tensor<64xf32>, tensor<4x8xf32>
  }
}
