// arc: --target cuda:nvlink
// want: lowered
// The all-reduce reads what scf.for returns, whose type the loop states
// after "->": the trace is sound and it lowers. The loop's header binds %i
// and %acc for its body.
module @scf_for_result attributes {mhlo.num_replicas = 2 : i32} {
  func.func @main(%x: tensor<4096xf16>, %n: index) -> tensor<4096xf16> {
    %lb = arith.constant 0 : index
    %step = arith.constant 1 : index
    %r = scf.for %i = %lb to %n step %step iter_args(%acc = %x) -> (tensor<4096xf16>) {
      %twice = arith.addf %acc, %acc : tensor<4096xf16>
      scf.yield %twice : tensor<4096xf16>
    }
    %all = "stablehlo.all_reduce"(%r) ({
    ^bb0(%a: tensor<f16>, %b: tensor<f16>):
      %t = stablehlo.add %a, %b : tensor<f16>
      stablehlo.return %t : tensor<f16>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4096xf16>) -> tensor<4096xf16>
    return %all : tensor<4096xf16>
  }
}
