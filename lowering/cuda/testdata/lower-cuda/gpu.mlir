// arc: --target cuda:nvlink
// The decisions select wrote (testdata/select/gpu.out.mlir of passes): the
// one-shot and two-shot ones become calls of arc's kernel, the native ones stay.
module @gpu attributes {stablehlo.num_replicas = 2 : i64, arc.target = "cuda:nvlink"} {
  func.func @main(%a: tensor<2048xf16>, %b: tensor<4096x2048xbf16>, %c: tensor<1024xf32>, %d: tensor<3xf32>) -> (tensor<2048xf16>, tensor<4096x2048xbf16>, tensor<1024xf32>, tensor<3xf32>) {
    %0 = "stablehlo.all_reduce"(%a) ({
      ^bb0(%x: tensor<f16>, %y: tensor<f16>):
        %s = "stablehlo.add"(%x, %y) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, arc.lowering = "oneshot", arc.codec = "none", arc.algo = "oneshot", arc.link = "peer", arc.cast = false, arc.reason = "oneshot: est 5.9 us vs native 24.2 us (4.1x)", arc.est_us = 5.86 : f64, arc.native_us = 24.19 : f64} : (tensor<2048xf16>) -> tensor<2048xf16>
    %1 = "stablehlo.all_reduce"(%b) ({
      ^bb0(%x: tensor<bf16>, %y: tensor<bf16>):
        %s = "stablehlo.add"(%x, %y) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
        "stablehlo.return"(%s) : (tensor<bf16>) -> ()
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, arc.lowering = "twoshot", arc.codec = "fp", arc.algo = "twoshot", arc.link = "peer", arc.cast = false, arc.reason = "twoshot fp: est 60.6 us vs native 89.5 us (1.5x)", arc.est_us = 60.63 : f64, arc.native_us = 89.48 : f64} : (tensor<4096x2048xbf16>) -> tensor<4096x2048xbf16>
    %2 = "stablehlo.all_reduce"(%c) ({
      ^bb0(%x: tensor<f32>, %y: tensor<f32>):
        %s = "stablehlo.maximum"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, arc.lowering = "native", arc.reason = "reduction is max: arc's kernels only sum"} : (tensor<1024xf32>) -> tensor<1024xf32>
    %3 = "stablehlo.all_reduce"(%d) ({
      ^bb0(%x: tensor<f32>, %y: tensor<f32>):
        %s = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, arc.lowering = "oneshot", arc.codec = "none", arc.algo = "oneshot", arc.link = "peer", arc.cast = false, arc.reason = "oneshot: est 6.0 us vs native 17.6 us (2.9x)", arc.est_us = 6.0 : f64, arc.native_us = 17.6 : f64} : (tensor<3xf32>) -> tensor<3xf32>
    "func.return"(%0, %1, %2, %3) : (tensor<2048xf16>, tensor<4096x2048xbf16>, tensor<1024xf32>, tensor<3xf32>) -> ()
  }
}
