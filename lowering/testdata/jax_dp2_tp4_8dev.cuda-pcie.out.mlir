#loc1 = loc("x")
#loc2 = loc("w")
module @jit_dp_tp attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32, arc.target = "cuda:pcie"} {
  sdy.mesh @mesh = <["dp"=2, "tp"=4]>
  // A data-parallel x tensor-parallel step: one tp all-reduce per row-parallel matmul,
  // one dp all-reduce of the gradients, and a two-operand all-reduce.
  func.func public @main(%arg0: tensor<64x1024xf16> loc("x"), %arg1: tensor<1024x4096xf16> loc("w"), %arg2: tensor<8xf32>) -> (tensor<64x1024xf16> {jax.result_info = "result[0]"}, tensor<8xf32>, tensor<8xf32>) {
    %0:3 = sdy.manual_computation(%arg0, %arg1, %arg2) in_shardings=[<@mesh, [{"dp"}, {}]>, <@mesh, [{}, {"tp"}]>, <@mesh, [{}]>] out_shardings=[<@mesh, [{"dp"}, {}]>, <@mesh, [{}]>, <@mesh, [{}]>] manual_axes={"dp", "tp"} (%arg3: tensor<32x1024xf16>, %arg4: tensor<1024x1024xf16>, %arg5: tensor<8xf32>) {
      %1 = stablehlo.dot_general %arg3, %arg4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x1024xf16>, tensor<1024x1024xf16>) -> tensor<32x1024xf16> loc(#loc3)
      %2 = "stablehlo.custom_call"(%1) {api_version = 4 : i32, arc.est_us = 16.56 : f64, arc.lowering = "oneshot", arc.native_us = 33.45 : f64, arc.reason = "oneshot: est 16.6 us vs native 33.4 us (2.0x)", backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", devices = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, groups = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<32x1024xf16>) -> tensor<32x1024xf16> loc(#loc4)
      %arc0 = "stablehlo.custom_call"(%arg5) {api_version = 4 : i32, arc.est_us = 8.0 : f64, arc.lowering = "oneshot", arc.native_us = 25.0 : f64, arc.reason = "oneshot: est 8.0 us vs native 25.0 us (3.1x)", backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", devices = array<i64: 0, 4, 1, 5, 2, 6, 3, 7>, groups = array<i64: 0, 4, 1, 5, 2, 6, 3, 7>, link = "peer", world = 2 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<8xf32>) -> tensor<8xf32>
      %arc1 = "stablehlo.custom_call"(%arg5) {api_version = 4 : i32, arc.est_us = 8.0 : f64, arc.lowering = "oneshot", arc.native_us = 25.0 : f64, arc.reason = "oneshot: est 8.0 us vs native 25.0 us (3.1x)", backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", devices = array<i64: 0, 4, 1, 5, 2, 6, 3, 7>, groups = array<i64: 0, 4, 1, 5, 2, 6, 3, 7>, link = "peer", world = 2 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<8xf32>) -> tensor<8xf32>
      %4 = stablehlo.multiply %arc0, %arc0 : tensor<8xf32> // "%3#0" in a comment is not a use
      sdy.return %2, %arc0, %4 : tensor<32x1024xf16>, tensor<8xf32>, tensor<8xf32>
    } : (tensor<64x1024xf16>, tensor<1024x4096xf16>, tensor<8xf32>) -> (tensor<64x1024xf16>, tensor<8xf32>, tensor<8xf32>)
    return %0#0, %0#1, %0#2 : tensor<64x1024xf16>, tensor<8xf32>, tensor<8xf32>
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc3 = loc("jit(step)/dot_general"(#loc1))
#loc4 = loc("jit(step)/psum[axes=(\"tp\",)]")
