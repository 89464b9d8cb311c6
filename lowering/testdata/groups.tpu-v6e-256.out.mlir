// Replica groups of every shape arc meets, on 16 replicas (two hosts of 8 GPUs,
// or 16 TPU chips), each covering them all as StableHLO requires: 4 KiB f32 sums, so that only the groups decide.
module @groups attributes {stablehlo.num_replicas = 16 : i64, arc.target = "tpu:v6e-256", arc.env = {LIBTPU_INIT_ARGS = "--xla_tpu_force_1d_allreduce_at_chunk_count=1"}} {
  func.func @main(%x0: tensor<1024xf32>, %x1: tensor<1024xf32>, %x2: tensor<1024xf32>, %x3: tensor<1024xf32>, %x4: tensor<1024xf32>, %x5: tensor<1024xf32>, %x6: tensor<1024xf32>, %x7: tensor<1024xf32>, %x8: tensor<1024xf32>, %x9: tensor<1024xf32>, %x10: tensor<1024xf32>, %x11: tensor<1024xf32>, %x12: tensor<1024xf32>) -> (tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>) {
    // ragged groups of 3 and 2 (padded with -1): groups of different sizes.
    %r0 = "stablehlo.all_reduce"(%x0) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1, 2], [3, 4, -1], [5, 6, 7], [8, 9, 10], [11, 12, 13], [14, 15, -1]]> : tensor<6x3xi64>, arc.lowering = "native", arc.reason = "groups of different sizes"} : (tensor<1024xf32>) -> tensor<1024xf32>
    // padded with -1 but every group has 2 devices.
    %r1 = "stablehlo.all_reduce"(%x1) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1], [2, 3], [4, 5], [6, 7], [8, 9], [10, 11], [12, 13], [14, 15]]> : tensor<8x2xi64>, arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 1], [2, 3], [4, 5], [6, 7], [8, 9], [10, 11], [12, 13], [14, 15]]> : tensor<8x2xi64>, arc.ring_max_hops = 1 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (tensor<1024xf32>) -> tensor<1024xf32>
    // groups of 1 device.
    %r2 = "stablehlo.all_reduce"(%x2) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0], [1], [2], [3], [4], [5], [6], [7], [8], [9], [10], [11], [12], [13], [14], [15]]> : tensor<16x1xi64>, arc.lowering = "native", arc.reason = "groups of one device: nothing to exchange"} : (tensor<1024xf32>) -> tensor<1024xf32>
    // groups of 3 and of 6: testdata/worlds_3_6.mlir (16 replicas do not split into them); a group of 16 here.
    %r3 = "stablehlo.all_reduce"(%x3) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]]> : tensor<1x16xi64>, arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]]> : tensor<1x16xi64>, arc.ring_max_hops = 1 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>} : (tensor<1024xf32>) -> tensor<1024xf32>
    // and again a group of 16.
    %r4 = "stablehlo.all_reduce"(%x4) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]]> : tensor<1x16xi64>, arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]]> : tensor<1x16xi64>, arc.ring_max_hops = 1 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>} : (tensor<1024xf32>) -> tensor<1024xf32>
    // groups of 8, one per host.
    %r5 = "stablehlo.all_reduce"(%x5) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 2, 4, 6, 7, 5, 3, 1], [8, 10, 12, 14, 15, 13, 11, 9]]> : tensor<2x8xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1], [8, 10, 12, 14, 15, 13, 11, 9]]> : tensor<2x8xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>} : (tensor<1024xf32>) -> tensor<1024xf32>
    // a group of 8 spanning two hosts.
    %r6 = "stablehlo.all_reduce"(%x6) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[4, 6, 8, 10, 11, 9, 7, 5], [0, 14, 12, 13, 15, 1, 3, 2]]> : tensor<2x8xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[4, 6, 8, 10, 11, 9, 7, 5], [0, 14, 12, 13, 15, 1, 3, 2]]> : tensor<2x8xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>} : (tensor<1024xf32>) -> tensor<1024xf32>
    // a group of 2 spanning two hosts.
    %r7 = "stablehlo.all_reduce"(%x7) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[7, 8], [0, 1], [2, 3], [4, 5], [6, 9], [10, 11], [12, 13], [14, 15]]> : tensor<8x2xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 3 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[7, 8], [0, 1], [2, 3], [4, 5], [6, 9], [10, 11], [12, 13], [14, 15]]> : tensor<8x2xi64>, arc.ring_max_hops = 3 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 6, type = 1>} : (tensor<1024xf32>) -> tensor<1024xf32>
    // a group of 16: every device.
    %r8 = "stablehlo.all_reduce"(%x8) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]]> : tensor<1x16xi64>, arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]]> : tensor<1x16xi64>, arc.ring_max_hops = 1 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 7, type = 1>} : (tensor<1024xf32>) -> tensor<1024xf32>
    // strided pairs, as a dp=4 x tp=2 mesh's dp groups.
    %r9 = "stablehlo.all_reduce"(%x9) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 4], [1, 5], [2, 6], [3, 7], [8, 12], [9, 13], [10, 14], [11, 15]]> : tensor<8x2xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 4 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 4], [1, 5], [2, 6], [3, 7], [8, 12], [9, 13], [10, 14], [11, 15]]> : tensor<8x2xi64>, arc.ring_max_hops = 4 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 8, type = 1>} : (tensor<1024xf32>) -> tensor<1024xf32>
    // strided groups of 4, as a tp=4 x dp=2 mesh's tp groups.
    %r10 = "stablehlo.all_reduce"(%x10) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 4, 6, 2], [1, 5, 7, 3], [8, 12, 14, 10], [9, 13, 15, 11]]> : tensor<4x4xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 4 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 4, 6, 2], [1, 5, 7, 3], [8, 12, 14, 10], [9, 13, 15, 11]]> : tensor<4x4xi64>, arc.ring_max_hops = 4 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 9, type = 1>} : (tensor<1024xf32>) -> tensor<1024xf32>
    // groups given in a scrambled order.
    %r11 = "stablehlo.all_reduce"(%x11) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 2, 3, 1], [4, 6, 7, 5], [8, 10, 11, 9], [12, 14, 15, 13]]> : tensor<4x4xi64>, arc.lowering = "ring", arc.reason = "no 1-hop ring exists for these groups on tpu:v6e-256 (device ids read as x-minor chip coordinates): rings with at most 2 hops per step; libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 3, 1], [4, 6, 7, 5], [8, 10, 11, 9], [12, 14, 15, 13]]> : tensor<4x4xi64>, arc.ring_max_hops = 2 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 10, type = 1>} : (tensor<1024xf32>) -> tensor<1024xf32>
    // empty replica_groups: XLA's one group of all 16 replicas.
    %r12 = "stablehlo.all_reduce"(%x12) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]]> : tensor<1x16xi64>, arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]]> : tensor<1x16xi64>, arc.ring_max_hops = 1 : i64, use_global_device_ids, channel_handle = #stablehlo.channel_handle<handle = 11, type = 1>} : (tensor<1024xf32>) -> tensor<1024xf32>
    "func.return"(%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12) : (tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>) -> ()
  }
}
