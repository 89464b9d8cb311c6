// arc: --target cuda:nvlink
// want: native inside affine.for, whose region arc leaves as it is
// An all-reduce in the body of "affine.for %i = 0 to 4", which binds %i that
// the body reads: the module is valid, and the all-reduce stays native.
module @affine_for attributes {mhlo.num_replicas = 2 : i32} {
  func.func @main(%x: tensor<4096xf16>, %out: memref<4xf16>) {
    affine.for %i = 0 to 4 {
      %all = "stablehlo.all_reduce"(%x) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %t = stablehlo.add %a, %b : tensor<f16>
        stablehlo.return %t : tensor<f16>
      }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4096xf16>) -> tensor<4096xf16>
      %first = tensor.extract %all[%i] : tensor<4096xf16>
      affine.store %first, %out[%i] : memref<4xf16>
    }
    return
  }
}
