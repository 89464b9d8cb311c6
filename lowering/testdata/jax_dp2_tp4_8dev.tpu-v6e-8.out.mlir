#loc1 = loc("x")
#loc2 = loc("w")
module @jit_dp_tp attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32, arc.target = "tpu:v6e-8", arc.env = {LIBTPU_INIT_ARGS = "--xla_tpu_force_1d_allreduce_at_chunk_count=1"}} {
  sdy.mesh @mesh = <["dp"=2, "tp"=4]>
  // A data-parallel x tensor-parallel step: one tp all-reduce per row-parallel matmul,
  // one dp all-reduce of the gradients, and a two-operand all-reduce.
  func.func public @main(%arg0: tensor<64x1024xf16> loc("x"), %arg1: tensor<1024x4096xf16> loc("w"), %arg2: tensor<8xf32>) -> (tensor<64x1024xf16> {jax.result_info = "result[0]"}, tensor<8xf32>, tensor<8xf32>) {
    %0:3 = sdy.manual_computation(%arg0, %arg1, %arg2) in_shardings=[<@mesh, [{"dp"}, {}]>, <@mesh, [{}, {"tp"}]>, <@mesh, [{}]>] out_shardings=[<@mesh, [{"dp"}, {}]>, <@mesh, [{}]>, <@mesh, [{}]>] manual_axes={"dp", "tp"} (%arg3: tensor<32x1024xf16>, %arg4: tensor<1024x1024xf16>, %arg5: tensor<8xf32>) {
      %1 = stablehlo.dot_general %arg3, %arg4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x1024xf16>, tensor<1024x1024xf16>) -> tensor<32x1024xf16> loc(#loc3)
      %2 = "stablehlo.all_reduce"(%1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 3, 2], [4, 5, 7, 6]]> : tensor<2x4xi64>, use_global_device_ids}> ({
      ^bb0(%arg6: tensor<f16>, %arg7: tensor<f16>):
        %5 = stablehlo.add %arg6, %arg7 : tensor<f16> loc(#loc4)
        stablehlo.return %5 : tensor<f16> loc(#loc4)
      }) {arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 1, 3, 2], [4, 5, 7, 6]]> : tensor<2x4xi64>, arc.ring_max_hops = 1 : i64} : (tensor<32x1024xf16>) -> tensor<32x1024xf16> loc(#loc4)
      %3:2 = "stablehlo.all_reduce"(%arg5, %arg5) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}> ({
      ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
        %5 = stablehlo.add %arg6, %arg7 : tensor<f32>
        stablehlo.return %5 : tensor<f32>
      }) {arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-8 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, arc.ring_max_hops = 2 : i64} : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
      %4 = stablehlo.multiply %3#0, %3#0 : tensor<8xf32> // "%3#0" in a comment is not a use
      sdy.return %2, %3#0, %4 : tensor<32x1024xf16>, tensor<8xf32>, tensor<8xf32>
    } : (tensor<64x1024xf16>, tensor<1024x4096xf16>, tensor<8xf32>) -> (tensor<64x1024xf16>, tensor<8xf32>, tensor<8xf32>)
    return %0#0, %0#1, %0#2 : tensor<64x1024xf16>, tensor<8xf32>, tensor<8xf32>
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc3 = loc("jit(step)/dot_general"(#loc1))
#loc4 = loc("jit(step)/psum[axes=(\"tp\",)]")
