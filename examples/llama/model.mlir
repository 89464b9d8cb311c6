module @llama attributes {stablehlo.num_replicas = 8} {
  func.func @main(%embed: tensor<128256x8192xbf16>, %b0_attn_norm: tensor<8192xbf16>, %b0_wq: tensor<8192x1024xbf16>, %b0_wk: tensor<8192x128xbf16>, %b0_wv: tensor<8192x128xbf16>, %b0_wo: tensor<1024x8192xbf16>, %b0_mlp_norm: tensor<8192xbf16>, %b0_w_gate: tensor<8192x3584xbf16>, %b0_w_up: tensor<8192x3584xbf16>, %b0_w_down: tensor<3584x8192xbf16>, %b1_attn_norm: tensor<8192xbf16>, %b1_wq: tensor<8192x1024xbf16>, %b1_wk: tensor<8192x128xbf16>, %b1_wv: tensor<8192x128xbf16>, %b1_wo: tensor<1024x8192xbf16>, %b1_mlp_norm: tensor<8192xbf16>, %b1_w_gate: tensor<8192x3584xbf16>, %b1_w_up: tensor<8192x3584xbf16>, %b1_w_down: tensor<3584x8192xbf16>, %final_norm: tensor<8192xbf16>, %lm_head: tensor<8192x16032xbf16>, %tokens: tensor<1x1xi32>, %b0_k_cache: tensor<1x2048x128xbf16>, %b0_v_cache: tensor<1x2048x128xbf16>, %b1_k_cache: tensor<1x2048x128xbf16>, %b1_v_cache: tensor<1x2048x128xbf16>) -> tensor<1x16032xbf16> {
    %0 = "stablehlo.reshape"(%tokens) : (tensor<1x1xi32>) -> tensor<1x1x1xi32>
    %1 = "stablehlo.gather"(%embed, %0) {
      dimension_numbers = #stablehlo.gather<
  offset_dims = [2],
  collapsed_slice_dims = [0],
  operand_batching_dims = [],
  start_indices_batching_dims = [],
  start_index_map = [0],
  index_vector_dim = 2>,
      indices_are_sorted = false,
      slice_sizes = array<i64: 1, 8192>
    } : (tensor<128256x8192xbf16>, tensor<1x1x1xi32>) -> tensor<1x1x8192xbf16>
    %2 = "stablehlo.reshape"(%1) : (tensor<1x1x8192xbf16>) -> tensor<1x8192xbf16>
    %3 = "stablehlo.convert"(%2) : (tensor<1x8192xbf16>) -> tensor<1x8192xf32>
    %4 = "stablehlo.multiply"(%3, %3) : (tensor<1x8192xf32>, tensor<1x8192xf32>) -> tensor<1x8192xf32>
    %6 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %7 = "stablehlo.reduce"(%4, %6) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %5 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%5) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 1> } : (tensor<1x8192xf32>, tensor<f32>) -> tensor<1xf32>
    %8 = "stablehlo.constant"() { value = dense<0.0001220703125> : tensor<f32> } : () -> tensor<f32>
    %9 = "stablehlo.broadcast_in_dim"(%8) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<1xf32>
    %10 = "stablehlo.multiply"(%7, %9) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %11 = "stablehlo.reshape"(%10) : (tensor<1xf32>) -> tensor<1x1xf32>
    %12 = "stablehlo.constant"() { value = dense<9.999999747378752e-06> : tensor<f32> } : () -> tensor<f32>
    %13 = "stablehlo.broadcast_in_dim"(%12) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<1x1xf32>
    %14 = "stablehlo.add"(%11, %13) : (tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x1xf32>
    %15 = "stablehlo.rsqrt"(%14) : (tensor<1x1xf32>) -> tensor<1x1xf32>
    %16 = "stablehlo.broadcast_in_dim"(%15) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x1xf32>) -> tensor<1x8192xf32>
    %17 = "stablehlo.multiply"(%3, %16) : (tensor<1x8192xf32>, tensor<1x8192xf32>) -> tensor<1x8192xf32>
    %18 = "stablehlo.convert"(%b0_attn_norm) : (tensor<8192xbf16>) -> tensor<8192xf32>
    %19 = "stablehlo.reshape"(%18) : (tensor<8192xf32>) -> tensor<1x8192xf32>
    %20 = "stablehlo.multiply"(%17, %19) : (tensor<1x8192xf32>, tensor<1x8192xf32>) -> tensor<1x8192xf32>
    %21 = "stablehlo.convert"(%20) : (tensor<1x8192xf32>) -> tensor<1x8192xbf16>
    %22 = "stablehlo.iota"() { iota_dimension = 0 : i64 } : () -> tensor<1xf32>
    %23 = "stablehlo.constant"() { value = dense<2048.0> : tensor<f32> } : () -> tensor<f32>
    %24 = "stablehlo.broadcast_in_dim"(%23) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<1xf32>
    %25 = "stablehlo.add"(%22, %24) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %26 = "stablehlo.dot_general"(%21, %b0_wq) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<1x8192xbf16>, tensor<8192x1024xbf16>) -> tensor<1x1024xbf16>
    %27 = "stablehlo.reshape"(%26) : (tensor<1x1024xbf16>) -> tensor<1x1x8x128xbf16>
    %28 = "stablehlo.iota"() { iota_dimension = 0 : i64 } : () -> tensor<64xf32>
    %29 = "stablehlo.constant"() { value = dense<-0.015625> : tensor<f32> } : () -> tensor<f32>
    %30 = "stablehlo.broadcast_in_dim"(%29) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<64xf32>
    %31 = "stablehlo.multiply"(%28, %30) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %32 = "stablehlo.constant"() { value = dense<13.122363090515137> : tensor<f32> } : () -> tensor<f32>
    %33 = "stablehlo.broadcast_in_dim"(%32) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<64xf32>
    %34 = "stablehlo.multiply"(%31, %33) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %35 = "stablehlo.exponential"(%34) : (tensor<64xf32>) -> tensor<64xf32>
    %36 = "stablehlo.reshape"(%25) : (tensor<1xf32>) -> tensor<1x1xf32>
    %37 = "stablehlo.reshape"(%35) : (tensor<64xf32>) -> tensor<1x64xf32>
    %38 = "stablehlo.broadcast_in_dim"(%36) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x1xf32>) -> tensor<1x64xf32>
    %39 = "stablehlo.multiply"(%38, %37) : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
    %40 = "stablehlo.cosine"(%39) : (tensor<1x64xf32>) -> tensor<1x64xf32>
    %41 = "stablehlo.reshape"(%40) : (tensor<1x64xf32>) -> tensor<1x1x1x64xf32>
    %42 = "stablehlo.sine"(%39) : (tensor<1x64xf32>) -> tensor<1x64xf32>
    %43 = "stablehlo.reshape"(%42) : (tensor<1x64xf32>) -> tensor<1x1x1x64xf32>
    %44 = "stablehlo.convert"(%27) : (tensor<1x1x8x128xbf16>) -> tensor<1x1x8x128xf32>
    %45 = "stablehlo.slice"(%44) {
      limit_indices = array<i64: 1, 1, 8, 64>,
      start_indices = array<i64: 0, 0, 0, 0>,
      strides = array<i64: 1, 1, 1, 1>
    } : (tensor<1x1x8x128xf32>) -> tensor<1x1x8x64xf32>
    %46 = "stablehlo.slice"(%44) {
      limit_indices = array<i64: 1, 1, 8, 128>,
      start_indices = array<i64: 0, 0, 0, 64>,
      strides = array<i64: 1, 1, 1, 1>
    } : (tensor<1x1x8x128xf32>) -> tensor<1x1x8x64xf32>
    %47 = "stablehlo.broadcast_in_dim"(%41) { broadcast_dimensions = array<i64: 0, 1, 2, 3> } : (tensor<1x1x1x64xf32>) -> tensor<1x1x8x64xf32>
    %48 = "stablehlo.multiply"(%45, %47) : (tensor<1x1x8x64xf32>, tensor<1x1x8x64xf32>) -> tensor<1x1x8x64xf32>
    %49 = "stablehlo.broadcast_in_dim"(%43) { broadcast_dimensions = array<i64: 0, 1, 2, 3> } : (tensor<1x1x1x64xf32>) -> tensor<1x1x8x64xf32>
    %50 = "stablehlo.multiply"(%46, %49) : (tensor<1x1x8x64xf32>, tensor<1x1x8x64xf32>) -> tensor<1x1x8x64xf32>
    %51 = "stablehlo.subtract"(%48, %50) : (tensor<1x1x8x64xf32>, tensor<1x1x8x64xf32>) -> tensor<1x1x8x64xf32>
    %52 = "stablehlo.broadcast_in_dim"(%41) { broadcast_dimensions = array<i64: 0, 1, 2, 3> } : (tensor<1x1x1x64xf32>) -> tensor<1x1x8x64xf32>
    %53 = "stablehlo.multiply"(%46, %52) : (tensor<1x1x8x64xf32>, tensor<1x1x8x64xf32>) -> tensor<1x1x8x64xf32>
    %54 = "stablehlo.broadcast_in_dim"(%43) { broadcast_dimensions = array<i64: 0, 1, 2, 3> } : (tensor<1x1x1x64xf32>) -> tensor<1x1x8x64xf32>
    %55 = "stablehlo.multiply"(%45, %54) : (tensor<1x1x8x64xf32>, tensor<1x1x8x64xf32>) -> tensor<1x1x8x64xf32>
    %56 = "stablehlo.add"(%53, %55) : (tensor<1x1x8x64xf32>, tensor<1x1x8x64xf32>) -> tensor<1x1x8x64xf32>
    %57 = "stablehlo.concatenate"(%51, %56) { dimension = 3 : i64 } : (tensor<1x1x8x64xf32>, tensor<1x1x8x64xf32>) -> tensor<1x1x8x128xf32>
    %58 = "stablehlo.convert"(%57) : (tensor<1x1x8x128xf32>) -> tensor<1x1x8x128xbf16>
    %59 = "stablehlo.dot_general"(%21, %b0_wk) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<1x8192xbf16>, tensor<8192x128xbf16>) -> tensor<1x128xbf16>
    %60 = "stablehlo.reshape"(%59) : (tensor<1x128xbf16>) -> tensor<1x1x1x128xbf16>
    %61 = "stablehlo.iota"() { iota_dimension = 0 : i64 } : () -> tensor<64xf32>
    %62 = "stablehlo.broadcast_in_dim"(%29) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<64xf32>
    %63 = "stablehlo.multiply"(%61, %62) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %64 = "stablehlo.broadcast_in_dim"(%32) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<64xf32>
    %65 = "stablehlo.multiply"(%63, %64) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %66 = "stablehlo.exponential"(%65) : (tensor<64xf32>) -> tensor<64xf32>
    %67 = "stablehlo.reshape"(%25) : (tensor<1xf32>) -> tensor<1x1xf32>
    %68 = "stablehlo.reshape"(%66) : (tensor<64xf32>) -> tensor<1x64xf32>
    %69 = "stablehlo.broadcast_in_dim"(%67) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x1xf32>) -> tensor<1x64xf32>
    %70 = "stablehlo.multiply"(%69, %68) : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
    %71 = "stablehlo.cosine"(%70) : (tensor<1x64xf32>) -> tensor<1x64xf32>
    %72 = "stablehlo.reshape"(%71) : (tensor<1x64xf32>) -> tensor<1x1x1x64xf32>
    %73 = "stablehlo.sine"(%70) : (tensor<1x64xf32>) -> tensor<1x64xf32>
    %74 = "stablehlo.reshape"(%73) : (tensor<1x64xf32>) -> tensor<1x1x1x64xf32>
    %75 = "stablehlo.convert"(%60) : (tensor<1x1x1x128xbf16>) -> tensor<1x1x1x128xf32>
    %76 = "stablehlo.slice"(%75) {
      limit_indices = array<i64: 1, 1, 1, 64>,
      start_indices = array<i64: 0, 0, 0, 0>,
      strides = array<i64: 1, 1, 1, 1>
    } : (tensor<1x1x1x128xf32>) -> tensor<1x1x1x64xf32>
    %77 = "stablehlo.slice"(%75) {
      limit_indices = array<i64: 1, 1, 1, 128>,
      start_indices = array<i64: 0, 0, 0, 64>,
      strides = array<i64: 1, 1, 1, 1>
    } : (tensor<1x1x1x128xf32>) -> tensor<1x1x1x64xf32>
    %78 = "stablehlo.multiply"(%76, %72) : (tensor<1x1x1x64xf32>, tensor<1x1x1x64xf32>) -> tensor<1x1x1x64xf32>
    %79 = "stablehlo.multiply"(%77, %74) : (tensor<1x1x1x64xf32>, tensor<1x1x1x64xf32>) -> tensor<1x1x1x64xf32>
    %80 = "stablehlo.subtract"(%78, %79) : (tensor<1x1x1x64xf32>, tensor<1x1x1x64xf32>) -> tensor<1x1x1x64xf32>
    %81 = "stablehlo.multiply"(%77, %72) : (tensor<1x1x1x64xf32>, tensor<1x1x1x64xf32>) -> tensor<1x1x1x64xf32>
    %82 = "stablehlo.multiply"(%76, %74) : (tensor<1x1x1x64xf32>, tensor<1x1x1x64xf32>) -> tensor<1x1x1x64xf32>
    %83 = "stablehlo.add"(%81, %82) : (tensor<1x1x1x64xf32>, tensor<1x1x1x64xf32>) -> tensor<1x1x1x64xf32>
    %84 = "stablehlo.concatenate"(%80, %83) { dimension = 3 : i64 } : (tensor<1x1x1x64xf32>, tensor<1x1x1x64xf32>) -> tensor<1x1x1x128xf32>
    %85 = "stablehlo.convert"(%84) : (tensor<1x1x1x128xf32>) -> tensor<1x1x1x128xbf16>
    %86 = "stablehlo.dot_general"(%21, %b0_wv) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<1x8192xbf16>, tensor<8192x128xbf16>) -> tensor<1x128xbf16>
    %87 = "stablehlo.reshape"(%86) : (tensor<1x128xbf16>) -> tensor<1x1x1x128xbf16>
    %88 = "stablehlo.reshape"(%58) : (tensor<1x1x8x128xbf16>) -> tensor<1x1x1x8x128xbf16>
    %89 = "stablehlo.reshape"(%b0_k_cache) : (tensor<1x2048x128xbf16>) -> tensor<1x2048x1x128xbf16>
    %90 = "stablehlo.reshape"(%b0_v_cache) : (tensor<1x2048x128xbf16>) -> tensor<1x2048x1x128xbf16>
    %91 = "stablehlo.dot_general"(%88, %89) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [0, 2],
  rhs_batching_dimensions = [0, 2],
  lhs_contracting_dimensions = [4],
  rhs_contracting_dimensions = [3]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<1x1x1x8x128xbf16>, tensor<1x2048x1x128xbf16>) -> tensor<1x1x1x8x2048xbf16>
    %92 = "stablehlo.transpose"(%91) { permutation = array<i64: 0, 1, 3, 2, 4> } : (tensor<1x1x1x8x2048xbf16>) -> tensor<1x1x8x1x2048xbf16>
    %93 = "stablehlo.convert"(%92) : (tensor<1x1x8x1x2048xbf16>) -> tensor<1x1x8x1x2048xf32>
    %94 = "stablehlo.constant"() { value = dense<0.0883883461356163> : tensor<f32> } : () -> tensor<f32>
    %95 = "stablehlo.broadcast_in_dim"(%94) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<1x1x8x1x2048xf32>
    %96 = "stablehlo.multiply"(%93, %95) : (tensor<1x1x8x1x2048xf32>, tensor<1x1x8x1x2048xf32>) -> tensor<1x1x8x1x2048xf32>
    %97 = "stablehlo.dot_general"(%88, %85) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [0, 2],
  rhs_batching_dimensions = [0, 2],
  lhs_contracting_dimensions = [4],
  rhs_contracting_dimensions = [3]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<1x1x1x8x128xbf16>, tensor<1x1x1x128xbf16>) -> tensor<1x1x1x8x1xbf16>
    %98 = "stablehlo.transpose"(%97) { permutation = array<i64: 0, 1, 3, 2, 4> } : (tensor<1x1x1x8x1xbf16>) -> tensor<1x1x8x1x1xbf16>
    %99 = "stablehlo.convert"(%98) : (tensor<1x1x8x1x1xbf16>) -> tensor<1x1x8x1x1xf32>
    %100 = "stablehlo.broadcast_in_dim"(%94) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<1x1x8x1x1xf32>
    %101 = "stablehlo.multiply"(%99, %100) : (tensor<1x1x8x1x1xf32>, tensor<1x1x8x1x1xf32>) -> tensor<1x1x8x1x1xf32>
    %102 = "stablehlo.concatenate"(%96, %101) { dimension = 4 : i64 } : (tensor<1x1x8x1x2048xf32>, tensor<1x1x8x1x1xf32>) -> tensor<1x1x8x1x2049xf32>
    %104 = "stablehlo.constant"() { value = dense<0xff800000> : tensor<f32> } : () -> tensor<f32>
    %105 = "stablehlo.reduce"(%102, %104) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %103 = "stablehlo.maximum"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%103) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 4> } : (tensor<1x1x8x1x2049xf32>, tensor<f32>) -> tensor<1x1x8x1xf32>
    %106 = "stablehlo.reshape"(%105) : (tensor<1x1x8x1xf32>) -> tensor<1x1x8x1x1xf32>
    %107 = "stablehlo.broadcast_in_dim"(%106) { broadcast_dimensions = array<i64: 0, 1, 2, 3, 4> } : (tensor<1x1x8x1x1xf32>) -> tensor<1x1x8x1x2049xf32>
    %108 = "stablehlo.subtract"(%102, %107) : (tensor<1x1x8x1x2049xf32>, tensor<1x1x8x1x2049xf32>) -> tensor<1x1x8x1x2049xf32>
    %109 = "stablehlo.exponential"(%108) : (tensor<1x1x8x1x2049xf32>) -> tensor<1x1x8x1x2049xf32>
    %110 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %111 = "stablehlo.reduce"(%109, %110) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %5 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%5) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 4> } : (tensor<1x1x8x1x2049xf32>, tensor<f32>) -> tensor<1x1x8x1xf32>
    %112 = "stablehlo.reshape"(%111) : (tensor<1x1x8x1xf32>) -> tensor<1x1x8x1x1xf32>
    %113 = "stablehlo.broadcast_in_dim"(%112) { broadcast_dimensions = array<i64: 0, 1, 2, 3, 4> } : (tensor<1x1x8x1x1xf32>) -> tensor<1x1x8x1x2049xf32>
    %114 = "stablehlo.divide"(%109, %113) : (tensor<1x1x8x1x2049xf32>, tensor<1x1x8x1x2049xf32>) -> tensor<1x1x8x1x2049xf32>
    %115 = "stablehlo.slice"(%114) {
      limit_indices = array<i64: 1, 1, 8, 1, 2048>,
      start_indices = array<i64: 0, 0, 0, 0, 0>,
      strides = array<i64: 1, 1, 1, 1, 1>
    } : (tensor<1x1x8x1x2049xf32>) -> tensor<1x1x8x1x2048xf32>
    %116 = "stablehlo.slice"(%114) {
      limit_indices = array<i64: 1, 1, 8, 1, 2049>,
      start_indices = array<i64: 0, 0, 0, 0, 2048>,
      strides = array<i64: 1, 1, 1, 1, 1>
    } : (tensor<1x1x8x1x2049xf32>) -> tensor<1x1x8x1x1xf32>
    %117 = "stablehlo.convert"(%115) : (tensor<1x1x8x1x2048xf32>) -> tensor<1x1x8x1x2048xbf16>
    %118 = "stablehlo.dot_general"(%117, %90) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [0, 1],
  rhs_batching_dimensions = [0, 2],
  lhs_contracting_dimensions = [4],
  rhs_contracting_dimensions = [1]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<1x1x8x1x2048xbf16>, tensor<1x2048x1x128xbf16>) -> tensor<1x1x8x1x128xbf16>
    %119 = "stablehlo.transpose"(%118) { permutation = array<i64: 0, 3, 1, 2, 4> } : (tensor<1x1x8x1x128xbf16>) -> tensor<1x1x1x8x128xbf16>
    %120 = "stablehlo.convert"(%116) : (tensor<1x1x8x1x1xf32>) -> tensor<1x1x8x1x1xbf16>
    %121 = "stablehlo.dot_general"(%120, %87) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [0, 1],
  rhs_batching_dimensions = [0, 2],
  lhs_contracting_dimensions = [4],
  rhs_contracting_dimensions = [1]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<1x1x8x1x1xbf16>, tensor<1x1x1x128xbf16>) -> tensor<1x1x8x1x128xbf16>
    %122 = "stablehlo.transpose"(%121) { permutation = array<i64: 0, 3, 1, 2, 4> } : (tensor<1x1x8x1x128xbf16>) -> tensor<1x1x1x8x128xbf16>
    %123 = "stablehlo.add"(%119, %122) : (tensor<1x1x1x8x128xbf16>, tensor<1x1x1x8x128xbf16>) -> tensor<1x1x1x8x128xbf16>
    %124 = "stablehlo.reshape"(%123) : (tensor<1x1x1x8x128xbf16>) -> tensor<1x1024xbf16>
    %125 = "stablehlo.dot_general"(%124, %b0_wo) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<1x1024xbf16>, tensor<1024x8192xbf16>) -> tensor<1x8192xbf16>
    %127 = "stablehlo.all_reduce"(%125) ({
      ^computation(%lhs: tensor<bf16>, %rhs: tensor<bf16>) :
          %126 = "stablehlo.add"(%lhs, %rhs) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
          "stablehlo.return"(%126) : (tensor<bf16>) -> ()
    }) { replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64> } : (tensor<1x8192xbf16>) -> tensor<1x8192xbf16>
    %128 = "stablehlo.add"(%2, %127) : (tensor<1x8192xbf16>, tensor<1x8192xbf16>) -> tensor<1x8192xbf16>
    %129 = "stablehlo.convert"(%128) : (tensor<1x8192xbf16>) -> tensor<1x8192xf32>
    %130 = "stablehlo.multiply"(%129, %129) : (tensor<1x8192xf32>, tensor<1x8192xf32>) -> tensor<1x8192xf32>
    %131 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %132 = "stablehlo.reduce"(%130, %131) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %5 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%5) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 1> } : (tensor<1x8192xf32>, tensor<f32>) -> tensor<1xf32>
    %133 = "stablehlo.broadcast_in_dim"(%8) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<1xf32>
    %134 = "stablehlo.multiply"(%132, %133) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %135 = "stablehlo.reshape"(%134) : (tensor<1xf32>) -> tensor<1x1xf32>
    %136 = "stablehlo.broadcast_in_dim"(%12) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<1x1xf32>
    %137 = "stablehlo.add"(%135, %136) : (tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x1xf32>
    %138 = "stablehlo.rsqrt"(%137) : (tensor<1x1xf32>) -> tensor<1x1xf32>
    %139 = "stablehlo.broadcast_in_dim"(%138) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x1xf32>) -> tensor<1x8192xf32>
    %140 = "stablehlo.multiply"(%129, %139) : (tensor<1x8192xf32>, tensor<1x8192xf32>) -> tensor<1x8192xf32>
    %141 = "stablehlo.convert"(%b0_mlp_norm) : (tensor<8192xbf16>) -> tensor<8192xf32>
    %142 = "stablehlo.reshape"(%141) : (tensor<8192xf32>) -> tensor<1x8192xf32>
    %143 = "stablehlo.multiply"(%140, %142) : (tensor<1x8192xf32>, tensor<1x8192xf32>) -> tensor<1x8192xf32>
    %144 = "stablehlo.convert"(%143) : (tensor<1x8192xf32>) -> tensor<1x8192xbf16>
    %145 = "stablehlo.dot_general"(%144, %b0_w_gate) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<1x8192xbf16>, tensor<8192x3584xbf16>) -> tensor<1x3584xbf16>
    %146 = "stablehlo.convert"(%145) : (tensor<1x3584xbf16>) -> tensor<1x3584xf32>
    %147 = "stablehlo.dot_general"(%144, %b0_w_up) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<1x8192xbf16>, tensor<8192x3584xbf16>) -> tensor<1x3584xbf16>
    %148 = "stablehlo.convert"(%147) : (tensor<1x3584xbf16>) -> tensor<1x3584xf32>
    %149 = "stablehlo.logistic"(%146) : (tensor<1x3584xf32>) -> tensor<1x3584xf32>
    %150 = "stablehlo.multiply"(%146, %149) : (tensor<1x3584xf32>, tensor<1x3584xf32>) -> tensor<1x3584xf32>
    %151 = "stablehlo.multiply"(%150, %148) : (tensor<1x3584xf32>, tensor<1x3584xf32>) -> tensor<1x3584xf32>
    %152 = "stablehlo.convert"(%151) : (tensor<1x3584xf32>) -> tensor<1x3584xbf16>
    %153 = "stablehlo.dot_general"(%152, %b0_w_down) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<1x3584xbf16>, tensor<3584x8192xbf16>) -> tensor<1x8192xbf16>
    %154 = "stablehlo.all_reduce"(%153) ({
      ^computation(%lhs: tensor<bf16>, %rhs: tensor<bf16>) :
          %126 = "stablehlo.add"(%lhs, %rhs) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
          "stablehlo.return"(%126) : (tensor<bf16>) -> ()
    }) { replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64> } : (tensor<1x8192xbf16>) -> tensor<1x8192xbf16>
    %155 = "stablehlo.add"(%128, %154) : (tensor<1x8192xbf16>, tensor<1x8192xbf16>) -> tensor<1x8192xbf16>
    %156 = "stablehlo.convert"(%155) : (tensor<1x8192xbf16>) -> tensor<1x8192xf32>
    %157 = "stablehlo.multiply"(%156, %156) : (tensor<1x8192xf32>, tensor<1x8192xf32>) -> tensor<1x8192xf32>
    %158 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %159 = "stablehlo.reduce"(%157, %158) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %5 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%5) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 1> } : (tensor<1x8192xf32>, tensor<f32>) -> tensor<1xf32>
    %160 = "stablehlo.broadcast_in_dim"(%8) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<1xf32>
    %161 = "stablehlo.multiply"(%159, %160) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %162 = "stablehlo.reshape"(%161) : (tensor<1xf32>) -> tensor<1x1xf32>
    %163 = "stablehlo.broadcast_in_dim"(%12) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<1x1xf32>
    %164 = "stablehlo.add"(%162, %163) : (tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x1xf32>
    %165 = "stablehlo.rsqrt"(%164) : (tensor<1x1xf32>) -> tensor<1x1xf32>
    %166 = "stablehlo.broadcast_in_dim"(%165) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x1xf32>) -> tensor<1x8192xf32>
    %167 = "stablehlo.multiply"(%156, %166) : (tensor<1x8192xf32>, tensor<1x8192xf32>) -> tensor<1x8192xf32>
    %168 = "stablehlo.convert"(%b1_attn_norm) : (tensor<8192xbf16>) -> tensor<8192xf32>
    %169 = "stablehlo.reshape"(%168) : (tensor<8192xf32>) -> tensor<1x8192xf32>
    %170 = "stablehlo.multiply"(%167, %169) : (tensor<1x8192xf32>, tensor<1x8192xf32>) -> tensor<1x8192xf32>
    %171 = "stablehlo.convert"(%170) : (tensor<1x8192xf32>) -> tensor<1x8192xbf16>
    %172 = "stablehlo.iota"() { iota_dimension = 0 : i64 } : () -> tensor<1xf32>
    %173 = "stablehlo.broadcast_in_dim"(%23) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<1xf32>
    %174 = "stablehlo.add"(%172, %173) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %175 = "stablehlo.dot_general"(%171, %b1_wq) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<1x8192xbf16>, tensor<8192x1024xbf16>) -> tensor<1x1024xbf16>
    %176 = "stablehlo.reshape"(%175) : (tensor<1x1024xbf16>) -> tensor<1x1x8x128xbf16>
    %177 = "stablehlo.iota"() { iota_dimension = 0 : i64 } : () -> tensor<64xf32>
    %178 = "stablehlo.broadcast_in_dim"(%29) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<64xf32>
    %179 = "stablehlo.multiply"(%177, %178) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %180 = "stablehlo.broadcast_in_dim"(%32) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<64xf32>
    %181 = "stablehlo.multiply"(%179, %180) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %182 = "stablehlo.exponential"(%181) : (tensor<64xf32>) -> tensor<64xf32>
    %183 = "stablehlo.reshape"(%174) : (tensor<1xf32>) -> tensor<1x1xf32>
    %184 = "stablehlo.reshape"(%182) : (tensor<64xf32>) -> tensor<1x64xf32>
    %185 = "stablehlo.broadcast_in_dim"(%183) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x1xf32>) -> tensor<1x64xf32>
    %186 = "stablehlo.multiply"(%185, %184) : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
    %187 = "stablehlo.cosine"(%186) : (tensor<1x64xf32>) -> tensor<1x64xf32>
    %188 = "stablehlo.reshape"(%187) : (tensor<1x64xf32>) -> tensor<1x1x1x64xf32>
    %189 = "stablehlo.sine"(%186) : (tensor<1x64xf32>) -> tensor<1x64xf32>
    %190 = "stablehlo.reshape"(%189) : (tensor<1x64xf32>) -> tensor<1x1x1x64xf32>
    %191 = "stablehlo.convert"(%176) : (tensor<1x1x8x128xbf16>) -> tensor<1x1x8x128xf32>
    %192 = "stablehlo.slice"(%191) {
      limit_indices = array<i64: 1, 1, 8, 64>,
      start_indices = array<i64: 0, 0, 0, 0>,
      strides = array<i64: 1, 1, 1, 1>
    } : (tensor<1x1x8x128xf32>) -> tensor<1x1x8x64xf32>
    %193 = "stablehlo.slice"(%191) {
      limit_indices = array<i64: 1, 1, 8, 128>,
      start_indices = array<i64: 0, 0, 0, 64>,
      strides = array<i64: 1, 1, 1, 1>
    } : (tensor<1x1x8x128xf32>) -> tensor<1x1x8x64xf32>
    %194 = "stablehlo.broadcast_in_dim"(%188) { broadcast_dimensions = array<i64: 0, 1, 2, 3> } : (tensor<1x1x1x64xf32>) -> tensor<1x1x8x64xf32>
    %195 = "stablehlo.multiply"(%192, %194) : (tensor<1x1x8x64xf32>, tensor<1x1x8x64xf32>) -> tensor<1x1x8x64xf32>
    %196 = "stablehlo.broadcast_in_dim"(%190) { broadcast_dimensions = array<i64: 0, 1, 2, 3> } : (tensor<1x1x1x64xf32>) -> tensor<1x1x8x64xf32>
    %197 = "stablehlo.multiply"(%193, %196) : (tensor<1x1x8x64xf32>, tensor<1x1x8x64xf32>) -> tensor<1x1x8x64xf32>
    %198 = "stablehlo.subtract"(%195, %197) : (tensor<1x1x8x64xf32>, tensor<1x1x8x64xf32>) -> tensor<1x1x8x64xf32>
    %199 = "stablehlo.broadcast_in_dim"(%188) { broadcast_dimensions = array<i64: 0, 1, 2, 3> } : (tensor<1x1x1x64xf32>) -> tensor<1x1x8x64xf32>
    %200 = "stablehlo.multiply"(%193, %199) : (tensor<1x1x8x64xf32>, tensor<1x1x8x64xf32>) -> tensor<1x1x8x64xf32>
    %201 = "stablehlo.broadcast_in_dim"(%190) { broadcast_dimensions = array<i64: 0, 1, 2, 3> } : (tensor<1x1x1x64xf32>) -> tensor<1x1x8x64xf32>
    %202 = "stablehlo.multiply"(%192, %201) : (tensor<1x1x8x64xf32>, tensor<1x1x8x64xf32>) -> tensor<1x1x8x64xf32>
    %203 = "stablehlo.add"(%200, %202) : (tensor<1x1x8x64xf32>, tensor<1x1x8x64xf32>) -> tensor<1x1x8x64xf32>
    %204 = "stablehlo.concatenate"(%198, %203) { dimension = 3 : i64 } : (tensor<1x1x8x64xf32>, tensor<1x1x8x64xf32>) -> tensor<1x1x8x128xf32>
    %205 = "stablehlo.convert"(%204) : (tensor<1x1x8x128xf32>) -> tensor<1x1x8x128xbf16>
    %206 = "stablehlo.dot_general"(%171, %b1_wk) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<1x8192xbf16>, tensor<8192x128xbf16>) -> tensor<1x128xbf16>
    %207 = "stablehlo.reshape"(%206) : (tensor<1x128xbf16>) -> tensor<1x1x1x128xbf16>
    %208 = "stablehlo.iota"() { iota_dimension = 0 : i64 } : () -> tensor<64xf32>
    %209 = "stablehlo.broadcast_in_dim"(%29) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<64xf32>
    %210 = "stablehlo.multiply"(%208, %209) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %211 = "stablehlo.broadcast_in_dim"(%32) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<64xf32>
    %212 = "stablehlo.multiply"(%210, %211) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %213 = "stablehlo.exponential"(%212) : (tensor<64xf32>) -> tensor<64xf32>
    %214 = "stablehlo.reshape"(%174) : (tensor<1xf32>) -> tensor<1x1xf32>
    %215 = "stablehlo.reshape"(%213) : (tensor<64xf32>) -> tensor<1x64xf32>
    %216 = "stablehlo.broadcast_in_dim"(%214) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x1xf32>) -> tensor<1x64xf32>
    %217 = "stablehlo.multiply"(%216, %215) : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
    %218 = "stablehlo.cosine"(%217) : (tensor<1x64xf32>) -> tensor<1x64xf32>
    %219 = "stablehlo.reshape"(%218) : (tensor<1x64xf32>) -> tensor<1x1x1x64xf32>
    %220 = "stablehlo.sine"(%217) : (tensor<1x64xf32>) -> tensor<1x64xf32>
    %221 = "stablehlo.reshape"(%220) : (tensor<1x64xf32>) -> tensor<1x1x1x64xf32>
    %222 = "stablehlo.convert"(%207) : (tensor<1x1x1x128xbf16>) -> tensor<1x1x1x128xf32>
    %223 = "stablehlo.slice"(%222) {
      limit_indices = array<i64: 1, 1, 1, 64>,
      start_indices = array<i64: 0, 0, 0, 0>,
      strides = array<i64: 1, 1, 1, 1>
    } : (tensor<1x1x1x128xf32>) -> tensor<1x1x1x64xf32>
    %224 = "stablehlo.slice"(%222) {
      limit_indices = array<i64: 1, 1, 1, 128>,
      start_indices = array<i64: 0, 0, 0, 64>,
      strides = array<i64: 1, 1, 1, 1>
    } : (tensor<1x1x1x128xf32>) -> tensor<1x1x1x64xf32>
    %225 = "stablehlo.multiply"(%223, %219) : (tensor<1x1x1x64xf32>, tensor<1x1x1x64xf32>) -> tensor<1x1x1x64xf32>
    %226 = "stablehlo.multiply"(%224, %221) : (tensor<1x1x1x64xf32>, tensor<1x1x1x64xf32>) -> tensor<1x1x1x64xf32>
    %227 = "stablehlo.subtract"(%225, %226) : (tensor<1x1x1x64xf32>, tensor<1x1x1x64xf32>) -> tensor<1x1x1x64xf32>
    %228 = "stablehlo.multiply"(%224, %219) : (tensor<1x1x1x64xf32>, tensor<1x1x1x64xf32>) -> tensor<1x1x1x64xf32>
    %229 = "stablehlo.multiply"(%223, %221) : (tensor<1x1x1x64xf32>, tensor<1x1x1x64xf32>) -> tensor<1x1x1x64xf32>
    %230 = "stablehlo.add"(%228, %229) : (tensor<1x1x1x64xf32>, tensor<1x1x1x64xf32>) -> tensor<1x1x1x64xf32>
    %231 = "stablehlo.concatenate"(%227, %230) { dimension = 3 : i64 } : (tensor<1x1x1x64xf32>, tensor<1x1x1x64xf32>) -> tensor<1x1x1x128xf32>
    %232 = "stablehlo.convert"(%231) : (tensor<1x1x1x128xf32>) -> tensor<1x1x1x128xbf16>
    %233 = "stablehlo.dot_general"(%171, %b1_wv) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<1x8192xbf16>, tensor<8192x128xbf16>) -> tensor<1x128xbf16>
    %234 = "stablehlo.reshape"(%233) : (tensor<1x128xbf16>) -> tensor<1x1x1x128xbf16>
    %235 = "stablehlo.reshape"(%205) : (tensor<1x1x8x128xbf16>) -> tensor<1x1x1x8x128xbf16>
    %236 = "stablehlo.reshape"(%b1_k_cache) : (tensor<1x2048x128xbf16>) -> tensor<1x2048x1x128xbf16>
    %237 = "stablehlo.reshape"(%b1_v_cache) : (tensor<1x2048x128xbf16>) -> tensor<1x2048x1x128xbf16>
    %238 = "stablehlo.dot_general"(%235, %236) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [0, 2],
  rhs_batching_dimensions = [0, 2],
  lhs_contracting_dimensions = [4],
  rhs_contracting_dimensions = [3]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<1x1x1x8x128xbf16>, tensor<1x2048x1x128xbf16>) -> tensor<1x1x1x8x2048xbf16>
    %239 = "stablehlo.transpose"(%238) { permutation = array<i64: 0, 1, 3, 2, 4> } : (tensor<1x1x1x8x2048xbf16>) -> tensor<1x1x8x1x2048xbf16>
    %240 = "stablehlo.convert"(%239) : (tensor<1x1x8x1x2048xbf16>) -> tensor<1x1x8x1x2048xf32>
    %241 = "stablehlo.broadcast_in_dim"(%94) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<1x1x8x1x2048xf32>
    %242 = "stablehlo.multiply"(%240, %241) : (tensor<1x1x8x1x2048xf32>, tensor<1x1x8x1x2048xf32>) -> tensor<1x1x8x1x2048xf32>
    %243 = "stablehlo.dot_general"(%235, %232) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [0, 2],
  rhs_batching_dimensions = [0, 2],
  lhs_contracting_dimensions = [4],
  rhs_contracting_dimensions = [3]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<1x1x1x8x128xbf16>, tensor<1x1x1x128xbf16>) -> tensor<1x1x1x8x1xbf16>
    %244 = "stablehlo.transpose"(%243) { permutation = array<i64: 0, 1, 3, 2, 4> } : (tensor<1x1x1x8x1xbf16>) -> tensor<1x1x8x1x1xbf16>
    %245 = "stablehlo.convert"(%244) : (tensor<1x1x8x1x1xbf16>) -> tensor<1x1x8x1x1xf32>
    %246 = "stablehlo.broadcast_in_dim"(%94) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<1x1x8x1x1xf32>
    %247 = "stablehlo.multiply"(%245, %246) : (tensor<1x1x8x1x1xf32>, tensor<1x1x8x1x1xf32>) -> tensor<1x1x8x1x1xf32>
    %248 = "stablehlo.concatenate"(%242, %247) { dimension = 4 : i64 } : (tensor<1x1x8x1x2048xf32>, tensor<1x1x8x1x1xf32>) -> tensor<1x1x8x1x2049xf32>
    %249 = "stablehlo.constant"() { value = dense<0xff800000> : tensor<f32> } : () -> tensor<f32>
    %250 = "stablehlo.reduce"(%248, %249) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %103 = "stablehlo.maximum"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%103) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 4> } : (tensor<1x1x8x1x2049xf32>, tensor<f32>) -> tensor<1x1x8x1xf32>
    %251 = "stablehlo.reshape"(%250) : (tensor<1x1x8x1xf32>) -> tensor<1x1x8x1x1xf32>
    %252 = "stablehlo.broadcast_in_dim"(%251) { broadcast_dimensions = array<i64: 0, 1, 2, 3, 4> } : (tensor<1x1x8x1x1xf32>) -> tensor<1x1x8x1x2049xf32>
    %253 = "stablehlo.subtract"(%248, %252) : (tensor<1x1x8x1x2049xf32>, tensor<1x1x8x1x2049xf32>) -> tensor<1x1x8x1x2049xf32>
    %254 = "stablehlo.exponential"(%253) : (tensor<1x1x8x1x2049xf32>) -> tensor<1x1x8x1x2049xf32>
    %255 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %256 = "stablehlo.reduce"(%254, %255) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %5 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%5) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 4> } : (tensor<1x1x8x1x2049xf32>, tensor<f32>) -> tensor<1x1x8x1xf32>
    %257 = "stablehlo.reshape"(%256) : (tensor<1x1x8x1xf32>) -> tensor<1x1x8x1x1xf32>
    %258 = "stablehlo.broadcast_in_dim"(%257) { broadcast_dimensions = array<i64: 0, 1, 2, 3, 4> } : (tensor<1x1x8x1x1xf32>) -> tensor<1x1x8x1x2049xf32>
    %259 = "stablehlo.divide"(%254, %258) : (tensor<1x1x8x1x2049xf32>, tensor<1x1x8x1x2049xf32>) -> tensor<1x1x8x1x2049xf32>
    %260 = "stablehlo.slice"(%259) {
      limit_indices = array<i64: 1, 1, 8, 1, 2048>,
      start_indices = array<i64: 0, 0, 0, 0, 0>,
      strides = array<i64: 1, 1, 1, 1, 1>
    } : (tensor<1x1x8x1x2049xf32>) -> tensor<1x1x8x1x2048xf32>
    %261 = "stablehlo.slice"(%259) {
      limit_indices = array<i64: 1, 1, 8, 1, 2049>,
      start_indices = array<i64: 0, 0, 0, 0, 2048>,
      strides = array<i64: 1, 1, 1, 1, 1>
    } : (tensor<1x1x8x1x2049xf32>) -> tensor<1x1x8x1x1xf32>
    %262 = "stablehlo.convert"(%260) : (tensor<1x1x8x1x2048xf32>) -> tensor<1x1x8x1x2048xbf16>
    %263 = "stablehlo.dot_general"(%262, %237) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [0, 1],
  rhs_batching_dimensions = [0, 2],
  lhs_contracting_dimensions = [4],
  rhs_contracting_dimensions = [1]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<1x1x8x1x2048xbf16>, tensor<1x2048x1x128xbf16>) -> tensor<1x1x8x1x128xbf16>
    %264 = "stablehlo.transpose"(%263) { permutation = array<i64: 0, 3, 1, 2, 4> } : (tensor<1x1x8x1x128xbf16>) -> tensor<1x1x1x8x128xbf16>
    %265 = "stablehlo.convert"(%261) : (tensor<1x1x8x1x1xf32>) -> tensor<1x1x8x1x1xbf16>
    %266 = "stablehlo.dot_general"(%265, %234) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [0, 1],
  rhs_batching_dimensions = [0, 2],
  lhs_contracting_dimensions = [4],
  rhs_contracting_dimensions = [1]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<1x1x8x1x1xbf16>, tensor<1x1x1x128xbf16>) -> tensor<1x1x8x1x128xbf16>
    %267 = "stablehlo.transpose"(%266) { permutation = array<i64: 0, 3, 1, 2, 4> } : (tensor<1x1x8x1x128xbf16>) -> tensor<1x1x1x8x128xbf16>
    %268 = "stablehlo.add"(%264, %267) : (tensor<1x1x1x8x128xbf16>, tensor<1x1x1x8x128xbf16>) -> tensor<1x1x1x8x128xbf16>
    %269 = "stablehlo.reshape"(%268) : (tensor<1x1x1x8x128xbf16>) -> tensor<1x1024xbf16>
    %270 = "stablehlo.dot_general"(%269, %b1_wo) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<1x1024xbf16>, tensor<1024x8192xbf16>) -> tensor<1x8192xbf16>
    %271 = "stablehlo.all_reduce"(%270) ({
      ^computation(%lhs: tensor<bf16>, %rhs: tensor<bf16>) :
          %126 = "stablehlo.add"(%lhs, %rhs) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
          "stablehlo.return"(%126) : (tensor<bf16>) -> ()
    }) { replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64> } : (tensor<1x8192xbf16>) -> tensor<1x8192xbf16>
    %272 = "stablehlo.add"(%155, %271) : (tensor<1x8192xbf16>, tensor<1x8192xbf16>) -> tensor<1x8192xbf16>
    %273 = "stablehlo.convert"(%272) : (tensor<1x8192xbf16>) -> tensor<1x8192xf32>
    %274 = "stablehlo.multiply"(%273, %273) : (tensor<1x8192xf32>, tensor<1x8192xf32>) -> tensor<1x8192xf32>
    %275 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %276 = "stablehlo.reduce"(%274, %275) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %5 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%5) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 1> } : (tensor<1x8192xf32>, tensor<f32>) -> tensor<1xf32>
    %277 = "stablehlo.broadcast_in_dim"(%8) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<1xf32>
    %278 = "stablehlo.multiply"(%276, %277) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %279 = "stablehlo.reshape"(%278) : (tensor<1xf32>) -> tensor<1x1xf32>
    %280 = "stablehlo.broadcast_in_dim"(%12) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<1x1xf32>
    %281 = "stablehlo.add"(%279, %280) : (tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x1xf32>
    %282 = "stablehlo.rsqrt"(%281) : (tensor<1x1xf32>) -> tensor<1x1xf32>
    %283 = "stablehlo.broadcast_in_dim"(%282) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x1xf32>) -> tensor<1x8192xf32>
    %284 = "stablehlo.multiply"(%273, %283) : (tensor<1x8192xf32>, tensor<1x8192xf32>) -> tensor<1x8192xf32>
    %285 = "stablehlo.convert"(%b1_mlp_norm) : (tensor<8192xbf16>) -> tensor<8192xf32>
    %286 = "stablehlo.reshape"(%285) : (tensor<8192xf32>) -> tensor<1x8192xf32>
    %287 = "stablehlo.multiply"(%284, %286) : (tensor<1x8192xf32>, tensor<1x8192xf32>) -> tensor<1x8192xf32>
    %288 = "stablehlo.convert"(%287) : (tensor<1x8192xf32>) -> tensor<1x8192xbf16>
    %289 = "stablehlo.dot_general"(%288, %b1_w_gate) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<1x8192xbf16>, tensor<8192x3584xbf16>) -> tensor<1x3584xbf16>
    %290 = "stablehlo.convert"(%289) : (tensor<1x3584xbf16>) -> tensor<1x3584xf32>
    %291 = "stablehlo.dot_general"(%288, %b1_w_up) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<1x8192xbf16>, tensor<8192x3584xbf16>) -> tensor<1x3584xbf16>
    %292 = "stablehlo.convert"(%291) : (tensor<1x3584xbf16>) -> tensor<1x3584xf32>
    %293 = "stablehlo.logistic"(%290) : (tensor<1x3584xf32>) -> tensor<1x3584xf32>
    %294 = "stablehlo.multiply"(%290, %293) : (tensor<1x3584xf32>, tensor<1x3584xf32>) -> tensor<1x3584xf32>
    %295 = "stablehlo.multiply"(%294, %292) : (tensor<1x3584xf32>, tensor<1x3584xf32>) -> tensor<1x3584xf32>
    %296 = "stablehlo.convert"(%295) : (tensor<1x3584xf32>) -> tensor<1x3584xbf16>
    %297 = "stablehlo.dot_general"(%296, %b1_w_down) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<1x3584xbf16>, tensor<3584x8192xbf16>) -> tensor<1x8192xbf16>
    %298 = "stablehlo.all_reduce"(%297) ({
      ^computation(%lhs: tensor<bf16>, %rhs: tensor<bf16>) :
          %126 = "stablehlo.add"(%lhs, %rhs) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
          "stablehlo.return"(%126) : (tensor<bf16>) -> ()
    }) { replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64> } : (tensor<1x8192xbf16>) -> tensor<1x8192xbf16>
    %299 = "stablehlo.add"(%272, %298) : (tensor<1x8192xbf16>, tensor<1x8192xbf16>) -> tensor<1x8192xbf16>
    %300 = "stablehlo.convert"(%299) : (tensor<1x8192xbf16>) -> tensor<1x8192xf32>
    %301 = "stablehlo.multiply"(%300, %300) : (tensor<1x8192xf32>, tensor<1x8192xf32>) -> tensor<1x8192xf32>
    %302 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %303 = "stablehlo.reduce"(%301, %302) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %5 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%5) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 1> } : (tensor<1x8192xf32>, tensor<f32>) -> tensor<1xf32>
    %304 = "stablehlo.broadcast_in_dim"(%8) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<1xf32>
    %305 = "stablehlo.multiply"(%303, %304) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %306 = "stablehlo.reshape"(%305) : (tensor<1xf32>) -> tensor<1x1xf32>
    %307 = "stablehlo.broadcast_in_dim"(%12) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<1x1xf32>
    %308 = "stablehlo.add"(%306, %307) : (tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x1xf32>
    %309 = "stablehlo.rsqrt"(%308) : (tensor<1x1xf32>) -> tensor<1x1xf32>
    %310 = "stablehlo.broadcast_in_dim"(%309) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x1xf32>) -> tensor<1x8192xf32>
    %311 = "stablehlo.multiply"(%300, %310) : (tensor<1x8192xf32>, tensor<1x8192xf32>) -> tensor<1x8192xf32>
    %312 = "stablehlo.convert"(%final_norm) : (tensor<8192xbf16>) -> tensor<8192xf32>
    %313 = "stablehlo.reshape"(%312) : (tensor<8192xf32>) -> tensor<1x8192xf32>
    %314 = "stablehlo.multiply"(%311, %313) : (tensor<1x8192xf32>, tensor<1x8192xf32>) -> tensor<1x8192xf32>
    %315 = "stablehlo.convert"(%314) : (tensor<1x8192xf32>) -> tensor<1x8192xbf16>
    %316 = "stablehlo.dot_general"(%315, %lm_head) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<1x8192xbf16>, tensor<8192x16032xbf16>) -> tensor<1x16032xbf16>
    "stablehlo.return"(%316) : (tensor<1x16032xbf16>) -> ()
  }
}
