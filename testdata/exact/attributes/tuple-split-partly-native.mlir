// arc: --target rocm:mi300x --min-bytes 1K
// want: lowered quickreduce fp algo=twoshot
// want: native below --min-bytes 1024
// Three results under one tuple sharding: the two operands that run arc's
// kernels become calls with their own entries, the 24-byte one, below
// --min-bytes, stays in an all-reduce of its own with its own entry; every
// result keeps its value.
module @tuple_split attributes {mhlo.num_replicas = 8 : i32} {
  func.func @main(%x: tensor<4096x256xbf16>, %y: tensor<12xbf16>, %z: tensor<512xbf16>) -> (tensor<4096x256xbf16>, tensor<12xbf16>, tensor<512xbf16>) {
    %0:3 = "stablehlo.all_reduce"(%x, %y, %z) ({
    ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
      %s = stablehlo.add %a, %b : tensor<bf16>
      stablehlo.return %s : tensor<bf16>
    }) {mhlo.sharding = "{{devices=[8,1]<=[8]}, {replicated}, {maximal device=3}}", replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>} : (tensor<4096x256xbf16>, tensor<12xbf16>, tensor<512xbf16>) -> (tensor<4096x256xbf16>, tensor<12xbf16>, tensor<512xbf16>)
    return %0#0, %0#1, %0#2 : tensor<4096x256xbf16>, tensor<12xbf16>, tensor<512xbf16>
  }
}
