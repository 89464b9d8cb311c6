// Shardy: meshes in the pretty, attribute and generic forms, shardings on
// arguments and results, manual computations (with braces that are sets of
// axes, not regions), Shardy's own collectives and edges, and StableHLO
// all-reduces over mesh axes and sub-axes inside a manual computation.
module @shardy attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22x\22=4]>}"}, mhlo.num_partitions = 8 : i32} {
  sdy.mesh @mesh = <["x"=4, "y"=2]>
  sdy.mesh @ids = #sdy.mesh<["a"=2], device_ids=[1, 0]>
  sdy.mesh @maximal = <[], device_ids=[3]>
  "sdy.mesh"() <{mesh = #sdy.mesh<["p"=2, "q"=2]>, sym_name = "generic"}> : () -> ()
  func.func @main(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y", ?}]>}, %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>})
      -> (tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x", ?}, {?}]> : tensor<16x8xf32>
    %1 = sdy.reshard %0 <@mesh, [{"x"}, {}]> : tensor<16x8xf32>
    %2 = sdy.manual_computation(%1, %arg1) in_shardings=[<@mesh, [{"x"}, {"y"}]>, <@mesh, [{}]>] out_shardings=[<@mesh, [{"x"}, {"y"}]>] manual_axes={"x", "y"} (%arg2: tensor<4x4xf32>, %arg3: tensor<8xf32>) {
      %3 = "stablehlo.all_reduce"(%arg2) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = [#stablehlo.axis_ref<name = "x", sub_axis_info = (1)2>]>, use_global_device_ids}> ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %s : tensor<f32>
      }) : (tensor<4x4xf32>) -> tensor<4x4xf32>
      %4 = "stablehlo.all_reduce"(%3) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = [#stablehlo.axis_ref<name = "y">, #stablehlo.axis_ref<name = "x", sub_axis_info = (2)2>]>, use_global_device_ids}> ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %s : tensor<f32>
      }) : (tensor<4x4xf32>) -> tensor<4x4xf32>
      sdy.return %4 : tensor<4x4xf32>
    } : (tensor<16x8xf32>, tensor<8xf32>) -> tensor<16x8xf32>
    %5 = sdy.manual_computation(%2) in_shardings=[<@mesh, [{}, {}]>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={} (%arg2: tensor<16x8xf32>) { sdy.return %arg2 : tensor<16x8xf32> } : (tensor<16x8xf32>) -> tensor<16x8xf32>
    %6 = sdy.named_computation<"inner">(%5) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {"y"}]>] (%arg2: tensor<16x8xf32>) {
      %7 = stablehlo.abs %arg2 : tensor<16x8xf32>
      sdy.return %7 : tensor<16x8xf32>
    } : (tensor<16x8xf32>) -> tensor<16x8xf32>
    %8 = sdy.all_gather [{}, {"y"}] %6 out_sharding=<@mesh, [{"x"}, {}]> : tensor<16x8xf32>
    %9 = sdy.all_slice [{}, {"y"}] %8 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<16x8xf32>
    %10 = sdy.all_reduce {"y"} %8 out_sharding=<@mesh, [{"x"}, {}]> : tensor<16x8xf32>
    %11 = sdy.all_to_all [{"x"}: 0->1] %10 out_sharding=<@mesh, [{}, {"x"}]> : tensor<16x8xf32>
    %12 = sdy.collective_permute %9 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<16x8xf32>
    %13 = sdy.reduce_scatter [{}, {"y"}] %10 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<16x8xf32>
    %14 = sdy.propagation_barrier %13 allowed_direction=BACKWARD : tensor<16x8xf32>
    %15 = stablehlo.custom_call @foo(%14) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=16, j=8} reduction={j}, custom>} : (tensor<16x8xf32>) -> tensor<16x8xf32>
    sdy.sharding_group %15 group_id = 0 : tensor<16x8xf32>
    %16 = sdy.data_flow_edge %15 sharding=<@mesh, [{"x"}, {}]> : tensor<16x8xf32>
    return %16 : tensor<16x8xf32>
  }
}
