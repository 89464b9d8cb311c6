// arc: --target cuda:nvlink
// want: lowered
// "cf.br ^bb1(%y : T)" passes %y to the block, as a use: the all-reduce reads
// the block's argument, whose type its label states.
module @cf_br attributes {mhlo.num_replicas = 2 : i32} {
  func.func @main(%x: tensor<4096xf16>) -> tensor<4096xf16> {
    %y = stablehlo.negate %x : tensor<4096xf16>
    cf.br ^bb1(%y : tensor<4096xf16>)
  ^bb1(%arrived: tensor<4096xf16>):
    %all = "stablehlo.all_reduce"(%arrived) ({
    ^bb0(%a: tensor<f16>, %b: tensor<f16>):
      %t = stablehlo.add %a, %b : tensor<f16>
      stablehlo.return %t : tensor<f16>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4096xf16>) -> tensor<4096xf16>
    return %all : tensor<4096xf16>
  }
}
