// arc: --target cuda:pcie-2numa --quant fp
// want: lowered twoshot fp algo=hier cast=0: twoshot fp (hier), half sums rounded to bf16 by --quant fp
// --quant fp allows the hierarchical kernel's rounded half sums, and the
// reason says so.
module @hier_fp attributes {mhlo.num_replicas = 8 : i32} {
  func.func @main(%x: tensor<32768xbf16>) -> tensor<32768xbf16> {
    %0 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
      %s = stablehlo.add %a, %b : tensor<bf16>
      stablehlo.return %s : tensor<bf16>
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>} : (tensor<32768xbf16>) -> tensor<32768xbf16>
    return %0 : tensor<32768xbf16>
  }
}
