// arc: --target cuda:nvlink
// Decisions on the input (an earlier compile's, or written by hand) are not
// obeyed: select decides each all-reduce afresh for this target and these
// options and writes its decision in their place. A max stays native; int4,
// which no --quant allows here, gives way to the fp codec; an empty tensor
// stays native; the hierarchical kernel and the host link, which cuda:nvlink
// lacks, give way to its own; native marks on a sum arc lowers give way too;
// a fusion mark goes (fuse decides it after select).
module @marks attributes {stablehlo.num_replicas = 4 : i64, arc.target = "cuda:nvlink"} {
  func.func @main(%a: tensor<1024xf32>, %b: tensor<4194304xf16>, %c: tensor<0xf32>, %d: tensor<4194304xf16>, %e: tensor<4096xf16>, %f: tensor<4096xf16>) -> (tensor<1024xf32>, tensor<4194304xf16>, tensor<0xf32>, tensor<4194304xf16>, tensor<4096xf16>, tensor<4096xf16>) {
    %0 = "stablehlo.all_reduce"(%a) ({
      ^bb0(%x: tensor<f32>, %y: tensor<f32>):
        %s = "stablehlo.maximum"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, arc.lowering = "native", arc.reason = "reducer is max, arc's kernels sum"} : (tensor<1024xf32>) -> tensor<1024xf32>
    %1 = "stablehlo.all_reduce"(%b) ({
      ^bb0(%x: tensor<f16>, %y: tensor<f16>):
        %s = "stablehlo.add"(%x, %y) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, arc.lowering = "twoshot", arc.codec = "fp", arc.algo = "twoshot", arc.link = "peer", arc.cast = false, arc.reason = "twoshot fp: est 46.0 us vs native 68.2 us (1.5x)", arc.est_us = 45.95 : f64, arc.native_us = 68.2 : f64} : (tensor<4194304xf16>) -> tensor<4194304xf16>
    %2 = "stablehlo.all_reduce"(%c) ({
      ^bb0(%x: tensor<f32>, %y: tensor<f32>):
        %s = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, arc.lowering = "native", arc.reason = "empty tensor"} : (tensor<0xf32>) -> tensor<0xf32>
    %3 = "stablehlo.all_reduce"(%d) ({
      ^bb0(%x: tensor<f16>, %y: tensor<f16>):
        %s = "stablehlo.add"(%x, %y) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, arc.lowering = "twoshot", arc.codec = "fp", arc.algo = "twoshot", arc.link = "peer", arc.cast = false, arc.reason = "twoshot fp: est 46.0 us vs native 68.2 us (1.5x)", arc.est_us = 45.95 : f64, arc.native_us = 68.2 : f64} : (tensor<4194304xf16>) -> tensor<4194304xf16>
    %4 = "stablehlo.all_reduce"(%e) ({
      ^bb0(%x: tensor<f16>, %y: tensor<f16>):
        %s = "stablehlo.add"(%x, %y) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, arc.lowering = "oneshot", arc.reason = "oneshot: est 7.1 us vs native 21.6 us (3.1x)", arc.codec = "none", arc.algo = "oneshot", arc.link = "peer", arc.cast = false, arc.est_us = 7.07 : f64, arc.native_us = 21.65 : f64} : (tensor<4096xf16>) -> tensor<4096xf16>
    %5 = "stablehlo.all_reduce"(%f) ({
      ^bb0(%x: tensor<f16>, %y: tensor<f16>):
        %s = "stablehlo.add"(%x, %y) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, arc.lowering = "oneshot", arc.codec = "none", arc.algo = "oneshot", arc.link = "peer", arc.cast = false, arc.reason = "oneshot: est 7.1 us vs native 21.6 us (3.1x)", arc.est_us = 7.07 : f64, arc.native_us = 21.65 : f64} : (tensor<4096xf16>) -> tensor<4096xf16>
    "func.return"(%0, %1, %2, %3, %4, %5) : (tensor<1024xf32>, tensor<4194304xf16>, tensor<0xf32>, tensor<4194304xf16>, tensor<4096xf16>, tensor<4096xf16>) -> ()
  }
}
