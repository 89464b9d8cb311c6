module @attrs attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22x\22=2]>}"}, mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @main(%arg0: tensor<2x2xi64>) -> tensor<2x2xi64> {
    %0 = "stablehlo.custom_call"(%arg0) {api_version = 4 : i32, backend_config = {nested = {deeper = [1, 2, {x = "}"}], angle = #foo<a<b<c>>>}, s = "esc \\ \" \n \t end"}, call_target_name = "x", has_side_effect = true, operand_layouts = [dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<2x2xi64>) -> tensor<2x2xi64>
    %1 = "stablehlo.all_reduce"(%0) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %3 = "stablehlo.add"(%a, %b) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      "stablehlo.return"(%3) : (tensor<i64>) -> ()
    }) {
      channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>,
      replica_groups = dense<"0x00000000000000000100000000000000"> : tensor<1x2xi64>,
      "quoted.name" = "value, with = signs",
      use_global_device_ids
    } : (tensor<2x2xi64>) -> tensor<2x2xi64>
    %2 = "stablehlo.all_reduce"(%1) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %3 = "stablehlo.and"(%a, %b) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      "stablehlo.return"(%3) : (tensor<i64>) -> ()
    }) {replica_groups = dense<0> : tensor<1x1xi64>} : (tensor<2x2xi64>) -> tensor<2x2xi64>
    "stablehlo.return"(%2) : (tensor<2x2xi64>) -> ()
  }
}
