// arc: --target cuda:nvlink
// The decisions select wrote (testdata/select/gpu.out.mlir of passes): the
// one-shot and two-shot ones become calls of arc's kernel, the native ones stay.
module @gpu attributes {stablehlo.num_replicas = 2 : i64, arc.target = "cuda:nvlink"} {
  func.func @main(%a: tensor<2048xf16>, %b: tensor<4096x2048xbf16>, %c: tensor<1024xf32>, %d: tensor<3xf32>) -> (tensor<2048xf16>, tensor<4096x2048xbf16>, tensor<1024xf32>, tensor<3xf32>) {
    %0 = "stablehlo.custom_call"(%a) {api_version = 4 : i32, arc.est_us = 5.86 : f64, arc.lowering = "oneshot", arc.native_us = 24.19 : f64, arc.reason = "oneshot: est 5.9 us vs native 24.2 us (4.1x)", backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", devices = array<i64: 0, 1>, groups = array<i64: 0, 1>, link = "peer", world = 2 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<2048xf16>) -> tensor<2048xf16>
    %1 = "stablehlo.custom_call"(%b) {api_version = 4 : i32, arc.est_us = 60.63 : f64, arc.lowering = "twoshot", arc.native_us = 89.48 : f64, arc.reason = "twoshot fp: est 60.6 us vs native 89.5 us (1.5x)", backend_config = {algo = "twoshot", cast = 0 : i64, codec = "fp", devices = array<i64: 0, 1>, groups = array<i64: 0, 1>, link = "peer", world = 2 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<4096x2048xbf16>) -> tensor<4096x2048xbf16>
    %2 = "stablehlo.all_reduce"(%c) ({
      ^bb0(%x: tensor<f32>, %y: tensor<f32>):
        %s = "stablehlo.maximum"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, arc.lowering = "native", arc.reason = "reduction is max: arc's kernels only sum"} : (tensor<1024xf32>) -> tensor<1024xf32>
    %3 = "stablehlo.custom_call"(%d) {api_version = 4 : i32, arc.est_us = 6.0 : f64, arc.lowering = "oneshot", arc.native_us = 17.6 : f64, arc.reason = "oneshot: est 6.0 us vs native 17.6 us (2.9x)", backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", devices = array<i64: 0, 1>, groups = array<i64: 0, 1>, link = "peer", world = 2 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<3xf32>) -> tensor<3xf32>
    "func.return"(%0, %1, %2, %3) : (tensor<2048xf16>, tensor<4096x2048xbf16>, tensor<1024xf32>, tensor<3xf32>) -> ()
  }
}
