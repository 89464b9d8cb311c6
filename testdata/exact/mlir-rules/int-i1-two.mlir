// arc: --target cuda:nvlink
// want: error 3:86 integer constant out of range for attribute
module @i1two attributes {mhlo.num_replicas = 2 : i32, jax.uses_shape_polymorphism = 2 : i1} {
  func.func @main(%x: tensor<4096xf16>) -> tensor<4096xf16> {
    %0 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f16>, %b: tensor<f16>):
      %s = stablehlo.add %a, %b : tensor<f16>
      stablehlo.return %s : tensor<f16>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4096xf16>) -> tensor<4096xf16>
    return %0 : tensor<4096xf16>
  }
}
