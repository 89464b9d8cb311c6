// arc: --target tpu:v6e-8
// Mesh-axes groups (JAX's) are read as the mesh's device ids: each "tp" row
// of the 2 x 4 mesh becomes a one-hop ring on the ICI mesh.
module @tpu_mesh attributes {mhlo.num_partitions = 8 : i32, arc.target = "tpu:v6e-8"} {
  sdy.mesh @mesh = <["dp"=2, "tp"=4]>
  func.func @main(%x: tensor<1024xf32>) -> tensor<1024xf32> {
    %0 = "stablehlo.all_reduce"(%x) <{replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = [#stablehlo.axis_ref<name = "tp">]>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {arc.lowering = "native", arc.reason = "group [8 9 10 11] does not fit tpu:v6e-8: topology tpu:v6e-8 has no device 8"} : (tensor<1024xf32>) -> tensor<1024xf32>
    return %0 : tensor<1024xf32>
  }
}
