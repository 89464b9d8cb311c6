// arc: --target rocm:mi355x --quant int8
// QuickReduce's int8 codec on four ranks of an MI355X.
// (decided by select with these flags)
module @int8 attributes {stablehlo.num_replicas = 4 : i64, arc.target = "rocm:mi355x"} {
  func.func @main(%a: tensor<33554432xf16>) -> (tensor<33554432xf16>) {
    %0 = "stablehlo.all_reduce"(%a) ({
      ^bb0(%x: tensor<f16>, %y: tensor<f16>):
        %s = "stablehlo.add"(%x, %y) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, arc.lowering = "quickreduce", arc.codec = "int8", arc.algo = "twoshot", arc.link = "peer", arc.cast = false, arc.reason = "quickreduce int8: est 331.7 us vs native 603.3 us (1.8x)", arc.est_us = 331.68 : f64, arc.native_us = 603.28 : f64} : (tensor<33554432xf16>) -> tensor<33554432xf16>
    "func.return"(%0) : (tensor<33554432xf16>) -> ()
  }
}
