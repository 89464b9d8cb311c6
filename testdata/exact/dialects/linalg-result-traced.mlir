// arc: --target cuda:nvlink
// want: lowered
// The all-reduce reads a linalg.generic's result, whose type the op states
// after its region ("} -> tensor<...>"): the trace is sound and it lowers.
#id = affine_map<(d0) -> (d0)>
module @linalg_result attributes {mhlo.num_replicas = 2 : i32} {
  func.func @main(%x: tensor<4096xf16>) -> tensor<4096xf16> {
    %init = tensor.empty() : tensor<4096xf16>
    %neg = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%x : tensor<4096xf16>) outs(%init : tensor<4096xf16>) {
    ^bb0(%in: f16, %out: f16):
      %n = arith.negf %in : f16
      linalg.yield %n : f16
    } -> tensor<4096xf16>
    %all = "stablehlo.all_reduce"(%neg) ({
    ^bb0(%a: tensor<f16>, %b: tensor<f16>):
      %t = stablehlo.add %a, %b : tensor<f16>
      stablehlo.return %t : tensor<f16>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4096xf16>) -> tensor<4096xf16>
    return %all : tensor<4096xf16>
  }
}
