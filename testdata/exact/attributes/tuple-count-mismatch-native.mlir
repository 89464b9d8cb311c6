// arc: --target cuda:nvlink
// want: native mhlo.sharding holds 1 shardings for 2 results
// A tuple sharding of one entry on an op of two results does not say which
// result it shards: arc cannot give each call its own, so the op stays
// whole and native, as it came.
module @tuple_short attributes {mhlo.num_replicas = 2 : i32} {
  func.func @main(%x: tensor<2048xf16>, %y: tensor<2048xf16>) -> (tensor<2048xf16>, tensor<2048xf16>) {
    %0, %1 = "stablehlo.all_reduce"(%x, %y) ({
    ^bb0(%a: tensor<f16>, %b: tensor<f16>):
      %s = stablehlo.add %a, %b : tensor<f16>
      stablehlo.return %s : tensor<f16>
    }) {mhlo.sharding = "{{replicated}}", replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2048xf16>, tensor<2048xf16>) -> (tensor<2048xf16>, tensor<2048xf16>)
    return %0, %1 : tensor<2048xf16>, tensor<2048xf16>
  }
}
