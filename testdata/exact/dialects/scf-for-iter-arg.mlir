// arc: --target cuda:nvlink
// want: native inside scf.for, whose region arc leaves as it is
// Inside scf.for, the all-reduce reads the loop's iter_args(%acc = %x), which
// the header declares: the module is valid, and arc keeps the all-reduce in
// the loop native, with the reason.
module @scf_for attributes {mhlo.num_replicas = 2 : i32} {
  func.func @main(%x: tensor<4096xf16>, %n: index) -> tensor<4096xf16> {
    %lb = arith.constant 0 : index
    %step = arith.constant 1 : index
    %r = scf.for %i = %lb to %n step %step iter_args(%acc = %x) -> (tensor<4096xf16>) {
      %all = "stablehlo.all_reduce"(%acc) ({
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %t = stablehlo.add %a, %b : tensor<f16>
        stablehlo.return %t : tensor<f16>
      }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4096xf16>) -> tensor<4096xf16>
      scf.yield %all : tensor<4096xf16>
    }
    return %r : tensor<4096xf16>
  }
}
