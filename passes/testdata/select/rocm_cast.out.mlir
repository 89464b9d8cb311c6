// arc: --target rocm:mi300x --cast-bf16-to-fp16
// On ROCm a large bf16 sum takes QuickReduce's two-shot kernel with the
// fp codec and, opted in, travels as f16 scaled per block (arc.cast), as
// QuickReduce casts; a
// small one takes the one-shot kernel; groups of four of eight ranks each
// run their own kernel.
module @rocm_cast attributes {stablehlo.num_replicas = 8 : i64, arc.target = "rocm:mi300x"} {
  func.func @main(%a: tensor<16777216xbf16>, %b: tensor<8192xbf16>) -> (tensor<16777216xbf16>, tensor<8192xbf16>) {
    %0 = "stablehlo.all_reduce"(%a) ({
      ^bb0(%x: tensor<bf16>, %y: tensor<bf16>):
        %s = "stablehlo.add"(%x, %y) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
        "stablehlo.return"(%s) : (tensor<bf16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, arc.lowering = "quickreduce", arc.codec = "fp", arc.algo = "twoshot", arc.link = "peer", arc.cast = true, arc.reason = "quickreduce fp, bf16 cast to f16 by --cast-bf16-to-fp16: est 204.2 us vs native 214.4 us (1.0x)", arc.est_us = 204.22 : f64, arc.native_us = 214.4 : f64} : (tensor<16777216xbf16>) -> tensor<16777216xbf16>
    %1 = "stablehlo.all_reduce"(%b) ({
      ^bb0(%x: tensor<bf16>, %y: tensor<bf16>):
        %s = "stablehlo.add"(%x, %y) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
        "stablehlo.return"(%s) : (tensor<bf16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, arc.lowering = "oneshot", arc.codec = "none", arc.algo = "oneshot", arc.link = "peer", arc.cast = false, arc.reason = "oneshot: est 10.4 us vs native 26.2 us (2.5x)", arc.est_us = 10.35 : f64, arc.native_us = 26.18 : f64} : (tensor<8192xbf16>) -> tensor<8192xbf16>
    "func.return"(%0, %1) : (tensor<16777216xbf16>, tensor<8192xbf16>) -> ()
  }
}
