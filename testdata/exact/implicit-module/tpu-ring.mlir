// arc: --target tpu:v6e-8
// want: lowered
// No module op: MLIR wraps the function in an implicit module. arc records
// arc.target and arc.env on that module, written out around the function.
func.func @main(%grad: tensor<4096xf32>) -> tensor<4096xf32> {
  %avg = "stablehlo.all_reduce"(%grad) ({
  ^bb0(%l: tensor<f32>, %r: tensor<f32>):
    %s = stablehlo.add %l, %r : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>} : (tensor<4096xf32>) -> tensor<4096xf32>
  return %avg : tensor<4096xf32>
}
