// arc: --target cuda:nvlink
// want: native in function @wrapped_sum, which mhlo.async_start at 15:5 runs asynchronously
// XLA's HLO as MHLO: async_start and async_done name the function they run.
// Its all-reduce is the async wrapped computation: it stays an all-reduce.
module @hlo_async attributes {mhlo.num_replicas = 2 : i32} {
  func.func private @wrapped_sum(%p: tensor<4096xf32>) -> tensor<4096xf32> attributes {execution_thread = "main"} {
    %r = "mhlo.all_reduce"(%p) ({
    ^bb0(%l: tensor<f32>, %q: tensor<f32>):
      %s = mhlo.add %l, %q : tensor<f32>
      mhlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4096xf32>) -> tensor<4096xf32>
    return %r : tensor<4096xf32>
  }
  func.func @main(%x: tensor<4096xf32>) -> tensor<4096xf32> {
    %start = "mhlo.async_start"(%x) {called_computation = @wrapped_sum, execution_thread = "main"} : (tensor<4096xf32>) -> !mhlo.async_bundle<tensor<4096xf32>, tensor<4096xf32>>
    %done = "mhlo.async_done"(%start) {called_computation = @wrapped_sum, execution_thread = "main"} : (!mhlo.async_bundle<tensor<4096xf32>, tensor<4096xf32>>) -> tensor<4096xf32>
    return %done : tensor<4096xf32>
  }
}
