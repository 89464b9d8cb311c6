// All-reduce sums of one group of 8 devices, at sizes on both sides of the built-in
// profiles' thresholds: one-shot maximums (2, 4, 8 MiB), vLLM's QuickReduce minimums
// (1, 2, 4, 8, 16, 64 MiB), and the crossovers where native becomes faster.
module @sizes_w8 attributes {stablehlo.num_replicas = 8 : i64, arc.target = "cuda:pcie-2numa"} {
  func.func @main(%x0: tensor<8xf16>, %x1: tensor<2048xf16>, %x2: tensor<32768xf16>, %x3: tensor<131072xf16>, %x4: tensor<262144xf16>, %x5: tensor<524280xf16>, %x6: tensor<524288xf16>, %x7: tensor<1048568xf16>, %x8: tensor<1048576xf16>, %x9: tensor<1048584xf16>, %x10: tensor<2097144xf16>, %x11: tensor<2097152xf16>, %x12: tensor<2097160xf16>, %x13: tensor<4194296xf16>, %x14: tensor<4194304xf16>, %x15: tensor<4194312xf16>, %x16: tensor<8388600xf16>, %x17: tensor<8388608xf16>, %x18: tensor<33554432xf16>, %x19: tensor<134217728xf16>, %x20: tensor<8xbf16>, %x21: tensor<131072xbf16>, %x22: tensor<1048568xbf16>, %x23: tensor<1048576xbf16>, %x24: tensor<4194296xbf16>, %x25: tensor<4194304xbf16>, %x26: tensor<8388600xbf16>, %x27: tensor<8388608xbf16>, %x28: tensor<33554424xbf16>, %x29: tensor<33554432xbf16>, %x30: tensor<4xf32>, %x31: tensor<16384xf32>, %x32: tensor<262144xf32>, %x33: tensor<1048576xf32>, %x34: tensor<16777216xf32>) -> (tensor<8xf16>, tensor<2048xf16>, tensor<32768xf16>, tensor<131072xf16>, tensor<262144xf16>, tensor<524280xf16>, tensor<524288xf16>, tensor<1048568xf16>, tensor<1048576xf16>, tensor<1048584xf16>, tensor<2097144xf16>, tensor<2097152xf16>, tensor<2097160xf16>, tensor<4194296xf16>, tensor<4194304xf16>, tensor<4194312xf16>, tensor<8388600xf16>, tensor<8388608xf16>, tensor<33554432xf16>, tensor<134217728xf16>, tensor<8xbf16>, tensor<131072xbf16>, tensor<1048568xbf16>, tensor<1048576xbf16>, tensor<4194296xbf16>, tensor<4194304xbf16>, tensor<8388600xbf16>, tensor<8388608xbf16>, tensor<33554424xbf16>, tensor<33554432xbf16>, tensor<4xf32>, tensor<16384xf32>, tensor<262144xf32>, tensor<1048576xf32>, tensor<16777216xf32>) {
    // f16, 16 B
    %r0 = "stablehlo.custom_call"(%x0) {api_version = 4 : i32, arc.est_us = 11.02 : f64, arc.lowering = "oneshot", arc.native_us = 42.0 : f64, arc.reason = "oneshot: est 11.0 us vs native 42.0 us (3.8x)", backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", devices = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, groups = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, link = "peer", world = 8 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<8xf16>) -> tensor<8xf16>
    // f16, 4 KiB
    %r1 = "stablehlo.custom_call"(%x1) {api_version = 4 : i32, arc.est_us = 16.46 : f64, arc.lowering = "oneshot", arc.native_us = 42.7 : f64, arc.reason = "oneshot: est 16.5 us vs native 42.7 us (2.6x)", backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", devices = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, groups = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, link = "peer", world = 8 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<2048xf16>) -> tensor<2048xf16>
    // f16, 64 KiB
    %r2 = "stablehlo.custom_call"(%x2) {api_version = 4 : i32, arc.est_us = 39.85 : f64, arc.lowering = "twoshot", arc.native_us = 53.24 : f64, arc.reason = "twoshot fp: est 39.8 us vs native 53.2 us (1.3x)", backend_config = {algo = "twoshot", cast = 0 : i64, codec = "fp", devices = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, groups = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, link = "peer", world = 8 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<32768xf16>) -> tensor<32768xf16>
    // f16, 256 KiB
    %r3 = "stablehlo.all_reduce"(%x3) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, arc.lowering = "native", arc.reason = "native is faster: 87.0 us vs 105.4 us for arc's best (twoshot fp)", arc.est_us = 86.97 : f64, arc.native_us = 86.97 : f64} : (tensor<131072xf16>) -> tensor<131072xf16>
    // f16, 512 KiB
    %r4 = "stablehlo.all_reduce"(%x4) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, arc.lowering = "native", arc.reason = "native is faster: 131.9 us vs 192.8 us for arc's best (twoshot fp)", arc.est_us = 131.94 : f64, arc.native_us = 131.94 : f64} : (tensor<262144xf16>) -> tensor<262144xf16>
    // f16, 1 MiB - 16 B
    %r5 = "stablehlo.all_reduce"(%x5) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, arc.lowering = "native", arc.reason = "native is faster: 221.9 us vs 367.5 us for arc's best (twoshot fp)", arc.est_us = 221.89 : f64, arc.native_us = 221.89 : f64} : (tensor<524280xf16>) -> tensor<524280xf16>
    // f16, 1 MiB
    %r6 = "stablehlo.all_reduce"(%x6) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, arc.lowering = "native", arc.reason = "native is faster: 221.9 us vs 367.5 us for arc's best (twoshot fp)", arc.est_us = 221.89 : f64, arc.native_us = 221.89 : f64} : (tensor<524288xf16>) -> tensor<524288xf16>
    // f16, 2 MiB - 16 B
    %r7 = "stablehlo.all_reduce"(%x7) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, arc.lowering = "native", arc.reason = "native is faster: 401.8 us vs 717.0 us for arc's best (twoshot fp)", arc.est_us = 401.78 : f64, arc.native_us = 401.78 : f64} : (tensor<1048568xf16>) -> tensor<1048568xf16>
    // f16, 2 MiB
    %r8 = "stablehlo.all_reduce"(%x8) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, arc.lowering = "native", arc.reason = "native is faster: 401.8 us vs 717.1 us for arc's best (twoshot fp)", arc.est_us = 401.78 : f64, arc.native_us = 401.78 : f64} : (tensor<1048576xf16>) -> tensor<1048576xf16>
    // f16, 2 MiB + 16 B
    %r9 = "stablehlo.all_reduce"(%x9) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, arc.lowering = "native", arc.reason = "native is faster: 401.8 us vs 717.1 us for arc's best (twoshot fp)", arc.est_us = 401.78 : f64, arc.native_us = 401.78 : f64} : (tensor<1048584xf16>) -> tensor<1048584xf16>
    // f16, 4 MiB - 16 B
    %r10 = "stablehlo.all_reduce"(%x10) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, arc.lowering = "native", arc.reason = "native is faster: 761.6 us vs 1416.1 us for arc's best (twoshot fp)", arc.est_us = 761.56 : f64, arc.native_us = 761.56 : f64} : (tensor<2097144xf16>) -> tensor<2097144xf16>
    // f16, 4 MiB
    %r11 = "stablehlo.all_reduce"(%x11) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, arc.lowering = "native", arc.reason = "native is faster: 761.6 us vs 1416.1 us for arc's best (twoshot fp)", arc.est_us = 761.56 : f64, arc.native_us = 761.56 : f64} : (tensor<2097152xf16>) -> tensor<2097152xf16>
    // f16, 4 MiB + 16 B
    %r12 = "stablehlo.all_reduce"(%x12) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, arc.lowering = "native", arc.reason = "native is faster: 761.6 us vs 1416.1 us for arc's best (twoshot fp)", arc.est_us = 761.56 : f64, arc.native_us = 761.56 : f64} : (tensor<2097160xf16>) -> tensor<2097160xf16>
    // f16, 8 MiB - 16 B
    %r13 = "stablehlo.all_reduce"(%x13) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, arc.lowering = "native", arc.reason = "native is faster: 1481.1 us vs 2814.2 us for arc's best (twoshot fp)", arc.est_us = 1481.11 : f64, arc.native_us = 1481.11 : f64} : (tensor<4194296xf16>) -> tensor<4194296xf16>
    // f16, 8 MiB
    %r14 = "stablehlo.all_reduce"(%x14) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, arc.lowering = "native", arc.reason = "native is faster: 1481.1 us vs 2814.2 us for arc's best (twoshot fp)", arc.est_us = 1481.12 : f64, arc.native_us = 1481.12 : f64} : (tensor<4194304xf16>) -> tensor<4194304xf16>
    // f16, 8 MiB + 16 B
    %r15 = "stablehlo.all_reduce"(%x15) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, arc.lowering = "native", arc.reason = "native is faster: 1481.1 us vs 2814.2 us for arc's best (twoshot fp)", arc.est_us = 1481.12 : f64, arc.native_us = 1481.12 : f64} : (tensor<4194312xf16>) -> tensor<4194312xf16>
    // f16, 16 MiB - 16 B
    %r16 = "stablehlo.all_reduce"(%x16) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, arc.lowering = "native", arc.reason = "native is faster: 2920.2 us vs 5610.4 us for arc's best (twoshot fp)", arc.est_us = 2920.23 : f64, arc.native_us = 2920.23 : f64} : (tensor<8388600xf16>) -> tensor<8388600xf16>
    // f16, 16 MiB
    %r17 = "stablehlo.all_reduce"(%x17) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, arc.lowering = "native", arc.reason = "native is faster: 2920.2 us vs 5610.4 us for arc's best (twoshot fp)", arc.est_us = 2920.23 : f64, arc.native_us = 2920.23 : f64} : (tensor<8388608xf16>) -> tensor<8388608xf16>
    // f16, 64 MiB
    %r18 = "stablehlo.all_reduce"(%x18) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, arc.lowering = "native", arc.reason = "native is faster: 11554.9 us vs 22387.6 us for arc's best (twoshot fp)", arc.est_us = 11554.93 : f64, arc.native_us = 11554.93 : f64} : (tensor<33554432xf16>) -> tensor<33554432xf16>
    // f16, 256 MiB
    %r19 = "stablehlo.all_reduce"(%x19) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, arc.lowering = "native", arc.reason = "native is faster: 46093.7 us vs 89496.5 us for arc's best (twoshot fp)", arc.est_us = 46093.72 : f64, arc.native_us = 46093.72 : f64} : (tensor<134217728xf16>) -> tensor<134217728xf16>
    // bf16, 16 B
    %r20 = "stablehlo.custom_call"(%x20) {api_version = 4 : i32, arc.est_us = 11.02 : f64, arc.lowering = "oneshot", arc.native_us = 42.0 : f64, arc.reason = "oneshot: est 11.0 us vs native 42.0 us (3.8x)", backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", devices = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, groups = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, link = "peer", world = 8 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<8xbf16>) -> tensor<8xbf16>
    // bf16, 256 KiB
    %r21 = "stablehlo.all_reduce"(%x21) ({
      ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
        "stablehlo.return"(%s) : (tensor<bf16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, arc.lowering = "native", arc.reason = "native is faster: 87.0 us vs 105.4 us for arc's best (twoshot fp)", arc.est_us = 86.97 : f64, arc.native_us = 86.97 : f64} : (tensor<131072xbf16>) -> tensor<131072xbf16>
    // bf16, 2 MiB - 16 B
    %r22 = "stablehlo.all_reduce"(%x22) ({
      ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
        "stablehlo.return"(%s) : (tensor<bf16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, arc.lowering = "native", arc.reason = "native is faster: 401.8 us vs 717.0 us for arc's best (twoshot fp)", arc.est_us = 401.78 : f64, arc.native_us = 401.78 : f64} : (tensor<1048568xbf16>) -> tensor<1048568xbf16>
    // bf16, 2 MiB
    %r23 = "stablehlo.all_reduce"(%x23) ({
      ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
        "stablehlo.return"(%s) : (tensor<bf16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, arc.lowering = "native", arc.reason = "native is faster: 401.8 us vs 717.1 us for arc's best (twoshot fp)", arc.est_us = 401.78 : f64, arc.native_us = 401.78 : f64} : (tensor<1048576xbf16>) -> tensor<1048576xbf16>
    // bf16, 8 MiB - 16 B
    %r24 = "stablehlo.all_reduce"(%x24) ({
      ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
        "stablehlo.return"(%s) : (tensor<bf16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, arc.lowering = "native", arc.reason = "native is faster: 1481.1 us vs 2814.2 us for arc's best (twoshot fp)", arc.est_us = 1481.11 : f64, arc.native_us = 1481.11 : f64} : (tensor<4194296xbf16>) -> tensor<4194296xbf16>
    // bf16, 8 MiB
    %r25 = "stablehlo.all_reduce"(%x25) ({
      ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
        "stablehlo.return"(%s) : (tensor<bf16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, arc.lowering = "native", arc.reason = "native is faster: 1481.1 us vs 2814.2 us for arc's best (twoshot fp)", arc.est_us = 1481.12 : f64, arc.native_us = 1481.12 : f64} : (tensor<4194304xbf16>) -> tensor<4194304xbf16>
    // bf16, 16 MiB - 16 B
    %r26 = "stablehlo.all_reduce"(%x26) ({
      ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
        "stablehlo.return"(%s) : (tensor<bf16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, arc.lowering = "native", arc.reason = "native is faster: 2920.2 us vs 5610.4 us for arc's best (twoshot fp)", arc.est_us = 2920.23 : f64, arc.native_us = 2920.23 : f64} : (tensor<8388600xbf16>) -> tensor<8388600xbf16>
    // bf16, 16 MiB
    %r27 = "stablehlo.all_reduce"(%x27) ({
      ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
        "stablehlo.return"(%s) : (tensor<bf16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, arc.lowering = "native", arc.reason = "native is faster: 2920.2 us vs 5610.4 us for arc's best (twoshot fp)", arc.est_us = 2920.23 : f64, arc.native_us = 2920.23 : f64} : (tensor<8388608xbf16>) -> tensor<8388608xbf16>
    // bf16, 64 MiB - 16 B
    %r28 = "stablehlo.all_reduce"(%x28) ({
      ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
        "stablehlo.return"(%s) : (tensor<bf16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, arc.lowering = "native", arc.reason = "native is faster: 11554.9 us vs 22387.6 us for arc's best (twoshot fp)", arc.est_us = 11554.93 : f64, arc.native_us = 11554.93 : f64} : (tensor<33554424xbf16>) -> tensor<33554424xbf16>
    // bf16, 64 MiB
    %r29 = "stablehlo.all_reduce"(%x29) ({
      ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
        "stablehlo.return"(%s) : (tensor<bf16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, arc.lowering = "native", arc.reason = "native is faster: 11554.9 us vs 22387.6 us for arc's best (twoshot fp)", arc.est_us = 11554.93 : f64, arc.native_us = 11554.93 : f64} : (tensor<33554432xbf16>) -> tensor<33554432xbf16>
    // f32, 16 B
    %r30 = "stablehlo.custom_call"(%x30) {api_version = 4 : i32, arc.est_us = 11.02 : f64, arc.lowering = "oneshot", arc.native_us = 42.0 : f64, arc.reason = "oneshot: est 11.0 us vs native 42.0 us (3.8x)", backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", devices = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, groups = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, link = "peer", world = 8 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<4xf32>) -> tensor<4xf32>
    // f32, 64 KiB
    %r31 = "stablehlo.custom_call"(%x31) {api_version = 4 : i32, arc.est_us = 27.93 : f64, arc.lowering = "twoshot", arc.native_us = 53.24 : f64, arc.reason = "twoshot fp (hier): est 27.9 us vs native 53.2 us (1.9x)", backend_config = {algo = "hier", cast = 0 : i64, codec = "fp", devices = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, groups = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, link = "peer", world = 8 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<16384xf32>) -> tensor<16384xf32>
    // f32, 1 MiB
    %r32 = "stablehlo.custom_call"(%x32) {api_version = 4 : i32, arc.est_us = 176.88 : f64, arc.lowering = "twoshot", arc.native_us = 221.89 : f64, arc.reason = "twoshot fp (hier): est 176.9 us vs native 221.9 us (1.3x)", backend_config = {algo = "hier", cast = 0 : i64, codec = "fp", devices = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, groups = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, link = "peer", world = 8 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<262144xf32>) -> tensor<262144xf32>
    // f32, 4 MiB
    %r33 = "stablehlo.custom_call"(%x33) {api_version = 4 : i32, arc.est_us = 653.5 : f64, arc.lowering = "twoshot", arc.native_us = 761.56 : f64, arc.reason = "twoshot fp (hier): est 653.5 us vs native 761.6 us (1.2x)", backend_config = {algo = "hier", cast = 0 : i64, codec = "fp", devices = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, groups = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, link = "peer", world = 8 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<1048576xf32>) -> tensor<1048576xf32>
    // f32, 64 MiB
    %r34 = "stablehlo.custom_call"(%x34) {api_version = 4 : i32, arc.est_us = 10186.01 : f64, arc.lowering = "twoshot", arc.native_us = 11554.93 : f64, arc.reason = "twoshot fp (hier): est 10186.0 us vs native 11554.9 us (1.1x)", backend_config = {algo = "hier", cast = 0 : i64, codec = "fp", devices = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, groups = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, link = "peer", world = 8 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<16777216xf32>) -> tensor<16777216xf32>
    "func.return"(%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15, %r16, %r17, %r18, %r19, %r20, %r21, %r22, %r23, %r24, %r25, %r26, %r27, %r28, %r29, %r30, %r31, %r32, %r33, %r34) : (tensor<8xf16>, tensor<2048xf16>, tensor<32768xf16>, tensor<131072xf16>, tensor<262144xf16>, tensor<524280xf16>, tensor<524288xf16>, tensor<1048568xf16>, tensor<1048576xf16>, tensor<1048584xf16>, tensor<2097144xf16>, tensor<2097152xf16>, tensor<2097160xf16>, tensor<4194296xf16>, tensor<4194304xf16>, tensor<4194312xf16>, tensor<8388600xf16>, tensor<8388608xf16>, tensor<33554432xf16>, tensor<134217728xf16>, tensor<8xbf16>, tensor<131072xbf16>, tensor<1048568xbf16>, tensor<1048576xbf16>, tensor<4194296xbf16>, tensor<4194304xbf16>, tensor<8388600xbf16>, tensor<8388608xbf16>, tensor<33554424xbf16>, tensor<33554432xbf16>, tensor<4xf32>, tensor<16384xf32>, tensor<262144xf32>, tensor<1048576xf32>, tensor<16777216xf32>) -> ()
  }
}
