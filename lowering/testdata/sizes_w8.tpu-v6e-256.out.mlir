// All-reduce sums of one group of 8 devices, at sizes on both sides of the built-in
// profiles' thresholds: one-shot maximums (2, 4, 8 MiB), vLLM's QuickReduce minimums
// (1, 2, 4, 8, 16, 64 MiB), and the crossovers where native becomes faster.
module @sizes_w8 attributes {stablehlo.num_replicas = 8 : i64, arc.target = "tpu:v6e-256", arc.env = {LIBTPU_INIT_ARGS = "--xla_tpu_force_1d_allreduce_at_chunk_count=1"}} {
  func.func @main(%x0: tensor<8xf16>, %x1: tensor<2048xf16>, %x2: tensor<32768xf16>, %x3: tensor<131072xf16>, %x4: tensor<262144xf16>, %x5: tensor<524280xf16>, %x6: tensor<524288xf16>, %x7: tensor<1048568xf16>, %x8: tensor<1048576xf16>, %x9: tensor<1048584xf16>, %x10: tensor<2097144xf16>, %x11: tensor<2097152xf16>, %x12: tensor<2097160xf16>, %x13: tensor<4194296xf16>, %x14: tensor<4194304xf16>, %x15: tensor<4194312xf16>, %x16: tensor<8388600xf16>, %x17: tensor<8388608xf16>, %x18: tensor<33554432xf16>, %x19: tensor<134217728xf16>, %x20: tensor<8xbf16>, %x21: tensor<131072xbf16>, %x22: tensor<1048568xbf16>, %x23: tensor<1048576xbf16>, %x24: tensor<4194296xbf16>, %x25: tensor<4194304xbf16>, %x26: tensor<8388600xbf16>, %x27: tensor<8388608xbf16>, %x28: tensor<33554424xbf16>, %x29: tensor<33554432xbf16>, %x30: tensor<4xf32>, %x31: tensor<16384xf32>, %x32: tensor<262144xf32>, %x33: tensor<1048576xf32>, %x34: tensor<16777216xf32>) -> (tensor<8xf16>, tensor<2048xf16>, tensor<32768xf16>, tensor<131072xf16>, tensor<262144xf16>, tensor<524280xf16>, tensor<524288xf16>, tensor<1048568xf16>, tensor<1048576xf16>, tensor<1048584xf16>, tensor<2097144xf16>, tensor<2097152xf16>, tensor<2097160xf16>, tensor<4194296xf16>, tensor<4194304xf16>, tensor<4194312xf16>, tensor<8388600xf16>, tensor<8388608xf16>, tensor<33554432xf16>, tensor<134217728xf16>, tensor<8xbf16>, tensor<131072xbf16>, tensor<1048568xbf16>, tensor<1048576xbf16>, tensor<4194296xbf16>, tensor<4194304xbf16>, tensor<8388600xbf16>, tensor<8388608xbf16>, tensor<33554424xbf16>, tensor<33554432xbf16>, tensor<4xf32>, tensor<16384xf32>, tensor<262144xf32>, tensor<1048576xf32>, tensor<16777216xf32>) {
    // f16, 16 B
    %r0 = "stablehlo.all_reduce"(%x0) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (tensor<8xf16>) -> tensor<8xf16>
    // f16, 4 KiB
    %r1 = "stablehlo.all_reduce"(%x1) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>} : (tensor<2048xf16>) -> tensor<2048xf16>
    // f16, 64 KiB
    %r2 = "stablehlo.all_reduce"(%x2) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>} : (tensor<32768xf16>) -> tensor<32768xf16>
    // f16, 256 KiB
    %r3 = "stablehlo.all_reduce"(%x3) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>} : (tensor<131072xf16>) -> tensor<131072xf16>
    // f16, 512 KiB
    %r4 = "stablehlo.all_reduce"(%x4) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>} : (tensor<262144xf16>) -> tensor<262144xf16>
    // f16, 1 MiB - 16 B
    %r5 = "stablehlo.all_reduce"(%x5) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 6, type = 1>} : (tensor<524280xf16>) -> tensor<524280xf16>
    // f16, 1 MiB
    %r6 = "stablehlo.all_reduce"(%x6) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 7, type = 1>} : (tensor<524288xf16>) -> tensor<524288xf16>
    // f16, 2 MiB - 16 B
    %r7 = "stablehlo.all_reduce"(%x7) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 8, type = 1>} : (tensor<1048568xf16>) -> tensor<1048568xf16>
    // f16, 2 MiB
    %r8 = "stablehlo.all_reduce"(%x8) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 9, type = 1>} : (tensor<1048576xf16>) -> tensor<1048576xf16>
    // f16, 2 MiB + 16 B
    %r9 = "stablehlo.all_reduce"(%x9) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 10, type = 1>} : (tensor<1048584xf16>) -> tensor<1048584xf16>
    // f16, 4 MiB - 16 B
    %r10 = "stablehlo.all_reduce"(%x10) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 11, type = 1>} : (tensor<2097144xf16>) -> tensor<2097144xf16>
    // f16, 4 MiB
    %r11 = "stablehlo.all_reduce"(%x11) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 12, type = 1>} : (tensor<2097152xf16>) -> tensor<2097152xf16>
    // f16, 4 MiB + 16 B
    %r12 = "stablehlo.all_reduce"(%x12) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 13, type = 1>} : (tensor<2097160xf16>) -> tensor<2097160xf16>
    // f16, 8 MiB - 16 B
    %r13 = "stablehlo.all_reduce"(%x13) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 14, type = 1>} : (tensor<4194296xf16>) -> tensor<4194296xf16>
    // f16, 8 MiB
    %r14 = "stablehlo.all_reduce"(%x14) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 15, type = 1>} : (tensor<4194304xf16>) -> tensor<4194304xf16>
    // f16, 8 MiB + 16 B
    %r15 = "stablehlo.all_reduce"(%x15) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 16, type = 1>} : (tensor<4194312xf16>) -> tensor<4194312xf16>
    // f16, 16 MiB - 16 B
    %r16 = "stablehlo.all_reduce"(%x16) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 17, type = 1>} : (tensor<8388600xf16>) -> tensor<8388600xf16>
    // f16, 16 MiB
    %r17 = "stablehlo.all_reduce"(%x17) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 18, type = 1>} : (tensor<8388608xf16>) -> tensor<8388608xf16>
    // f16, 64 MiB
    %r18 = "stablehlo.all_reduce"(%x18) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 19, type = 1>} : (tensor<33554432xf16>) -> tensor<33554432xf16>
    // f16, 256 MiB
    %r19 = "stablehlo.all_reduce"(%x19) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 20, type = 1>} : (tensor<134217728xf16>) -> tensor<134217728xf16>
    // bf16, 16 B
    %r20 = "stablehlo.all_reduce"(%x20) ({
      ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
        "stablehlo.return"(%s) : (tensor<bf16>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 21, type = 1>} : (tensor<8xbf16>) -> tensor<8xbf16>
    // bf16, 256 KiB
    %r21 = "stablehlo.all_reduce"(%x21) ({
      ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
        "stablehlo.return"(%s) : (tensor<bf16>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 22, type = 1>} : (tensor<131072xbf16>) -> tensor<131072xbf16>
    // bf16, 2 MiB - 16 B
    %r22 = "stablehlo.all_reduce"(%x22) ({
      ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
        "stablehlo.return"(%s) : (tensor<bf16>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 23, type = 1>} : (tensor<1048568xbf16>) -> tensor<1048568xbf16>
    // bf16, 2 MiB
    %r23 = "stablehlo.all_reduce"(%x23) ({
      ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
        "stablehlo.return"(%s) : (tensor<bf16>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 24, type = 1>} : (tensor<1048576xbf16>) -> tensor<1048576xbf16>
    // bf16, 8 MiB - 16 B
    %r24 = "stablehlo.all_reduce"(%x24) ({
      ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
        "stablehlo.return"(%s) : (tensor<bf16>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 25, type = 1>} : (tensor<4194296xbf16>) -> tensor<4194296xbf16>
    // bf16, 8 MiB
    %r25 = "stablehlo.all_reduce"(%x25) ({
      ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
        "stablehlo.return"(%s) : (tensor<bf16>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 26, type = 1>} : (tensor<4194304xbf16>) -> tensor<4194304xbf16>
    // bf16, 16 MiB - 16 B
    %r26 = "stablehlo.all_reduce"(%x26) ({
      ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
        "stablehlo.return"(%s) : (tensor<bf16>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 27, type = 1>} : (tensor<8388600xbf16>) -> tensor<8388600xbf16>
    // bf16, 16 MiB
    %r27 = "stablehlo.all_reduce"(%x27) ({
      ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
        "stablehlo.return"(%s) : (tensor<bf16>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 28, type = 1>} : (tensor<8388608xbf16>) -> tensor<8388608xbf16>
    // bf16, 64 MiB - 16 B
    %r28 = "stablehlo.all_reduce"(%x28) ({
      ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
        "stablehlo.return"(%s) : (tensor<bf16>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 29, type = 1>} : (tensor<33554424xbf16>) -> tensor<33554424xbf16>
    // bf16, 64 MiB
    %r29 = "stablehlo.all_reduce"(%x29) ({
      ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
        "stablehlo.return"(%s) : (tensor<bf16>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 30, type = 1>} : (tensor<33554432xbf16>) -> tensor<33554432xbf16>
    // f32, 16 B
    %r30 = "stablehlo.all_reduce"(%x30) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 31, type = 1>} : (tensor<4xf32>) -> tensor<4xf32>
    // f32, 64 KiB
    %r31 = "stablehlo.all_reduce"(%x31) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 32, type = 1>} : (tensor<16384xf32>) -> tensor<16384xf32>
    // f32, 1 MiB
    %r32 = "stablehlo.all_reduce"(%x32) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 33, type = 1>} : (tensor<262144xf32>) -> tensor<262144xf32>
    // f32, 4 MiB
    %r33 = "stablehlo.all_reduce"(%x33) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 34, type = 1>} : (tensor<1048576xf32>) -> tensor<1048576xf32>
    // f32, 64 MiB
    %r34 = "stablehlo.all_reduce"(%x34) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 35, type = 1>} : (tensor<16777216xf32>) -> tensor<16777216xf32>
    "func.return"(%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15, %r16, %r17, %r18, %r19, %r20, %r21, %r22, %r23, %r24, %r25, %r26, %r27, %r28, %r29, %r30, %r31, %r32, %r33, %r34) : (tensor<8xf16>, tensor<2048xf16>, tensor<32768xf16>, tensor<131072xf16>, tensor<262144xf16>, tensor<524280xf16>, tensor<524288xf16>, tensor<1048568xf16>, tensor<1048576xf16>, tensor<1048584xf16>, tensor<2097144xf16>, tensor<2097152xf16>, tensor<2097160xf16>, tensor<4194296xf16>, tensor<4194304xf16>, tensor<4194312xf16>, tensor<8388600xf16>, tensor<8388608xf16>, tensor<33554432xf16>, tensor<134217728xf16>, tensor<8xbf16>, tensor<131072xbf16>, tensor<1048568xbf16>, tensor<1048576xbf16>, tensor<4194296xbf16>, tensor<4194304xbf16>, tensor<8388600xbf16>, tensor<8388608xbf16>, tensor<33554424xbf16>, tensor<33554432xbf16>, tensor<4xf32>, tensor<16384xf32>, tensor<262144xf32>, tensor<1048576xf32>, tensor<16777216xf32>) -> ()
  }
}
