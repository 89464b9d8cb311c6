// arc: --target cuda:nvlink
// want: lowered
// collective_broadcast needs no group to cover the grid: replicas 0 and 3
// get zeros (the specification says so). Its ids are each once and below
// num_replicas, so the module is valid, and the all-reduce lowers.
module @m attributes {mhlo.num_replicas = 4 : i32} {
  func.func @main(%x: tensor<4096xf16>, %y: tensor<4x8xf32>) -> (tensor<4096xf16>, tensor<4x8xf32>) {
    %sum = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f16>, %b: tensor<f16>):
      %t = stablehlo.add %a, %b : tensor<f16>
      stablehlo.return %t : tensor<f16>
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<4096xf16>) -> tensor<4096xf16>
    %other = "stablehlo.collective_broadcast"(%y) {replica_groups = dense<[[2, 1]]> : tensor<1x2xi64>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
    return %sum, %other : tensor<4096xf16>, tensor<4x8xf32>
  }
}
