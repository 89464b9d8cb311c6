// Every size: what a training step psums besides its gradients. A scalar
// loss, a token count, scalars and odd counts in every dtype arc's kernels
// sum, at worlds 2, 4 and 8; then a loss and a count summed in one op. Each
// float takes the one-shot kernel at its latency; the i32 count stays native
// (and needs NCCL on a GPU).
module @sizes_small attributes {stablehlo.num_replicas = 8 : i64, arc.target = "tpu:v6e-8", arc.env = {LIBTPU_INIT_ARGS = "--xla_tpu_force_1d_allreduce_at_chunk_count=1"}} {
  func.func @main(%loss: tensor<f32>, %tokens: tensor<i32>, %h: tensor<f16>, %x1: tensor<1xbf16>, %x3: tensor<3xf16>, %x5: tensor<5xf32>, %x7: tensor<7xbf16>, %x17: tensor<17xf16>, %x1023: tensor<3x341xf32>, %n: tensor<f32>) -> (tensor<f32>, tensor<i32>, tensor<f16>, tensor<1xbf16>, tensor<3xf16>, tensor<5xf32>, tensor<7xbf16>, tensor<17xf16>, tensor<3x341xf32>, tensor<f32>, tensor<f32>) {
    // a scalar loss (f32, 4 bytes), world 8
    %r0 = "stablehlo.all_reduce"(%loss) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 1 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (tensor<f32>) -> tensor<f32>
    // a token count (i32): native, arc's kernels sum floats
    %r1 = "stablehlo.all_reduce"(%tokens) ({
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        %s = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
        "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 1 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>} : (tensor<i32>) -> tensor<i32>
    // a scalar f16 (2 bytes), world 4
    %r2 = "stablehlo.all_reduce"(%h) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 3, 2], [4, 5, 7, 6]]> : tensor<2x4xi64>, arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 1, 3, 2], [4, 5, 7, 6]]> : tensor<2x4xi64>, arc.ring_max_hops = 1 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>} : (tensor<f16>) -> tensor<f16>
    // one bf16, world 2
    %r3 = "stablehlo.all_reduce"(%x1) ({
      ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
        "stablehlo.return"(%s) : (tensor<bf16>) -> ()
    }) {replica_groups = dense<[[0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi64>, arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi64>, arc.ring_max_hops = 1 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>} : (tensor<1xbf16>) -> tensor<1xbf16>
    // 3 f16 (6 bytes), world 2
    %r4 = "stablehlo.all_reduce"(%x3) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi64>, arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi64>, arc.ring_max_hops = 1 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>} : (tensor<3xf16>) -> tensor<3xf16>
    // 5 f32 (20 bytes), world 4
    %r5 = "stablehlo.all_reduce"(%x5) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1, 3, 2], [4, 5, 7, 6]]> : tensor<2x4xi64>, arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 1, 3, 2], [4, 5, 7, 6]]> : tensor<2x4xi64>, arc.ring_max_hops = 1 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 6, type = 1>} : (tensor<5xf32>) -> tensor<5xf32>
    // 7 bf16 (14 bytes), world 4
    %r6 = "stablehlo.all_reduce"(%x7) ({
      ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
        "stablehlo.return"(%s) : (tensor<bf16>) -> ()
    }) {replica_groups = dense<[[0, 1, 3, 2], [4, 5, 7, 6]]> : tensor<2x4xi64>, arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 1, 3, 2], [4, 5, 7, 6]]> : tensor<2x4xi64>, arc.ring_max_hops = 1 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 7, type = 1>} : (tensor<7xbf16>) -> tensor<7xbf16>
    // 17 f16 (34 bytes), world 8
    %r7 = "stablehlo.all_reduce"(%x17) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 1 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 8, type = 1>} : (tensor<17xf16>) -> tensor<17xf16>
    // 3 x 341 f32 (4092 bytes), world 8
    %r8 = "stablehlo.all_reduce"(%x1023) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 1 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 9, type = 1>} : (tensor<3x341xf32>) -> tensor<3x341xf32>
    // A loss and a count (f32) in one op: two scalar calls.
    %m:2 = "stablehlo.all_reduce"(%r0, %n) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi64>, arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi64>, arc.ring_max_hops = 1 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 10, type = 1>} : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
    "func.return"(%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %m#0, %m#1) : (tensor<f32>, tensor<i32>, tensor<f16>, tensor<1xbf16>, tensor<3xf16>, tensor<5xf32>, tensor<7xbf16>, tensor<17xf16>, tensor<3x341xf32>, tensor<f32>, tensor<f32>) -> ()
  }
}
