// arc: --target tpu:v6e-8
// Mesh-axes groups ordered as rings (testdata/select/tpu_mesh.out.mlir of
// passes): written out as explicit groups of the same flattened ids.
module @tpu_mesh attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32, arc.target = "tpu:v6e-8", arc.env = {LIBTPU_INIT_ARGS = "--xla_tpu_force_1d_allreduce_at_chunk_count=1"}} {
  sdy.mesh @mesh = <["dp"=2, "tp"=4]>
  func.func @main(%x: tensor<1024xf32>) -> tensor<1024xf32> {
    %0 = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 3, 2], [4, 5, 7, 6]]> : tensor<2x4xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 1, 3, 2], [4, 5, 7, 6]]> : tensor<2x4xi64>, arc.ring_max_hops = 1 : i64} : (tensor<1024xf32>) -> tensor<1024xf32>
    return %0 : tensor<1024xf32>
  }
}
