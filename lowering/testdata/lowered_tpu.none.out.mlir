// mesh2d.mlir as arc compile --target tpu:v6e-8 writes it: ring-ordered explicit groups, lowered again
// for every target (select decides each all-reduce afresh for the target: arc's marks are replaced).
#loc1 = loc("x")
// A dp=2 x tp=4 program as JAX prints it (Shardy meshes, mesh-axes replica
// groups): all-reduces over tp, over dp, over both axes, over sub-axes of tp,
// and over tp of a second mesh whose device order is reversed.
module @jit_mesh2d attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["dp"=2, "tp"=4]>
  sdy.mesh @mesh_rev = <["dp"=2, "tp"=4], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>
  func.func public @main(%arg0: tensor<64x1024xf16> loc("x"), %arg1: tensor<4096x1024xbf16>, %arg2: tensor<256xf32>) -> (tensor<64x1024xf16> {jax.result_info = "result[0]"}, tensor<4096x1024xbf16>, tensor<256xf32>) {
    %0:3 = sdy.manual_computation(%arg0, %arg1, %arg2) in_shardings=[<@mesh, [{"dp"}, {}]>, <@mesh, [{}, {}]>, <@mesh, [{}]>] out_shardings=[<@mesh, [{"dp"}, {}]>, <@mesh, [{}, {}]>, <@mesh, [{}]>] manual_axes={"dp", "tp"} (%arg3: tensor<32x1024xf16>, %arg4: tensor<4096x1024xbf16>, %arg5: tensor<256xf32>) {
      %1 = "stablehlo.all_reduce"(%arg3) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 3, 2], [4, 5, 7, 6]]> : tensor<2x4xi64>, use_global_device_ids}> ({
      ^bb0(%arg6: tensor<f16>, %arg7: tensor<f16>):
        %8 = stablehlo.add %arg6, %arg7 : tensor<f16> loc(#loc2)
        stablehlo.return %8 : tensor<f16> loc(#loc2)
      }) {arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh; libtpu forced to a 1-D ring", arc.ring_max_hops = 1 : i64} : (tensor<32x1024xf16>) -> tensor<32x1024xf16> loc(#loc2)
      %2 = "stablehlo.all_reduce"(%arg4) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}> ({
      ^bb0(%arg6: tensor<bf16>, %arg7: tensor<bf16>):
        %8 = stablehlo.add %arg6, %arg7 : tensor<bf16>
        stablehlo.return %8 : tensor<bf16>
      }) {arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-8: rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring_max_hops = 2 : i64} : (tensor<4096x1024xbf16>) -> tensor<4096x1024xbf16>
      %3 = "stablehlo.all_reduce"(%arg5) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, use_global_device_ids}> ({
      ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
        %8 = stablehlo.add %arg6, %arg7 : tensor<f32>
        stablehlo.return %8 : tensor<f32>
      }) {arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh; libtpu forced to a 1-D ring", arc.ring_max_hops = 1 : i64} : (tensor<256xf32>) -> tensor<256xf32>
      %4 = "stablehlo.all_reduce"(%1) <{channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>, replica_groups = dense<[[0, 2], [1, 3], [4, 6], [5, 7]]> : tensor<4x2xi64>, use_global_device_ids}> ({
      ^bb0(%arg6: tensor<f16>, %arg7: tensor<f16>):
        %8 = stablehlo.add %arg6, %arg7 : tensor<f16>
        stablehlo.return %8 : tensor<f16>
      }) {arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh; libtpu forced to a 1-D ring", arc.ring_max_hops = 1 : i64} : (tensor<32x1024xf16>) -> tensor<32x1024xf16>
      %5 = "stablehlo.all_reduce"(%4) <{channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>, replica_groups = dense<[[0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi64>, use_global_device_ids}> ({
      ^bb0(%arg6: tensor<f16>, %arg7: tensor<f16>):
        %8 = stablehlo.add %arg6, %arg7 : tensor<f16>
        stablehlo.return %8 : tensor<f16>
      }) {arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh; libtpu forced to a 1-D ring", arc.ring_max_hops = 1 : i64} : (tensor<32x1024xf16>) -> tensor<32x1024xf16>
      %6 = "stablehlo.all_reduce"(%5) <{channel_handle = #stablehlo.channel_handle<handle = 6, type = 1>, replica_groups = dense<[[4, 5, 7, 6], [0, 1, 3, 2]]> : tensor<2x4xi64>, use_global_device_ids}> ({
      ^bb0(%arg6: tensor<f16>, %arg7: tensor<f16>):
        %8 = stablehlo.add %arg6, %arg7 : tensor<f16>
        stablehlo.return %8 : tensor<f16>
      }) {arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh; libtpu forced to a 1-D ring", arc.ring_max_hops = 1 : i64} : (tensor<32x1024xf16>) -> tensor<32x1024xf16>
      %7 = stablehlo.multiply %3, %3 : tensor<256xf32>
      sdy.return %6, %2, %7 : tensor<32x1024xf16>, tensor<4096x1024xbf16>, tensor<256xf32>
    } : (tensor<64x1024xf16>, tensor<4096x1024xbf16>, tensor<256xf32>) -> (tensor<64x1024xf16>, tensor<4096x1024xbf16>, tensor<256xf32>)
    return %0#0, %0#1, %0#2 : tensor<64x1024xf16>, tensor<4096x1024xbf16>, tensor<256xf32>
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc2 = loc("jit(step)/psum[axes=(\"tp\",)]"(#loc1))
