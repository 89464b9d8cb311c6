// arc: --target cuda:nvlink
// want: lowered
// Two top-level functions, the second called by the first: one implicit
// module, whose grid the all-reduce's groups imply (2 replicas).
func.func private @scale(%v: tensor<8192xf16>) -> tensor<8192xf16> {
  %h = stablehlo.constant dense<5.000000e-01> : tensor<8192xf16>
  %p = stablehlo.multiply %v, %h : tensor<8192xf16>
  return %p : tensor<8192xf16>
}
func.func public @main(%x: tensor<8192xf16>) -> tensor<8192xf16> {
  %y = call @scale(%x) : (tensor<8192xf16>) -> tensor<8192xf16>
  %z = "stablehlo.all_reduce"(%y) ({
  ^bb0(%l: tensor<f16>, %r: tensor<f16>):
    %s = stablehlo.add %l, %r : tensor<f16>
    stablehlo.return %s : tensor<f16>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8192xf16>) -> tensor<8192xf16>
  return %z : tensor<8192xf16>
}
