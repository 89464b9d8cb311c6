// arc: --target cuda:nvlink
// want: error 14:5 'func.call' op result type mismatch at index 0: the call states 'tensor<8192xf32>', but @halve returns 'tensor<8192xf16>'
// The call states f32, which the all-reduce agrees with, but the function
// it calls returns f16: MLIR's verifier of func.call refuses the module.
module @callee attributes {mhlo.num_replicas = 2 : i32} {
  func.func private @halve(%v: tensor<8192xf32>) -> (tensor<8192xf16> {jax.result_info = "half"}) {
    %h = stablehlo.constant dense<5.000000e-01> : tensor<8192xf32>
    %p = stablehlo.multiply %v, %h : tensor<8192xf32>
    %c = stablehlo.convert %p : (tensor<8192xf32>) -> tensor<8192xf16>
    return %c : tensor<8192xf16>
  }
  func.func @main(%x: tensor<8192xf32>) -> tensor<8192xf32> {
    // the call's own statement of its result type
    %y = func.call @halve(%x) : (tensor<8192xf32>) -> tensor<8192xf32>
    %z = "stablehlo.all_reduce"(%y) ({
    ^bb0(%l: tensor<f32>, %r: tensor<f32>):
      %s = stablehlo.add %l, %r : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8192xf32>) -> tensor<8192xf32>
    return %z : tensor<8192xf32>
  }
}
