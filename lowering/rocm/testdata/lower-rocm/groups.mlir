// arc: --target rocm:mi300x
// Two groups of four of eight ranks: each call names its own devices; a
// max stays the all-reduce it was.
// (decided by select with these flags)
module @groups attributes {stablehlo.num_replicas = 8 : i64, arc.target = "rocm:mi300x"} {
  func.func @main(%a: tensor<8192xf16>, %b: tensor<1024xf32>) -> (tensor<8192xf16>, tensor<1024xf32>) {
    %0 = "stablehlo.all_reduce"(%a) ({
      ^bb0(%x: tensor<f16>, %y: tensor<f16>):
        %s = "stablehlo.add"(%x, %y) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, arc.lowering = "oneshot", arc.codec = "none", arc.algo = "oneshot", arc.link = "peer", arc.cast = false, arc.reason = "oneshot: est 10.4 us vs native 26.2 us (2.5x)", arc.est_us = 10.35 : f64, arc.native_us = 26.18 : f64} : (tensor<8192xf16>) -> tensor<8192xf16>
    %1 = "stablehlo.all_reduce"(%b) ({
      ^bb0(%x: tensor<f32>, %y: tensor<f32>):
        %s = "stablehlo.maximum"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, arc.lowering = "native", arc.reason = "reducer is max, arc's kernels sum"} : (tensor<1024xf32>) -> tensor<1024xf32>
    "func.return"(%0, %1) : (tensor<8192xf16>, tensor<1024xf32>) -> ()
  }
}
