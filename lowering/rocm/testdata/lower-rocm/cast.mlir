// arc: --target rocm:mi300x --cast-bf16-to-fp16
// A bf16 sum decided for QuickReduce's fp codec with arc.cast becomes a
// call that sends it as f16 (cast = 1).
// (decided by select with these flags)
module @cast attributes {stablehlo.num_replicas = 2 : i64, arc.target = "rocm:mi300x"} {
  func.func @main(%a: tensor<16777216xbf16>) -> (tensor<16777216xbf16>) {
    %0 = "stablehlo.all_reduce"(%a) ({
      ^bb0(%x: tensor<bf16>, %y: tensor<bf16>):
        %s = "stablehlo.add"(%x, %y) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
        "stablehlo.return"(%s) : (tensor<bf16>) -> ()
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, arc.lowering = "quickreduce", arc.codec = "fp", arc.algo = "twoshot", arc.link = "peer", arc.cast = true, arc.reason = "quickreduce fp: est 736.6 us vs native 741.9 us (1.0x)", arc.est_us = 736.6 : f64, arc.native_us = 741.93 : f64} : (tensor<16777216xbf16>) -> tensor<16777216xbf16>
    "func.return"(%0) : (tensor<16777216xbf16>) -> ()
  }
}
