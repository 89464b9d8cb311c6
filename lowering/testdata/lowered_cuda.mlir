// multi_operand.mlir as arc compile --target cuda:nvlink wrote it (an arc that kept 6 bytes native): arc's custom calls, the
// native all-reduces split off multi-operand ops, and arc's native decisions (the 6-byte one now lowered), lowered again for every target.
// Multi-operand all-reduces on two groups of four: results named one by one
// (go-xla's "%0, %1 = ...") and packed ("%2:3", used as "%2#k"), with operands
// that arc lowers next to operands that stay native in the same op.
module @multi_operand attributes {stablehlo.num_replicas = 8 : i64} {
  func.func @main(%a: tensor<64x128xf16>, %b: tensor<1024x1024xf16>, %c: tensor<4096xbf16>, %d: tensor<3xbf16>, %e: tensor<256xf32>, %f: tensor<0xf32>, %g: tensor<2048x1024xf32>, %h: tensor<0xf32>) -> (tensor<64x128xf16>, tensor<1024x1024xf16>, tensor<4096xbf16>, tensor<3xbf16>, tensor<256xf32>, tensor<2048x1024xf32>, tensor<0xf32>, tensor<0xf32>) {
    // Both operands lowered: 16 KiB and 2 MiB.
    %0 = "stablehlo.custom_call"(%a) {api_version = 4 : i32, arc.est_us = 7.14 : f64, arc.lowering = "oneshot", arc.native_us = 21.69 : f64, arc.reason = "oneshot: est 7.1 us vs native 21.7 us (3.0x)", backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", groups = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<64x128xf16>) -> tensor<64x128xf16>
    %1 = "stablehlo.custom_call"(%b) {api_version = 4 : i32, arc.est_us = 19.74 : f64, arc.lowering = "twoshot", arc.native_us = 33.25 : f64, arc.reason = "twoshot:fp: est 19.7 us vs native 33.3 us (1.7x)", backend_config = {algo = "twoshot", cast = 0 : i64, codec = "fp", groups = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<1024x1024xf16>) -> tensor<1024x1024xf16>
    // 8 KiB lowered, 6 bytes (not a multiple of 16) native.
    %2 = "stablehlo.custom_call"(%c) {api_version = 4 : i32, arc.est_us = 7.07 : f64, arc.lowering = "oneshot", arc.native_us = 21.65 : f64, arc.reason = "oneshot: est 7.1 us vs native 21.6 us (3.1x)", backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", groups = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<4096xbf16>) -> tensor<4096xbf16>
    %3 = "stablehlo.all_reduce"(%d) ({
      ^bb0(%x: tensor<bf16>, %y: tensor<bf16>):
        %s = "stablehlo.add"(%x, %y) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
        "stablehlo.return"(%s) : (tensor<bf16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, arc.lowering = "native", arc.reason = "6 bytes is not a multiple of 16"} : (tensor<3xbf16>) -> tensor<3xbf16>
    // Packed: 1 KiB lowered, an empty operand native, 8 MiB lowered.
    %arc0 = "stablehlo.custom_call"(%e) {api_version = 4 : i32, arc.est_us = 7.01 : f64, arc.lowering = "oneshot", arc.native_us = 21.61 : f64, arc.reason = "oneshot: est 7.0 us vs native 21.6 us (3.1x)", backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", groups = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<256xf32>) -> tensor<256xf32>
    %arc1 = "stablehlo.custom_call"(%g) {api_version = 4 : i32, arc.est_us = 45.95 : f64, arc.lowering = "twoshot", arc.native_us = 68.2 : f64, arc.reason = "twoshot:fp: est 46.0 us vs native 68.2 us (1.5x)", backend_config = {algo = "twoshot", cast = 0 : i64, codec = "fp", groups = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
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
