// arc: --target tpu:v6e-8
// want: error 7:5 replica id #0 seen more than once
// 600 bytes that spell a billion ids: the splat is read as one element,
// never written out, so the error costs what the text does.
module @splat attributes {mhlo.num_replicas = 1000000000 : i32} {
  func.func @main(%x: tensor<1024xf32>) -> tensor<1024xf32> {
    %0 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<0> : tensor<1x1000000000xi64>} : (tensor<1024xf32>) -> tensor<1024xf32>
    return %0 : tensor<1024xf32>
  }
}
