module @pretty attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x8xf32>, %arg1: tensor<i64>) -> (tensor<4xf32>, tensor<i64>) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
     reducer(%a: tensor<f32>, %b: tensor<f32>)  {
      %5 = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %5 : tensor<f32>
    }
    %1 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %2:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %0) : tensor<i64>, tensor<4xf32>
     cond {
      %5 = stablehlo.compare  LT, %iterArg, %arg1,  SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %5 : tensor<i1>
    } do {
      %c_1 = stablehlo.constant dense<1> : tensor<i64>
      %5 = stablehlo.add %iterArg, %c_1 : tensor<i64>
      %6 = stablehlo.add %iterArg_0, %1 : tensor<4xf32>
      stablehlo.return %5, %6 : tensor<i64>, tensor<4xf32>
    }
    %3 = stablehlo.multiply %2#1, %2#1 : tensor<4xf32>
    %4 = stablehlo.convert %2#0 : (tensor<i64>) -> tensor<i64>
    return %3, %4 : tensor<4xf32>, tensor<i64>
  }
  func.func private @helper(%arg0: tensor<f32>) -> tensor<f32> attributes {llvm.emit_c_interface} {
    %0 = call @callee(%arg0) : (tensor<f32>) -> tensor<f32>
    call @sink() : () -> ()
    return %0 : tensor<f32>
  }
  func.func private @sink() {
    return
  }
  func.func private @callee(%arg0: tensor<f32>) -> tensor<f32> {
    return %arg0 : tensor<f32>
  }
}
