// arc: --target rocm:mi300x
// want: lowered
module @hexrev attributes {mhlo.num_replicas = 2 : i32} {
  func.func @main(%x: tensor<4096xf16>) -> tensor<4096xf16> {
    %0 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f16>, %b: tensor<f16>):
      %s = stablehlo.add %a, %b : tensor<f16>
      stablehlo.return %s : tensor<f16>
    }) {replica_groups = dense<[[0x1, 0x0]]> : tensor<1x2xi64>} : (tensor<4096xf16>) -> tensor<4096xf16>
    return %0 : tensor<4096xf16>
  }
}
