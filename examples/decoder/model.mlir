module @decoder attributes {stablehlo.num_replicas = 8} {
  func.func @main(%tokens: tensor<4x512xi32>, %embed: tensor<32768x2048xbf16>, %position: tensor<512x2048xbf16>, %b0_norm1_gain: tensor<2048xbf16>, %b0_norm1_bias: tensor<2048xbf16>, %b0_attn_wq: tensor<2048x256xbf16>, %b0_attn_bq: tensor<256xbf16>, %b0_attn_wk: tensor<2048x256xbf16>, %b0_attn_bk: tensor<256xbf16>, %b0_attn_wv: tensor<2048x256xbf16>, %b0_attn_bv: tensor<256xbf16>, %b0_attn_wo: tensor<256x2048xbf16>, %b0_attn_bo: tensor<2048xbf16>, %b0_norm2_gain: tensor<2048xbf16>, %b0_norm2_bias: tensor<2048xbf16>, %b0_mlp_w1: tensor<2048x1024xbf16>, %b0_mlp_b1: tensor<1024xbf16>, %b0_mlp_w2: tensor<1024x2048xbf16>, %b0_mlp_b2: tensor<2048xbf16>, %b1_norm1_gain: tensor<2048xbf16>, %b1_norm1_bias: tensor<2048xbf16>, %b1_attn_wq: tensor<2048x256xbf16>, %b1_attn_bq: tensor<256xbf16>, %b1_attn_wk: tensor<2048x256xbf16>, %b1_attn_bk: tensor<256xbf16>, %b1_attn_wv: tensor<2048x256xbf16>, %b1_attn_bv: tensor<256xbf16>, %b1_attn_wo: tensor<256x2048xbf16>, %b1_attn_bo: tensor<2048xbf16>, %b1_norm2_gain: tensor<2048xbf16>, %b1_norm2_bias: tensor<2048xbf16>, %b1_mlp_w1: tensor<2048x1024xbf16>, %b1_mlp_b1: tensor<1024xbf16>, %b1_mlp_w2: tensor<1024x2048xbf16>, %b1_mlp_b2: tensor<2048xbf16>, %b2_norm1_gain: tensor<2048xbf16>, %b2_norm1_bias: tensor<2048xbf16>, %b2_attn_wq: tensor<2048x256xbf16>, %b2_attn_bq: tensor<256xbf16>, %b2_attn_wk: tensor<2048x256xbf16>, %b2_attn_bk: tensor<256xbf16>, %b2_attn_wv: tensor<2048x256xbf16>, %b2_attn_bv: tensor<256xbf16>, %b2_attn_wo: tensor<256x2048xbf16>, %b2_attn_bo: tensor<2048xbf16>, %b2_norm2_gain: tensor<2048xbf16>, %b2_norm2_bias: tensor<2048xbf16>, %b2_mlp_w1: tensor<2048x1024xbf16>, %b2_mlp_b1: tensor<1024xbf16>, %b2_mlp_w2: tensor<1024x2048xbf16>, %b2_mlp_b2: tensor<2048xbf16>, %b3_norm1_gain: tensor<2048xbf16>, %b3_norm1_bias: tensor<2048xbf16>, %b3_attn_wq: tensor<2048x256xbf16>, %b3_attn_bq: tensor<256xbf16>, %b3_attn_wk: tensor<2048x256xbf16>, %b3_attn_bk: tensor<256xbf16>, %b3_attn_wv: tensor<2048x256xbf16>, %b3_attn_bv: tensor<256xbf16>, %b3_attn_wo: tensor<256x2048xbf16>, %b3_attn_bo: tensor<2048xbf16>, %b3_norm2_gain: tensor<2048xbf16>, %b3_norm2_bias: tensor<2048xbf16>, %b3_mlp_w1: tensor<2048x1024xbf16>, %b3_mlp_b1: tensor<1024xbf16>, %b3_mlp_w2: tensor<1024x2048xbf16>, %b3_mlp_b2: tensor<2048xbf16>, %final_norm_gain: tensor<2048xbf16>, %final_norm_bias: tensor<2048xbf16>, %lm_head: tensor<2048x4096xbf16>) -> (tensor<2048x2048xbf16>, tensor<2048x2048xbf16>, tensor<2048x2048xbf16>, tensor<2048x2048xbf16>, tensor<2048x4096xbf16>) {
    %0 = "stablehlo.reshape"(%tokens) : (tensor<4x512xi32>) -> tensor<4x512x1xi32>
    %1 = "stablehlo.gather"(%embed, %0) {
      dimension_numbers = #stablehlo.gather<
  offset_dims = [2],
  collapsed_slice_dims = [0],
  operand_batching_dims = [],
  start_indices_batching_dims = [],
  start_index_map = [0],
  index_vector_dim = 2>,
      indices_are_sorted = false,
      slice_sizes = array<i64: 1, 2048>
    } : (tensor<32768x2048xbf16>, tensor<4x512x1xi32>) -> tensor<4x512x2048xbf16>
    %2 = "stablehlo.reshape"(%position) : (tensor<512x2048xbf16>) -> tensor<1x512x2048xbf16>
    %3 = "stablehlo.broadcast_in_dim"(%2) { broadcast_dimensions = array<i64: 0, 1, 2> } : (tensor<1x512x2048xbf16>) -> tensor<4x512x2048xbf16>
    %4 = "stablehlo.add"(%1, %3) : (tensor<4x512x2048xbf16>, tensor<4x512x2048xbf16>) -> tensor<4x512x2048xbf16>
    %5 = "stablehlo.reshape"(%4) : (tensor<4x512x2048xbf16>) -> tensor<2048x2048xbf16>
    %6 = "stablehlo.convert"(%5) : (tensor<2048x2048xbf16>) -> tensor<2048x2048xf32>
    %8 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %9 = "stablehlo.reduce"(%6, %8) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %7 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%7) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 1> } : (tensor<2048x2048xf32>, tensor<f32>) -> tensor<2048xf32>
    %10 = "stablehlo.constant"() { value = dense<0.00048828125> : tensor<f32> } : () -> tensor<f32>
    %11 = "stablehlo.broadcast_in_dim"(%10) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048xf32>
    %12 = "stablehlo.multiply"(%9, %11) : (tensor<2048xf32>, tensor<2048xf32>) -> tensor<2048xf32>
    %13 = "stablehlo.reshape"(%12) : (tensor<2048xf32>) -> tensor<2048x1xf32>
    %14 = "stablehlo.broadcast_in_dim"(%13) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<2048x1xf32>) -> tensor<2048x2048xf32>
    %15 = "stablehlo.subtract"(%6, %14) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %16 = "stablehlo.multiply"(%15, %15) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %17 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %18 = "stablehlo.reduce"(%16, %17) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %7 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%7) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 1> } : (tensor<2048x2048xf32>, tensor<f32>) -> tensor<2048xf32>
    %19 = "stablehlo.broadcast_in_dim"(%10) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048xf32>
    %20 = "stablehlo.multiply"(%18, %19) : (tensor<2048xf32>, tensor<2048xf32>) -> tensor<2048xf32>
    %21 = "stablehlo.reshape"(%20) : (tensor<2048xf32>) -> tensor<2048x1xf32>
    %22 = "stablehlo.constant"() { value = dense<9.999999747378752e-06> : tensor<f32> } : () -> tensor<f32>
    %23 = "stablehlo.broadcast_in_dim"(%22) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x1xf32>
    %24 = "stablehlo.add"(%21, %23) : (tensor<2048x1xf32>, tensor<2048x1xf32>) -> tensor<2048x1xf32>
    %25 = "stablehlo.rsqrt"(%24) : (tensor<2048x1xf32>) -> tensor<2048x1xf32>
    %26 = "stablehlo.broadcast_in_dim"(%25) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<2048x1xf32>) -> tensor<2048x2048xf32>
    %27 = "stablehlo.multiply"(%15, %26) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %28 = "stablehlo.convert"(%b0_norm1_gain) : (tensor<2048xbf16>) -> tensor<2048xf32>
    %29 = "stablehlo.reshape"(%28) : (tensor<2048xf32>) -> tensor<1x2048xf32>
    %30 = "stablehlo.broadcast_in_dim"(%29) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x2048xf32>) -> tensor<2048x2048xf32>
    %31 = "stablehlo.multiply"(%27, %30) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %32 = "stablehlo.convert"(%b0_norm1_bias) : (tensor<2048xbf16>) -> tensor<2048xf32>
    %33 = "stablehlo.reshape"(%32) : (tensor<2048xf32>) -> tensor<1x2048xf32>
    %34 = "stablehlo.broadcast_in_dim"(%33) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x2048xf32>) -> tensor<2048x2048xf32>
    %35 = "stablehlo.add"(%31, %34) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %36 = "stablehlo.convert"(%35) : (tensor<2048x2048xf32>) -> tensor<2048x2048xbf16>
    %37 = "stablehlo.dot_general"(%36, %b0_attn_wq) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<2048x2048xbf16>, tensor<2048x256xbf16>) -> tensor<2048x256xbf16>
    %38 = "stablehlo.reshape"(%b0_attn_bq) : (tensor<256xbf16>) -> tensor<1x256xbf16>
    %39 = "stablehlo.broadcast_in_dim"(%38) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x256xbf16>) -> tensor<2048x256xbf16>
    %40 = "stablehlo.add"(%37, %39) : (tensor<2048x256xbf16>, tensor<2048x256xbf16>) -> tensor<2048x256xbf16>
    %41 = "stablehlo.reshape"(%40) : (tensor<2048x256xbf16>) -> tensor<4x512x2x128xbf16>
    %42 = "stablehlo.transpose"(%41) { permutation = array<i64: 0, 2, 1, 3> } : (tensor<4x512x2x128xbf16>) -> tensor<4x2x512x128xbf16>
    %43 = "stablehlo.dot_general"(%36, %b0_attn_wk) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<2048x2048xbf16>, tensor<2048x256xbf16>) -> tensor<2048x256xbf16>
    %44 = "stablehlo.reshape"(%b0_attn_bk) : (tensor<256xbf16>) -> tensor<1x256xbf16>
    %45 = "stablehlo.broadcast_in_dim"(%44) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x256xbf16>) -> tensor<2048x256xbf16>
    %46 = "stablehlo.add"(%43, %45) : (tensor<2048x256xbf16>, tensor<2048x256xbf16>) -> tensor<2048x256xbf16>
    %47 = "stablehlo.reshape"(%46) : (tensor<2048x256xbf16>) -> tensor<4x512x2x128xbf16>
    %48 = "stablehlo.transpose"(%47) { permutation = array<i64: 0, 2, 1, 3> } : (tensor<4x512x2x128xbf16>) -> tensor<4x2x512x128xbf16>
    %49 = "stablehlo.dot_general"(%36, %b0_attn_wv) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<2048x2048xbf16>, tensor<2048x256xbf16>) -> tensor<2048x256xbf16>
    %50 = "stablehlo.reshape"(%b0_attn_bv) : (tensor<256xbf16>) -> tensor<1x256xbf16>
    %51 = "stablehlo.broadcast_in_dim"(%50) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x256xbf16>) -> tensor<2048x256xbf16>
    %52 = "stablehlo.add"(%49, %51) : (tensor<2048x256xbf16>, tensor<2048x256xbf16>) -> tensor<2048x256xbf16>
    %53 = "stablehlo.reshape"(%52) : (tensor<2048x256xbf16>) -> tensor<4x512x2x128xbf16>
    %54 = "stablehlo.transpose"(%53) { permutation = array<i64: 0, 2, 1, 3> } : (tensor<4x512x2x128xbf16>) -> tensor<4x2x512x128xbf16>
    %55 = "stablehlo.dot_general"(%42, %48) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [0, 1],
  rhs_batching_dimensions = [0, 1],
  lhs_contracting_dimensions = [3],
  rhs_contracting_dimensions = [3]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<4x2x512x128xbf16>, tensor<4x2x512x128xbf16>) -> tensor<4x2x512x512xbf16>
    %56 = "stablehlo.convert"(%55) : (tensor<4x2x512x512xbf16>) -> tensor<4x2x512x512xf32>
    %57 = "stablehlo.constant"() { value = dense<0.0883883461356163> : tensor<f32> } : () -> tensor<f32>
    %58 = "stablehlo.broadcast_in_dim"(%57) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<4x2x512x512xf32>
    %59 = "stablehlo.multiply"(%56, %58) : (tensor<4x2x512x512xf32>, tensor<4x2x512x512xf32>) -> tensor<4x2x512x512xf32>
    %60 = "stablehlo.iota"() { iota_dimension = 0 : i64 } : () -> tensor<512x512xi64>
    %61 = "stablehlo.iota"() { iota_dimension = 1 : i64 } : () -> tensor<512x512xi64>
    %62 = "stablehlo.compare"(%61, %60) {
      compare_type = #stablehlo<comparison_type SIGNED>,
      comparison_direction = #stablehlo<comparison_direction LE>
    } : (tensor<512x512xi64>, tensor<512x512xi64>) -> tensor<512x512xi1>
    %63 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %64 = "stablehlo.constant"() { value = dense<-1.0e+09> : tensor<f32> } : () -> tensor<f32>
    %65 = "stablehlo.broadcast_in_dim"(%63) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<512x512xf32>
    %66 = "stablehlo.broadcast_in_dim"(%64) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<512x512xf32>
    %67 = "stablehlo.select"(%62, %65, %66) : (tensor<512x512xi1>, tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
    %68 = "stablehlo.reshape"(%67) : (tensor<512x512xf32>) -> tensor<1x1x512x512xf32>
    %69 = "stablehlo.broadcast_in_dim"(%68) { broadcast_dimensions = array<i64: 0, 1, 2, 3> } : (tensor<1x1x512x512xf32>) -> tensor<4x2x512x512xf32>
    %70 = "stablehlo.add"(%59, %69) : (tensor<4x2x512x512xf32>, tensor<4x2x512x512xf32>) -> tensor<4x2x512x512xf32>
    %72 = "stablehlo.constant"() { value = dense<0xff800000> : tensor<f32> } : () -> tensor<f32>
    %73 = "stablehlo.reduce"(%70, %72) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %71 = "stablehlo.maximum"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%71) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 3> } : (tensor<4x2x512x512xf32>, tensor<f32>) -> tensor<4x2x512xf32>
    %74 = "stablehlo.reshape"(%73) : (tensor<4x2x512xf32>) -> tensor<4x2x512x1xf32>
    %75 = "stablehlo.broadcast_in_dim"(%74) { broadcast_dimensions = array<i64: 0, 1, 2, 3> } : (tensor<4x2x512x1xf32>) -> tensor<4x2x512x512xf32>
    %76 = "stablehlo.subtract"(%70, %75) : (tensor<4x2x512x512xf32>, tensor<4x2x512x512xf32>) -> tensor<4x2x512x512xf32>
    %77 = "stablehlo.exponential"(%76) : (tensor<4x2x512x512xf32>) -> tensor<4x2x512x512xf32>
    %78 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %79 = "stablehlo.reduce"(%77, %78) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %7 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%7) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 3> } : (tensor<4x2x512x512xf32>, tensor<f32>) -> tensor<4x2x512xf32>
    %80 = "stablehlo.reshape"(%79) : (tensor<4x2x512xf32>) -> tensor<4x2x512x1xf32>
    %81 = "stablehlo.broadcast_in_dim"(%80) { broadcast_dimensions = array<i64: 0, 1, 2, 3> } : (tensor<4x2x512x1xf32>) -> tensor<4x2x512x512xf32>
    %82 = "stablehlo.divide"(%77, %81) : (tensor<4x2x512x512xf32>, tensor<4x2x512x512xf32>) -> tensor<4x2x512x512xf32>
    %83 = "stablehlo.convert"(%82) : (tensor<4x2x512x512xf32>) -> tensor<4x2x512x512xbf16>
    %84 = "stablehlo.dot_general"(%83, %54) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [0, 1],
  rhs_batching_dimensions = [0, 1],
  lhs_contracting_dimensions = [3],
  rhs_contracting_dimensions = [2]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<4x2x512x512xbf16>, tensor<4x2x512x128xbf16>) -> tensor<4x2x512x128xbf16>
    %85 = "stablehlo.transpose"(%84) { permutation = array<i64: 0, 2, 1, 3> } : (tensor<4x2x512x128xbf16>) -> tensor<4x512x2x128xbf16>
    %86 = "stablehlo.reshape"(%85) : (tensor<4x512x2x128xbf16>) -> tensor<2048x256xbf16>
    %87 = "stablehlo.dot_general"(%86, %b0_attn_wo) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<2048x256xbf16>, tensor<256x2048xbf16>) -> tensor<2048x2048xbf16>
    %89 = "stablehlo.all_reduce"(%87) ({
      ^computation(%lhs: tensor<bf16>, %rhs: tensor<bf16>) :
          %88 = "stablehlo.add"(%lhs, %rhs) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
          "stablehlo.return"(%88) : (tensor<bf16>) -> ()
    }) { replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64> } : (tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16>
    %90 = "stablehlo.reshape"(%b0_attn_bo) : (tensor<2048xbf16>) -> tensor<1x2048xbf16>
    %91 = "stablehlo.broadcast_in_dim"(%90) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x2048xbf16>) -> tensor<2048x2048xbf16>
    %92 = "stablehlo.add"(%89, %91) : (tensor<2048x2048xbf16>, tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16>
    %93 = "stablehlo.add"(%5, %92) : (tensor<2048x2048xbf16>, tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16>
    %94 = "stablehlo.convert"(%93) : (tensor<2048x2048xbf16>) -> tensor<2048x2048xf32>
    %95 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %96 = "stablehlo.reduce"(%94, %95) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %7 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%7) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 1> } : (tensor<2048x2048xf32>, tensor<f32>) -> tensor<2048xf32>
    %97 = "stablehlo.broadcast_in_dim"(%10) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048xf32>
    %98 = "stablehlo.multiply"(%96, %97) : (tensor<2048xf32>, tensor<2048xf32>) -> tensor<2048xf32>
    %99 = "stablehlo.reshape"(%98) : (tensor<2048xf32>) -> tensor<2048x1xf32>
    %100 = "stablehlo.broadcast_in_dim"(%99) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<2048x1xf32>) -> tensor<2048x2048xf32>
    %101 = "stablehlo.subtract"(%94, %100) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %102 = "stablehlo.multiply"(%101, %101) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %103 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %104 = "stablehlo.reduce"(%102, %103) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %7 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%7) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 1> } : (tensor<2048x2048xf32>, tensor<f32>) -> tensor<2048xf32>
    %105 = "stablehlo.broadcast_in_dim"(%10) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048xf32>
    %106 = "stablehlo.multiply"(%104, %105) : (tensor<2048xf32>, tensor<2048xf32>) -> tensor<2048xf32>
    %107 = "stablehlo.reshape"(%106) : (tensor<2048xf32>) -> tensor<2048x1xf32>
    %108 = "stablehlo.broadcast_in_dim"(%22) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x1xf32>
    %109 = "stablehlo.add"(%107, %108) : (tensor<2048x1xf32>, tensor<2048x1xf32>) -> tensor<2048x1xf32>
    %110 = "stablehlo.rsqrt"(%109) : (tensor<2048x1xf32>) -> tensor<2048x1xf32>
    %111 = "stablehlo.broadcast_in_dim"(%110) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<2048x1xf32>) -> tensor<2048x2048xf32>
    %112 = "stablehlo.multiply"(%101, %111) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %113 = "stablehlo.convert"(%b0_norm2_gain) : (tensor<2048xbf16>) -> tensor<2048xf32>
    %114 = "stablehlo.reshape"(%113) : (tensor<2048xf32>) -> tensor<1x2048xf32>
    %115 = "stablehlo.broadcast_in_dim"(%114) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x2048xf32>) -> tensor<2048x2048xf32>
    %116 = "stablehlo.multiply"(%112, %115) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %117 = "stablehlo.convert"(%b0_norm2_bias) : (tensor<2048xbf16>) -> tensor<2048xf32>
    %118 = "stablehlo.reshape"(%117) : (tensor<2048xf32>) -> tensor<1x2048xf32>
    %119 = "stablehlo.broadcast_in_dim"(%118) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x2048xf32>) -> tensor<2048x2048xf32>
    %120 = "stablehlo.add"(%116, %119) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %121 = "stablehlo.convert"(%120) : (tensor<2048x2048xf32>) -> tensor<2048x2048xbf16>
    %122 = "stablehlo.dot_general"(%121, %b0_mlp_w1) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<2048x2048xbf16>, tensor<2048x1024xbf16>) -> tensor<2048x1024xbf16>
    %123 = "stablehlo.reshape"(%b0_mlp_b1) : (tensor<1024xbf16>) -> tensor<1x1024xbf16>
    %124 = "stablehlo.broadcast_in_dim"(%123) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x1024xbf16>) -> tensor<2048x1024xbf16>
    %125 = "stablehlo.add"(%122, %124) : (tensor<2048x1024xbf16>, tensor<2048x1024xbf16>) -> tensor<2048x1024xbf16>
    %126 = "stablehlo.convert"(%125) : (tensor<2048x1024xbf16>) -> tensor<2048x1024xf32>
    %127 = "stablehlo.multiply"(%126, %126) : (tensor<2048x1024xf32>, tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
    %128 = "stablehlo.multiply"(%126, %127) : (tensor<2048x1024xf32>, tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
    %129 = "stablehlo.constant"() { value = dense<0.044714998453855515> : tensor<f32> } : () -> tensor<f32>
    %130 = "stablehlo.broadcast_in_dim"(%129) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x1024xf32>
    %131 = "stablehlo.multiply"(%128, %130) : (tensor<2048x1024xf32>, tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
    %132 = "stablehlo.add"(%126, %131) : (tensor<2048x1024xf32>, tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
    %133 = "stablehlo.constant"() { value = dense<0.7978845834732056> : tensor<f32> } : () -> tensor<f32>
    %134 = "stablehlo.broadcast_in_dim"(%133) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x1024xf32>
    %135 = "stablehlo.multiply"(%132, %134) : (tensor<2048x1024xf32>, tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
    %136 = "stablehlo.constant"() { value = dense<0.5> : tensor<f32> } : () -> tensor<f32>
    %137 = "stablehlo.broadcast_in_dim"(%136) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x1024xf32>
    %138 = "stablehlo.multiply"(%126, %137) : (tensor<2048x1024xf32>, tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
    %139 = "stablehlo.tanh"(%135) : (tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
    %140 = "stablehlo.constant"() { value = dense<1.0> : tensor<f32> } : () -> tensor<f32>
    %141 = "stablehlo.broadcast_in_dim"(%140) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x1024xf32>
    %142 = "stablehlo.add"(%139, %141) : (tensor<2048x1024xf32>, tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
    %143 = "stablehlo.multiply"(%138, %142) : (tensor<2048x1024xf32>, tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
    %144 = "stablehlo.convert"(%143) : (tensor<2048x1024xf32>) -> tensor<2048x1024xbf16>
    %145 = "stablehlo.dot_general"(%144, %b0_mlp_w2) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<2048x1024xbf16>, tensor<1024x2048xbf16>) -> tensor<2048x2048xbf16>
    %146 = "stablehlo.all_reduce"(%145) ({
      ^computation(%lhs: tensor<bf16>, %rhs: tensor<bf16>) :
          %88 = "stablehlo.add"(%lhs, %rhs) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
          "stablehlo.return"(%88) : (tensor<bf16>) -> ()
    }) { replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64> } : (tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16>
    %147 = "stablehlo.reshape"(%b0_mlp_b2) : (tensor<2048xbf16>) -> tensor<1x2048xbf16>
    %148 = "stablehlo.broadcast_in_dim"(%147) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x2048xbf16>) -> tensor<2048x2048xbf16>
    %149 = "stablehlo.add"(%146, %148) : (tensor<2048x2048xbf16>, tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16>
    %150 = "stablehlo.add"(%93, %149) : (tensor<2048x2048xbf16>, tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16>
    %151 = "stablehlo.convert"(%150) : (tensor<2048x2048xbf16>) -> tensor<2048x2048xf32>
    %152 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %153 = "stablehlo.reduce"(%151, %152) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %7 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%7) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 1> } : (tensor<2048x2048xf32>, tensor<f32>) -> tensor<2048xf32>
    %154 = "stablehlo.broadcast_in_dim"(%10) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048xf32>
    %155 = "stablehlo.multiply"(%153, %154) : (tensor<2048xf32>, tensor<2048xf32>) -> tensor<2048xf32>
    %156 = "stablehlo.reshape"(%155) : (tensor<2048xf32>) -> tensor<2048x1xf32>
    %157 = "stablehlo.broadcast_in_dim"(%156) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<2048x1xf32>) -> tensor<2048x2048xf32>
    %158 = "stablehlo.subtract"(%151, %157) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %159 = "stablehlo.multiply"(%158, %158) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %160 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %161 = "stablehlo.reduce"(%159, %160) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %7 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%7) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 1> } : (tensor<2048x2048xf32>, tensor<f32>) -> tensor<2048xf32>
    %162 = "stablehlo.broadcast_in_dim"(%10) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048xf32>
    %163 = "stablehlo.multiply"(%161, %162) : (tensor<2048xf32>, tensor<2048xf32>) -> tensor<2048xf32>
    %164 = "stablehlo.reshape"(%163) : (tensor<2048xf32>) -> tensor<2048x1xf32>
    %165 = "stablehlo.broadcast_in_dim"(%22) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x1xf32>
    %166 = "stablehlo.add"(%164, %165) : (tensor<2048x1xf32>, tensor<2048x1xf32>) -> tensor<2048x1xf32>
    %167 = "stablehlo.rsqrt"(%166) : (tensor<2048x1xf32>) -> tensor<2048x1xf32>
    %168 = "stablehlo.broadcast_in_dim"(%167) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<2048x1xf32>) -> tensor<2048x2048xf32>
    %169 = "stablehlo.multiply"(%158, %168) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %170 = "stablehlo.convert"(%b1_norm1_gain) : (tensor<2048xbf16>) -> tensor<2048xf32>
    %171 = "stablehlo.reshape"(%170) : (tensor<2048xf32>) -> tensor<1x2048xf32>
    %172 = "stablehlo.broadcast_in_dim"(%171) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x2048xf32>) -> tensor<2048x2048xf32>
    %173 = "stablehlo.multiply"(%169, %172) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %174 = "stablehlo.convert"(%b1_norm1_bias) : (tensor<2048xbf16>) -> tensor<2048xf32>
    %175 = "stablehlo.reshape"(%174) : (tensor<2048xf32>) -> tensor<1x2048xf32>
    %176 = "stablehlo.broadcast_in_dim"(%175) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x2048xf32>) -> tensor<2048x2048xf32>
    %177 = "stablehlo.add"(%173, %176) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %178 = "stablehlo.convert"(%177) : (tensor<2048x2048xf32>) -> tensor<2048x2048xbf16>
    %179 = "stablehlo.dot_general"(%178, %b1_attn_wq) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<2048x2048xbf16>, tensor<2048x256xbf16>) -> tensor<2048x256xbf16>
    %180 = "stablehlo.reshape"(%b1_attn_bq) : (tensor<256xbf16>) -> tensor<1x256xbf16>
    %181 = "stablehlo.broadcast_in_dim"(%180) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x256xbf16>) -> tensor<2048x256xbf16>
    %182 = "stablehlo.add"(%179, %181) : (tensor<2048x256xbf16>, tensor<2048x256xbf16>) -> tensor<2048x256xbf16>
    %183 = "stablehlo.reshape"(%182) : (tensor<2048x256xbf16>) -> tensor<4x512x2x128xbf16>
    %184 = "stablehlo.transpose"(%183) { permutation = array<i64: 0, 2, 1, 3> } : (tensor<4x512x2x128xbf16>) -> tensor<4x2x512x128xbf16>
    %185 = "stablehlo.dot_general"(%178, %b1_attn_wk) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<2048x2048xbf16>, tensor<2048x256xbf16>) -> tensor<2048x256xbf16>
    %186 = "stablehlo.reshape"(%b1_attn_bk) : (tensor<256xbf16>) -> tensor<1x256xbf16>
    %187 = "stablehlo.broadcast_in_dim"(%186) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x256xbf16>) -> tensor<2048x256xbf16>
    %188 = "stablehlo.add"(%185, %187) : (tensor<2048x256xbf16>, tensor<2048x256xbf16>) -> tensor<2048x256xbf16>
    %189 = "stablehlo.reshape"(%188) : (tensor<2048x256xbf16>) -> tensor<4x512x2x128xbf16>
    %190 = "stablehlo.transpose"(%189) { permutation = array<i64: 0, 2, 1, 3> } : (tensor<4x512x2x128xbf16>) -> tensor<4x2x512x128xbf16>
    %191 = "stablehlo.dot_general"(%178, %b1_attn_wv) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<2048x2048xbf16>, tensor<2048x256xbf16>) -> tensor<2048x256xbf16>
    %192 = "stablehlo.reshape"(%b1_attn_bv) : (tensor<256xbf16>) -> tensor<1x256xbf16>
    %193 = "stablehlo.broadcast_in_dim"(%192) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x256xbf16>) -> tensor<2048x256xbf16>
    %194 = "stablehlo.add"(%191, %193) : (tensor<2048x256xbf16>, tensor<2048x256xbf16>) -> tensor<2048x256xbf16>
    %195 = "stablehlo.reshape"(%194) : (tensor<2048x256xbf16>) -> tensor<4x512x2x128xbf16>
    %196 = "stablehlo.transpose"(%195) { permutation = array<i64: 0, 2, 1, 3> } : (tensor<4x512x2x128xbf16>) -> tensor<4x2x512x128xbf16>
    %197 = "stablehlo.dot_general"(%184, %190) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [0, 1],
  rhs_batching_dimensions = [0, 1],
  lhs_contracting_dimensions = [3],
  rhs_contracting_dimensions = [3]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<4x2x512x128xbf16>, tensor<4x2x512x128xbf16>) -> tensor<4x2x512x512xbf16>
    %198 = "stablehlo.convert"(%197) : (tensor<4x2x512x512xbf16>) -> tensor<4x2x512x512xf32>
    %199 = "stablehlo.broadcast_in_dim"(%57) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<4x2x512x512xf32>
    %200 = "stablehlo.multiply"(%198, %199) : (tensor<4x2x512x512xf32>, tensor<4x2x512x512xf32>) -> tensor<4x2x512x512xf32>
    %201 = "stablehlo.iota"() { iota_dimension = 0 : i64 } : () -> tensor<512x512xi64>
    %202 = "stablehlo.iota"() { iota_dimension = 1 : i64 } : () -> tensor<512x512xi64>
    %203 = "stablehlo.compare"(%202, %201) {
      compare_type = #stablehlo<comparison_type SIGNED>,
      comparison_direction = #stablehlo<comparison_direction LE>
    } : (tensor<512x512xi64>, tensor<512x512xi64>) -> tensor<512x512xi1>
    %204 = "stablehlo.broadcast_in_dim"(%63) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<512x512xf32>
    %205 = "stablehlo.broadcast_in_dim"(%64) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<512x512xf32>
    %206 = "stablehlo.select"(%203, %204, %205) : (tensor<512x512xi1>, tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
    %207 = "stablehlo.reshape"(%206) : (tensor<512x512xf32>) -> tensor<1x1x512x512xf32>
    %208 = "stablehlo.broadcast_in_dim"(%207) { broadcast_dimensions = array<i64: 0, 1, 2, 3> } : (tensor<1x1x512x512xf32>) -> tensor<4x2x512x512xf32>
    %209 = "stablehlo.add"(%200, %208) : (tensor<4x2x512x512xf32>, tensor<4x2x512x512xf32>) -> tensor<4x2x512x512xf32>
    %210 = "stablehlo.constant"() { value = dense<0xff800000> : tensor<f32> } : () -> tensor<f32>
    %211 = "stablehlo.reduce"(%209, %210) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %71 = "stablehlo.maximum"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%71) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 3> } : (tensor<4x2x512x512xf32>, tensor<f32>) -> tensor<4x2x512xf32>
    %212 = "stablehlo.reshape"(%211) : (tensor<4x2x512xf32>) -> tensor<4x2x512x1xf32>
    %213 = "stablehlo.broadcast_in_dim"(%212) { broadcast_dimensions = array<i64: 0, 1, 2, 3> } : (tensor<4x2x512x1xf32>) -> tensor<4x2x512x512xf32>
    %214 = "stablehlo.subtract"(%209, %213) : (tensor<4x2x512x512xf32>, tensor<4x2x512x512xf32>) -> tensor<4x2x512x512xf32>
    %215 = "stablehlo.exponential"(%214) : (tensor<4x2x512x512xf32>) -> tensor<4x2x512x512xf32>
    %216 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %217 = "stablehlo.reduce"(%215, %216) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %7 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%7) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 3> } : (tensor<4x2x512x512xf32>, tensor<f32>) -> tensor<4x2x512xf32>
    %218 = "stablehlo.reshape"(%217) : (tensor<4x2x512xf32>) -> tensor<4x2x512x1xf32>
    %219 = "stablehlo.broadcast_in_dim"(%218) { broadcast_dimensions = array<i64: 0, 1, 2, 3> } : (tensor<4x2x512x1xf32>) -> tensor<4x2x512x512xf32>
    %220 = "stablehlo.divide"(%215, %219) : (tensor<4x2x512x512xf32>, tensor<4x2x512x512xf32>) -> tensor<4x2x512x512xf32>
    %221 = "stablehlo.convert"(%220) : (tensor<4x2x512x512xf32>) -> tensor<4x2x512x512xbf16>
    %222 = "stablehlo.dot_general"(%221, %196) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [0, 1],
  rhs_batching_dimensions = [0, 1],
  lhs_contracting_dimensions = [3],
  rhs_contracting_dimensions = [2]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<4x2x512x512xbf16>, tensor<4x2x512x128xbf16>) -> tensor<4x2x512x128xbf16>
    %223 = "stablehlo.transpose"(%222) { permutation = array<i64: 0, 2, 1, 3> } : (tensor<4x2x512x128xbf16>) -> tensor<4x512x2x128xbf16>
    %224 = "stablehlo.reshape"(%223) : (tensor<4x512x2x128xbf16>) -> tensor<2048x256xbf16>
    %225 = "stablehlo.dot_general"(%224, %b1_attn_wo) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<2048x256xbf16>, tensor<256x2048xbf16>) -> tensor<2048x2048xbf16>
    %226 = "stablehlo.all_reduce"(%225) ({
      ^computation(%lhs: tensor<bf16>, %rhs: tensor<bf16>) :
          %88 = "stablehlo.add"(%lhs, %rhs) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
          "stablehlo.return"(%88) : (tensor<bf16>) -> ()
    }) { replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64> } : (tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16>
    %227 = "stablehlo.reshape"(%b1_attn_bo) : (tensor<2048xbf16>) -> tensor<1x2048xbf16>
    %228 = "stablehlo.broadcast_in_dim"(%227) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x2048xbf16>) -> tensor<2048x2048xbf16>
    %229 = "stablehlo.add"(%226, %228) : (tensor<2048x2048xbf16>, tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16>
    %230 = "stablehlo.add"(%150, %229) : (tensor<2048x2048xbf16>, tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16>
    %231 = "stablehlo.convert"(%230) : (tensor<2048x2048xbf16>) -> tensor<2048x2048xf32>
    %232 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %233 = "stablehlo.reduce"(%231, %232) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %7 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%7) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 1> } : (tensor<2048x2048xf32>, tensor<f32>) -> tensor<2048xf32>
    %234 = "stablehlo.broadcast_in_dim"(%10) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048xf32>
    %235 = "stablehlo.multiply"(%233, %234) : (tensor<2048xf32>, tensor<2048xf32>) -> tensor<2048xf32>
    %236 = "stablehlo.reshape"(%235) : (tensor<2048xf32>) -> tensor<2048x1xf32>
    %237 = "stablehlo.broadcast_in_dim"(%236) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<2048x1xf32>) -> tensor<2048x2048xf32>
    %238 = "stablehlo.subtract"(%231, %237) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %239 = "stablehlo.multiply"(%238, %238) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %240 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %241 = "stablehlo.reduce"(%239, %240) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %7 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%7) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 1> } : (tensor<2048x2048xf32>, tensor<f32>) -> tensor<2048xf32>
    %242 = "stablehlo.broadcast_in_dim"(%10) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048xf32>
    %243 = "stablehlo.multiply"(%241, %242) : (tensor<2048xf32>, tensor<2048xf32>) -> tensor<2048xf32>
    %244 = "stablehlo.reshape"(%243) : (tensor<2048xf32>) -> tensor<2048x1xf32>
    %245 = "stablehlo.broadcast_in_dim"(%22) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x1xf32>
    %246 = "stablehlo.add"(%244, %245) : (tensor<2048x1xf32>, tensor<2048x1xf32>) -> tensor<2048x1xf32>
    %247 = "stablehlo.rsqrt"(%246) : (tensor<2048x1xf32>) -> tensor<2048x1xf32>
    %248 = "stablehlo.broadcast_in_dim"(%247) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<2048x1xf32>) -> tensor<2048x2048xf32>
    %249 = "stablehlo.multiply"(%238, %248) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %250 = "stablehlo.convert"(%b1_norm2_gain) : (tensor<2048xbf16>) -> tensor<2048xf32>
    %251 = "stablehlo.reshape"(%250) : (tensor<2048xf32>) -> tensor<1x2048xf32>
    %252 = "stablehlo.broadcast_in_dim"(%251) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x2048xf32>) -> tensor<2048x2048xf32>
    %253 = "stablehlo.multiply"(%249, %252) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %254 = "stablehlo.convert"(%b1_norm2_bias) : (tensor<2048xbf16>) -> tensor<2048xf32>
    %255 = "stablehlo.reshape"(%254) : (tensor<2048xf32>) -> tensor<1x2048xf32>
    %256 = "stablehlo.broadcast_in_dim"(%255) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x2048xf32>) -> tensor<2048x2048xf32>
    %257 = "stablehlo.add"(%253, %256) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %258 = "stablehlo.convert"(%257) : (tensor<2048x2048xf32>) -> tensor<2048x2048xbf16>
    %259 = "stablehlo.dot_general"(%258, %b1_mlp_w1) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<2048x2048xbf16>, tensor<2048x1024xbf16>) -> tensor<2048x1024xbf16>
    %260 = "stablehlo.reshape"(%b1_mlp_b1) : (tensor<1024xbf16>) -> tensor<1x1024xbf16>
    %261 = "stablehlo.broadcast_in_dim"(%260) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x1024xbf16>) -> tensor<2048x1024xbf16>
    %262 = "stablehlo.add"(%259, %261) : (tensor<2048x1024xbf16>, tensor<2048x1024xbf16>) -> tensor<2048x1024xbf16>
    %263 = "stablehlo.convert"(%262) : (tensor<2048x1024xbf16>) -> tensor<2048x1024xf32>
    %264 = "stablehlo.multiply"(%263, %263) : (tensor<2048x1024xf32>, tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
    %265 = "stablehlo.multiply"(%263, %264) : (tensor<2048x1024xf32>, tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
    %266 = "stablehlo.broadcast_in_dim"(%129) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x1024xf32>
    %267 = "stablehlo.multiply"(%265, %266) : (tensor<2048x1024xf32>, tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
    %268 = "stablehlo.add"(%263, %267) : (tensor<2048x1024xf32>, tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
    %269 = "stablehlo.broadcast_in_dim"(%133) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x1024xf32>
    %270 = "stablehlo.multiply"(%268, %269) : (tensor<2048x1024xf32>, tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
    %271 = "stablehlo.broadcast_in_dim"(%136) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x1024xf32>
    %272 = "stablehlo.multiply"(%263, %271) : (tensor<2048x1024xf32>, tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
    %273 = "stablehlo.tanh"(%270) : (tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
    %274 = "stablehlo.broadcast_in_dim"(%140) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x1024xf32>
    %275 = "stablehlo.add"(%273, %274) : (tensor<2048x1024xf32>, tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
    %276 = "stablehlo.multiply"(%272, %275) : (tensor<2048x1024xf32>, tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
    %277 = "stablehlo.convert"(%276) : (tensor<2048x1024xf32>) -> tensor<2048x1024xbf16>
    %278 = "stablehlo.dot_general"(%277, %b1_mlp_w2) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<2048x1024xbf16>, tensor<1024x2048xbf16>) -> tensor<2048x2048xbf16>
    %279 = "stablehlo.all_reduce"(%278) ({
      ^computation(%lhs: tensor<bf16>, %rhs: tensor<bf16>) :
          %88 = "stablehlo.add"(%lhs, %rhs) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
          "stablehlo.return"(%88) : (tensor<bf16>) -> ()
    }) { replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64> } : (tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16>
    %280 = "stablehlo.reshape"(%b1_mlp_b2) : (tensor<2048xbf16>) -> tensor<1x2048xbf16>
    %281 = "stablehlo.broadcast_in_dim"(%280) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x2048xbf16>) -> tensor<2048x2048xbf16>
    %282 = "stablehlo.add"(%279, %281) : (tensor<2048x2048xbf16>, tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16>
    %283 = "stablehlo.add"(%230, %282) : (tensor<2048x2048xbf16>, tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16>
    %284 = "stablehlo.convert"(%283) : (tensor<2048x2048xbf16>) -> tensor<2048x2048xf32>
    %285 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %286 = "stablehlo.reduce"(%284, %285) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %7 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%7) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 1> } : (tensor<2048x2048xf32>, tensor<f32>) -> tensor<2048xf32>
    %287 = "stablehlo.broadcast_in_dim"(%10) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048xf32>
    %288 = "stablehlo.multiply"(%286, %287) : (tensor<2048xf32>, tensor<2048xf32>) -> tensor<2048xf32>
    %289 = "stablehlo.reshape"(%288) : (tensor<2048xf32>) -> tensor<2048x1xf32>
    %290 = "stablehlo.broadcast_in_dim"(%289) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<2048x1xf32>) -> tensor<2048x2048xf32>
    %291 = "stablehlo.subtract"(%284, %290) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %292 = "stablehlo.multiply"(%291, %291) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %293 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %294 = "stablehlo.reduce"(%292, %293) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %7 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%7) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 1> } : (tensor<2048x2048xf32>, tensor<f32>) -> tensor<2048xf32>
    %295 = "stablehlo.broadcast_in_dim"(%10) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048xf32>
    %296 = "stablehlo.multiply"(%294, %295) : (tensor<2048xf32>, tensor<2048xf32>) -> tensor<2048xf32>
    %297 = "stablehlo.reshape"(%296) : (tensor<2048xf32>) -> tensor<2048x1xf32>
    %298 = "stablehlo.broadcast_in_dim"(%22) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x1xf32>
    %299 = "stablehlo.add"(%297, %298) : (tensor<2048x1xf32>, tensor<2048x1xf32>) -> tensor<2048x1xf32>
    %300 = "stablehlo.rsqrt"(%299) : (tensor<2048x1xf32>) -> tensor<2048x1xf32>
    %301 = "stablehlo.broadcast_in_dim"(%300) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<2048x1xf32>) -> tensor<2048x2048xf32>
    %302 = "stablehlo.multiply"(%291, %301) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %303 = "stablehlo.convert"(%b2_norm1_gain) : (tensor<2048xbf16>) -> tensor<2048xf32>
    %304 = "stablehlo.reshape"(%303) : (tensor<2048xf32>) -> tensor<1x2048xf32>
    %305 = "stablehlo.broadcast_in_dim"(%304) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x2048xf32>) -> tensor<2048x2048xf32>
    %306 = "stablehlo.multiply"(%302, %305) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %307 = "stablehlo.convert"(%b2_norm1_bias) : (tensor<2048xbf16>) -> tensor<2048xf32>
    %308 = "stablehlo.reshape"(%307) : (tensor<2048xf32>) -> tensor<1x2048xf32>
    %309 = "stablehlo.broadcast_in_dim"(%308) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x2048xf32>) -> tensor<2048x2048xf32>
    %310 = "stablehlo.add"(%306, %309) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %311 = "stablehlo.convert"(%310) : (tensor<2048x2048xf32>) -> tensor<2048x2048xbf16>
    %312 = "stablehlo.dot_general"(%311, %b2_attn_wq) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<2048x2048xbf16>, tensor<2048x256xbf16>) -> tensor<2048x256xbf16>
    %313 = "stablehlo.reshape"(%b2_attn_bq) : (tensor<256xbf16>) -> tensor<1x256xbf16>
    %314 = "stablehlo.broadcast_in_dim"(%313) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x256xbf16>) -> tensor<2048x256xbf16>
    %315 = "stablehlo.add"(%312, %314) : (tensor<2048x256xbf16>, tensor<2048x256xbf16>) -> tensor<2048x256xbf16>
    %316 = "stablehlo.reshape"(%315) : (tensor<2048x256xbf16>) -> tensor<4x512x2x128xbf16>
    %317 = "stablehlo.transpose"(%316) { permutation = array<i64: 0, 2, 1, 3> } : (tensor<4x512x2x128xbf16>) -> tensor<4x2x512x128xbf16>
    %318 = "stablehlo.dot_general"(%311, %b2_attn_wk) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<2048x2048xbf16>, tensor<2048x256xbf16>) -> tensor<2048x256xbf16>
    %319 = "stablehlo.reshape"(%b2_attn_bk) : (tensor<256xbf16>) -> tensor<1x256xbf16>
    %320 = "stablehlo.broadcast_in_dim"(%319) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x256xbf16>) -> tensor<2048x256xbf16>
    %321 = "stablehlo.add"(%318, %320) : (tensor<2048x256xbf16>, tensor<2048x256xbf16>) -> tensor<2048x256xbf16>
    %322 = "stablehlo.reshape"(%321) : (tensor<2048x256xbf16>) -> tensor<4x512x2x128xbf16>
    %323 = "stablehlo.transpose"(%322) { permutation = array<i64: 0, 2, 1, 3> } : (tensor<4x512x2x128xbf16>) -> tensor<4x2x512x128xbf16>
    %324 = "stablehlo.dot_general"(%311, %b2_attn_wv) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<2048x2048xbf16>, tensor<2048x256xbf16>) -> tensor<2048x256xbf16>
    %325 = "stablehlo.reshape"(%b2_attn_bv) : (tensor<256xbf16>) -> tensor<1x256xbf16>
    %326 = "stablehlo.broadcast_in_dim"(%325) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x256xbf16>) -> tensor<2048x256xbf16>
    %327 = "stablehlo.add"(%324, %326) : (tensor<2048x256xbf16>, tensor<2048x256xbf16>) -> tensor<2048x256xbf16>
    %328 = "stablehlo.reshape"(%327) : (tensor<2048x256xbf16>) -> tensor<4x512x2x128xbf16>
    %329 = "stablehlo.transpose"(%328) { permutation = array<i64: 0, 2, 1, 3> } : (tensor<4x512x2x128xbf16>) -> tensor<4x2x512x128xbf16>
    %330 = "stablehlo.dot_general"(%317, %323) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [0, 1],
  rhs_batching_dimensions = [0, 1],
  lhs_contracting_dimensions = [3],
  rhs_contracting_dimensions = [3]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<4x2x512x128xbf16>, tensor<4x2x512x128xbf16>) -> tensor<4x2x512x512xbf16>
    %331 = "stablehlo.convert"(%330) : (tensor<4x2x512x512xbf16>) -> tensor<4x2x512x512xf32>
    %332 = "stablehlo.broadcast_in_dim"(%57) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<4x2x512x512xf32>
    %333 = "stablehlo.multiply"(%331, %332) : (tensor<4x2x512x512xf32>, tensor<4x2x512x512xf32>) -> tensor<4x2x512x512xf32>
    %334 = "stablehlo.iota"() { iota_dimension = 0 : i64 } : () -> tensor<512x512xi64>
    %335 = "stablehlo.iota"() { iota_dimension = 1 : i64 } : () -> tensor<512x512xi64>
    %336 = "stablehlo.compare"(%335, %334) {
      compare_type = #stablehlo<comparison_type SIGNED>,
      comparison_direction = #stablehlo<comparison_direction LE>
    } : (tensor<512x512xi64>, tensor<512x512xi64>) -> tensor<512x512xi1>
    %337 = "stablehlo.broadcast_in_dim"(%63) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<512x512xf32>
    %338 = "stablehlo.broadcast_in_dim"(%64) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<512x512xf32>
    %339 = "stablehlo.select"(%336, %337, %338) : (tensor<512x512xi1>, tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
    %340 = "stablehlo.reshape"(%339) : (tensor<512x512xf32>) -> tensor<1x1x512x512xf32>
    %341 = "stablehlo.broadcast_in_dim"(%340) { broadcast_dimensions = array<i64: 0, 1, 2, 3> } : (tensor<1x1x512x512xf32>) -> tensor<4x2x512x512xf32>
    %342 = "stablehlo.add"(%333, %341) : (tensor<4x2x512x512xf32>, tensor<4x2x512x512xf32>) -> tensor<4x2x512x512xf32>
    %343 = "stablehlo.constant"() { value = dense<0xff800000> : tensor<f32> } : () -> tensor<f32>
    %344 = "stablehlo.reduce"(%342, %343) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %71 = "stablehlo.maximum"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%71) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 3> } : (tensor<4x2x512x512xf32>, tensor<f32>) -> tensor<4x2x512xf32>
    %345 = "stablehlo.reshape"(%344) : (tensor<4x2x512xf32>) -> tensor<4x2x512x1xf32>
    %346 = "stablehlo.broadcast_in_dim"(%345) { broadcast_dimensions = array<i64: 0, 1, 2, 3> } : (tensor<4x2x512x1xf32>) -> tensor<4x2x512x512xf32>
    %347 = "stablehlo.subtract"(%342, %346) : (tensor<4x2x512x512xf32>, tensor<4x2x512x512xf32>) -> tensor<4x2x512x512xf32>
    %348 = "stablehlo.exponential"(%347) : (tensor<4x2x512x512xf32>) -> tensor<4x2x512x512xf32>
    %349 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %350 = "stablehlo.reduce"(%348, %349) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %7 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%7) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 3> } : (tensor<4x2x512x512xf32>, tensor<f32>) -> tensor<4x2x512xf32>
    %351 = "stablehlo.reshape"(%350) : (tensor<4x2x512xf32>) -> tensor<4x2x512x1xf32>
    %352 = "stablehlo.broadcast_in_dim"(%351) { broadcast_dimensions = array<i64: 0, 1, 2, 3> } : (tensor<4x2x512x1xf32>) -> tensor<4x2x512x512xf32>
    %353 = "stablehlo.divide"(%348, %352) : (tensor<4x2x512x512xf32>, tensor<4x2x512x512xf32>) -> tensor<4x2x512x512xf32>
    %354 = "stablehlo.convert"(%353) : (tensor<4x2x512x512xf32>) -> tensor<4x2x512x512xbf16>
    %355 = "stablehlo.dot_general"(%354, %329) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [0, 1],
  rhs_batching_dimensions = [0, 1],
  lhs_contracting_dimensions = [3],
  rhs_contracting_dimensions = [2]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<4x2x512x512xbf16>, tensor<4x2x512x128xbf16>) -> tensor<4x2x512x128xbf16>
    %356 = "stablehlo.transpose"(%355) { permutation = array<i64: 0, 2, 1, 3> } : (tensor<4x2x512x128xbf16>) -> tensor<4x512x2x128xbf16>
    %357 = "stablehlo.reshape"(%356) : (tensor<4x512x2x128xbf16>) -> tensor<2048x256xbf16>
    %358 = "stablehlo.dot_general"(%357, %b2_attn_wo) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<2048x256xbf16>, tensor<256x2048xbf16>) -> tensor<2048x2048xbf16>
    %359 = "stablehlo.all_reduce"(%358) ({
      ^computation(%lhs: tensor<bf16>, %rhs: tensor<bf16>) :
          %88 = "stablehlo.add"(%lhs, %rhs) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
          "stablehlo.return"(%88) : (tensor<bf16>) -> ()
    }) { replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64> } : (tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16>
    %360 = "stablehlo.reshape"(%b2_attn_bo) : (tensor<2048xbf16>) -> tensor<1x2048xbf16>
    %361 = "stablehlo.broadcast_in_dim"(%360) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x2048xbf16>) -> tensor<2048x2048xbf16>
    %362 = "stablehlo.add"(%359, %361) : (tensor<2048x2048xbf16>, tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16>
    %363 = "stablehlo.add"(%283, %362) : (tensor<2048x2048xbf16>, tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16>
    %364 = "stablehlo.convert"(%363) : (tensor<2048x2048xbf16>) -> tensor<2048x2048xf32>
    %365 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %366 = "stablehlo.reduce"(%364, %365) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %7 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%7) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 1> } : (tensor<2048x2048xf32>, tensor<f32>) -> tensor<2048xf32>
    %367 = "stablehlo.broadcast_in_dim"(%10) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048xf32>
    %368 = "stablehlo.multiply"(%366, %367) : (tensor<2048xf32>, tensor<2048xf32>) -> tensor<2048xf32>
    %369 = "stablehlo.reshape"(%368) : (tensor<2048xf32>) -> tensor<2048x1xf32>
    %370 = "stablehlo.broadcast_in_dim"(%369) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<2048x1xf32>) -> tensor<2048x2048xf32>
    %371 = "stablehlo.subtract"(%364, %370) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %372 = "stablehlo.multiply"(%371, %371) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %373 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %374 = "stablehlo.reduce"(%372, %373) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %7 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%7) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 1> } : (tensor<2048x2048xf32>, tensor<f32>) -> tensor<2048xf32>
    %375 = "stablehlo.broadcast_in_dim"(%10) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048xf32>
    %376 = "stablehlo.multiply"(%374, %375) : (tensor<2048xf32>, tensor<2048xf32>) -> tensor<2048xf32>
    %377 = "stablehlo.reshape"(%376) : (tensor<2048xf32>) -> tensor<2048x1xf32>
    %378 = "stablehlo.broadcast_in_dim"(%22) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x1xf32>
    %379 = "stablehlo.add"(%377, %378) : (tensor<2048x1xf32>, tensor<2048x1xf32>) -> tensor<2048x1xf32>
    %380 = "stablehlo.rsqrt"(%379) : (tensor<2048x1xf32>) -> tensor<2048x1xf32>
    %381 = "stablehlo.broadcast_in_dim"(%380) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<2048x1xf32>) -> tensor<2048x2048xf32>
    %382 = "stablehlo.multiply"(%371, %381) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %383 = "stablehlo.convert"(%b2_norm2_gain) : (tensor<2048xbf16>) -> tensor<2048xf32>
    %384 = "stablehlo.reshape"(%383) : (tensor<2048xf32>) -> tensor<1x2048xf32>
    %385 = "stablehlo.broadcast_in_dim"(%384) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x2048xf32>) -> tensor<2048x2048xf32>
    %386 = "stablehlo.multiply"(%382, %385) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %387 = "stablehlo.convert"(%b2_norm2_bias) : (tensor<2048xbf16>) -> tensor<2048xf32>
    %388 = "stablehlo.reshape"(%387) : (tensor<2048xf32>) -> tensor<1x2048xf32>
    %389 = "stablehlo.broadcast_in_dim"(%388) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x2048xf32>) -> tensor<2048x2048xf32>
    %390 = "stablehlo.add"(%386, %389) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %391 = "stablehlo.convert"(%390) : (tensor<2048x2048xf32>) -> tensor<2048x2048xbf16>
    %392 = "stablehlo.dot_general"(%391, %b2_mlp_w1) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<2048x2048xbf16>, tensor<2048x1024xbf16>) -> tensor<2048x1024xbf16>
    %393 = "stablehlo.reshape"(%b2_mlp_b1) : (tensor<1024xbf16>) -> tensor<1x1024xbf16>
    %394 = "stablehlo.broadcast_in_dim"(%393) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x1024xbf16>) -> tensor<2048x1024xbf16>
    %395 = "stablehlo.add"(%392, %394) : (tensor<2048x1024xbf16>, tensor<2048x1024xbf16>) -> tensor<2048x1024xbf16>
    %396 = "stablehlo.convert"(%395) : (tensor<2048x1024xbf16>) -> tensor<2048x1024xf32>
    %397 = "stablehlo.multiply"(%396, %396) : (tensor<2048x1024xf32>, tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
    %398 = "stablehlo.multiply"(%396, %397) : (tensor<2048x1024xf32>, tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
    %399 = "stablehlo.broadcast_in_dim"(%129) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x1024xf32>
    %400 = "stablehlo.multiply"(%398, %399) : (tensor<2048x1024xf32>, tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
    %401 = "stablehlo.add"(%396, %400) : (tensor<2048x1024xf32>, tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
    %402 = "stablehlo.broadcast_in_dim"(%133) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x1024xf32>
    %403 = "stablehlo.multiply"(%401, %402) : (tensor<2048x1024xf32>, tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
    %404 = "stablehlo.broadcast_in_dim"(%136) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x1024xf32>
    %405 = "stablehlo.multiply"(%396, %404) : (tensor<2048x1024xf32>, tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
    %406 = "stablehlo.tanh"(%403) : (tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
    %407 = "stablehlo.broadcast_in_dim"(%140) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x1024xf32>
    %408 = "stablehlo.add"(%406, %407) : (tensor<2048x1024xf32>, tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
    %409 = "stablehlo.multiply"(%405, %408) : (tensor<2048x1024xf32>, tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
    %410 = "stablehlo.convert"(%409) : (tensor<2048x1024xf32>) -> tensor<2048x1024xbf16>
    %411 = "stablehlo.dot_general"(%410, %b2_mlp_w2) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<2048x1024xbf16>, tensor<1024x2048xbf16>) -> tensor<2048x2048xbf16>
    %412 = "stablehlo.all_reduce"(%411) ({
      ^computation(%lhs: tensor<bf16>, %rhs: tensor<bf16>) :
          %88 = "stablehlo.add"(%lhs, %rhs) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
          "stablehlo.return"(%88) : (tensor<bf16>) -> ()
    }) { replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64> } : (tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16>
    %413 = "stablehlo.reshape"(%b2_mlp_b2) : (tensor<2048xbf16>) -> tensor<1x2048xbf16>
    %414 = "stablehlo.broadcast_in_dim"(%413) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x2048xbf16>) -> tensor<2048x2048xbf16>
    %415 = "stablehlo.add"(%412, %414) : (tensor<2048x2048xbf16>, tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16>
    %416 = "stablehlo.add"(%363, %415) : (tensor<2048x2048xbf16>, tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16>
    %417 = "stablehlo.convert"(%416) : (tensor<2048x2048xbf16>) -> tensor<2048x2048xf32>
    %418 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %419 = "stablehlo.reduce"(%417, %418) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %7 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%7) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 1> } : (tensor<2048x2048xf32>, tensor<f32>) -> tensor<2048xf32>
    %420 = "stablehlo.broadcast_in_dim"(%10) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048xf32>
    %421 = "stablehlo.multiply"(%419, %420) : (tensor<2048xf32>, tensor<2048xf32>) -> tensor<2048xf32>
    %422 = "stablehlo.reshape"(%421) : (tensor<2048xf32>) -> tensor<2048x1xf32>
    %423 = "stablehlo.broadcast_in_dim"(%422) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<2048x1xf32>) -> tensor<2048x2048xf32>
    %424 = "stablehlo.subtract"(%417, %423) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %425 = "stablehlo.multiply"(%424, %424) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %426 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %427 = "stablehlo.reduce"(%425, %426) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %7 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%7) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 1> } : (tensor<2048x2048xf32>, tensor<f32>) -> tensor<2048xf32>
    %428 = "stablehlo.broadcast_in_dim"(%10) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048xf32>
    %429 = "stablehlo.multiply"(%427, %428) : (tensor<2048xf32>, tensor<2048xf32>) -> tensor<2048xf32>
    %430 = "stablehlo.reshape"(%429) : (tensor<2048xf32>) -> tensor<2048x1xf32>
    %431 = "stablehlo.broadcast_in_dim"(%22) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x1xf32>
    %432 = "stablehlo.add"(%430, %431) : (tensor<2048x1xf32>, tensor<2048x1xf32>) -> tensor<2048x1xf32>
    %433 = "stablehlo.rsqrt"(%432) : (tensor<2048x1xf32>) -> tensor<2048x1xf32>
    %434 = "stablehlo.broadcast_in_dim"(%433) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<2048x1xf32>) -> tensor<2048x2048xf32>
    %435 = "stablehlo.multiply"(%424, %434) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %436 = "stablehlo.convert"(%b3_norm1_gain) : (tensor<2048xbf16>) -> tensor<2048xf32>
    %437 = "stablehlo.reshape"(%436) : (tensor<2048xf32>) -> tensor<1x2048xf32>
    %438 = "stablehlo.broadcast_in_dim"(%437) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x2048xf32>) -> tensor<2048x2048xf32>
    %439 = "stablehlo.multiply"(%435, %438) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %440 = "stablehlo.convert"(%b3_norm1_bias) : (tensor<2048xbf16>) -> tensor<2048xf32>
    %441 = "stablehlo.reshape"(%440) : (tensor<2048xf32>) -> tensor<1x2048xf32>
    %442 = "stablehlo.broadcast_in_dim"(%441) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x2048xf32>) -> tensor<2048x2048xf32>
    %443 = "stablehlo.add"(%439, %442) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %444 = "stablehlo.convert"(%443) : (tensor<2048x2048xf32>) -> tensor<2048x2048xbf16>
    %445 = "stablehlo.dot_general"(%444, %b3_attn_wq) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<2048x2048xbf16>, tensor<2048x256xbf16>) -> tensor<2048x256xbf16>
    %446 = "stablehlo.reshape"(%b3_attn_bq) : (tensor<256xbf16>) -> tensor<1x256xbf16>
    %447 = "stablehlo.broadcast_in_dim"(%446) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x256xbf16>) -> tensor<2048x256xbf16>
    %448 = "stablehlo.add"(%445, %447) : (tensor<2048x256xbf16>, tensor<2048x256xbf16>) -> tensor<2048x256xbf16>
    %449 = "stablehlo.reshape"(%448) : (tensor<2048x256xbf16>) -> tensor<4x512x2x128xbf16>
    %450 = "stablehlo.transpose"(%449) { permutation = array<i64: 0, 2, 1, 3> } : (tensor<4x512x2x128xbf16>) -> tensor<4x2x512x128xbf16>
    %451 = "stablehlo.dot_general"(%444, %b3_attn_wk) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<2048x2048xbf16>, tensor<2048x256xbf16>) -> tensor<2048x256xbf16>
    %452 = "stablehlo.reshape"(%b3_attn_bk) : (tensor<256xbf16>) -> tensor<1x256xbf16>
    %453 = "stablehlo.broadcast_in_dim"(%452) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x256xbf16>) -> tensor<2048x256xbf16>
    %454 = "stablehlo.add"(%451, %453) : (tensor<2048x256xbf16>, tensor<2048x256xbf16>) -> tensor<2048x256xbf16>
    %455 = "stablehlo.reshape"(%454) : (tensor<2048x256xbf16>) -> tensor<4x512x2x128xbf16>
    %456 = "stablehlo.transpose"(%455) { permutation = array<i64: 0, 2, 1, 3> } : (tensor<4x512x2x128xbf16>) -> tensor<4x2x512x128xbf16>
    %457 = "stablehlo.dot_general"(%444, %b3_attn_wv) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<2048x2048xbf16>, tensor<2048x256xbf16>) -> tensor<2048x256xbf16>
    %458 = "stablehlo.reshape"(%b3_attn_bv) : (tensor<256xbf16>) -> tensor<1x256xbf16>
    %459 = "stablehlo.broadcast_in_dim"(%458) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x256xbf16>) -> tensor<2048x256xbf16>
    %460 = "stablehlo.add"(%457, %459) : (tensor<2048x256xbf16>, tensor<2048x256xbf16>) -> tensor<2048x256xbf16>
    %461 = "stablehlo.reshape"(%460) : (tensor<2048x256xbf16>) -> tensor<4x512x2x128xbf16>
    %462 = "stablehlo.transpose"(%461) { permutation = array<i64: 0, 2, 1, 3> } : (tensor<4x512x2x128xbf16>) -> tensor<4x2x512x128xbf16>
    %463 = "stablehlo.dot_general"(%450, %456) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [0, 1],
  rhs_batching_dimensions = [0, 1],
  lhs_contracting_dimensions = [3],
  rhs_contracting_dimensions = [3]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<4x2x512x128xbf16>, tensor<4x2x512x128xbf16>) -> tensor<4x2x512x512xbf16>
    %464 = "stablehlo.convert"(%463) : (tensor<4x2x512x512xbf16>) -> tensor<4x2x512x512xf32>
    %465 = "stablehlo.broadcast_in_dim"(%57) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<4x2x512x512xf32>
    %466 = "stablehlo.multiply"(%464, %465) : (tensor<4x2x512x512xf32>, tensor<4x2x512x512xf32>) -> tensor<4x2x512x512xf32>
    %467 = "stablehlo.iota"() { iota_dimension = 0 : i64 } : () -> tensor<512x512xi64>
    %468 = "stablehlo.iota"() { iota_dimension = 1 : i64 } : () -> tensor<512x512xi64>
    %469 = "stablehlo.compare"(%468, %467) {
      compare_type = #stablehlo<comparison_type SIGNED>,
      comparison_direction = #stablehlo<comparison_direction LE>
    } : (tensor<512x512xi64>, tensor<512x512xi64>) -> tensor<512x512xi1>
    %470 = "stablehlo.broadcast_in_dim"(%63) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<512x512xf32>
    %471 = "stablehlo.broadcast_in_dim"(%64) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<512x512xf32>
    %472 = "stablehlo.select"(%469, %470, %471) : (tensor<512x512xi1>, tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
    %473 = "stablehlo.reshape"(%472) : (tensor<512x512xf32>) -> tensor<1x1x512x512xf32>
    %474 = "stablehlo.broadcast_in_dim"(%473) { broadcast_dimensions = array<i64: 0, 1, 2, 3> } : (tensor<1x1x512x512xf32>) -> tensor<4x2x512x512xf32>
    %475 = "stablehlo.add"(%466, %474) : (tensor<4x2x512x512xf32>, tensor<4x2x512x512xf32>) -> tensor<4x2x512x512xf32>
    %476 = "stablehlo.constant"() { value = dense<0xff800000> : tensor<f32> } : () -> tensor<f32>
    %477 = "stablehlo.reduce"(%475, %476) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %71 = "stablehlo.maximum"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%71) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 3> } : (tensor<4x2x512x512xf32>, tensor<f32>) -> tensor<4x2x512xf32>
    %478 = "stablehlo.reshape"(%477) : (tensor<4x2x512xf32>) -> tensor<4x2x512x1xf32>
    %479 = "stablehlo.broadcast_in_dim"(%478) { broadcast_dimensions = array<i64: 0, 1, 2, 3> } : (tensor<4x2x512x1xf32>) -> tensor<4x2x512x512xf32>
    %480 = "stablehlo.subtract"(%475, %479) : (tensor<4x2x512x512xf32>, tensor<4x2x512x512xf32>) -> tensor<4x2x512x512xf32>
    %481 = "stablehlo.exponential"(%480) : (tensor<4x2x512x512xf32>) -> tensor<4x2x512x512xf32>
    %482 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %483 = "stablehlo.reduce"(%481, %482) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %7 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%7) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 3> } : (tensor<4x2x512x512xf32>, tensor<f32>) -> tensor<4x2x512xf32>
    %484 = "stablehlo.reshape"(%483) : (tensor<4x2x512xf32>) -> tensor<4x2x512x1xf32>
    %485 = "stablehlo.broadcast_in_dim"(%484) { broadcast_dimensions = array<i64: 0, 1, 2, 3> } : (tensor<4x2x512x1xf32>) -> tensor<4x2x512x512xf32>
    %486 = "stablehlo.divide"(%481, %485) : (tensor<4x2x512x512xf32>, tensor<4x2x512x512xf32>) -> tensor<4x2x512x512xf32>
    %487 = "stablehlo.convert"(%486) : (tensor<4x2x512x512xf32>) -> tensor<4x2x512x512xbf16>
    %488 = "stablehlo.dot_general"(%487, %462) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [0, 1],
  rhs_batching_dimensions = [0, 1],
  lhs_contracting_dimensions = [3],
  rhs_contracting_dimensions = [2]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<4x2x512x512xbf16>, tensor<4x2x512x128xbf16>) -> tensor<4x2x512x128xbf16>
    %489 = "stablehlo.transpose"(%488) { permutation = array<i64: 0, 2, 1, 3> } : (tensor<4x2x512x128xbf16>) -> tensor<4x512x2x128xbf16>
    %490 = "stablehlo.reshape"(%489) : (tensor<4x512x2x128xbf16>) -> tensor<2048x256xbf16>
    %491 = "stablehlo.dot_general"(%490, %b3_attn_wo) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<2048x256xbf16>, tensor<256x2048xbf16>) -> tensor<2048x2048xbf16>
    %492 = "stablehlo.all_reduce"(%491) ({
      ^computation(%lhs: tensor<bf16>, %rhs: tensor<bf16>) :
          %88 = "stablehlo.add"(%lhs, %rhs) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
          "stablehlo.return"(%88) : (tensor<bf16>) -> ()
    }) { replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64> } : (tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16>
    %493 = "stablehlo.reshape"(%b3_attn_bo) : (tensor<2048xbf16>) -> tensor<1x2048xbf16>
    %494 = "stablehlo.broadcast_in_dim"(%493) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x2048xbf16>) -> tensor<2048x2048xbf16>
    %495 = "stablehlo.add"(%492, %494) : (tensor<2048x2048xbf16>, tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16>
    %496 = "stablehlo.add"(%416, %495) : (tensor<2048x2048xbf16>, tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16>
    %497 = "stablehlo.convert"(%496) : (tensor<2048x2048xbf16>) -> tensor<2048x2048xf32>
    %498 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %499 = "stablehlo.reduce"(%497, %498) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %7 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%7) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 1> } : (tensor<2048x2048xf32>, tensor<f32>) -> tensor<2048xf32>
    %500 = "stablehlo.broadcast_in_dim"(%10) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048xf32>
    %501 = "stablehlo.multiply"(%499, %500) : (tensor<2048xf32>, tensor<2048xf32>) -> tensor<2048xf32>
    %502 = "stablehlo.reshape"(%501) : (tensor<2048xf32>) -> tensor<2048x1xf32>
    %503 = "stablehlo.broadcast_in_dim"(%502) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<2048x1xf32>) -> tensor<2048x2048xf32>
    %504 = "stablehlo.subtract"(%497, %503) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %505 = "stablehlo.multiply"(%504, %504) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %506 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %507 = "stablehlo.reduce"(%505, %506) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %7 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%7) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 1> } : (tensor<2048x2048xf32>, tensor<f32>) -> tensor<2048xf32>
    %508 = "stablehlo.broadcast_in_dim"(%10) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048xf32>
    %509 = "stablehlo.multiply"(%507, %508) : (tensor<2048xf32>, tensor<2048xf32>) -> tensor<2048xf32>
    %510 = "stablehlo.reshape"(%509) : (tensor<2048xf32>) -> tensor<2048x1xf32>
    %511 = "stablehlo.broadcast_in_dim"(%22) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x1xf32>
    %512 = "stablehlo.add"(%510, %511) : (tensor<2048x1xf32>, tensor<2048x1xf32>) -> tensor<2048x1xf32>
    %513 = "stablehlo.rsqrt"(%512) : (tensor<2048x1xf32>) -> tensor<2048x1xf32>
    %514 = "stablehlo.broadcast_in_dim"(%513) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<2048x1xf32>) -> tensor<2048x2048xf32>
    %515 = "stablehlo.multiply"(%504, %514) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %516 = "stablehlo.convert"(%b3_norm2_gain) : (tensor<2048xbf16>) -> tensor<2048xf32>
    %517 = "stablehlo.reshape"(%516) : (tensor<2048xf32>) -> tensor<1x2048xf32>
    %518 = "stablehlo.broadcast_in_dim"(%517) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x2048xf32>) -> tensor<2048x2048xf32>
    %519 = "stablehlo.multiply"(%515, %518) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %520 = "stablehlo.convert"(%b3_norm2_bias) : (tensor<2048xbf16>) -> tensor<2048xf32>
    %521 = "stablehlo.reshape"(%520) : (tensor<2048xf32>) -> tensor<1x2048xf32>
    %522 = "stablehlo.broadcast_in_dim"(%521) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x2048xf32>) -> tensor<2048x2048xf32>
    %523 = "stablehlo.add"(%519, %522) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %524 = "stablehlo.convert"(%523) : (tensor<2048x2048xf32>) -> tensor<2048x2048xbf16>
    %525 = "stablehlo.dot_general"(%524, %b3_mlp_w1) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<2048x2048xbf16>, tensor<2048x1024xbf16>) -> tensor<2048x1024xbf16>
    %526 = "stablehlo.reshape"(%b3_mlp_b1) : (tensor<1024xbf16>) -> tensor<1x1024xbf16>
    %527 = "stablehlo.broadcast_in_dim"(%526) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x1024xbf16>) -> tensor<2048x1024xbf16>
    %528 = "stablehlo.add"(%525, %527) : (tensor<2048x1024xbf16>, tensor<2048x1024xbf16>) -> tensor<2048x1024xbf16>
    %529 = "stablehlo.convert"(%528) : (tensor<2048x1024xbf16>) -> tensor<2048x1024xf32>
    %530 = "stablehlo.multiply"(%529, %529) : (tensor<2048x1024xf32>, tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
    %531 = "stablehlo.multiply"(%529, %530) : (tensor<2048x1024xf32>, tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
    %532 = "stablehlo.broadcast_in_dim"(%129) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x1024xf32>
    %533 = "stablehlo.multiply"(%531, %532) : (tensor<2048x1024xf32>, tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
    %534 = "stablehlo.add"(%529, %533) : (tensor<2048x1024xf32>, tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
    %535 = "stablehlo.broadcast_in_dim"(%133) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x1024xf32>
    %536 = "stablehlo.multiply"(%534, %535) : (tensor<2048x1024xf32>, tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
    %537 = "stablehlo.broadcast_in_dim"(%136) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x1024xf32>
    %538 = "stablehlo.multiply"(%529, %537) : (tensor<2048x1024xf32>, tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
    %539 = "stablehlo.tanh"(%536) : (tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
    %540 = "stablehlo.broadcast_in_dim"(%140) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x1024xf32>
    %541 = "stablehlo.add"(%539, %540) : (tensor<2048x1024xf32>, tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
    %542 = "stablehlo.multiply"(%538, %541) : (tensor<2048x1024xf32>, tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
    %543 = "stablehlo.convert"(%542) : (tensor<2048x1024xf32>) -> tensor<2048x1024xbf16>
    %544 = "stablehlo.dot_general"(%543, %b3_mlp_w2) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<2048x1024xbf16>, tensor<1024x2048xbf16>) -> tensor<2048x2048xbf16>
    %545 = "stablehlo.all_reduce"(%544) ({
      ^computation(%lhs: tensor<bf16>, %rhs: tensor<bf16>) :
          %88 = "stablehlo.add"(%lhs, %rhs) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
          "stablehlo.return"(%88) : (tensor<bf16>) -> ()
    }) { replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64> } : (tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16>
    %546 = "stablehlo.reshape"(%b3_mlp_b2) : (tensor<2048xbf16>) -> tensor<1x2048xbf16>
    %547 = "stablehlo.broadcast_in_dim"(%546) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x2048xbf16>) -> tensor<2048x2048xbf16>
    %548 = "stablehlo.add"(%545, %547) : (tensor<2048x2048xbf16>, tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16>
    %549 = "stablehlo.add"(%496, %548) : (tensor<2048x2048xbf16>, tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16>
    %550 = "stablehlo.convert"(%549) : (tensor<2048x2048xbf16>) -> tensor<2048x2048xf32>
    %551 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %552 = "stablehlo.reduce"(%550, %551) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %7 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%7) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 1> } : (tensor<2048x2048xf32>, tensor<f32>) -> tensor<2048xf32>
    %553 = "stablehlo.broadcast_in_dim"(%10) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048xf32>
    %554 = "stablehlo.multiply"(%552, %553) : (tensor<2048xf32>, tensor<2048xf32>) -> tensor<2048xf32>
    %555 = "stablehlo.reshape"(%554) : (tensor<2048xf32>) -> tensor<2048x1xf32>
    %556 = "stablehlo.broadcast_in_dim"(%555) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<2048x1xf32>) -> tensor<2048x2048xf32>
    %557 = "stablehlo.subtract"(%550, %556) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %558 = "stablehlo.multiply"(%557, %557) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %559 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %560 = "stablehlo.reduce"(%558, %559) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %7 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%7) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 1> } : (tensor<2048x2048xf32>, tensor<f32>) -> tensor<2048xf32>
    %561 = "stablehlo.broadcast_in_dim"(%10) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048xf32>
    %562 = "stablehlo.multiply"(%560, %561) : (tensor<2048xf32>, tensor<2048xf32>) -> tensor<2048xf32>
    %563 = "stablehlo.reshape"(%562) : (tensor<2048xf32>) -> tensor<2048x1xf32>
    %564 = "stablehlo.broadcast_in_dim"(%22) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x1xf32>
    %565 = "stablehlo.add"(%563, %564) : (tensor<2048x1xf32>, tensor<2048x1xf32>) -> tensor<2048x1xf32>
    %566 = "stablehlo.rsqrt"(%565) : (tensor<2048x1xf32>) -> tensor<2048x1xf32>
    %567 = "stablehlo.broadcast_in_dim"(%566) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<2048x1xf32>) -> tensor<2048x2048xf32>
    %568 = "stablehlo.multiply"(%557, %567) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %569 = "stablehlo.convert"(%final_norm_gain) : (tensor<2048xbf16>) -> tensor<2048xf32>
    %570 = "stablehlo.reshape"(%569) : (tensor<2048xf32>) -> tensor<1x2048xf32>
    %571 = "stablehlo.broadcast_in_dim"(%570) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x2048xf32>) -> tensor<2048x2048xf32>
    %572 = "stablehlo.multiply"(%568, %571) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %573 = "stablehlo.convert"(%final_norm_bias) : (tensor<2048xbf16>) -> tensor<2048xf32>
    %574 = "stablehlo.reshape"(%573) : (tensor<2048xf32>) -> tensor<1x2048xf32>
    %575 = "stablehlo.broadcast_in_dim"(%574) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x2048xf32>) -> tensor<2048x2048xf32>
    %576 = "stablehlo.add"(%572, %575) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %577 = "stablehlo.convert"(%576) : (tensor<2048x2048xf32>) -> tensor<2048x2048xbf16>
    %578 = "stablehlo.dot_general"(%577, %lm_head) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<2048x2048xbf16>, tensor<2048x4096xbf16>) -> tensor<2048x4096xbf16>
    "stablehlo.return"(%150, %283, %416, %549, %578) : (tensor<2048x2048xbf16>, tensor<2048x2048xbf16>, tensor<2048x2048xbf16>, tensor<2048x2048xbf16>, tensor<2048x4096xbf16>) -> ()
  }
}
