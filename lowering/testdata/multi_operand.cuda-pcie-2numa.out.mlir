// Multi-operand all-reduces on two groups of four: results named one by one
// (go-xla's "%0, %1 = ...") and packed ("%2:3", used as "%2#k"), with operands
// that arc lowers next to operands that stay native in the same op.
module @multi_operand attributes {stablehlo.num_replicas = 8 : i64, arc.target = "cuda:pcie-2numa"} {
  func.func @main(%a: tensor<64x128xf16>, %b: tensor<1024x1024xf16>, %c: tensor<4096xbf16>, %d: tensor<3xbf16>, %e: tensor<256xf32>, %f: tensor<0xf32>, %g: tensor<2048x1024xf32>, %h: tensor<0xf32>) -> (tensor<64x128xf16>, tensor<1024x1024xf16>, tensor<4096xbf16>, tensor<3xbf16>, tensor<256xf32>, tensor<2048x1024xf32>, tensor<0xf32>, tensor<0xf32>) {
    // Both operands lowered: 16 KiB and 2 MiB.
    %0 = "stablehlo.custom_call"(%a) {api_version = 4 : i32, arc.est_us = 10.89 : f64, arc.lowering = "oneshot", arc.native_us = 35.11 : f64, arc.reason = "oneshot: est 10.9 us vs native 35.1 us (3.2x)", backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", devices = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, groups = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<64x128xf16>) -> tensor<64x128xf16>
    %1 = "stablehlo.custom_call"(%b) {api_version = 4 : i32, arc.est_us = 134.99 : f64, arc.lowering = "twoshot", arc.native_us = 176.34 : f64, arc.reason = "twoshot fp: est 135.0 us vs native 176.3 us (1.3x)", backend_config = {algo = "twoshot", cast = 0 : i64, codec = "fp", devices = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, groups = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<1024x1024xf16>) -> tensor<1024x1024xf16>
    // Both lowered: 8 KiB, and 6 bytes (arc's kernels take any count).
    %2 = "stablehlo.custom_call"(%c) {api_version = 4 : i32, arc.est_us = 9.95 : f64, arc.lowering = "oneshot", arc.native_us = 34.56 : f64, arc.reason = "oneshot: est 9.9 us vs native 34.6 us (3.5x)", backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", devices = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, groups = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<4096xbf16>) -> tensor<4096xbf16>
    %3 = "stablehlo.custom_call"(%d) {api_version = 4 : i32, arc.est_us = 9.0 : f64, arc.lowering = "oneshot", arc.native_us = 34.0 : f64, arc.reason = "oneshot: est 9.0 us vs native 34.0 us (3.8x)", backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", devices = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, groups = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<3xbf16>) -> tensor<3xbf16>
    // Packed: 1 KiB lowered, an empty operand native, 8 MiB lowered.
    %arc0 = "stablehlo.custom_call"(%e) {api_version = 4 : i32, arc.est_us = 9.12 : f64, arc.lowering = "oneshot", arc.native_us = 34.07 : f64, arc.reason = "oneshot: est 9.1 us vs native 34.1 us (3.7x)", backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", devices = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, groups = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<256xf32>) -> tensor<256xf32>
    %arc1 = "stablehlo.custom_call"(%g) {api_version = 4 : i32, arc.est_us = 497.97 : f64, arc.lowering = "twoshot", arc.native_us = 603.38 : f64, arc.reason = "twoshot fp: est 498.0 us vs native 603.4 us (1.2x)", backend_config = {algo = "twoshot", cast = 0 : i64, codec = "fp", devices = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, groups = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
    %arc2 = "stablehlo.all_reduce"(%f) ({
      ^bb0(%x: tensor<f32>, %y: tensor<f32>):
        %s = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, arc.lowering = "native", arc.reason = "empty tensor"} : (tensor<0xf32>) -> tensor<0xf32>
    // Packed, every operand native (both empty).
    %5:2 = "stablehlo.all_reduce"(%h, %arc2) ({
      ^bb0(%x: tensor<f32>, %y: tensor<f32>):
        %s = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, arc.lowering = "native", arc.reason = "empty tensor"} : (tensor<0xf32>, tensor<0xf32>) -> (tensor<0xf32>, tensor<0xf32>)
    %6 = "stablehlo.multiply"(%arc0, %arc0) : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
    "func.return"(%0, %1, %2, %3, %6, %arc1, %5#1, %5#0) : (tensor<64x128xf16>, tensor<1024x1024xf16>, tensor<4096xbf16>, tensor<3xbf16>, tensor<256xf32>, tensor<2048x1024xf32>, tensor<0xf32>, tensor<0xf32>) -> ()
  }
}
