// arc: --target cuda:pcie-2numa
// want: lowered twoshot fp algo=twoshot cast=0: twoshot fp: est
// The other default that rounded twice: over both NUMA halves the
// hierarchical kernel narrows each half's sum to bf16 before adding the
// halves. By default a bf16 sum takes the two-shot kernel (one rounding).
module @hier_default attributes {mhlo.num_replicas = 8 : i32} {
  func.func @main(%x: tensor<32768xbf16>) -> tensor<32768xbf16> {
    %0 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
      %s = stablehlo.add %a, %b : tensor<bf16>
      stablehlo.return %s : tensor<bf16>
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>} : (tensor<32768xbf16>) -> tensor<32768xbf16>
    return %0 : tensor<32768xbf16>
  }
}
