// arc: --target tpu:v5e-8
// want: error 9:3 replica id #2 seen more than once
// An implicit module is checked as any module is: the ids are the op's,
// the position the file's own.
func.func @main(%x: tensor<128xi32>) -> tensor<128xi32> {
  %a = stablehlo.constant dense<1> : tensor<128xi32>
  %b = stablehlo.add %x, %a : tensor<128xi32>
  // the groups name replica 2 twice
  %c = "stablehlo.all_reduce"(%b) ({
  ^bb0(%l: tensor<i32>, %r: tensor<i32>):
    %s = stablehlo.add %l, %r : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {replica_groups = dense<[[0, 2], [2, 1]]> : tensor<2x2xi64>} : (tensor<128xi32>) -> tensor<128xi32>
  return %c : tensor<128xi32>
}
