// All-reduces whose results StableHLO's verifier accepts although they
// are not their operands' types: sizes left dynamic (shapes need only be
// compatible) and quantized storage promoted from i8 to i16
// (is_promotable compares storage widths of the same expressed type).
// StableHLO's own tests hold both (the VHLO legalization tests, the
// quantized op tests); arc round-trips them and leaves them native.
// oracle/ globs ir/testdata/*.mlir only: its checker (spec/) reads C6 as
// exact shapes and refuses this promotion, which MLIR accepts.
module @results attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 2 : i32} {
  func.func @main(%h : tensor<16xbf16>, %q : tensor<4x!quant.uniform<i8:f32, 2.000000e+00:15>>, %f : tensor<2xf64>) -> (tensor<?xbf16>, tensor<4x!quant.uniform<i16:f32, 2.000000e+00:15>>, tensor<?xf64>) {
    %2 = "stablehlo.all_reduce"(%h) ({
    ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
      %p = stablehlo.multiply %a, %b : tensor<bf16>
      stablehlo.return %p : tensor<bf16>
    }) {replica_groups = dense<> : tensor<0x0xi64>} : (tensor<16xbf16>) -> tensor<?xbf16>
    %3 = "stablehlo.all_reduce"(%q) ({
    ^bb0(%a: tensor<!quant.uniform<i16:f32, 2.000000e+00:15>>, %b: tensor<!quant.uniform<i16:f32, 2.000000e+00:15>>):
      %s = stablehlo.add %a, %b : tensor<!quant.uniform<i16:f32, 2.000000e+00:15>>
      stablehlo.return %s : tensor<!quant.uniform<i16:f32, 2.000000e+00:15>>
    }) {replica_groups = dense<"0x00000000000000000100000000000000"> : tensor<1x2xi64>} : (tensor<4x!quant.uniform<i8:f32, 2.000000e+00:15>>) -> tensor<4x!quant.uniform<i16:f32, 2.000000e+00:15>>
    %4 = "stablehlo.all_reduce"(%f) ({
    ^bb0(%a: tensor<f64>, %b: tensor<f64>):
      %s = stablehlo.add %a, %b : tensor<f64>
      stablehlo.return %s : tensor<f64>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf64>) -> tensor<?xf64>
    return %2, %3, %4 : tensor<?xbf16>, tensor<4x!quant.uniform<i16:f32, 2.000000e+00:15>>, tensor<?xf64>
  }
}
