// All-reduce sums of one group of 6 devices, at sizes on both sides of the built-in
// profiles' thresholds: one-shot maximums (2, 4, 8 MiB), vLLM's QuickReduce minimums
// (1, 2, 4, 8, 16, 64 MiB), and the crossovers where native becomes faster.
module @sizes_w6 attributes {stablehlo.num_replicas = 6 : i64, arc.target = "cuda:pcie"} {
  func.func @main(%x0: tensor<8xf16>, %x1: tensor<2048xf16>, %x2: tensor<32768xf16>, %x3: tensor<131072xf16>, %x4: tensor<262144xf16>, %x5: tensor<524280xf16>, %x6: tensor<524288xf16>, %x7: tensor<1048568xf16>, %x8: tensor<1048576xf16>, %x9: tensor<1048584xf16>, %x10: tensor<2097144xf16>, %x11: tensor<2097152xf16>, %x12: tensor<2097160xf16>, %x13: tensor<4194296xf16>, %x14: tensor<4194304xf16>, %x15: tensor<4194312xf16>, %x16: tensor<8388600xf16>, %x17: tensor<8388608xf16>, %x18: tensor<4xf32>, %x19: tensor<262144xf32>) -> (tensor<8xf16>, tensor<2048xf16>, tensor<32768xf16>, tensor<131072xf16>, tensor<262144xf16>, tensor<524280xf16>, tensor<524288xf16>, tensor<1048568xf16>, tensor<1048576xf16>, tensor<1048584xf16>, tensor<2097144xf16>, tensor<2097152xf16>, tensor<2097160xf16>, tensor<4194296xf16>, tensor<4194304xf16>, tensor<4194312xf16>, tensor<8388600xf16>, tensor<8388608xf16>, tensor<4xf32>, tensor<262144xf32>) {
    // f16, 16 B
    %r0 = "stablehlo.custom_call"(%x0) {api_version = 4 : i32, arc.est_us = 10.0 : f64, arc.lowering = "oneshot", arc.native_us = 33.0 : f64, arc.reason = "oneshot: est 10.0 us vs native 33.0 us (3.3x)", backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", devices = array<i64: 0, 1, 2, 3, 4, 5>, groups = array<i64: 0, 1, 2, 3, 4, 5>, link = "peer", world = 6 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<8xf16>) -> tensor<8xf16>
    // f16, 4 KiB
    %r1 = "stablehlo.custom_call"(%x1) {api_version = 4 : i32, arc.est_us = 10.79 : f64, arc.lowering = "oneshot", arc.native_us = 33.31 : f64, arc.reason = "oneshot: est 10.8 us vs native 33.3 us (3.1x)", backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", devices = array<i64: 0, 1, 2, 3, 4, 5>, groups = array<i64: 0, 1, 2, 3, 4, 5>, link = "peer", world = 6 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<2048xf16>) -> tensor<2048xf16>
    // f16, 64 KiB
    %r2 = "stablehlo.custom_call"(%x2) {api_version = 4 : i32, arc.est_us = 22.6 : f64, arc.lowering = "oneshot", arc.native_us = 37.94 : f64, arc.reason = "oneshot: est 22.6 us vs native 37.9 us (1.7x)", backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", devices = array<i64: 0, 1, 2, 3, 4, 5>, groups = array<i64: 0, 1, 2, 3, 4, 5>, link = "peer", world = 6 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<32768xf16>) -> tensor<32768xf16>
    // f16, 256 KiB
    %r3 = "stablehlo.all_reduce"(%x3) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5]]> : tensor<1x6xi64>, arc.lowering = "native", arc.reason = "native is faster: 52.8 us vs 60.4 us for arc's best (oneshot)", arc.est_us = 52.77 : f64, arc.native_us = 52.77 : f64} : (tensor<131072xf16>) -> tensor<131072xf16>
    // f16, 512 KiB
    %r4 = "stablehlo.all_reduce"(%x4) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5]]> : tensor<1x6xi64>, arc.lowering = "native", arc.reason = "native is faster: 72.5 us vs 110.8 us for arc's best (oneshot)", arc.est_us = 72.54 : f64, arc.native_us = 72.54 : f64} : (tensor<262144xf16>) -> tensor<262144xf16>
    // f16, 1 MiB - 16 B
    %r5 = "stablehlo.all_reduce"(%x5) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5]]> : tensor<1x6xi64>, arc.lowering = "native", arc.reason = "native is faster: 112.1 us vs 211.6 us for arc's best (oneshot)", arc.est_us = 112.08 : f64, arc.native_us = 112.08 : f64} : (tensor<524280xf16>) -> tensor<524280xf16>
    // f16, 1 MiB
    %r6 = "stablehlo.all_reduce"(%x6) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5]]> : tensor<1x6xi64>, arc.lowering = "native", arc.reason = "native is faster: 112.1 us vs 211.6 us for arc's best (oneshot)", arc.est_us = 112.08 : f64, arc.native_us = 112.08 : f64} : (tensor<524288xf16>) -> tensor<524288xf16>
    // f16, 2 MiB - 16 B
    %r7 = "stablehlo.all_reduce"(%x7) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5]]> : tensor<1x6xi64>, arc.lowering = "native", arc.reason = "native is faster: 191.2 us vs 413.3 us for arc's best (oneshot)", arc.est_us = 191.16 : f64, arc.native_us = 191.16 : f64} : (tensor<1048568xf16>) -> tensor<1048568xf16>
    // f16, 2 MiB
    %r8 = "stablehlo.all_reduce"(%x8) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5]]> : tensor<1x6xi64>, arc.lowering = "native", arc.reason = "native is faster: 191.2 us vs 413.3 us for arc's best (oneshot)", arc.est_us = 191.16 : f64, arc.native_us = 191.16 : f64} : (tensor<1048576xf16>) -> tensor<1048576xf16>
    // f16, 2 MiB + 16 B
    %r9 = "stablehlo.all_reduce"(%x9) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5]]> : tensor<1x6xi64>, arc.lowering = "native", arc.reason = "native is faster: 191.2 us vs 413.3 us for arc's best (oneshot)", arc.est_us = 191.16 : f64, arc.native_us = 191.16 : f64} : (tensor<1048584xf16>) -> tensor<1048584xf16>
    // f16, 4 MiB - 16 B
    %r10 = "stablehlo.all_reduce"(%x10) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5]]> : tensor<1x6xi64>, arc.lowering = "native", arc.reason = "native is faster: 349.3 us vs 816.6 us for arc's best (oneshot)", arc.est_us = 349.31 : f64, arc.native_us = 349.31 : f64} : (tensor<2097144xf16>) -> tensor<2097144xf16>
    // f16, 4 MiB
    %r11 = "stablehlo.all_reduce"(%x11) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5]]> : tensor<1x6xi64>, arc.lowering = "native", arc.reason = "native is faster: 349.3 us vs 816.6 us for arc's best (oneshot)", arc.est_us = 349.31 : f64, arc.native_us = 349.31 : f64} : (tensor<2097152xf16>) -> tensor<2097152xf16>
    // f16, 4 MiB + 16 B
    %r12 = "stablehlo.all_reduce"(%x12) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5]]> : tensor<1x6xi64>, arc.lowering = "native", arc.reason = "no arc kernel fits this size: oneshot needs 0 to 4 MiB", arc.est_us = 349.31 : f64, arc.native_us = 349.31 : f64} : (tensor<2097160xf16>) -> tensor<2097160xf16>
    // f16, 8 MiB - 16 B
    %r13 = "stablehlo.all_reduce"(%x13) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5]]> : tensor<1x6xi64>, arc.lowering = "native", arc.reason = "no arc kernel fits this size: oneshot needs 0 to 4 MiB", arc.est_us = 665.62 : f64, arc.native_us = 665.62 : f64} : (tensor<4194296xf16>) -> tensor<4194296xf16>
    // f16, 8 MiB
    %r14 = "stablehlo.all_reduce"(%x14) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5]]> : tensor<1x6xi64>, arc.lowering = "native", arc.reason = "no arc kernel fits this size: oneshot needs 0 to 4 MiB", arc.est_us = 665.63 : f64, arc.native_us = 665.63 : f64} : (tensor<4194304xf16>) -> tensor<4194304xf16>
    // f16, 8 MiB + 16 B
    %r15 = "stablehlo.all_reduce"(%x15) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5]]> : tensor<1x6xi64>, arc.lowering = "native", arc.reason = "no arc kernel fits this size: oneshot needs 0 to 4 MiB", arc.est_us = 665.63 : f64, arc.native_us = 665.63 : f64} : (tensor<4194312xf16>) -> tensor<4194312xf16>
    // f16, 16 MiB - 16 B
    %r16 = "stablehlo.all_reduce"(%x16) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5]]> : tensor<1x6xi64>, arc.lowering = "native", arc.reason = "no arc kernel fits this size: oneshot needs 0 to 4 MiB", arc.est_us = 1298.25 : f64, arc.native_us = 1298.25 : f64} : (tensor<8388600xf16>) -> tensor<8388600xf16>
    // f16, 16 MiB
    %r17 = "stablehlo.all_reduce"(%x17) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5]]> : tensor<1x6xi64>, arc.lowering = "native", arc.reason = "no arc kernel fits this size: oneshot needs 0 to 4 MiB", arc.est_us = 1298.25 : f64, arc.native_us = 1298.25 : f64} : (tensor<8388608xf16>) -> tensor<8388608xf16>
    // f32, 16 B
    %r18 = "stablehlo.custom_call"(%x18) {api_version = 4 : i32, arc.est_us = 10.0 : f64, arc.lowering = "oneshot", arc.native_us = 33.0 : f64, arc.reason = "oneshot: est 10.0 us vs native 33.0 us (3.3x)", backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", devices = array<i64: 0, 1, 2, 3, 4, 5>, groups = array<i64: 0, 1, 2, 3, 4, 5>, link = "peer", world = 6 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<4xf32>) -> tensor<4xf32>
    // f32, 1 MiB
    %r19 = "stablehlo.all_reduce"(%x19) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5]]> : tensor<1x6xi64>, arc.lowering = "native", arc.reason = "native is faster: 112.1 us vs 211.6 us for arc's best (oneshot)", arc.est_us = 112.08 : f64, arc.native_us = 112.08 : f64} : (tensor<262144xf32>) -> tensor<262144xf32>
    "func.return"(%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15, %r16, %r17, %r18, %r19) : (tensor<8xf16>, tensor<2048xf16>, tensor<32768xf16>, tensor<131072xf16>, tensor<262144xf16>, tensor<524280xf16>, tensor<524288xf16>, tensor<1048568xf16>, tensor<1048576xf16>, tensor<1048584xf16>, tensor<2097144xf16>, tensor<2097152xf16>, tensor<2097160xf16>, tensor<4194296xf16>, tensor<4194304xf16>, tensor<4194312xf16>, tensor<8388600xf16>, tensor<8388608xf16>, tensor<4xf32>, tensor<262144xf32>) -> ()
  }
}
