// arc: --target tpu:v6e-8
// want: error 19:35 use of value '%loop#1' expects different type than prior uses: 'tensor<512xf32>' vs 'tensor<512xi32>'
// A pretty while lists its operands' types, which its results share: the
// second result is i32, read as f32.
module @loop attributes {mhlo.num_replicas = 8 : i32} {
  func.func @main(%n: tensor<i64>, %acc: tensor<512xi32>) -> tensor<512xf32> {
    %loop:2 = stablehlo.while(%i = %n, %v = %acc) : tensor<i64>, tensor<512xi32>
    cond {
      %zero = stablehlo.constant dense<0> : tensor<i64>
      %more = stablehlo.compare  GT, %i, %zero,  SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %more : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i64>
      %next = stablehlo.subtract %i, %one : tensor<i64>
      %twice = stablehlo.add %v, %v : tensor<512xi32>
      stablehlo.return %next, %twice : tensor<i64>, tensor<512xi32>
    }
    // the second result, read with the wrong element type
    %sum = "stablehlo.all_reduce"(%loop#1) ({
    ^bb0(%l: tensor<f32>, %r: tensor<f32>):
      %s = stablehlo.add %l, %r : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>} : (tensor<512xf32>) -> tensor<512xf32>
    return %sum : tensor<512xf32>
  }
}
