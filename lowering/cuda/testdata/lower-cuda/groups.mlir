// arc: --target cuda:nvlink
// Groups of a larger world: each call names its group's devices, for
// groups of consecutive and of strided ranks.
// (decided by select with these flags)
module @groups attributes {stablehlo.num_replicas = 8 : i64, arc.target = "cuda:nvlink"} {
  func.func @main(%a: tensor<4194304xf16>, %b: tensor<8192xf16>) -> (tensor<4194304xf16>, tensor<8192xf16>) {
    %0 = "stablehlo.all_reduce"(%a) ({
      ^bb0(%x: tensor<f16>, %y: tensor<f16>):
        %s = "stablehlo.add"(%x, %y) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, arc.lowering = "twoshot", arc.codec = "fp", arc.algo = "twoshot", arc.link = "peer", arc.cast = false, arc.reason = "twoshot fp: est 46.0 us vs native 68.2 us (1.5x)", arc.est_us = 45.95 : f64, arc.native_us = 68.2 : f64} : (tensor<4194304xf16>) -> tensor<4194304xf16>
    %1 = "stablehlo.all_reduce"(%b) ({
      ^bb0(%x: tensor<f16>, %y: tensor<f16>):
        %s = "stablehlo.add"(%x, %y) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, arc.lowering = "oneshot", arc.codec = "none", arc.algo = "oneshot", arc.link = "peer", arc.cast = false, arc.reason = "oneshot: est 5.2 us vs native 22.9 us (4.4x)", arc.est_us = 5.2 : f64, arc.native_us = 22.87 : f64} : (tensor<8192xf16>) -> tensor<8192xf16>
    "func.return"(%0, %1) : (tensor<4194304xf16>, tensor<8192xf16>) -> ()
  }
}
