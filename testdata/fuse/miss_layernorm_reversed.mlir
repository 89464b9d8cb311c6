// y takes mean - x, not x - mean: the deviations' signs flip.
// fuse: not the broadcast mean %14 is read by stablehlo.subtract, not subtracted from h
module @block attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 2 : i32} {
  func.func public @main(%arg0: tensor<6x384xbf16>, %arg1: tensor<6x384xbf16>, %arg2: tensor<384xbf16>, %arg3: tensor<384xbf16>) -> (tensor<6x384xbf16>, tensor<6x384xbf16>) {
    %0 = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
      %s = stablehlo.add %a, %b : tensor<bf16>
      stablehlo.return %s : tensor<bf16>
    }) : (tensor<6x384xbf16>) -> tensor<6x384xbf16>
    %1 = stablehlo.add %arg1, %0 : tensor<6x384xbf16>
    %2 = stablehlo.convert %1 : (tensor<6x384xbf16>) -> tensor<6x384xf32>
    %cst = stablehlo.constant dense<-0.000000e+00> : tensor<f32>
    %3 = stablehlo.reduce(%2 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<6x384xf32>, tensor<f32>) -> tensor<6xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0] : (tensor<6xf32>) -> tensor<6x1xf32>
    %cst_0 = stablehlo.constant dense<3.840000e+02> : tensor<6x1xf32>
    %5 = stablehlo.divide %4, %cst_0 : tensor<6x1xf32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [0, 1] : (tensor<6x1xf32>) -> tensor<6x384xf32>
    %7 = stablehlo.subtract %2, %6 : tensor<6x384xf32>
    %8 = stablehlo.multiply %7, %7 : tensor<6x384xf32>
    %9 = stablehlo.reduce(%8 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<6x384xf32>, tensor<f32>) -> tensor<6xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0] : (tensor<6xf32>) -> tensor<6x1xf32>
    %11 = stablehlo.divide %10, %cst_0 : tensor<6x1xf32>
    %cst_1 = stablehlo.constant dense<9.99999997E-7> : tensor<6x1xf32>
    %12 = stablehlo.add %11, %cst_1 : tensor<6x1xf32>
    %13 = stablehlo.rsqrt %12 : tensor<6x1xf32>
    %14 = stablehlo.broadcast_in_dim %5, dims = [0, 1] : (tensor<6x1xf32>) -> tensor<6x384xf32>
    %15 = stablehlo.subtract %14, %2 : tensor<6x384xf32>
    %16 = stablehlo.broadcast_in_dim %13, dims = [0, 1] : (tensor<6x1xf32>) -> tensor<6x384xf32>
    %17 = stablehlo.multiply %15, %16 : tensor<6x384xf32>
    %18 = stablehlo.convert %arg2 : (tensor<384xbf16>) -> tensor<384xf32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [1] : (tensor<384xf32>) -> tensor<6x384xf32>
    %20 = stablehlo.multiply %17, %19 : tensor<6x384xf32>
    %21 = stablehlo.convert %arg3 : (tensor<384xbf16>) -> tensor<384xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [1] : (tensor<384xf32>) -> tensor<6x384xf32>
    %23 = stablehlo.add %20, %22 : tensor<6x384xf32>
    %24 = stablehlo.convert %23 : (tensor<6x384xf32>) -> tensor<6x384xbf16>
    return %1, %24 : tensor<6x384xbf16>, tensor<6x384xbf16>
  }
}
