// arc: --target cuda:nvlink
// want: lowered
// Two linalg.generic ops read the same values through ins(...) and outs(...),
// which list uses: neither defines %lhs or %fresh again, and the all-reduce
// beside them lowers.
#id = affine_map<(d0) -> (d0)>
module @linalg_twice attributes {mhlo.num_replicas = 2 : i32} {
  func.func @main(%lhs: tensor<4096xf16>, %rhs: tensor<4096xf16>) -> tensor<4096xf16> {
    %fresh = tensor.empty() : tensor<4096xf16>
    %sum = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
        ins(%lhs, %rhs : tensor<4096xf16>, tensor<4096xf16>) outs(%fresh : tensor<4096xf16>) {
    ^bb0(%l: f16, %r: f16, %o: f16):
      %s = arith.addf %l, %r : f16
      linalg.yield %s : f16
    } -> tensor<4096xf16>
    %diff = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
        ins(%lhs, %rhs : tensor<4096xf16>, tensor<4096xf16>) outs(%fresh : tensor<4096xf16>) {
    ^bb0(%l: f16, %r: f16, %o: f16):
      %d = arith.subf %l, %r : f16
      linalg.yield %d : f16
    } -> tensor<4096xf16>
    %all = "stablehlo.all_reduce"(%lhs) ({
    ^bb0(%a: tensor<f16>, %b: tensor<f16>):
      %t = stablehlo.add %a, %b : tensor<f16>
      stablehlo.return %t : tensor<f16>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4096xf16>) -> tensor<4096xf16>
    return %all : tensor<4096xf16>
  }
}
