module @misc attributes {stablehlo.num_replicas = 8, arc.target = "cuda:pcie"} {
  func.func @main(%x: tensor<6x8xbf16>, %y: tensor<4xf32>, %z: tensor<2x16xf16>, %n: tensor<256xf32>) -> (tensor<6x8xbf16>, tensor<4xf32>, tensor<2x16xf16>, tensor<256xf32>) {
    %0 = "stablehlo.all_reduce"(%x) ({
      ^computation(%lhs: tensor<bf16>, %rhs: tensor<bf16>) :
          %9 = "stablehlo.multiply"(%lhs, %rhs) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
          "stablehlo.return"(%9) : (tensor<bf16>) -> ()
    }) { replica_groups = dense<[[0, 1, 2, -1], [3, 4, 5, 6], [7, -1, -1, -1]]> : tensor<3x4xi64>, arc.lowering = "native", arc.reason = "reducer is product, arc's kernels sum" } : (tensor<6x8xbf16>) -> tensor<6x8xbf16>
    %1 = "stablehlo.collective_permute"(%y) { source_target_pairs = dense<[[0, 1], [1, 2], [2, 0]]> : tensor<3x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 3, type = 1> } : (tensor<4xf32>) -> tensor<4xf32>
    %2 = "stablehlo.all_to_all"(%z) { split_dimension = 1 : i64, concat_dimension = 1 : i64, split_count = 2 : i64, replica_groups = dense<"0x00000000000000000100000000000000020000000000000003000000000000000400000000000000050000000000000006000000000000000700000000000000"> : tensor<4x2xi64> } : (tensor<2x16xf16>) -> tensor<2x16xf16>
    %3 = "stablehlo.collective_broadcast"(%2) { replica_groups = dense<[[4, 5]]> : tensor<1x2xi64> } : (tensor<2x16xf16>) -> tensor<2x16xf16>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %4:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %n) : tensor<i64>, tensor<256xf32>
     cond {
      %c_1 = stablehlo.constant dense<4> : tensor<i64>
      %7 = stablehlo.compare  LT, %iterArg, %c_1,  SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %7 : tensor<i1>
    } do {
      %7 = "stablehlo.custom_call"(%iterArg_0) {api_version = 4 : i32, arc.est_us = 8.04 : f64, arc.lowering = "oneshot", arc.native_us = 25.05 : f64, arc.reason = "oneshot: est 8.0 us vs native 25.0 us (3.1x)", backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", devices = array<i64: 0, 2, 1, 3, 4, 6, 5, 7>, groups = array<i64: 0, 2, 1, 3, 4, 6, 5, 7>, link = "peer", world = 2 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<256xf32>) -> tensor<256xf32>
      %c_2 = stablehlo.constant dense<1> : tensor<i64>
      %8 = stablehlo.add %iterArg, %c_2 : tensor<i64>
      stablehlo.return %8, %7 : tensor<i64>, tensor<256xf32>
    }
    "stablehlo.return"(%0, %1, %3, %4#1) : (tensor<6x8xbf16>, tensor<4xf32>, tensor<2x16xf16>, tensor<256xf32>) -> ()
  }
}
