// Generic form as go-xla prints it, plus properties, packed results and a
// two-block region.
module @generic attributes {stablehlo.num_replicas = 2 : i64, mhlo.num_partitions = 1 : i64} {
  func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>, %c: tensor<i32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %0:2 = "stablehlo.all_reduce"(%x, %y) <{channel_handle = #stablehlo.channel_handle<handle = 7, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %1 = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1) : (tensor<f32>) -> ()
    }) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
    %2 = "stablehlo.constant"() <{value = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>}> : () -> tensor<4xf32>
    %3 = "stablehlo.add"(%0#0, %2) {mhlo.frontend_attributes = {_xla_note = "a \"quoted\" {brace} [bracket] <angle> \\ back"}} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %4 = "stablehlo.custom_call"(%3) {call_target_name = "foo", backend_config = {k = 1 : i64, s = "v"}, api_version = 4 : i32} : (tensor<4xf32>) -> tensor<4xf32>
    %5 = "stablehlo.case"(%c) ({
      "stablehlo.return"(%4) : (tensor<4xf32>) -> ()
    }, {
      "stablehlo.return"(%3) : (tensor<4xf32>) -> ()
    }) : (tensor<i32>) -> tensor<4xf32>
    "stablehlo.return"(%5, %0#1) : (tensor<4xf32>, tensor<4xf32>) -> ()
  }
}
