// Type and attribute spellings: dynamic and bounded shapes, quantized,
// complex, narrow floats, unsigned and 4-bit integers, tuples, tokens,
// hex, splat and resource elements, arrays, dialect enums.
func.func @types(%a: tensor<?x4xf32>, %b: tensor<?xf32, #stablehlo.bounds<16>>, %q: tensor<4x!quant.uniform<i8:f32, 2.000000e+00:15>>,
                 %pa: tensor<2x4x!quant.uniform<i8<-127:127>:f32:0, {1.000000e-01,2.000000e-01}>>, %c: tensor<2xcomplex<f32>>,
                 %f8: tensor<4xf8E4M3FN>, %f8b: tensor<4xf8E5M2>, %bf: tensor<4xbf16>, %u: tensor<4xui8>, %i4: tensor<4xi4>,
                 %t: tuple<tensor<f32>, tuple<tensor<i32>>>, %tok: !stablehlo.token, %s: tensor<f64>, %st: tensor<2xui64>) -> tensor<?x4xf32> {
  %0 = stablehlo.constant dense<"0x0000803F000000400000404000008040"> : tensor<4xf32>
  %1 = stablehlo.constant dense<(1.000000e+00,-2.000000e+00)> : tensor<2xcomplex<f32>>
  %2 = stablehlo.constant dense_resource<blob> : tensor<4xf32>
  %3 = stablehlo.constant dense<0xFF800000> : tensor<4xf32>
  %4 = stablehlo.constant dense<[1.000000e+00, -1.000000e+00, 0x7F80, -0.000000e+00]> : tensor<4xbf16>
  %5 = stablehlo.uniform_quantize %0 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 2.000000e+00:15>>
  %6 = stablehlo.uniform_dequantize %q : (tensor<4x!quant.uniform<i8:f32, 2.000000e+00:15>>) -> tensor<4xf32>
  %7 = stablehlo.get_dimension_size %a, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %8 = stablehlo.reshape %7 : (tensor<i32>) -> tensor<1xi32>
  %9 = stablehlo.constant dense<4> : tensor<1xi32>
  %10 = stablehlo.concatenate %8, %9, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %11 = stablehlo.dynamic_broadcast_in_dim %6, %10, dims = [1] : (tensor<4xf32>, tensor<2xi32>) -> tensor<?x4xf32>
  %12 = stablehlo.add %a, %11 : tensor<?x4xf32>
  %13 = "stablehlo.abs"(%c) : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  %14 = stablehlo.convert %f8 : (tensor<4xf8E4M3FN>) -> tensor<4xbf16>
  %15:2 = stablehlo.rng_bit_generator %st, algorithm =  DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui8>)
  %16 = "stablehlo.reduce_precision"(%bf) <{exponent_bits = 5 : i32, mantissa_bits = 2 : i32}> : (tensor<4xbf16>) -> tensor<4xbf16>
  %17 = stablehlo.get_tuple_element %t[1] : (tuple<tensor<f32>, tuple<tensor<i32>>>) -> tuple<tensor<i32>>
  %18 = "x.unregistered"(%17, %tok) {array = array<i64: 1, -2, 3>, bools = array<i1: true, false>, empty = array<i32>,
      affine = affine_map<(d0, d1) -> (d1, d0)>, nested = [#stablehlo<precision HIGHEST>, #stablehlo<transpose TRANSPOSE>, unit, {k = "v"}],
      ty = tensor<*xf32>, fn = (tensor<f32>) -> (), sym = @types::@inner, str = "x\22y\0A", float = -1.5e-3 : f64, int = -42 : i8} : (tuple<tensor<i32>>, !stablehlo.token) -> !stablehlo.token
  return %12 : tensor<?x4xf32>
}

{-#
  dialect_resources: {
    builtin: {
      blob: "0x040000000000803F000000400000404000008040"
    }
  }
#-}
