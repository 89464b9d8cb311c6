// arc: --target cuda:nvlink
// want: native mhlo.sharding is not HLO sharding text
// want: lowered oneshot none algo=oneshot
// An OpSharding serialized as bytes cannot be cut into one sharding per
// result, so the two-result op stays native; the one-result op keeps the
// same bytes on its call unchanged.
module @serialized attributes {mhlo.num_replicas = 4 : i32} {
  func.func @main(%x: tensor<1024xf32>, %y: tensor<1024xf32>) -> (tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>) {
    %0:2 = "stablehlo.all_reduce"(%x, %y) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {mhlo.sharding = "\08\02\2A\02\08\01", replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<1024xf32>, tensor<1024xf32>) -> (tensor<1024xf32>, tensor<1024xf32>)
    %1 = "stablehlo.all_reduce"(%0#1) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {mhlo.sharding = "\08\01", replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<1024xf32>) -> tensor<1024xf32>
    return %0#0, %0#1, %1 : tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>
  }
}
