// arc: --target rocm:mi300x
// want: native reducer is max
module @max attributes {mhlo.num_replicas = 4 : i32} {
  func.func @main(%x: tensor<8192xbf16>) -> tensor<8192xbf16> {
    %0 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
      %s = stablehlo.maximum %a, %b : tensor<bf16>
      stablehlo.return %s : tensor<bf16>
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<8192xbf16>) -> tensor<8192xbf16>
    return %0 : tensor<8192xbf16>
  }
}
