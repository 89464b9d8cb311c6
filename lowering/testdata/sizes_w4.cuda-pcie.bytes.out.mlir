// All-reduce sums of one group of 4 devices, at sizes on both sides of the built-in
// profiles' thresholds: one-shot maximums (2, 4, 8 MiB), vLLM's QuickReduce minimums
// (1, 2, 4, 8, 16, 64 MiB), and the crossovers where native becomes faster.
module @sizes_w4 attributes {stablehlo.num_replicas = 4 : i64, arc.target = "cuda:pcie"} {
  func.func @main(%x0: tensor<8xf16>, %x1: tensor<2048xf16>, %x2: tensor<32768xf16>, %x3: tensor<131072xf16>, %x4: tensor<262144xf16>, %x5: tensor<524280xf16>, %x6: tensor<524288xf16>, %x7: tensor<1048568xf16>, %x8: tensor<1048576xf16>, %x9: tensor<1048584xf16>, %x10: tensor<2097144xf16>, %x11: tensor<2097152xf16>, %x12: tensor<2097160xf16>, %x13: tensor<4194296xf16>, %x14: tensor<4194304xf16>, %x15: tensor<4194312xf16>, %x16: tensor<8388600xf16>, %x17: tensor<8388608xf16>, %x18: tensor<33554432xf16>, %x19: tensor<134217728xf16>, %x20: tensor<8xbf16>, %x21: tensor<131072xbf16>, %x22: tensor<1048568xbf16>, %x23: tensor<1048576xbf16>, %x24: tensor<4194296xbf16>, %x25: tensor<4194304xbf16>, %x26: tensor<8388600xbf16>, %x27: tensor<8388608xbf16>, %x28: tensor<33554424xbf16>, %x29: tensor<33554432xbf16>, %x30: tensor<4xf32>, %x31: tensor<16384xf32>, %x32: tensor<262144xf32>, %x33: tensor<1048576xf32>, %x34: tensor<16777216xf32>) -> (tensor<8xf16>, tensor<2048xf16>, tensor<32768xf16>, tensor<131072xf16>, tensor<262144xf16>, tensor<524280xf16>, tensor<524288xf16>, tensor<1048568xf16>, tensor<1048576xf16>, tensor<1048584xf16>, tensor<2097144xf16>, tensor<2097152xf16>, tensor<2097160xf16>, tensor<4194296xf16>, tensor<4194304xf16>, tensor<4194312xf16>, tensor<8388600xf16>, tensor<8388608xf16>, tensor<33554432xf16>, tensor<134217728xf16>, tensor<8xbf16>, tensor<131072xbf16>, tensor<1048568xbf16>, tensor<1048576xbf16>, tensor<4194296xbf16>, tensor<4194304xbf16>, tensor<8388600xbf16>, tensor<8388608xbf16>, tensor<33554424xbf16>, tensor<33554432xbf16>, tensor<4xf32>, tensor<16384xf32>, tensor<262144xf32>, tensor<1048576xf32>, tensor<16777216xf32>) {
    // f16, 16 B
    %r0 = "stablehlo.all_reduce"(%x0) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, arc.lowering = "native", arc.reason = "below --min-bytes 65536"} : (tensor<8xf16>) -> tensor<8xf16>
    // f16, 4 KiB
    %r1 = "stablehlo.all_reduce"(%x1) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, arc.lowering = "native", arc.reason = "below --min-bytes 65536"} : (tensor<2048xf16>) -> tensor<2048xf16>
    // f16, 64 KiB
    %r2 = "stablehlo.custom_call"(%x2) {api_version = 4 : i32, arc.est_us = 16.56 : f64, arc.lowering = "oneshot", arc.native_us = 33.45 : f64, arc.reason = "oneshot: est 16.6 us vs native 33.4 us (2.0x)", backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", devices = array<i64: 0, 1, 2, 3>, groups = array<i64: 0, 1, 2, 3>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<32768xf16>) -> tensor<32768xf16>
    // f16, 256 KiB
    %r3 = "stablehlo.custom_call"(%x3) {api_version = 4 : i32, arc.est_us = 29.12 : f64, arc.lowering = "twoshot", arc.native_us = 46.79 : f64, arc.reason = "twoshot fp: est 29.1 us vs native 46.8 us (1.6x)", backend_config = {algo = "twoshot", cast = 0 : i64, codec = "fp", devices = array<i64: 0, 1, 2, 3>, groups = array<i64: 0, 1, 2, 3>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<131072xf16>) -> tensor<131072xf16>
    // f16, 512 KiB
    %r4 = "stablehlo.custom_call"(%x4) {api_version = 4 : i32, arc.est_us = 44.25 : f64, arc.lowering = "twoshot", arc.native_us = 64.59 : f64, arc.reason = "twoshot fp: est 44.2 us vs native 64.6 us (1.5x)", backend_config = {algo = "twoshot", cast = 0 : i64, codec = "fp", devices = array<i64: 0, 1, 2, 3>, groups = array<i64: 0, 1, 2, 3>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<262144xf16>) -> tensor<262144xf16>
    // f16, 1 MiB - 16 B
    %r5 = "stablehlo.custom_call"(%x5) {api_version = 4 : i32, arc.est_us = 74.5 : f64, arc.lowering = "twoshot", arc.native_us = 100.17 : f64, arc.reason = "twoshot fp: est 74.5 us vs native 100.2 us (1.3x)", backend_config = {algo = "twoshot", cast = 0 : i64, codec = "fp", devices = array<i64: 0, 1, 2, 3>, groups = array<i64: 0, 1, 2, 3>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<524280xf16>) -> tensor<524280xf16>
    // f16, 1 MiB
    %r6 = "stablehlo.custom_call"(%x6) {api_version = 4 : i32, arc.est_us = 74.5 : f64, arc.lowering = "twoshot", arc.native_us = 100.17 : f64, arc.reason = "twoshot fp: est 74.5 us vs native 100.2 us (1.3x)", backend_config = {algo = "twoshot", cast = 0 : i64, codec = "fp", devices = array<i64: 0, 1, 2, 3>, groups = array<i64: 0, 1, 2, 3>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<524288xf16>) -> tensor<524288xf16>
    // f16, 2 MiB - 16 B
    %r7 = "stablehlo.custom_call"(%x7) {api_version = 4 : i32, arc.est_us = 134.99 : f64, arc.lowering = "twoshot", arc.native_us = 171.34 : f64, arc.reason = "twoshot fp: est 135.0 us vs native 171.3 us (1.3x)", backend_config = {algo = "twoshot", cast = 0 : i64, codec = "fp", devices = array<i64: 0, 1, 2, 3>, groups = array<i64: 0, 1, 2, 3>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<1048568xf16>) -> tensor<1048568xf16>
    // f16, 2 MiB
    %r8 = "stablehlo.custom_call"(%x8) {api_version = 4 : i32, arc.est_us = 134.99 : f64, arc.lowering = "twoshot", arc.native_us = 171.34 : f64, arc.reason = "twoshot fp: est 135.0 us vs native 171.3 us (1.3x)", backend_config = {algo = "twoshot", cast = 0 : i64, codec = "fp", devices = array<i64: 0, 1, 2, 3>, groups = array<i64: 0, 1, 2, 3>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<1048576xf16>) -> tensor<1048576xf16>
    // f16, 2 MiB + 16 B
    %r9 = "stablehlo.custom_call"(%x9) {api_version = 4 : i32, arc.est_us = 134.99 : f64, arc.lowering = "twoshot", arc.native_us = 171.34 : f64, arc.reason = "twoshot fp: est 135.0 us vs native 171.3 us (1.3x)", backend_config = {algo = "twoshot", cast = 0 : i64, codec = "fp", devices = array<i64: 0, 1, 2, 3>, groups = array<i64: 0, 1, 2, 3>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<1048584xf16>) -> tensor<1048584xf16>
    // f16, 4 MiB - 16 B
    %r10 = "stablehlo.custom_call"(%x10) {api_version = 4 : i32, arc.est_us = 255.98 : f64, arc.lowering = "twoshot", arc.native_us = 313.69 : f64, arc.reason = "twoshot fp: est 256.0 us vs native 313.7 us (1.2x)", backend_config = {algo = "twoshot", cast = 0 : i64, codec = "fp", devices = array<i64: 0, 1, 2, 3>, groups = array<i64: 0, 1, 2, 3>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<2097144xf16>) -> tensor<2097144xf16>
    // f16, 4 MiB
    %r11 = "stablehlo.custom_call"(%x11) {api_version = 4 : i32, arc.est_us = 255.98 : f64, arc.lowering = "twoshot", arc.native_us = 313.69 : f64, arc.reason = "twoshot fp: est 256.0 us vs native 313.7 us (1.2x)", backend_config = {algo = "twoshot", cast = 0 : i64, codec = "fp", devices = array<i64: 0, 1, 2, 3>, groups = array<i64: 0, 1, 2, 3>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<2097152xf16>) -> tensor<2097152xf16>
    // f16, 4 MiB + 16 B
    %r12 = "stablehlo.custom_call"(%x12) {api_version = 4 : i32, arc.est_us = 255.98 : f64, arc.lowering = "twoshot", arc.native_us = 313.69 : f64, arc.reason = "twoshot fp: est 256.0 us vs native 313.7 us (1.2x)", backend_config = {algo = "twoshot", cast = 0 : i64, codec = "fp", devices = array<i64: 0, 1, 2, 3>, groups = array<i64: 0, 1, 2, 3>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<2097160xf16>) -> tensor<2097160xf16>
    // f16, 8 MiB - 16 B
    %r13 = "stablehlo.custom_call"(%x13) {api_version = 4 : i32, arc.est_us = 497.97 : f64, arc.lowering = "twoshot", arc.native_us = 598.37 : f64, arc.reason = "twoshot fp: est 498.0 us vs native 598.4 us (1.2x)", backend_config = {algo = "twoshot", cast = 0 : i64, codec = "fp", devices = array<i64: 0, 1, 2, 3>, groups = array<i64: 0, 1, 2, 3>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<4194296xf16>) -> tensor<4194296xf16>
    // f16, 8 MiB
    %r14 = "stablehlo.custom_call"(%x14) {api_version = 4 : i32, arc.est_us = 497.97 : f64, arc.lowering = "twoshot", arc.native_us = 598.38 : f64, arc.reason = "twoshot fp: est 498.0 us vs native 598.4 us (1.2x)", backend_config = {algo = "twoshot", cast = 0 : i64, codec = "fp", devices = array<i64: 0, 1, 2, 3>, groups = array<i64: 0, 1, 2, 3>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<4194304xf16>) -> tensor<4194304xf16>
    // f16, 8 MiB + 16 B
    %r15 = "stablehlo.custom_call"(%x15) {api_version = 4 : i32, arc.est_us = 497.97 : f64, arc.lowering = "twoshot", arc.native_us = 598.38 : f64, arc.reason = "twoshot fp: est 498.0 us vs native 598.4 us (1.2x)", backend_config = {algo = "twoshot", cast = 0 : i64, codec = "fp", devices = array<i64: 0, 1, 2, 3>, groups = array<i64: 0, 1, 2, 3>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<4194312xf16>) -> tensor<4194312xf16>
    // f16, 16 MiB - 16 B
    %r16 = "stablehlo.custom_call"(%x16) {api_version = 4 : i32, arc.est_us = 981.93 : f64, arc.lowering = "twoshot", arc.native_us = 1167.75 : f64, arc.reason = "twoshot fp: est 981.9 us vs native 1167.7 us (1.2x)", backend_config = {algo = "twoshot", cast = 0 : i64, codec = "fp", devices = array<i64: 0, 1, 2, 3>, groups = array<i64: 0, 1, 2, 3>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<8388600xf16>) -> tensor<8388600xf16>
    // f16, 16 MiB
    %r17 = "stablehlo.custom_call"(%x17) {api_version = 4 : i32, arc.est_us = 981.93 : f64, arc.lowering = "twoshot", arc.native_us = 1167.75 : f64, arc.reason = "twoshot fp: est 981.9 us vs native 1167.8 us (1.2x)", backend_config = {algo = "twoshot", cast = 0 : i64, codec = "fp", devices = array<i64: 0, 1, 2, 3>, groups = array<i64: 0, 1, 2, 3>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<8388608xf16>) -> tensor<8388608xf16>
    // f16, 64 MiB
    %r18 = "stablehlo.all_reduce"(%x18) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, arc.lowering = "native", arc.reason = "above --max-bytes 16777216"} : (tensor<33554432xf16>) -> tensor<33554432xf16>
    // f16, 256 MiB
    %r19 = "stablehlo.all_reduce"(%x19) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, arc.lowering = "native", arc.reason = "above --max-bytes 16777216"} : (tensor<134217728xf16>) -> tensor<134217728xf16>
    // bf16, 16 B
    %r20 = "stablehlo.all_reduce"(%x20) ({
      ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
        "stablehlo.return"(%s) : (tensor<bf16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, arc.lowering = "native", arc.reason = "below --min-bytes 65536"} : (tensor<8xbf16>) -> tensor<8xbf16>
    // bf16, 256 KiB
    %r21 = "stablehlo.custom_call"(%x21) {api_version = 4 : i32, arc.est_us = 29.12 : f64, arc.lowering = "twoshot", arc.native_us = 46.79 : f64, arc.reason = "twoshot fp: est 29.1 us vs native 46.8 us (1.6x)", backend_config = {algo = "twoshot", cast = 0 : i64, codec = "fp", devices = array<i64: 0, 1, 2, 3>, groups = array<i64: 0, 1, 2, 3>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<131072xbf16>) -> tensor<131072xbf16>
    // bf16, 2 MiB - 16 B
    %r22 = "stablehlo.custom_call"(%x22) {api_version = 4 : i32, arc.est_us = 134.99 : f64, arc.lowering = "twoshot", arc.native_us = 171.34 : f64, arc.reason = "twoshot fp: est 135.0 us vs native 171.3 us (1.3x)", backend_config = {algo = "twoshot", cast = 0 : i64, codec = "fp", devices = array<i64: 0, 1, 2, 3>, groups = array<i64: 0, 1, 2, 3>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<1048568xbf16>) -> tensor<1048568xbf16>
    // bf16, 2 MiB
    %r23 = "stablehlo.custom_call"(%x23) {api_version = 4 : i32, arc.est_us = 134.99 : f64, arc.lowering = "twoshot", arc.native_us = 171.34 : f64, arc.reason = "twoshot fp: est 135.0 us vs native 171.3 us (1.3x)", backend_config = {algo = "twoshot", cast = 0 : i64, codec = "fp", devices = array<i64: 0, 1, 2, 3>, groups = array<i64: 0, 1, 2, 3>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<1048576xbf16>) -> tensor<1048576xbf16>
    // bf16, 8 MiB - 16 B
    %r24 = "stablehlo.custom_call"(%x24) {api_version = 4 : i32, arc.est_us = 497.97 : f64, arc.lowering = "twoshot", arc.native_us = 598.37 : f64, arc.reason = "twoshot fp: est 498.0 us vs native 598.4 us (1.2x)", backend_config = {algo = "twoshot", cast = 0 : i64, codec = "fp", devices = array<i64: 0, 1, 2, 3>, groups = array<i64: 0, 1, 2, 3>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<4194296xbf16>) -> tensor<4194296xbf16>
    // bf16, 8 MiB
    %r25 = "stablehlo.custom_call"(%x25) {api_version = 4 : i32, arc.est_us = 497.97 : f64, arc.lowering = "twoshot", arc.native_us = 598.38 : f64, arc.reason = "twoshot fp: est 498.0 us vs native 598.4 us (1.2x)", backend_config = {algo = "twoshot", cast = 0 : i64, codec = "fp", devices = array<i64: 0, 1, 2, 3>, groups = array<i64: 0, 1, 2, 3>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<4194304xbf16>) -> tensor<4194304xbf16>
    // bf16, 16 MiB - 16 B
    %r26 = "stablehlo.custom_call"(%x26) {api_version = 4 : i32, arc.est_us = 981.93 : f64, arc.lowering = "twoshot", arc.native_us = 1167.75 : f64, arc.reason = "twoshot fp: est 981.9 us vs native 1167.7 us (1.2x)", backend_config = {algo = "twoshot", cast = 0 : i64, codec = "fp", devices = array<i64: 0, 1, 2, 3>, groups = array<i64: 0, 1, 2, 3>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<8388600xbf16>) -> tensor<8388600xbf16>
    // bf16, 16 MiB
    %r27 = "stablehlo.custom_call"(%x27) {api_version = 4 : i32, arc.est_us = 981.93 : f64, arc.lowering = "twoshot", arc.native_us = 1167.75 : f64, arc.reason = "twoshot fp: est 981.9 us vs native 1167.8 us (1.2x)", backend_config = {algo = "twoshot", cast = 0 : i64, codec = "fp", devices = array<i64: 0, 1, 2, 3>, groups = array<i64: 0, 1, 2, 3>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<8388608xbf16>) -> tensor<8388608xbf16>
    // bf16, 64 MiB - 16 B
    %r28 = "stablehlo.all_reduce"(%x28) ({
      ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
        "stablehlo.return"(%s) : (tensor<bf16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, arc.lowering = "native", arc.reason = "above --max-bytes 16777216"} : (tensor<33554424xbf16>) -> tensor<33554424xbf16>
    // bf16, 64 MiB
    %r29 = "stablehlo.all_reduce"(%x29) ({
      ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
        %s = "stablehlo.add"(%a, %b) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
        "stablehlo.return"(%s) : (tensor<bf16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, arc.lowering = "native", arc.reason = "above --max-bytes 16777216"} : (tensor<33554432xbf16>) -> tensor<33554432xbf16>
    // f32, 16 B
    %r30 = "stablehlo.all_reduce"(%x30) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, arc.lowering = "native", arc.reason = "below --min-bytes 65536"} : (tensor<4xf32>) -> tensor<4xf32>
    // f32, 64 KiB
    %r31 = "stablehlo.custom_call"(%x31) {api_version = 4 : i32, arc.est_us = 16.56 : f64, arc.lowering = "oneshot", arc.native_us = 33.45 : f64, arc.reason = "oneshot: est 16.6 us vs native 33.4 us (2.0x)", backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", devices = array<i64: 0, 1, 2, 3>, groups = array<i64: 0, 1, 2, 3>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<16384xf32>) -> tensor<16384xf32>
    // f32, 1 MiB
    %r32 = "stablehlo.custom_call"(%x32) {api_version = 4 : i32, arc.est_us = 74.5 : f64, arc.lowering = "twoshot", arc.native_us = 100.17 : f64, arc.reason = "twoshot fp: est 74.5 us vs native 100.2 us (1.3x)", backend_config = {algo = "twoshot", cast = 0 : i64, codec = "fp", devices = array<i64: 0, 1, 2, 3>, groups = array<i64: 0, 1, 2, 3>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<262144xf32>) -> tensor<262144xf32>
    // f32, 4 MiB
    %r33 = "stablehlo.custom_call"(%x33) {api_version = 4 : i32, arc.est_us = 255.98 : f64, arc.lowering = "twoshot", arc.native_us = 313.69 : f64, arc.reason = "twoshot fp: est 256.0 us vs native 313.7 us (1.2x)", backend_config = {algo = "twoshot", cast = 0 : i64, codec = "fp", devices = array<i64: 0, 1, 2, 3>, groups = array<i64: 0, 1, 2, 3>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<1048576xf32>) -> tensor<1048576xf32>
    // f32, 64 MiB
    %r34 = "stablehlo.all_reduce"(%x34) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, arc.lowering = "native", arc.reason = "above --max-bytes 16777216"} : (tensor<16777216xf32>) -> tensor<16777216xf32>
    "func.return"(%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15, %r16, %r17, %r18, %r19, %r20, %r21, %r22, %r23, %r24, %r25, %r26, %r27, %r28, %r29, %r30, %r31, %r32, %r33, %r34) : (tensor<8xf16>, tensor<2048xf16>, tensor<32768xf16>, tensor<131072xf16>, tensor<262144xf16>, tensor<524280xf16>, tensor<524288xf16>, tensor<1048568xf16>, tensor<1048576xf16>, tensor<1048584xf16>, tensor<2097144xf16>, tensor<2097152xf16>, tensor<2097160xf16>, tensor<4194296xf16>, tensor<4194304xf16>, tensor<4194312xf16>, tensor<8388600xf16>, tensor<8388608xf16>, tensor<33554432xf16>, tensor<134217728xf16>, tensor<8xbf16>, tensor<131072xbf16>, tensor<1048568xbf16>, tensor<1048576xbf16>, tensor<4194296xbf16>, tensor<4194304xbf16>, tensor<8388600xbf16>, tensor<8388608xbf16>, tensor<33554424xbf16>, tensor<33554432xbf16>, tensor<4xf32>, tensor<16384xf32>, tensor<262144xf32>, tensor<1048576xf32>, tensor<16777216xf32>) -> ()
  }
}
