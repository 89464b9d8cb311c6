// arc: --target rocm:mi300x
// want: native the op spans 2000000000 devices, more than arc expands (65536)
// No groups on two billion replicas: XLA's one group of every replica,
// which arc neither writes out nor expands (about 16 GB as ids).
module @all attributes {mhlo.num_replicas = 2000000000 : i32} {
  func.func @main(%x: tensor<4096xbf16>) -> tensor<4096xbf16> {
    %0 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
      %s = stablehlo.add %a, %b : tensor<bf16>
      stablehlo.return %s : tensor<bf16>
    }) {replica_groups = dense<> : tensor<0x0xi64>} : (tensor<4096xbf16>) -> tensor<4096xbf16>
    return %0 : tensor<4096xbf16>
  }
}
