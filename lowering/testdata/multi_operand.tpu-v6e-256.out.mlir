// Multi-operand all-reduces on two groups of four: results named one by one
// (go-xla's "%0, %1 = ...") and packed ("%2:3", used as "%2#k"), with operands
// that arc lowers next to operands that stay native in the same op.
module @multi_operand attributes {stablehlo.num_replicas = 8 : i64, arc.target = "tpu:v6e-256", arc.env = {LIBTPU_INIT_ARGS = "--xla_tpu_force_1d_allreduce_at_chunk_count=1"}} {
  func.func @main(%a: tensor<64x128xf16>, %b: tensor<1024x1024xf16>, %c: tensor<4096xbf16>, %d: tensor<3xbf16>, %e: tensor<256xf32>, %f: tensor<0xf32>, %g: tensor<2048x1024xf32>, %h: tensor<0xf32>) -> (tensor<64x128xf16>, tensor<1024x1024xf16>, tensor<4096xbf16>, tensor<3xbf16>, tensor<256xf32>, tensor<2048x1024xf32>, tensor<0xf32>, tensor<0xf32>) {
    // Both operands lowered: 16 KiB and 2 MiB.
    %0, %1 = "stablehlo.all_reduce"(%a, %b) ({
      ^bb0(%x: tensor<f16>, %y: tensor<f16>):
        %s = "stablehlo.add"(%x, %y) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 2, 3, 1], [4, 6, 7, 5]]> : tensor<2x4xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 3, 1], [4, 6, 7, 5]]> : tensor<2x4xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (tensor<64x128xf16>, tensor<1024x1024xf16>) -> (tensor<64x128xf16>, tensor<1024x1024xf16>)
    // Both lowered: 8 KiB, and 6 bytes (arc's kernels take any count).
    %2, %3 = "stablehlo.all_reduce"(%c, %d) ({
      ^bb0(%x: tensor<bf16>, %y: tensor<bf16>):
        %s = "stablehlo.add"(%x, %y) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
        "stablehlo.return"(%s) : (tensor<bf16>) -> ()
    }) {replica_groups = dense<[[0, 2, 3, 1], [4, 6, 7, 5]]> : tensor<2x4xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 3, 1], [4, 6, 7, 5]]> : tensor<2x4xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>} : (tensor<4096xbf16>, tensor<3xbf16>) -> (tensor<4096xbf16>, tensor<3xbf16>)
    // Packed: 1 KiB lowered, an empty operand native, 8 MiB lowered.
    %4:3 = "stablehlo.all_reduce"(%e, %f, %g) ({
      ^bb0(%x: tensor<f32>, %y: tensor<f32>):
        %s = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, arc.lowering = ["ring", "native", "ring"], arc.reason = ["no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", "empty tensor", "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring"], arc.ring = dense<[[0, 2, 3, 1], [4, 6, 7, 5]]> : tensor<2x4xi64>, arc.ring_max_hops = 2 : i64} : (tensor<256xf32>, tensor<0xf32>, tensor<2048x1024xf32>) -> (tensor<256xf32>, tensor<0xf32>, tensor<2048x1024xf32>)
    // Packed, every operand native (both empty).
    %5:2 = "stablehlo.all_reduce"(%h, %4#1) ({
      ^bb0(%x: tensor<f32>, %y: tensor<f32>):
        %s = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, arc.lowering = "native", arc.reason = "empty tensor"} : (tensor<0xf32>, tensor<0xf32>) -> (tensor<0xf32>, tensor<0xf32>)
    %6 = "stablehlo.multiply"(%4#0, %4#0) : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
    "func.return"(%0, %1, %2, %3, %6, %4#2, %5#1, %5#0) : (tensor<64x128xf16>, tensor<1024x1024xf16>, tensor<4096xbf16>, tensor<3xbf16>, tensor<256xf32>, tensor<2048x1024xf32>, tensor<0xf32>, tensor<0xf32>) -> ()
  }
}
