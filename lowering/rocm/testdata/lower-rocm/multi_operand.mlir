// arc: --target rocm:mi300x --quant int4
// Operands decided differently (testdata/select/multi_operand.out.mlir of
// passes): the lowered ones become calls, the native one stays in an
// all-reduce of its own that carries only its own decision.
module @multi attributes {stablehlo.num_replicas = 2 : i64, arc.target = "rocm:mi300x"} {
  func.func @main(%a: tensor<16777216xbf16>, %b: tensor<0xbf16>, %c: tensor<1048576xbf16>) -> (tensor<16777216xbf16>, tensor<0xbf16>, tensor<1048576xbf16>) {
    %0:3 = "stablehlo.all_reduce"(%a, %b, %c) ({
      ^bb0(%x: tensor<bf16>, %y: tensor<bf16>):
        %s = "stablehlo.add"(%x, %y) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
        "stablehlo.return"(%s) : (tensor<bf16>) -> ()
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, arc.lowering = ["quickreduce", "native", "oneshot"], arc.codec = ["int4", "none", "none"], arc.algo = ["twoshot", "", "oneshot"], arc.link = ["peer", "", "peer"], arc.cast = false, arc.reason = ["quickreduce int4: est 247.6 us vs native 741.9 us (3.0x)", "empty tensor", "oneshot: est 54.1 us vs native 68.4 us (1.3x)"], arc.est_us = [247.6 : f64, 0.0 : f64, 54.1 : f64], arc.native_us = [741.93 : f64, 0.0 : f64, 68.43 : f64]} : (tensor<16777216xbf16>, tensor<0xbf16>, tensor<1048576xbf16>) -> (tensor<16777216xbf16>, tensor<0xbf16>, tensor<1048576xbf16>)
    "func.return"(%0#0, %0#1, %0#2) : (tensor<16777216xbf16>, tensor<0xbf16>, tensor<1048576xbf16>) -> ()
  }
}
