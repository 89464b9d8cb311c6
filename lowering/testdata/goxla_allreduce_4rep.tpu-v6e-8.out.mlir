module @tp_block attributes {stablehlo.num_replicas = 4, arc.target = "tpu:v6e-8", arc.env = {LIBTPU_INIT_ARGS = "--xla_tpu_force_1d_allreduce_at_chunk_count=1"}} {
  func.func @main(%x: tensor<8x1024xf16>, %y: tensor<16xf32>) -> (tensor<8x1024xf16>, tensor<16xf32>) {
    %1 = "stablehlo.all_reduce"(%x) ({
      ^computation(%lhs: tensor<f16>, %rhs: tensor<f16>) :
          %0 = "stablehlo.add"(%lhs, %rhs) : (tensor<f16>, tensor<f16>) -> tensor<f16>
          "stablehlo.return"(%0) : (tensor<f16>) -> ()
    }) { replica_groups = dense<[[0, 1, 3, 2]]> : tensor<1x4xi64>, arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 1, 3, 2]]> : tensor<1x4xi64>, arc.ring_max_hops = 1 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1> } : (tensor<8x1024xf16>) -> tensor<8x1024xf16>
    %3 = "stablehlo.all_reduce"(%y) ({
      ^computation(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %2 = "stablehlo.maximum"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%2) : (tensor<f32>) -> ()
    }) { replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, arc.ring_max_hops = 1 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1> } : (tensor<16xf32>) -> tensor<16xf32>
    %4 = "stablehlo.multiply"(%1, %1) : (tensor<8x1024xf16>, tensor<8x1024xf16>) -> tensor<8x1024xf16>
    "stablehlo.return"(%4, %3) : (tensor<8x1024xf16>, tensor<16xf32>) -> ()
  }
}
