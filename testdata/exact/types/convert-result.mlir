// arc: --target rocm:mi300x
// want: error 8:35 'tensor<2048xf16>' vs 'tensor<2048xbf16>'
// A convert states (operand) -> result: the all-reduce reads its bf16 result
// as f16.
module @convert_mismatch attributes {mhlo.num_replicas = 8 : i32} {
  func.func @main(%a: tensor<2048xf32>) -> tensor<2048xf16> {
    %c = stablehlo.convert %a : (tensor<2048xf32>) -> tensor<2048xbf16>
    %sum = "stablehlo.all_reduce"(%c) ({
    ^bb0(%l: tensor<f16>, %r: tensor<f16>):
      %s = stablehlo.add %l, %r : tensor<f16>
      stablehlo.return %s : tensor<f16>
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>} : (tensor<2048xf16>) -> tensor<2048xf16>
    return %sum : tensor<2048xf16>
  }
}
