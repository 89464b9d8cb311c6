#loc1 = loc("/tmp/model.py":12:4)
#loc2 = loc("x")
module @jit_loc attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4xf32> loc("x"), %arg1: tensor<4xf32> loc(#loc2)) -> (tensor<4xf32> {jax.result_info = ""}) {
    %0 = stablehlo.add %arg0, %arg1 : tensor<4xf32> loc(#loc7)
    %1 = "stablehlo.multiply"(%0, %0) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> loc(fused[#loc1, "mul"("f.py":3:1)])
    return %1 : tensor<4xf32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc3 = loc("jit(f)/add"(#loc1))
#loc7 = loc(callsite(#loc3 at #loc1))
#loc8 = loc("a \"quoted\" name with ) and ] inside")
