// arc: --target cuda:nvlink
// want: error 9:35 use of value '%mag' expects different type than prior uses: 'tensor<1024xf32>' vs 'tensor<1024xf16>'
// JAX's pretty form states an elementwise op's result type once, after ':':
// %mag is f16, and the all-reduce that reads it as f32 is refused, as MLIR
// refuses it.
module @abs_mismatch attributes {mhlo.num_replicas = 2 : i32} {
  func.func @main(%a: tensor<1024xf16>) -> tensor<1024xf32> {
    %mag = stablehlo.abs %a : tensor<1024xf16>
    %sum = "stablehlo.all_reduce"(%mag) ({
    ^bb0(%l: tensor<f32>, %r: tensor<f32>):
      %s = stablehlo.add %l, %r : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<1024xf32>) -> tensor<1024xf32>
    return %sum : tensor<1024xf32>
  }
}
