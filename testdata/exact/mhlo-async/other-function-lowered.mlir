// arc: --target cuda:nvlink
// want: native in function @gather_async, which mhlo.async_start
// want: lowered
// An async op names @gather_async only: the all-reduce in @main is lowered,
// the one in @gather_async stays.
module @some attributes {mhlo.num_replicas = 2 : i32} {
  func.func private @gather_async(%p: tensor<2048xf32>) -> tensor<2048xf32> {
    %r = "stablehlo.all_reduce"(%p) ({
    ^bb0(%l: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %l, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2048xf32>) -> tensor<2048xf32>
    return %r : tensor<2048xf32>
  }
  func.func @main(%x: tensor<2048xf32>) -> (tensor<2048xf32>, tensor<2048xf32>) {
    %now = "stablehlo.all_reduce"(%x) ({
    ^bb0(%l: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %l, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2048xf32>) -> tensor<2048xf32>
    %b = "mhlo.async_start"(%now) {called_computation = @gather_async} : (tensor<2048xf32>) -> !mhlo.async_bundle<tensor<2048xf32>, tensor<2048xf32>>
    %d = "mhlo.async_done"(%b) {called_computation = @gather_async} : (!mhlo.async_bundle<tensor<2048xf32>, tensor<2048xf32>>) -> tensor<2048xf32>
    return %now, %d : tensor<2048xf32>, tensor<2048xf32>
  }
}
