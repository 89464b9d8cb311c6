// arc: --target cuda:nvlink
// want: error 9:61 duplicate key 'replica_groups' in dictionary attribute
module @escaped attributes {mhlo.num_replicas = 2 : i32} {
  func.func @main(%x: tensor<4096xf16>) -> tensor<4096xf16> {
    %0 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f16>, %b: tensor<f16>):
      %s = stablehlo.add %a, %b : tensor<f16>
      stablehlo.return %s : tensor<f16>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, "replica\5Fgroups" = dense<[[1, 0]]> : tensor<1x2xi64>} : (tensor<4096xf16>) -> tensor<4096xf16>
    return %0 : tensor<4096xf16>
  }
}
