// arc: --target tpu:v6e-8
// want: lowered
module @hextpu attributes {mhlo.num_replicas = 8 : i32} {
  func.func @main(%x: tensor<4096xf32>) -> tensor<4096xf32> {
    %0 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0x0, 0x1, 0x2, 0x3], [0x4, 0x5, 0x6, 0x7]]> : tensor<2x4xi64>} : (tensor<4096xf32>) -> tensor<4096xf32>
    return %0 : tensor<4096xf32>
  }
}
