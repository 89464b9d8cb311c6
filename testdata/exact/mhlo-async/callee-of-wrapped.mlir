// arc: --target cuda:pcie
// want: native in function @inner, which @outer calls: in function @outer, which mhlo.async_start
// The wrapped function calls another that holds the all-reduce: its ops run
// inside the async computation too.
module @chain attributes {mhlo.num_replicas = 4 : i32} {
  func.func private @inner(%v: tensor<65536xf16>) -> tensor<65536xf16> {
    %r = "stablehlo.all_reduce"(%v) ({
    ^bb0(%l: tensor<f16>, %q: tensor<f16>):
      %s = stablehlo.add %l, %q : tensor<f16>
      stablehlo.return %s : tensor<f16>
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<65536xf16>) -> tensor<65536xf16>
    return %r : tensor<65536xf16>
  }
  func.func private @outer(%v: tensor<65536xf16>) -> tensor<65536xf16> {
    %r = func.call @inner(%v) : (tensor<65536xf16>) -> tensor<65536xf16>
    return %r : tensor<65536xf16>
  }
  func.func @main(%x: tensor<65536xf16>) -> tensor<65536xf16> {
    %s = "mhlo.async_start"(%x) {called_computation = @outer} : (tensor<65536xf16>) -> !mhlo.async_bundle<tensor<65536xf16>, tensor<65536xf16>>
    %u = "mhlo.async_update"(%s) {called_computation = @outer} : (!mhlo.async_bundle<tensor<65536xf16>, tensor<65536xf16>>) -> !mhlo.async_bundle<tensor<65536xf16>, tensor<65536xf16>>
    %d = "mhlo.async_done"(%u) {called_computation = @outer} : (!mhlo.async_bundle<tensor<65536xf16>, tensor<65536xf16>>) -> tensor<65536xf16>
    return %d : tensor<65536xf16>
  }
}
