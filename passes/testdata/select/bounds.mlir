// arc: --target cuda:pcie --min-bytes 64K --max-bytes 16M
// --min-bytes and --max-bytes keep what lies outside them native, with
// the bound in the reason; what lies inside is decided as always.
module @bounds attributes {stablehlo.num_replicas = 2 : i64} {
  func.func @main(%a: tensor<2048xf16>, %b: tensor<1048576xf16>, %c: tensor<33554432xf16>) -> (tensor<2048xf16>, tensor<1048576xf16>, tensor<33554432xf16>) {
    %0 = "stablehlo.all_reduce"(%a) ({
      ^bb0(%x: tensor<f16>, %y: tensor<f16>):
        %s = "stablehlo.add"(%x, %y) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2048xf16>) -> tensor<2048xf16>
    %1 = "stablehlo.all_reduce"(%b) ({
      ^bb0(%x: tensor<f16>, %y: tensor<f16>):
        %s = "stablehlo.add"(%x, %y) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<1048576xf16>) -> tensor<1048576xf16>
    %2 = "stablehlo.all_reduce"(%c) ({
      ^bb0(%x: tensor<f16>, %y: tensor<f16>):
        %s = "stablehlo.add"(%x, %y) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<33554432xf16>) -> tensor<33554432xf16>
    "func.return"(%0, %1, %2) : (tensor<2048xf16>, tensor<1048576xf16>, tensor<33554432xf16>) -> ()
  }
}
