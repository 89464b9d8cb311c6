// Groups of 3 (no kernel of arc's runs them) and one group of 6 (one-shot
// only) on 6 replicas: 4 KiB f32 sums, so that only the groups decide.
module @worlds_3_6 attributes {stablehlo.num_replicas = 6 : i64, arc.target = "cuda:pcie"} {
  func.func @main(%x0: tensor<1024xf32>, %x1: tensor<1024xf32>) -> (tensor<1024xf32>, tensor<1024xf32>) {
    %r0 = "stablehlo.all_reduce"(%x0) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1, 2], [3, 4, 5]]> : tensor<2x3xi64>, arc.lowering = "native", arc.reason = "group size 3: arc's kernels run on 2, 4 or 8 devices (6 for one-shot)"} : (tensor<1024xf32>) -> tensor<1024xf32>
    %r1 = "stablehlo.custom_call"(%x1) {api_version = 4 : i32, arc.est_us = 10.79 : f64, arc.lowering = "oneshot", arc.native_us = 33.31 : f64, arc.reason = "oneshot: est 10.8 us vs native 33.3 us (3.1x)", backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", devices = array<i64: 0, 1, 2, 3, 4, 5>, groups = array<i64: 0, 1, 2, 3, 4, 5>, link = "peer", world = 6 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    "func.return"(%r0, %r1) : (tensor<1024xf32>, tensor<1024xf32>) -> ()
  }
}
