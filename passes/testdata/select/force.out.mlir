// arc: --target cuda:nvlink --force 0=twoshot:int8 --force 1=native
// --force decides a row whatever the cost model says: row 0 takes the
// two-shot int8 kernel it would not pick, row 1 stays native, row 2 is
// decided by the model.
module @force attributes {stablehlo.num_replicas = 4 : i64, arc.target = "cuda:nvlink"} {
  func.func @main(%a: tensor<1048576xf16>, %b: tensor<4096xf16>, %c: tensor<4096xf16>) -> (tensor<1048576xf16>, tensor<4096xf16>, tensor<4096xf16>) {
    %0 = "stablehlo.all_reduce"(%a) ({
      ^bb0(%x: tensor<f16>, %y: tensor<f16>):
        %s = "stablehlo.add"(%x, %y) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, arc.lowering = "twoshot", arc.codec = "int8", arc.algo = "twoshot", arc.link = "peer", arc.cast = false, arc.reason = "forced by --force; est 17.6 us vs native 33.3 us", arc.est_us = 17.64 : f64, arc.native_us = 33.25 : f64} : (tensor<1048576xf16>) -> tensor<1048576xf16>
    %1 = "stablehlo.all_reduce"(%b) ({
      ^bb0(%x: tensor<f16>, %y: tensor<f16>):
        %s = "stablehlo.add"(%x, %y) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, arc.lowering = "native", arc.reason = "forced native by --force"} : (tensor<4096xf16>) -> tensor<4096xf16>
    %2 = "stablehlo.all_reduce"(%c) ({
      ^bb0(%x: tensor<f16>, %y: tensor<f16>):
        %s = "stablehlo.add"(%x, %y) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, arc.lowering = "oneshot", arc.codec = "none", arc.algo = "oneshot", arc.link = "peer", arc.cast = false, arc.reason = "oneshot: est 7.1 us vs native 21.6 us (3.1x)", arc.est_us = 7.07 : f64, arc.native_us = 21.65 : f64} : (tensor<4096xf16>) -> tensor<4096xf16>
    "func.return"(%0, %1, %2) : (tensor<1048576xf16>, tensor<4096xf16>, tensor<4096xf16>) -> ()
  }
}
