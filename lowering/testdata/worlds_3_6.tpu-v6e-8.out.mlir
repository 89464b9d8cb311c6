// Groups of 3 (no kernel of arc's runs them) and one group of 6 (one-shot
// only) on 6 replicas: 4 KiB f32 sums, so that only the groups decide.
module @worlds_3_6 attributes {stablehlo.num_replicas = 6 : i64, arc.target = "tpu:v6e-8", arc.env = {LIBTPU_INIT_ARGS = "--xla_tpu_force_1d_allreduce_at_chunk_count=1"}} {
  func.func @main(%x0: tensor<1024xf32>, %x1: tensor<1024xf32>) -> (tensor<1024xf32>, tensor<1024xf32>) {
    %r0 = "stablehlo.all_reduce"(%x0) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1, 2], [3, 4, 5]]> : tensor<2x3xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-8 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 1, 2], [3, 4, 5]]> : tensor<2x3xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (tensor<1024xf32>) -> tensor<1024xf32>
    %r1 = "stablehlo.all_reduce"(%x1) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 5, 3, 1]]> : tensor<1x6xi64>, arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 5, 3, 1]]> : tensor<1x6xi64>, arc.ring_max_hops = 1 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>} : (tensor<1024xf32>) -> tensor<1024xf32>
    "func.return"(%r0, %r1) : (tensor<1024xf32>, tensor<1024xf32>) -> ()
  }
}
