// arc: --target rocm:mi300x --cast-bf16-to-fp16
// want: lowered quickreduce fp algo=twoshot cast=0: quickreduce fp: est
// The cast is of bf16 only: an f16 sum with the flag is the exact fp kernel.
module @f16_cast attributes {mhlo.num_replicas = 8 : i32} {
  func.func @main(%x: tensor<1048576xf16>) -> tensor<1048576xf16> {
    %0 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f16>, %b: tensor<f16>):
      %s = stablehlo.add %a, %b : tensor<f16>
      stablehlo.return %s : tensor<f16>
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>} : (tensor<1048576xf16>) -> tensor<1048576xf16>
    return %0 : tensor<1048576xf16>
  }
}
