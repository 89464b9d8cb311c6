// Replica groups of every shape arc meets, on 16 replicas (two hosts of 8 GPUs,
// or 16 TPU chips), each covering them all as StableHLO requires: 4 KiB f32 sums, so that only the groups decide.
module @groups attributes {stablehlo.num_replicas = 16 : i64, arc.target = "cuda:pcie-2numa"} {
  func.func @main(%x0: tensor<1024xf32>, %x1: tensor<1024xf32>, %x2: tensor<1024xf32>, %x3: tensor<1024xf32>, %x4: tensor<1024xf32>, %x5: tensor<1024xf32>, %x6: tensor<1024xf32>, %x7: tensor<1024xf32>, %x8: tensor<1024xf32>, %x9: tensor<1024xf32>, %x10: tensor<1024xf32>, %x11: tensor<1024xf32>, %x12: tensor<1024xf32>) -> (tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>) {
    // ragged groups of 3 and 2 (padded with -1): groups of different sizes.
    %r0 = "stablehlo.all_reduce"(%x0) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1, 2], [3, 4, -1], [5, 6, 7], [8, 9, 10], [11, 12, 13], [14, 15, -1]]> : tensor<6x3xi64>, arc.lowering = "native", arc.reason = "groups of different sizes (3 and 2 devices)"} : (tensor<1024xf32>) -> tensor<1024xf32>
    // padded with -1 but every group has 2 devices.
    %r1 = "stablehlo.custom_call"(%x1) {api_version = 4 : i32, arc.est_us = 8.16 : f64, arc.lowering = "oneshot", arc.native_us = 30.19 : f64, arc.reason = "oneshot: est 8.2 us vs native 30.2 us (3.7x)", backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", devices = array<i64: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15>, groups = array<i64: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15>, link = "peer", world = 2 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<1024xf32>) -> tensor<1024xf32>
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
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]]> : tensor<1x16xi64>, arc.lowering = "native", arc.reason = "group size 16: arc's kernels run on 2, 4 or 8 devices (6 for one-shot)"} : (tensor<1024xf32>) -> tensor<1024xf32>
    // and again a group of 16.
    %r4 = "stablehlo.all_reduce"(%x4) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]]> : tensor<1x16xi64>, arc.lowering = "native", arc.reason = "group size 16: arc's kernels run on 2, 4 or 8 devices (6 for one-shot)"} : (tensor<1024xf32>) -> tensor<1024xf32>
    // groups of 8, one per host.
    %r5 = "stablehlo.custom_call"(%x5) {api_version = 4 : i32, arc.est_us = 16.46 : f64, arc.lowering = "oneshot", arc.native_us = 42.7 : f64, arc.reason = "oneshot: est 16.5 us vs native 42.7 us (2.6x)", backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", devices = array<i64: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15>, groups = array<i64: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15>, link = "peer", world = 8 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    // a group of 8 spanning two hosts.
    %r6 = "stablehlo.all_reduce"(%x6) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[4, 5, 6, 7, 8, 9, 10, 11], [0, 1, 2, 3, 12, 13, 14, 15]]> : tensor<2x8xi64>, arc.lowering = "native", arc.reason = "group [4 5 6 7 8 9 10 11] spans hosts of 8 devices"} : (tensor<1024xf32>) -> tensor<1024xf32>
    // a group of 2 spanning two hosts.
    %r7 = "stablehlo.all_reduce"(%x7) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[7, 8], [0, 1], [2, 3], [4, 5], [6, 9], [10, 11], [12, 13], [14, 15]]> : tensor<8x2xi64>, arc.lowering = "native", arc.reason = "group [7 8] spans hosts of 8 devices"} : (tensor<1024xf32>) -> tensor<1024xf32>
    // a group of 16: every device.
    %r8 = "stablehlo.all_reduce"(%x8) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]]> : tensor<1x16xi64>, arc.lowering = "native", arc.reason = "group size 16: arc's kernels run on 2, 4 or 8 devices (6 for one-shot)"} : (tensor<1024xf32>) -> tensor<1024xf32>
    // strided pairs, as a dp=4 x tp=2 mesh's dp groups.
    %r9 = "stablehlo.custom_call"(%x9) {api_version = 4 : i32, arc.est_us = 8.16 : f64, arc.lowering = "oneshot", arc.native_us = 30.19 : f64, arc.reason = "oneshot: est 8.2 us vs native 30.2 us (3.7x)", backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", devices = array<i64: 0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15>, groups = array<i64: 0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15>, link = "peer", world = 2 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    // strided groups of 4, as a tp=4 x dp=2 mesh's tp groups.
    %r10 = "stablehlo.custom_call"(%x10) {api_version = 4 : i32, arc.est_us = 9.47 : f64, arc.lowering = "oneshot", arc.native_us = 34.28 : f64, arc.reason = "oneshot: est 9.5 us vs native 34.3 us (3.6x)", backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", devices = array<i64: 0, 2, 4, 6, 1, 3, 5, 7, 8, 10, 12, 14, 9, 11, 13, 15>, groups = array<i64: 0, 2, 4, 6, 1, 3, 5, 7, 8, 10, 12, 14, 9, 11, 13, 15>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    // groups given in a scrambled order.
    %r11 = "stablehlo.custom_call"(%x11) {api_version = 4 : i32, arc.est_us = 9.47 : f64, arc.lowering = "oneshot", arc.native_us = 34.28 : f64, arc.reason = "oneshot: est 9.5 us vs native 34.3 us (3.6x)", backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", devices = array<i64: 3, 0, 2, 1, 6, 5, 7, 4, 11, 8, 10, 9, 14, 13, 15, 12>, groups = array<i64: 3, 0, 2, 1, 6, 5, 7, 4, 11, 8, 10, 9, 14, 13, 15, 12>, link = "peer", world = 4 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<1024xf32>) -> tensor<1024xf32>
    // empty replica_groups: XLA's one group of all 16 replicas.
    %r12 = "stablehlo.all_reduce"(%x12) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<> : tensor<0x0xi64>, arc.lowering = "native", arc.reason = "group size 16: arc's kernels run on 2, 4 or 8 devices (6 for one-shot)"} : (tensor<1024xf32>) -> tensor<1024xf32>
    "func.return"(%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12) : (tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>) -> ()
  }
}
