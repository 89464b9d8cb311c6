// arc: --target tpu:v6e-8
// want: lowered
// Two module ops at the top level: MLIR wraps both in an implicit module,
// which states no grid (the inner modules' num_replicas are their own
// attributes, not the program's), so the groups imply 4 replicas.
module @first attributes {mhlo.num_replicas = 16 : i32} {
  func.func @f(%x: tensor<4x64xf32>) -> tensor<16x64xf32> {
    %g = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<4x64xf32>) -> tensor<16x64xf32>
    return %g : tensor<16x64xf32>
  }
}
module @second {
  func.func @main(%x: tensor<64xf32>) -> tensor<64xf32> {
    %m = "stablehlo.all_reduce"(%x) ({
    ^bb0(%l: tensor<f32>, %r: tensor<f32>):
      %s = stablehlo.minimum %l, %r : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[3, 2, 1, 0]]> : tensor<1x4xi64>} : (tensor<64xf32>) -> tensor<64xf32>
    return %m : tensor<64xf32>
  }
}
