// An earlier function declares a %w of the I/O type; main's own %w is f32.
// A value's type is read where the use sees it defined (MLIR's scoping), so
// main's weight is f32, which arc's kernel does not take: not fused.
// fuse: not the weight %w is f32
module @block attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 2 : i32} {
  func.func private @scale(%w: tensor<256xbf16>) -> tensor<256xbf16> {
    %0 = stablehlo.add %w, %w : tensor<256xbf16>
    return %0 : tensor<256xbf16>
  }
  func.func public @main(%x: tensor<4x256xbf16>, %r: tensor<4x256xbf16>, %w: tensor<256xf32>) -> (tensor<4x256xbf16>, tensor<4x256xbf16>) {
    %0 = "stablehlo.all_reduce"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
    ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
      %s = stablehlo.add %a, %b : tensor<bf16>
      stablehlo.return %s : tensor<bf16>
    }) : (tensor<4x256xbf16>) -> tensor<4x256xbf16>
    %1 = stablehlo.add %r, %0 : tensor<4x256xbf16>
    %2 = stablehlo.convert %1 : (tensor<4x256xbf16>) -> tensor<4x256xf32>
    %3 = stablehlo.multiply %2, %2 : tensor<4x256xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.reduce(%3 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<4x256xf32>, tensor<f32>) -> tensor<4xf32>
    %5 = stablehlo.reshape %4 : (tensor<4xf32>) -> tensor<4x1xf32>
    %cst_0 = stablehlo.constant dense<2.560000e+02> : tensor<4x1xf32>
    %6 = stablehlo.divide %5, %cst_0 : tensor<4x1xf32>
    %cst_1 = stablehlo.constant dense<9.99999997E-7> : tensor<4x1xf32>
    %7 = stablehlo.add %6, %cst_1 : tensor<4x1xf32>
    %8 = stablehlo.rsqrt %7 : tensor<4x1xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x256xf32>
    %10 = stablehlo.multiply %2, %9 : tensor<4x256xf32>
    %11 = stablehlo.broadcast_in_dim %w, dims = [1] : (tensor<256xf32>) -> tensor<4x256xf32>
    %12 = stablehlo.multiply %10, %11 : tensor<4x256xf32>
    %13 = stablehlo.convert %12 : (tensor<4x256xf32>) -> tensor<4x256xbf16>
    return %1, %13 : tensor<4x256xbf16>, tensor<4x256xbf16>
  }
}
