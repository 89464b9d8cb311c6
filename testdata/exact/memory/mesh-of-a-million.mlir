// arc: --target tpu:v6e-8
// want: native groups unknown: replica_groups: 1048576 device ids to expand, beyond what arc expands
// A Shardy mesh of 2^20 devices in a few bytes: its groups are beyond what
// the module's size lets arc expand (Module.GroupLimit), so they stay
// unread, with the reason, and the op native.
module @mesh_big attributes {mhlo.num_partitions = 1048576 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=1048576]>
  func.func @main(%x: tensor<256xf32>) -> tensor<256xf32> {
    %0 = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = [#stablehlo.axis_ref<name = "x">]>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<256xf32>) -> tensor<256xf32>
    return %0 : tensor<256xf32>
  }
}
