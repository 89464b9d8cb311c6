// arc: --target rocm:mi300x
// want: lowered
// Location aliases before, between and after the functions, and a resource
// section at the end: aliases stay at the top level, before the module arc
// writes out; the resource section after it.
#at_main = loc("main.py":3:1)
func.func @helper(%v: tensor<16384xbf16>) -> tensor<16384xbf16> {
  %n = stablehlo.negate %v : tensor<16384xbf16>
  return %n : tensor<16384xbf16>
} loc(#at_main)
#at_sum = loc("main.py":9:5)
func.func @main(%x: tensor<16384xbf16>) -> tensor<16384xbf16> {
  %y = func.call @helper(%x) : (tensor<16384xbf16>) -> tensor<16384xbf16>
  %z = "stablehlo.all_reduce"(%y) ({
  ^bb0(%l: tensor<bf16>, %r: tensor<bf16>):
    %s = stablehlo.add %l, %r : tensor<bf16>
    stablehlo.return %s : tensor<bf16>
  }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>} : (tensor<16384xbf16>) -> tensor<16384xbf16> loc(#at_sum)
  return %z : tensor<16384xbf16>
}
#at_end = loc("main.py":12:1)
{-#
  dialect_resources: {
    builtin: {
      unused_blob: "0x0400000001000000"
    }
  }
#-}
