// arc: --target cuda:nvlink
// select decides every all-reduce and writes the decision on the op: a
// small sum takes the one-shot kernel (12 bytes too: the kernels take any
// count), a large one the two-shot kernel, a max stays native, with its
// reason.
module @gpu attributes {stablehlo.num_replicas = 2 : i64} {
  func.func @main(%a: tensor<2048xf16>, %b: tensor<4096x2048xbf16>, %c: tensor<1024xf32>, %d: tensor<3xf32>) -> (tensor<2048xf16>, tensor<4096x2048xbf16>, tensor<1024xf32>, tensor<3xf32>) {
    %0 = "stablehlo.all_reduce"(%a) ({
      ^bb0(%x: tensor<f16>, %y: tensor<f16>):
        %s = "stablehlo.add"(%x, %y) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2048xf16>) -> tensor<2048xf16>
    %1 = "stablehlo.all_reduce"(%b) ({
      ^bb0(%x: tensor<bf16>, %y: tensor<bf16>):
        %s = "stablehlo.add"(%x, %y) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
        "stablehlo.return"(%s) : (tensor<bf16>) -> ()
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4096x2048xbf16>) -> tensor<4096x2048xbf16>
    %2 = "stablehlo.all_reduce"(%c) ({
      ^bb0(%x: tensor<f32>, %y: tensor<f32>):
        %s = "stablehlo.maximum"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<1024xf32>) -> tensor<1024xf32>
    %3 = "stablehlo.all_reduce"(%d) ({
      ^bb0(%x: tensor<f32>, %y: tensor<f32>):
        %s = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<3xf32>) -> tensor<3xf32>
    "func.return"(%0, %1, %2, %3) : (tensor<2048xf16>, tensor<4096x2048xbf16>, tensor<1024xf32>, tensor<3xf32>) -> ()
  }
}
