// arc: --target rocm:mi300x --quant int4
// Operands decided differently (testdata/select/multi_operand.out.mlir of
// passes): the lowered ones become calls, the native one stays in an
// all-reduce of its own that carries only its own decision.
module @multi attributes {stablehlo.num_replicas = 2 : i64, arc.target = "rocm:mi300x"} {
  func.func @main(%a: tensor<16777216xbf16>, %b: tensor<0xbf16>, %c: tensor<1048576xbf16>) -> (tensor<16777216xbf16>, tensor<0xbf16>, tensor<1048576xbf16>) {
    %arc0 = "stablehlo.custom_call"(%a) {api_version = 4 : i32, arc.est_us = 247.6 : f64, arc.lowering = "quickreduce", arc.native_us = 741.93 : f64, arc.reason = "quickreduce int4: est 247.6 us vs native 741.9 us (3.0x)", backend_config = {algo = "twoshot", cast = 0 : i64, codec = "int4", devices = array<i64: 0, 1>, groups = array<i64: 0, 1>, link = "peer", world = 2 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<16777216xbf16>) -> tensor<16777216xbf16>
    %arc1 = "stablehlo.custom_call"(%c) {api_version = 4 : i32, arc.est_us = 54.1 : f64, arc.lowering = "oneshot", arc.native_us = 68.43 : f64, arc.reason = "oneshot: est 54.1 us vs native 68.4 us (1.3x)", backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", devices = array<i64: 0, 1>, groups = array<i64: 0, 1>, link = "peer", world = 2 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[0]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : (tensor<1048576xbf16>) -> tensor<1048576xbf16>
    %arc2 = "stablehlo.all_reduce"(%b) ({
      ^bb0(%x: tensor<bf16>, %y: tensor<bf16>):
        %s = "stablehlo.add"(%x, %y) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
        "stablehlo.return"(%s) : (tensor<bf16>) -> ()
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, arc.lowering = "native", arc.reason = "empty tensor"} : (tensor<0xbf16>) -> tensor<0xbf16>
    "func.return"(%arc0, %arc2, %arc1) : (tensor<16777216xbf16>, tensor<0xbf16>, tensor<1048576xbf16>) -> ()
  }
}
