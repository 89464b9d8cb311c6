#loc1 = loc("x")
#loc2 = loc("/work/model.py":12:0)
module @jit_step attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2]> loc(#loc)
  func.func public @main(%arg0: tensor<?x16xbf16> {mhlo.layout_mode = "default", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>} loc("x"), %arg1: tensor<16xbf16> {jax.buffer_donor = true, mhlo.layout_mode = "default"} loc(#loc1)) -> (tensor<16xbf16> {jax.result_info = "result[0]", mhlo.layout_mode = "default"}, tensor<i32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x16xbf16>) -> tensor<i32> loc(#loc4)
    %1 = call @_wrapped(%0, %arg0, %arg1) : (tensor<i32>, tensor<?x16xbf16>, tensor<16xbf16>) -> tensor<16xbf16> loc(#loc5)
    return %1, %0 : tensor<16xbf16>, tensor<i32> loc(#loc)
  } loc(#loc)
  func.func private @_wrapped(%arg0: tensor<i32> {jax.global_constant = "b"} loc(unknown), %arg1: tensor<?x16xbf16> loc(unknown), %arg2: tensor<16xbf16> loc(unknown)) -> tensor<16xbf16> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<bf16> loc(#loc)
    %0 = stablehlo.reduce(%arg1 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<?x16xbf16>, tensor<bf16>) -> tensor<16xbf16> loc(#loc6)
    %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"data"} (%arg3: tensor<16xbf16> loc(unknown)) {
      %2 = "stablehlo.all_reduce"(%arg3) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = [#stablehlo.axis_ref<name = "data">]>, use_global_device_ids}> ({
      ^bb0(%arg4: tensor<bf16> loc(unknown), %arg5: tensor<bf16> loc(unknown)):
        %3 = stablehlo.add %arg4, %arg5 : tensor<bf16> loc(#loc7)
        stablehlo.return %3 : tensor<bf16> loc(#loc7)
      }) : (tensor<16xbf16>) -> tensor<16xbf16> loc(#loc7)
      sdy.return %2 : tensor<16xbf16> loc(#loc)
    } : (tensor<16xbf16>) -> tensor<16xbf16> loc(#loc8)
    %4 = stablehlo.custom_call @Sharding(%1) {backend_config = "", mhlo.sharding = "{replicated}"} : (tensor<16xbf16>) -> tensor<16xbf16> loc(#loc)
    %5 = stablehlo.add %4, %arg2 : tensor<16xbf16> loc(#loc)
    return %5 : tensor<16xbf16> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc3 = loc("jit(step)"(#loc2))
#loc4 = loc("jit(step)/dimension_size"(#loc2))
#loc5 = loc("jit(step)/pjit"(#loc2))
#loc6 = loc("jit(step)/reduce_sum"(#loc2))
#loc7 = loc("jit(step)/psum"(#loc2))
#loc8 = loc(callsite(#loc3 at fused[#loc2, "shard_map"]))
