// arc: --target tpu:v6e-4
// A reducer arc does not know to be commutative keeps its groups as
// they were (a ring would change the order of the reduction); the max
// next to it is ring-ordered.
// (decided by select with these flags)
module @native attributes {stablehlo.num_replicas = 4 : i64, arc.target = "tpu:v6e-4", arc.env = {LIBTPU_INIT_ARGS = "--xla_tpu_force_1d_allreduce_at_chunk_count=1"}} {
  func.func @main(%a: tensor<1024xf32>, %b: tensor<1024xf32>) -> (tensor<1024xf32>, tensor<1024xf32>) {
    %0 = "stablehlo.all_reduce"(%a) ({
      ^bb0(%x: tensor<f32>, %y: tensor<f32>):
        %s = "stablehlo.divide"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, arc.lowering = "native", arc.reason = "the reducer is not one arc knows to be commutative, so the ring's order could change the result"} : (tensor<1024xf32>) -> tensor<1024xf32>
    %1 = "stablehlo.all_reduce"(%b) ({
      ^bb0(%x: tensor<f32>, %y: tensor<f32>):
        %s = "stablehlo.maximum"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1, 3, 2]]> : tensor<1x4xi64>, arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 1, 3, 2]]> : tensor<1x4xi64>, arc.ring_max_hops = 1 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (tensor<1024xf32>) -> tensor<1024xf32>
    "func.return"(%0, %1) : (tensor<1024xf32>, tensor<1024xf32>) -> ()
  }
}
