// arc: --target cuda:nvlink
// want: lowered
// The operands come from JAX's pretty ops whose types agree: a dot_general
// ((lhs, rhs) -> result), a select ("pred, result") and a broadcast.
module @agree attributes {mhlo.num_replicas = 2 : i32} {
  func.func @main(%x: tensor<64x128xf16>, %w: tensor<128x256xf16>, %p: tensor<64x256xi1>) -> (tensor<64x256xf16>, tensor<64x256xf16>) {
    %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x128xf16>, tensor<128x256xf16>) -> tensor<64x256xf16>
    %zero = stablehlo.constant dense<0.000000e+00> : tensor<f16>
    %z = stablehlo.broadcast_in_dim %zero, dims = [] : (tensor<f16>) -> tensor<64x256xf16>
    %m = stablehlo.select %p, %y, %z : tensor<64x256xi1>, tensor<64x256xf16>
    %a = "stablehlo.all_reduce"(%y) ({
    ^bb0(%l: tensor<f16>, %r: tensor<f16>):
      %s = stablehlo.add %l, %r : tensor<f16>
      stablehlo.return %s : tensor<f16>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<64x256xf16>) -> tensor<64x256xf16>
    %b = "stablehlo.all_reduce"(%m) ({
    ^bb0(%l: tensor<f16>, %r: tensor<f16>):
      %s = stablehlo.add %l, %r : tensor<f16>
      stablehlo.return %s : tensor<f16>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<64x256xf16>) -> tensor<64x256xf16>
    return %a, %b : tensor<64x256xf16>, tensor<64x256xf16>
  }
}
