// A weight made after the residual add by an op arc does not move (a sine):
// the fused call, in the add's place, could not read it, so nothing fuses.
// fuse: not %w1 is defined after the residual add, and it is made by stablehlo.sine, which arc does not move before the add
module @block attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 4 : i32} {
  func.func public @main(%arg0: tensor<2x3x256xf32>, %arg1: tensor<2x3x256xf32>, %arg2: tensor<256xf32>) -> (tensor<2x3x256xf32>, tensor<2x3x256xf32>) {
    %0 = "stablehlo.all_reduce"(%arg0) <{replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %b, %a : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<2x3x256xf32>) -> tensor<2x3x256xf32>
    %1 = stablehlo.add %0, %arg1 : tensor<2x3x256xf32>
    %2 = stablehlo.multiply %1, %1 : tensor<2x3x256xf32>
    %cst = stablehlo.constant dense<-0.000000e+00> : tensor<f32>
    %3 = stablehlo.reduce(%2 init: %cst) across dimensions = [2] : (tensor<2x3x256xf32>, tensor<f32>) -> tensor<2x3xf32>
     reducer(%x: tensor<f32>, %y: tensor<f32>)  {
      %r = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %r : tensor<f32>
    }
    %cst_0 = stablehlo.constant dense<3.906250e-03> : tensor<2x3xf32>
    %4 = stablehlo.multiply %cst_0, %3 : tensor<2x3xf32>
    %5 = stablehlo.reshape %4 : (tensor<2x3xf32>) -> tensor<2x3x1xf32>
    %cst_1 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2x3x1xf32>
    %7 = stablehlo.add %6, %5 : tensor<2x3x1xf32>
    %8 = stablehlo.rsqrt %7 : tensor<2x3x1xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<2x3x1xf32>) -> tensor<2x3x256xf32>
    %10 = stablehlo.multiply %9, %1 : tensor<2x3x256xf32>
    %w1 = stablehlo.sine %arg2 : tensor<256xf32>
    %11 = stablehlo.reshape %w1 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0, 1, 2] : (tensor<1x1x256xf32>) -> tensor<2x3x256xf32>
    %13 = stablehlo.multiply %12, %10 : tensor<2x3x256xf32>
    return %1, %13 : tensor<2x3x256xf32>, tensor<2x3x256xf32>
  }
}
