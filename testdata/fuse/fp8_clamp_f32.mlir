// f32 I/O: y itself is scaled (multiplied, by 20 on the left), then
// stablehlo.clamp and the convert to f8E4M3FN.
// fuse: fused mean div 384 eps 1e-06 weight f32
// fp8: mul 20 by clamp
module @block attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 2 : i32} {
  func.func public @main(%arg0: tensor<6x384xf32>, %arg6: tensor<6x384xf32>, %arg7: tensor<384xf32>) -> (tensor<6x384xf32>, tensor<6x384xf32>, tensor<6x384xf8E4M3FN>) {
    %2 = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
    ^bb0(%arg8: tensor<f32>, %arg9: tensor<f32>):
      %25 = stablehlo.add %arg8, %arg9 : tensor<f32>
      stablehlo.return %25 : tensor<f32>
    }) : (tensor<6x384xf32>) -> tensor<6x384xf32>
    %3 = stablehlo.add %arg6, %2 : tensor<6x384xf32>
    %5 = chlo.square %3 : tensor<6x384xf32> -> tensor<6x384xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.reduce(%5 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<6x384xf32>, tensor<f32>) -> tensor<6xf32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [0] : (tensor<6xf32>) -> tensor<6x1xf32>
    %cst_0 = stablehlo.constant dense<3.840000e+02> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<6x1xf32>
    %9 = stablehlo.divide %7, %8 : tensor<6x1xf32>
    %cst_1 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<6x1xf32>
    %11 = stablehlo.add %9, %10 : tensor<6x1xf32>
    %12 = stablehlo.rsqrt %11 : tensor<6x1xf32>
    %13 = stablehlo.broadcast_in_dim %12, dims = [0, 1] : (tensor<6x1xf32>) -> tensor<6x384xf32>
    %14 = stablehlo.multiply %3, %13 : tensor<6x384xf32>
    %16 = stablehlo.broadcast_in_dim %arg7, dims = [1] : (tensor<384xf32>) -> tensor<1x384xf32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [0, 1] : (tensor<1x384xf32>) -> tensor<6x384xf32>
    %18 = stablehlo.multiply %14, %17 : tensor<6x384xf32>
    %cst_2 = stablehlo.constant dense<2.000000e+01> : tensor<6x384xf32>
    %22 = stablehlo.multiply %cst_2, %18 : tensor<6x384xf32>
    %cst_3 = stablehlo.constant dense<-4.480000e+02> : tensor<f32>
    %cst_4 = stablehlo.constant dense<4.480000e+02> : tensor<f32>
    %23 = stablehlo.clamp %cst_3, %22, %cst_4 : (tensor<f32>, tensor<6x384xf32>, tensor<f32>) -> tensor<6x384xf32>
    %24 = stablehlo.convert %23 : (tensor<6x384xf32>) -> tensor<6x384xf8E4M3FN>
    return %3, %18, %24 : tensor<6x384xf32>, tensor<6x384xf32>, tensor<6x384xf8E4M3FN>
  }
}
