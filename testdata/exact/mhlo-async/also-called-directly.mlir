// arc: --target rocm:mi300x
// want: native in function @grad_sum, which mhlo.async_start at 17:5 runs asynchronously
// The function an async op runs is also called plainly: it has one body, so
// its all-reduce stays as written on both paths.
module @twice attributes {mhlo.num_replicas = 8 : i32} {
  func.func private @grad_sum(%g: tensor<32768xbf16>) -> tensor<32768xbf16> {
    %r = "stablehlo.all_reduce"(%g) ({
    ^bb0(%l: tensor<bf16>, %q: tensor<bf16>):
      %s = stablehlo.add %l, %q : tensor<bf16>
      stablehlo.return %s : tensor<bf16>
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>} : (tensor<32768xbf16>) -> tensor<32768xbf16>
    return %r : tensor<32768xbf16>
  }
  func.func @main(%a: tensor<32768xbf16>, %b: tensor<32768xbf16>) -> (tensor<32768xbf16>, tensor<32768xbf16>) {
    %direct = call @grad_sum(%a) : (tensor<32768xbf16>) -> tensor<32768xbf16>
    // the same function, run asynchronously
    %bundle = "mhlo.async_start"(%b) {called_computation = @grad_sum, execution_thread = "main"} : (tensor<32768xbf16>) -> !mhlo.async_bundle<tensor<32768xbf16>, tensor<32768xbf16>>
    %later = "mhlo.async_done"(%bundle) {called_computation = @grad_sum, execution_thread = "main"} : (!mhlo.async_bundle<tensor<32768xbf16>, tensor<32768xbf16>>) -> tensor<32768xbf16>
    return %direct, %later : tensor<32768xbf16>, tensor<32768xbf16>
  }
}
