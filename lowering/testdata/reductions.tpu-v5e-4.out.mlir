// Reductions other than sum, and sums of types arc's kernels do not take: all
// stay native on GPUs (with the reason); on TPU every reduction is ring-ordered.
module @reductions attributes {stablehlo.num_replicas = 2 : i64, arc.target = "tpu:v5e-4", arc.env = {LIBTPU_INIT_ARGS = "--xla_tpu_force_1d_allreduce_at_chunk_count=1"}} {
  func.func @main(%f32: tensor<1024xf32>, %f16: tensor<1024xf16>, %bf16: tensor<1024xbf16>, %i32: tensor<1024xi32>, %f64: tensor<1024xf64>, %i1: tensor<1024xi1>) -> (tensor<1024xf32>, tensor<1024xf16>, tensor<1024xbf16>, tensor<1024xi32>, tensor<1024xf64>, tensor<1024xi1>, tensor<1024xi32>, tensor<1024xf32>) {
    %0 = "stablehlo.all_reduce"(%f32) ({
      ^bb0(%x: tensor<f32>, %y: tensor<f32>):
        %r = "stablehlo.maximum"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%r) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 1]]> : tensor<1x2xi64>, arc.ring_max_hops = 1 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (tensor<1024xf32>) -> tensor<1024xf32>
    %1 = "stablehlo.all_reduce"(%f16) ({
      ^bb0(%x: tensor<f16>, %y: tensor<f16>):
        %r = "stablehlo.minimum"(%x, %y) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%r) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 1]]> : tensor<1x2xi64>, arc.ring_max_hops = 1 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>} : (tensor<1024xf16>) -> tensor<1024xf16>
    %2 = "stablehlo.all_reduce"(%bf16) ({
      ^bb0(%x: tensor<bf16>, %y: tensor<bf16>):
        %r = "stablehlo.multiply"(%x, %y) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
        "stablehlo.return"(%r) : (tensor<bf16>) -> ()
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 1]]> : tensor<1x2xi64>, arc.ring_max_hops = 1 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>} : (tensor<1024xbf16>) -> tensor<1024xbf16>
    %3 = "stablehlo.all_reduce"(%i32) ({
      ^bb0(%x: tensor<i32>, %y: tensor<i32>):
        %r = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
        "stablehlo.return"(%r) : (tensor<i32>) -> ()
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 1]]> : tensor<1x2xi64>, arc.ring_max_hops = 1 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>} : (tensor<1024xi32>) -> tensor<1024xi32>
    %4 = "stablehlo.all_reduce"(%f64) ({
      ^bb0(%x: tensor<f64>, %y: tensor<f64>):
        %r = "stablehlo.add"(%x, %y) : (tensor<f64>, tensor<f64>) -> tensor<f64>
        "stablehlo.return"(%r) : (tensor<f64>) -> ()
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 1]]> : tensor<1x2xi64>, arc.ring_max_hops = 1 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>} : (tensor<1024xf64>) -> tensor<1024xf64>
    %5 = "stablehlo.all_reduce"(%i1) ({
      ^bb0(%x: tensor<i1>, %y: tensor<i1>):
        %r = "stablehlo.or"(%x, %y) : (tensor<i1>, tensor<i1>) -> tensor<i1>
        "stablehlo.return"(%r) : (tensor<i1>) -> ()
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 1]]> : tensor<1x2xi64>, arc.ring_max_hops = 1 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 6, type = 1>} : (tensor<1024xi1>) -> tensor<1024xi1>
    %6 = "stablehlo.all_reduce"(%3) ({
      ^bb0(%x: tensor<i32>, %y: tensor<i32>):
        %r = "stablehlo.and"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
        "stablehlo.return"(%r) : (tensor<i32>) -> ()
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 1]]> : tensor<1x2xi64>, arc.ring_max_hops = 1 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 7, type = 1>} : (tensor<1024xi32>) -> tensor<1024xi32>
    // A computation arc does not recognise: x - y.
    %7 = "stablehlo.all_reduce"(%0) ({
      ^bb0(%x: tensor<f32>, %y: tensor<f32>):
        %r = "stablehlo.subtract"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%r) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, arc.lowering = "native", arc.reason = "the reducer is not one arc knows to be commutative, so the ring's order could change the result"} : (tensor<1024xf32>) -> tensor<1024xf32>
    "func.return"(%0, %1, %2, %3, %4, %5, %6, %7) : (tensor<1024xf32>, tensor<1024xf16>, tensor<1024xbf16>, tensor<1024xi32>, tensor<1024xf64>, tensor<1024xi1>, tensor<1024xi32>, tensor<1024xf32>) -> ()
  }
}
