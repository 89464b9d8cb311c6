// arc: --target tpu:v6e-8
// The ring select chose (testdata/select/tpu.out.mlir of passes) becomes the
// op's groups, and the module records the libtpu flag the ring needs.
module @tpu attributes {stablehlo.num_replicas = 8 : i64, arc.target = "tpu:v6e-8", arc.env = {LIBTPU_INIT_ARGS = "--xla_tpu_force_1d_allreduce_at_chunk_count=1"}} {
  func.func @main(%a: tensor<1024xf32>) -> tensor<1024xf32> {
    %0 = "stablehlo.all_reduce"(%a) ({
      ^bb0(%x: tensor<f32>, %y: tensor<f32>):
        %s = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 1 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (tensor<1024xf32>) -> tensor<1024xf32>
    "func.return"(%0) : (tensor<1024xf32>) -> ()
  }
}
