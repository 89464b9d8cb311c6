// All-reduces that carry GSPMD's and Shardy's shardings and frontend
// attributes: every call keeps the frontend attributes and the sharding of
// the one result it produces, and an all-reduce split off for the operands
// that stay native keeps those of its own results.
module @shardings attributes {stablehlo.num_replicas = 8 : i64, arc.target = "tpu:v5e-4"} {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  func.func @main(%a: tensor<64x128xf16>, %b: tensor<1024x1024xf16>, %c: tensor<256xf32>, %d: tensor<0xf32>, %e: tensor<2048x1024xf32>, %f: tensor<0xf32>, %g: tensor<4096xf32>, %h: tensor<1024xf32>) -> (tensor<64x128xf16>, tensor<1024x1024xf16>, tensor<256xf32>, tensor<0xf32>, tensor<2048x1024xf32>, tensor<0xf32>, tensor<4096xf32>, tensor<1024xf32>) {
    // One result: the call keeps all three attributes as they are.
    %0 = "stablehlo.all_reduce"(%a) ({
      ^bb0(%x: tensor<f16>, %y: tensor<f16>):
        %s = "stablehlo.add"(%x, %y) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {mhlo.frontend_attributes = {_xla_stream_annotation = "1"}, mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}", replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>, arc.lowering = "native", arc.reason = "group [4 5 6 7] does not fit tpu:v5e-4: topology tpu:v5e-4 has no device 4"} : (tensor<64x128xf16>) -> tensor<64x128xf16>
    // Two results, both lowered: each call takes its entry of the tuple and
    // of the per-value sharding.
    %1:2 = "stablehlo.all_reduce"(%0, %b) ({
      ^bb0(%x: tensor<f16>, %y: tensor<f16>):
        %s = "stablehlo.add"(%x, %y) : (tensor<f16>, tensor<f16>) -> tensor<f16>
        "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) {mhlo.sharding = "{{replicated}, {devices=[2,1,4]<=[8] last_tile_dim_replicate}}", replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>, <@mesh, [{"x"}, {}]>]>, arc.lowering = "native", arc.reason = "group [4 5 6 7] does not fit tpu:v5e-4: topology tpu:v5e-4 has no device 4"} : (tensor<64x128xf16>, tensor<1024x1024xf16>) -> (tensor<64x128xf16>, tensor<1024x1024xf16>)
    // Three results, the middle one native (empty): the calls take
    // entries 0 and 2, the all-reduce left for %d entry 1.
    %2, %3, %4 = "stablehlo.all_reduce"(%c, %d, %e) ({
      ^bb0(%x: tensor<f32>, %y: tensor<f32>):
        %s = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {mhlo.frontend_attributes = {_xla_stream_annotation = "2"}, mhlo.sharding = "{{maximal device=0}, {replicated}, {devices=[2,1,4]<=[8] last_tile_dim_replicate}}", replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{"y"}]>, <@mesh, [{"x"}, {}]>]>, arc.lowering = "native", arc.reason = ["group [4 5 6 7] does not fit tpu:v5e-4: topology tpu:v5e-4 has no device 4", "empty tensor", "group [4 5 6 7] does not fit tpu:v5e-4: topology tpu:v5e-4 has no device 4"]} : (tensor<256xf32>, tensor<0xf32>, tensor<2048x1024xf32>) -> (tensor<256xf32>, tensor<0xf32>, tensor<2048x1024xf32>)
    // Packed, two native (both empty) and one lowered: the all-reduce
    // left keeps a tuple of its two results' shardings. One sharding that
    // is no tuple holds for every result.
    %5:3 = "stablehlo.all_reduce"(%f, %g, %3) ({
      ^bb0(%x: tensor<f32>, %y: tensor<f32>):
        %s = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {mhlo.sharding = "{{replicated}, {manual}, {maximal device=1}}", replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, arc.lowering = "native", arc.reason = ["empty tensor", "group [4 5 6 7] does not fit tpu:v5e-4: topology tpu:v5e-4 has no device 4", "empty tensor"]} : (tensor<0xf32>, tensor<4096xf32>, tensor<0xf32>) -> (tensor<0xf32>, tensor<4096xf32>, tensor<0xf32>)
    %6:2 = "stablehlo.all_reduce"(%h, %5#1) ({
      ^bb0(%x: tensor<f32>, %y: tensor<f32>):
        %s = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {mhlo.sharding = "{manual}", replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, arc.lowering = "native", arc.reason = "group [4 5 6 7] does not fit tpu:v5e-4: topology tpu:v5e-4 has no device 4"} : (tensor<1024xf32>, tensor<4096xf32>) -> (tensor<1024xf32>, tensor<4096xf32>)
    // A tuple of another count than the results says no result's sharding:
    // the op stays whole, native.
    %7:2 = "stablehlo.all_reduce"(%2, %6#0) ({
      ^bb0(%x: tensor<f32>, %y: tensor<f32>):
        %s = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {mhlo.sharding = "{{replicated}, {replicated}, {replicated}}", replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, arc.lowering = "native", arc.reason = "group [4 5 6 7] does not fit tpu:v5e-4: topology tpu:v5e-4 has no device 4"} : (tensor<256xf32>, tensor<1024xf32>) -> (tensor<256xf32>, tensor<1024xf32>)
    "func.return"(%1#0, %1#1, %7#0, %5#2, %4, %5#0, %6#1, %7#1) : (tensor<64x128xf16>, tensor<1024x1024xf16>, tensor<256xf32>, tensor<0xf32>, tensor<2048x1024xf32>, tensor<0xf32>, tensor<4096xf32>, tensor<1024xf32>) -> ()
  }
}
