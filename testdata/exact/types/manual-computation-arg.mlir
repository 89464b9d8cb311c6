// arc: --target cuda:nvlink
// want: lowered
// Shardy's manual computation declares its region's arguments in its header
// ((%local: tensor<...>)) and states its function type after the region.
module @shmap attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2]>
  func.func @main(%arg0: tensor<16x1024xbf16>) -> tensor<8x1024xbf16> {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%local: tensor<8x1024xbf16>) {
      %t = stablehlo.tanh %local : tensor<8x1024xbf16>
      %1 = "stablehlo.all_reduce"(%t) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
      ^bb0(%l: tensor<bf16>, %r: tensor<bf16>):
        %s = stablehlo.add %l, %r : tensor<bf16>
        stablehlo.return %s : tensor<bf16>
      }) : (tensor<8x1024xbf16>) -> tensor<8x1024xbf16>
      sdy.return %1 : tensor<8x1024xbf16>
    } : (tensor<16x1024xbf16>) -> tensor<16x1024xbf16>
    %2 = stablehlo.slice %0 [0:8, 0:1024] : (tensor<16x1024xbf16>) -> tensor<8x1024xbf16>
    return %2 : tensor<8x1024xbf16>
  }
}
