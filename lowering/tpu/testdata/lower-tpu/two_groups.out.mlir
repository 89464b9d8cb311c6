// arc: --target tpu:v6e-8
// Two groups of four chips: each becomes its own ring on the 2 x 4 mesh.
// (decided by select with these flags)
module @two_groups attributes {stablehlo.num_replicas = 8 : i64, arc.target = "tpu:v6e-8", arc.env = {LIBTPU_INIT_ARGS = "--xla_tpu_force_1d_allreduce_at_chunk_count=1"}} {
  func.func @main(%a: tensor<4096xf32>) -> (tensor<4096xf32>) {
    %0 = "stablehlo.all_reduce"(%a) ({
      ^bb0(%x: tensor<f32>, %y: tensor<f32>):
        %s = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1, 3, 2], [4, 5, 7, 6]]> : tensor<2x4xi64>, arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 1, 3, 2], [4, 5, 7, 6]]> : tensor<2x4xi64>, arc.ring_max_hops = 1 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (tensor<4096xf32>) -> tensor<4096xf32>
    "func.return"(%0) : (tensor<4096xf32>) -> ()
  }
}
