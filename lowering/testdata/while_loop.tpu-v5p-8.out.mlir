// All-reduces inside control flow, as JAX prints a training loop: one in the
// body of a stablehlo.while (its result carried to the next iteration), one
// in a private function the body calls, and one after the loop on its result.
module @jit_train_loop attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 4 : i32, arc.target = "tpu:v5p-8", arc.env = {LIBTPU_INIT_ARGS = "--xla_tpu_force_1d_allreduce_at_chunk_count=1"}} {
  func.func public @main(%arg0: tensor<512x512xbf16>, %arg1: tensor<i32>) -> (tensor<512x512xbf16> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %arg0) : tensor<i32>, tensor<512x512xbf16>
    cond {
      %3 = stablehlo.compare  LT, %iterArg, %arg1,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %3 : tensor<i1>
    } do {
      %3 = "stablehlo.all_reduce"(%iterArg_0) <{replica_groups = dense<[[0, 1, 3, 2]]> : tensor<1x4xi64>, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>}> ({
      ^bb0(%arg2: tensor<bf16>, %arg3: tensor<bf16>):
        %7 = stablehlo.add %arg2, %arg3 : tensor<bf16>
        stablehlo.return %7 : tensor<bf16>
      }) {arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 1, 3, 2]]> : tensor<1x4xi64>, arc.ring_max_hops = 1 : i64} : (tensor<512x512xbf16>) -> tensor<512x512xbf16>
      %4 = func.call @scale(%3) : (tensor<512x512xbf16>) -> tensor<512x512xbf16>
      %c_1 = stablehlo.constant dense<1> : tensor<i32>
      %5 = stablehlo.add %iterArg, %c_1 : tensor<i32>
      stablehlo.return %5, %4 : tensor<i32>, tensor<512x512xbf16>
    }
    %1 = "stablehlo.all_reduce"(%0#1) <{replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>}> ({
    ^bb0(%arg2: tensor<bf16>, %arg3: tensor<bf16>):
      %7 = stablehlo.add %arg2, %arg3 : tensor<bf16>
      stablehlo.return %7 : tensor<bf16>
    }) {arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, arc.ring_max_hops = 1 : i64} : (tensor<512x512xbf16>) -> tensor<512x512xbf16>
    return %1 : tensor<512x512xbf16>
  }
  func.func private @scale(%arg0: tensor<512x512xbf16>) -> tensor<512x512xbf16> {
    %0 = "stablehlo.all_reduce"(%arg0) <{replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>}> ({
    ^bb0(%arg1: tensor<bf16>, %arg2: tensor<bf16>):
      %2 = stablehlo.maximum %arg1, %arg2 : tensor<bf16>
      stablehlo.return %2 : tensor<bf16>
    }) {arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, arc.ring_max_hops = 1 : i64} : (tensor<512x512xbf16>) -> tensor<512x512xbf16>
    %1 = stablehlo.divide %arg0, %0 : tensor<512x512xbf16>
    return %1 : tensor<512x512xbf16>
  }
}
