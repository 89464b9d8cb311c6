// arc: --target cuda:nvlink
// want: native the op spans 262144 devices, more than arc expands (65536)
// Four replicas written out, run in each of 65,536 partitions: the
// expansion would be 65,536 times the ids the module writes, more than arc
// expands, so the op stays native in the memory its text takes.
module @wide attributes {mhlo.num_partitions = 65536 : i32, mhlo.num_replicas = 4 : i32} {
  func.func @main(%x: tensor<8192xf16>) -> tensor<8192xf16> {
    %0 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f16>, %b: tensor<f16>):
      %s = stablehlo.add %a, %b : tensor<f16>
      stablehlo.return %s : tensor<f16>
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<8192xf16>) -> tensor<8192xf16>
    return %0 : tensor<8192xf16>
  }
}
