// arc: --target tpu:v5e-8
// A v5e slice of 8 chips: the ring and the libtpu flag of its mesh.
// (decided by select with these flags)
module @v5e attributes {stablehlo.num_replicas = 8 : i64, arc.target = "tpu:v5e-8"} {
  func.func @main(%a: tensor<1048576xbf16>) -> (tensor<1048576xbf16>) {
    %0 = "stablehlo.all_reduce"(%a) ({
      ^bb0(%x: tensor<bf16>, %y: tensor<bf16>):
        %s = "stablehlo.add"(%x, %y) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
        "stablehlo.return"(%s) : (tensor<bf16>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, arc.lowering = "ring", arc.reason = "groups ordered as 1-hop rings on the ICI mesh (device ids read as x-minor chip coordinates); libtpu forced to a 1-D ring", arc.ring = dense<[[0, 2, 4, 6, 7, 5, 3, 1]]> : tensor<1x8xi64>, arc.ring_max_hops = 1 : i64} : (tensor<1048576xbf16>) -> tensor<1048576xbf16>
    "func.return"(%0) : (tensor<1048576xbf16>) -> ()
  }
}
