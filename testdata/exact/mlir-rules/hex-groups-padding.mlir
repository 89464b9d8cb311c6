// arc: --target cuda:nvlink
// want: native groups of different sizes
module @hexpad attributes {mhlo.num_replicas = 4 : i32} {
  func.func @main(%x: tensor<4096xf32>) -> tensor<4096xf32> {
    %0 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0x0, 0x1, 0x2], [0x3, 0xFFFFFFFFFFFFFFFF, -0x1]]> : tensor<2x3xi64>} : (tensor<4096xf32>) -> tensor<4096xf32>
    return %0 : tensor<4096xf32>
  }
}
