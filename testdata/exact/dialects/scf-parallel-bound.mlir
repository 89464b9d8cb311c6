// arc: --target cuda:nvlink
// want: lowered
// "scf.parallel (%i, %j) = (...) to (...) step (...)" binds %i and %j for
// its body, which reads them; the all-reduce beside the loop lowers.
module @scf_parallel attributes {mhlo.num_replicas = 2 : i32} {
  func.func @main(%x: tensor<4096xf16>, %buf: memref<64x64xf16>) -> tensor<4096xf16> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c64) step (%c1, %c1) {
      %e = memref.load %buf[%i, %j] : memref<64x64xf16>
      %f = math.absf %e : f16
      memref.store %f, %buf[%i, %j] : memref<64x64xf16>
      scf.reduce
    }
    %all = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f16>, %b: tensor<f16>):
      %t = stablehlo.add %a, %b : tensor<f16>
      stablehlo.return %t : tensor<f16>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4096xf16>) -> tensor<4096xf16>
    return %all : tensor<4096xf16>
  }
}
