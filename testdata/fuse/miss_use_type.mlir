// The same norm, but the reshape states its operand as tensor<4xbf16> where the reduce
// defines it as tensor<4xf32>: MLIR refuses such a use, and arc never fuses what it read
// by a type the value does not have.
// fuse: not uses %3 as tensor<4xbf16>, which is tensor<4xf32>
module @block attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 2 : i32} {
  func.func public @main(%arg0: tensor<4x64xf32>, %arg1: tensor<4x64xf32>, %arg2: tensor<64xf32>) -> (tensor<4x64xf32>, tensor<4x64xf32>) {
    %0 = "stablehlo.all_reduce"(%arg0) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<4x64xf32>) -> tensor<4x64xf32>
    %1 = stablehlo.add %arg1, %0 : tensor<4x64xf32>
    %2 = stablehlo.multiply %1, %1 : tensor<4x64xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.reduce(%2 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<4x64xf32>, tensor<f32>) -> tensor<4xf32>
    %4 = stablehlo.reshape %3 : (tensor<4xbf16>) -> tensor<4x1xf32>
    %cst_0 = stablehlo.constant dense<6.400000e+01> : tensor<4x1xf32>
    %5 = stablehlo.divide %4, %cst_0 : tensor<4x1xf32>
    %cst_1 = stablehlo.constant dense<9.99999997E-7> : tensor<4x1xf32>
    %6 = stablehlo.add %5, %cst_1 : tensor<4x1xf32>
    %7 = stablehlo.rsqrt %6 : tensor<4x1xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x64xf32>
    %9 = stablehlo.multiply %1, %8 : tensor<4x64xf32>
    %10 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<64xf32>) -> tensor<4x64xf32>
    %11 = stablehlo.multiply %9, %10 : tensor<4x64xf32>
    return %11, %1 : tensor<4x64xf32>, tensor<4x64xf32>
  }
}
