// arc: --target rocm:mi300x --cast-bf16-to-fp16
// want: lowered quickreduce fp algo=twoshot cast=1: quickreduce fp, bf16 cast to f16 by --cast-bf16-to-fp16
// Opted in, a 2 MiB bf16 sum over 8 GPUs travels as scaled f16, which the
// reason names; the oracle holds it to the cast's bound.
module @bf16_cast attributes {mhlo.num_replicas = 8 : i32} {
  func.func @main(%x: tensor<1048576xbf16>) -> tensor<1048576xbf16> {
    %0 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
      %s = stablehlo.add %a, %b : tensor<bf16>
      stablehlo.return %s : tensor<bf16>
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>} : (tensor<1048576xbf16>) -> tensor<1048576xbf16>
    return %0 : tensor<1048576xbf16>
  }
}
