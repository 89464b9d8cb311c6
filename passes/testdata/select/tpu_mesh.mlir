// arc: --target tpu:v6e-8
// Mesh-axes groups, as JAX's shard_map writes them (flattened ids: a
// channel and use_global_device_ids): each "tp" row of the 2 x 4 mesh
// becomes a one-hop ring on the ICI mesh.
module @tpu_mesh attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["dp"=2, "tp"=4]>
  func.func @main(%x: tensor<1024xf32>) -> tensor<1024xf32> {
    %0 = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = [#stablehlo.axis_ref<name = "tp">]>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<1024xf32>) -> tensor<1024xf32>
    return %0 : tensor<1024xf32>
  }
}
