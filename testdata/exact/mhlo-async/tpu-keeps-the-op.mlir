// arc: --target tpu:v6e-4
// want: lowered
// On TPU the all-reduce stays XLA's op, in the wrapped function too: only
// the order inside its group changes (as inside stablehlo.async_start).
module @tpu_async attributes {mhlo.num_replicas = 4 : i32} {
  func.func private @bg(%p: tensor<1024xf32>) -> tensor<1024xf32> {
    %r = "mhlo.all_reduce"(%p) ({
    ^bb0(%l: tensor<f32>, %q: tensor<f32>):
      %s = mhlo.maximum %l, %q : tensor<f32>
      mhlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<1024xf32>) -> tensor<1024xf32>
    return %r : tensor<1024xf32>
  }
  func.func @main(%x: tensor<1024xf32>) -> tensor<1024xf32> {
    %b = "mhlo.async_start"(%x) {called_computation = @bg} : (tensor<1024xf32>) -> !mhlo.async_bundle<tensor<1024xf32>, tensor<1024xf32>>
    %d = "mhlo.async_done"(%b) {called_computation = @bg} : (!mhlo.async_bundle<tensor<1024xf32>, tensor<1024xf32>>) -> tensor<1024xf32>
    return %d : tensor<1024xf32>
  }
}
