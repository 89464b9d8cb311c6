// arc: --target rocm:mi300x --quant int4
// The operands of one op are decided one by one: where they differ, each
// attribute holds one entry per operand. On ROCm the two-shot kernel is
// QuickReduce's (quickreduce).
module @multi attributes {stablehlo.num_replicas = 2 : i64} {
  func.func @main(%a: tensor<16777216xbf16>, %b: tensor<0xbf16>, %c: tensor<1048576xbf16>) -> (tensor<16777216xbf16>, tensor<0xbf16>, tensor<1048576xbf16>) {
    %0:3 = "stablehlo.all_reduce"(%a, %b, %c) ({
      ^bb0(%x: tensor<bf16>, %y: tensor<bf16>):
        %s = "stablehlo.add"(%x, %y) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
        "stablehlo.return"(%s) : (tensor<bf16>) -> ()
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<16777216xbf16>, tensor<0xbf16>, tensor<1048576xbf16>) -> (tensor<16777216xbf16>, tensor<0xbf16>, tensor<1048576xbf16>)
    "func.return"(%0#0, %0#1, %0#2) : (tensor<16777216xbf16>, tensor<0xbf16>, tensor<1048576xbf16>) -> ()
  }
}
