// arc: --target cuda:nvlink
// want: error 12:5 replica id #5 is out of range: cross_replica mode numbers replicas 0 to 3 (num_replicas = 4) (collective_broadcast_c2)
// collective_broadcast_c2: ids below num_replicas. Replica 5 of a module of
// four does not exist.
module @m attributes {mhlo.num_replicas = 4 : i32} {
  func.func @main(%x: tensor<4096xf16>, %y: tensor<4x8xf32>) -> (tensor<4096xf16>, tensor<4x8xf32>) {
    %sum = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f16>, %b: tensor<f16>):
      %t = stablehlo.add %a, %b : tensor<f16>
      stablehlo.return %t : tensor<f16>
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<4096xf16>) -> tensor<4096xf16>
    %other = "stablehlo.collective_broadcast"(%y) {replica_groups = dense<[[0, 5]]> : tensor<1x2xi64>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
    return %sum, %other : tensor<4096xf16>, tensor<4x8xf32>
  }
}
