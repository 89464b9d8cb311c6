// arc: --target cuda:pcie-2numa
// want: lowered twoshot fp algo=hier cast=0: twoshot fp (hier): est
// Over both NUMA halves the hierarchical kernel narrows each half's sum to
// bf16 before adding the halves: the program's own reducer rounds every
// addition to bf16, so this is one order of the additions it allows, and
// hier stays the default (no cast: the I/O type on the wire).
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
