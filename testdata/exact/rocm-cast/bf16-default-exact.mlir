// arc: --target rocm:mi300x
// want: lowered quickreduce fp algo=twoshot cast=0
// A 16 MiB bf16 sum at TP2: QuickReduce would send it as f16 (70000 + 1 gave
// +Inf). arc's default keeps bf16 on the wire: an exact sum.
module @bf16_default attributes {mhlo.num_replicas = 2 : i32} {
  func.func @main(%x: tensor<8388608xbf16>) -> tensor<8388608xbf16> {
    %0 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
      %s = stablehlo.add %a, %b : tensor<bf16>
      stablehlo.return %s : tensor<bf16>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8388608xbf16>) -> tensor<8388608xbf16>
    return %0 : tensor<8388608xbf16>
  }
}
