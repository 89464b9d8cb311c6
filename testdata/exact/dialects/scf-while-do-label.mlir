// arc: --target cuda:nvlink
// want: lowered
// scf.while's header "(%v = %x)" declares the arguments of its first region
// only; its do region's label declares its own, here of the same name, as
// MLIR allows. The all-reduce after the loop lowers.
module @scf_while attributes {mhlo.num_replicas = 2 : i32} {
  func.func @main(%x: tensor<4096xf16>, %steps: index) -> tensor<4096xf16> {
    %zero = arith.constant 0 : index
    %one = arith.constant 1 : index
    %loop:2 = scf.while (%v = %x, %k = %zero) : (tensor<4096xf16>, index) -> (tensor<4096xf16>, index) {
      %more = arith.cmpi slt, %k, %steps : index
      scf.condition(%more) %v, %k : tensor<4096xf16>, index
    } do {
    ^bb0(%v: tensor<4096xf16>, %k: index):
      %next = arith.addi %k, %one : index
      scf.yield %v, %next : tensor<4096xf16>, index
    }
    %all = "stablehlo.all_reduce"(%loop#0) ({
    ^bb0(%a: tensor<f16>, %b: tensor<f16>):
      %t = stablehlo.add %a, %b : tensor<f16>
      stablehlo.return %t : tensor<f16>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4096xf16>) -> tensor<4096xf16>
    return %all : tensor<4096xf16>
  }
}
