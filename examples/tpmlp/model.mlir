module @tpmlp attributes {stablehlo.num_replicas = 8} {
  func.func @main(%x: tensor<2048x4096xbf16>, %l0_norm_gain: tensor<4096xbf16>, %l0_norm_bias: tensor<4096xbf16>, %l0_mlp_w1: tensor<4096x2048xbf16>, %l0_mlp_b1: tensor<2048xbf16>, %l0_mlp_w2: tensor<2048x4096xbf16>, %l0_mlp_b2: tensor<4096xbf16>, %l1_norm_gain: tensor<4096xbf16>, %l1_norm_bias: tensor<4096xbf16>, %l1_mlp_w1: tensor<4096x2048xbf16>, %l1_mlp_b1: tensor<2048xbf16>, %l1_mlp_w2: tensor<2048x4096xbf16>, %l1_mlp_b2: tensor<4096xbf16>, %l2_norm_gain: tensor<4096xbf16>, %l2_norm_bias: tensor<4096xbf16>, %l2_mlp_w1: tensor<4096x2048xbf16>, %l2_mlp_b1: tensor<2048xbf16>, %l2_mlp_w2: tensor<2048x4096xbf16>, %l2_mlp_b2: tensor<4096xbf16>, %l3_norm_gain: tensor<4096xbf16>, %l3_norm_bias: tensor<4096xbf16>, %l3_mlp_w1: tensor<4096x2048xbf16>, %l3_mlp_b1: tensor<2048xbf16>, %l3_mlp_w2: tensor<2048x4096xbf16>, %l3_mlp_b2: tensor<4096xbf16>) -> (tensor<2048x4096xbf16>, tensor<2048x4096xbf16>, tensor<2048x4096xbf16>, tensor<2048x4096xbf16>) {
    %0 = "stablehlo.convert"(%x) : (tensor<2048x4096xbf16>) -> tensor<2048x4096xf32>
    %2 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %3 = "stablehlo.reduce"(%0, %2) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %1 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%1) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 1> } : (tensor<2048x4096xf32>, tensor<f32>) -> tensor<2048xf32>
    %4 = "stablehlo.constant"() { value = dense<0.000244140625> : tensor<f32> } : () -> tensor<f32>
    %5 = "stablehlo.broadcast_in_dim"(%4) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048xf32>
    %6 = "stablehlo.multiply"(%3, %5) : (tensor<2048xf32>, tensor<2048xf32>) -> tensor<2048xf32>
    %7 = "stablehlo.reshape"(%6) : (tensor<2048xf32>) -> tensor<2048x1xf32>
    %8 = "stablehlo.broadcast_in_dim"(%7) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<2048x1xf32>) -> tensor<2048x4096xf32>
    %9 = "stablehlo.subtract"(%0, %8) : (tensor<2048x4096xf32>, tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
    %10 = "stablehlo.multiply"(%9, %9) : (tensor<2048x4096xf32>, tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
    %11 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %12 = "stablehlo.reduce"(%10, %11) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %1 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%1) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 1> } : (tensor<2048x4096xf32>, tensor<f32>) -> tensor<2048xf32>
    %13 = "stablehlo.broadcast_in_dim"(%4) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048xf32>
    %14 = "stablehlo.multiply"(%12, %13) : (tensor<2048xf32>, tensor<2048xf32>) -> tensor<2048xf32>
    %15 = "stablehlo.reshape"(%14) : (tensor<2048xf32>) -> tensor<2048x1xf32>
    %16 = "stablehlo.constant"() { value = dense<9.999999747378752e-06> : tensor<f32> } : () -> tensor<f32>
    %17 = "stablehlo.broadcast_in_dim"(%16) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x1xf32>
    %18 = "stablehlo.add"(%15, %17) : (tensor<2048x1xf32>, tensor<2048x1xf32>) -> tensor<2048x1xf32>
    %19 = "stablehlo.rsqrt"(%18) : (tensor<2048x1xf32>) -> tensor<2048x1xf32>
    %20 = "stablehlo.broadcast_in_dim"(%19) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<2048x1xf32>) -> tensor<2048x4096xf32>
    %21 = "stablehlo.multiply"(%9, %20) : (tensor<2048x4096xf32>, tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
    %22 = "stablehlo.convert"(%l0_norm_gain) : (tensor<4096xbf16>) -> tensor<4096xf32>
    %23 = "stablehlo.reshape"(%22) : (tensor<4096xf32>) -> tensor<1x4096xf32>
    %24 = "stablehlo.broadcast_in_dim"(%23) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x4096xf32>) -> tensor<2048x4096xf32>
    %25 = "stablehlo.multiply"(%21, %24) : (tensor<2048x4096xf32>, tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
    %26 = "stablehlo.convert"(%l0_norm_bias) : (tensor<4096xbf16>) -> tensor<4096xf32>
    %27 = "stablehlo.reshape"(%26) : (tensor<4096xf32>) -> tensor<1x4096xf32>
    %28 = "stablehlo.broadcast_in_dim"(%27) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x4096xf32>) -> tensor<2048x4096xf32>
    %29 = "stablehlo.add"(%25, %28) : (tensor<2048x4096xf32>, tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
    %30 = "stablehlo.convert"(%29) : (tensor<2048x4096xf32>) -> tensor<2048x4096xbf16>
    %31 = "stablehlo.dot_general"(%30, %l0_mlp_w1) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<2048x4096xbf16>, tensor<4096x2048xbf16>) -> tensor<2048x2048xbf16>
    %32 = "stablehlo.reshape"(%l0_mlp_b1) : (tensor<2048xbf16>) -> tensor<1x2048xbf16>
    %33 = "stablehlo.broadcast_in_dim"(%32) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x2048xbf16>) -> tensor<2048x2048xbf16>
    %34 = "stablehlo.add"(%31, %33) : (tensor<2048x2048xbf16>, tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16>
    %35 = "stablehlo.convert"(%34) : (tensor<2048x2048xbf16>) -> tensor<2048x2048xf32>
    %36 = "stablehlo.multiply"(%35, %35) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %37 = "stablehlo.multiply"(%35, %36) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %38 = "stablehlo.constant"() { value = dense<0.044714998453855515> : tensor<f32> } : () -> tensor<f32>
    %39 = "stablehlo.broadcast_in_dim"(%38) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x2048xf32>
    %40 = "stablehlo.multiply"(%37, %39) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %41 = "stablehlo.add"(%35, %40) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %42 = "stablehlo.constant"() { value = dense<0.7978845834732056> : tensor<f32> } : () -> tensor<f32>
    %43 = "stablehlo.broadcast_in_dim"(%42) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x2048xf32>
    %44 = "stablehlo.multiply"(%41, %43) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %45 = "stablehlo.constant"() { value = dense<0.5> : tensor<f32> } : () -> tensor<f32>
    %46 = "stablehlo.broadcast_in_dim"(%45) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x2048xf32>
    %47 = "stablehlo.multiply"(%35, %46) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %48 = "stablehlo.tanh"(%44) : (tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %49 = "stablehlo.constant"() { value = dense<1.0> : tensor<f32> } : () -> tensor<f32>
    %50 = "stablehlo.broadcast_in_dim"(%49) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x2048xf32>
    %51 = "stablehlo.add"(%48, %50) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %52 = "stablehlo.multiply"(%47, %51) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %53 = "stablehlo.convert"(%52) : (tensor<2048x2048xf32>) -> tensor<2048x2048xbf16>
    %54 = "stablehlo.dot_general"(%53, %l0_mlp_w2) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<2048x2048xbf16>, tensor<2048x4096xbf16>) -> tensor<2048x4096xbf16>
    %56 = "stablehlo.all_reduce"(%54) ({
      ^computation(%lhs: tensor<bf16>, %rhs: tensor<bf16>) :
          %55 = "stablehlo.add"(%lhs, %rhs) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
          "stablehlo.return"(%55) : (tensor<bf16>) -> ()
    }) { replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64> } : (tensor<2048x4096xbf16>) -> tensor<2048x4096xbf16>
    %57 = "stablehlo.reshape"(%l0_mlp_b2) : (tensor<4096xbf16>) -> tensor<1x4096xbf16>
    %58 = "stablehlo.broadcast_in_dim"(%57) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x4096xbf16>) -> tensor<2048x4096xbf16>
    %59 = "stablehlo.add"(%56, %58) : (tensor<2048x4096xbf16>, tensor<2048x4096xbf16>) -> tensor<2048x4096xbf16>
    %60 = "stablehlo.add"(%x, %59) : (tensor<2048x4096xbf16>, tensor<2048x4096xbf16>) -> tensor<2048x4096xbf16>
    %61 = "stablehlo.convert"(%60) : (tensor<2048x4096xbf16>) -> tensor<2048x4096xf32>
    %62 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %63 = "stablehlo.reduce"(%61, %62) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %1 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%1) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 1> } : (tensor<2048x4096xf32>, tensor<f32>) -> tensor<2048xf32>
    %64 = "stablehlo.broadcast_in_dim"(%4) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048xf32>
    %65 = "stablehlo.multiply"(%63, %64) : (tensor<2048xf32>, tensor<2048xf32>) -> tensor<2048xf32>
    %66 = "stablehlo.reshape"(%65) : (tensor<2048xf32>) -> tensor<2048x1xf32>
    %67 = "stablehlo.broadcast_in_dim"(%66) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<2048x1xf32>) -> tensor<2048x4096xf32>
    %68 = "stablehlo.subtract"(%61, %67) : (tensor<2048x4096xf32>, tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
    %69 = "stablehlo.multiply"(%68, %68) : (tensor<2048x4096xf32>, tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
    %70 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %71 = "stablehlo.reduce"(%69, %70) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %1 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%1) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 1> } : (tensor<2048x4096xf32>, tensor<f32>) -> tensor<2048xf32>
    %72 = "stablehlo.broadcast_in_dim"(%4) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048xf32>
    %73 = "stablehlo.multiply"(%71, %72) : (tensor<2048xf32>, tensor<2048xf32>) -> tensor<2048xf32>
    %74 = "stablehlo.reshape"(%73) : (tensor<2048xf32>) -> tensor<2048x1xf32>
    %75 = "stablehlo.broadcast_in_dim"(%16) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x1xf32>
    %76 = "stablehlo.add"(%74, %75) : (tensor<2048x1xf32>, tensor<2048x1xf32>) -> tensor<2048x1xf32>
    %77 = "stablehlo.rsqrt"(%76) : (tensor<2048x1xf32>) -> tensor<2048x1xf32>
    %78 = "stablehlo.broadcast_in_dim"(%77) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<2048x1xf32>) -> tensor<2048x4096xf32>
    %79 = "stablehlo.multiply"(%68, %78) : (tensor<2048x4096xf32>, tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
    %80 = "stablehlo.convert"(%l1_norm_gain) : (tensor<4096xbf16>) -> tensor<4096xf32>
    %81 = "stablehlo.reshape"(%80) : (tensor<4096xf32>) -> tensor<1x4096xf32>
    %82 = "stablehlo.broadcast_in_dim"(%81) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x4096xf32>) -> tensor<2048x4096xf32>
    %83 = "stablehlo.multiply"(%79, %82) : (tensor<2048x4096xf32>, tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
    %84 = "stablehlo.convert"(%l1_norm_bias) : (tensor<4096xbf16>) -> tensor<4096xf32>
    %85 = "stablehlo.reshape"(%84) : (tensor<4096xf32>) -> tensor<1x4096xf32>
    %86 = "stablehlo.broadcast_in_dim"(%85) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x4096xf32>) -> tensor<2048x4096xf32>
    %87 = "stablehlo.add"(%83, %86) : (tensor<2048x4096xf32>, tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
    %88 = "stablehlo.convert"(%87) : (tensor<2048x4096xf32>) -> tensor<2048x4096xbf16>
    %89 = "stablehlo.dot_general"(%88, %l1_mlp_w1) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<2048x4096xbf16>, tensor<4096x2048xbf16>) -> tensor<2048x2048xbf16>
    %90 = "stablehlo.reshape"(%l1_mlp_b1) : (tensor<2048xbf16>) -> tensor<1x2048xbf16>
    %91 = "stablehlo.broadcast_in_dim"(%90) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x2048xbf16>) -> tensor<2048x2048xbf16>
    %92 = "stablehlo.add"(%89, %91) : (tensor<2048x2048xbf16>, tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16>
    %93 = "stablehlo.convert"(%92) : (tensor<2048x2048xbf16>) -> tensor<2048x2048xf32>
    %94 = "stablehlo.multiply"(%93, %93) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %95 = "stablehlo.multiply"(%93, %94) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %96 = "stablehlo.broadcast_in_dim"(%38) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x2048xf32>
    %97 = "stablehlo.multiply"(%95, %96) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %98 = "stablehlo.add"(%93, %97) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %99 = "stablehlo.broadcast_in_dim"(%42) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x2048xf32>
    %100 = "stablehlo.multiply"(%98, %99) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %101 = "stablehlo.broadcast_in_dim"(%45) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x2048xf32>
    %102 = "stablehlo.multiply"(%93, %101) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %103 = "stablehlo.tanh"(%100) : (tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %104 = "stablehlo.broadcast_in_dim"(%49) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x2048xf32>
    %105 = "stablehlo.add"(%103, %104) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %106 = "stablehlo.multiply"(%102, %105) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %107 = "stablehlo.convert"(%106) : (tensor<2048x2048xf32>) -> tensor<2048x2048xbf16>
    %108 = "stablehlo.dot_general"(%107, %l1_mlp_w2) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<2048x2048xbf16>, tensor<2048x4096xbf16>) -> tensor<2048x4096xbf16>
    %109 = "stablehlo.all_reduce"(%108) ({
      ^computation(%lhs: tensor<bf16>, %rhs: tensor<bf16>) :
          %55 = "stablehlo.add"(%lhs, %rhs) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
          "stablehlo.return"(%55) : (tensor<bf16>) -> ()
    }) { replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64> } : (tensor<2048x4096xbf16>) -> tensor<2048x4096xbf16>
    %110 = "stablehlo.reshape"(%l1_mlp_b2) : (tensor<4096xbf16>) -> tensor<1x4096xbf16>
    %111 = "stablehlo.broadcast_in_dim"(%110) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x4096xbf16>) -> tensor<2048x4096xbf16>
    %112 = "stablehlo.add"(%109, %111) : (tensor<2048x4096xbf16>, tensor<2048x4096xbf16>) -> tensor<2048x4096xbf16>
    %113 = "stablehlo.add"(%60, %112) : (tensor<2048x4096xbf16>, tensor<2048x4096xbf16>) -> tensor<2048x4096xbf16>
    %114 = "stablehlo.convert"(%113) : (tensor<2048x4096xbf16>) -> tensor<2048x4096xf32>
    %115 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %116 = "stablehlo.reduce"(%114, %115) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %1 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%1) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 1> } : (tensor<2048x4096xf32>, tensor<f32>) -> tensor<2048xf32>
    %117 = "stablehlo.broadcast_in_dim"(%4) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048xf32>
    %118 = "stablehlo.multiply"(%116, %117) : (tensor<2048xf32>, tensor<2048xf32>) -> tensor<2048xf32>
    %119 = "stablehlo.reshape"(%118) : (tensor<2048xf32>) -> tensor<2048x1xf32>
    %120 = "stablehlo.broadcast_in_dim"(%119) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<2048x1xf32>) -> tensor<2048x4096xf32>
    %121 = "stablehlo.subtract"(%114, %120) : (tensor<2048x4096xf32>, tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
    %122 = "stablehlo.multiply"(%121, %121) : (tensor<2048x4096xf32>, tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
    %123 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %124 = "stablehlo.reduce"(%122, %123) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %1 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%1) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 1> } : (tensor<2048x4096xf32>, tensor<f32>) -> tensor<2048xf32>
    %125 = "stablehlo.broadcast_in_dim"(%4) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048xf32>
    %126 = "stablehlo.multiply"(%124, %125) : (tensor<2048xf32>, tensor<2048xf32>) -> tensor<2048xf32>
    %127 = "stablehlo.reshape"(%126) : (tensor<2048xf32>) -> tensor<2048x1xf32>
    %128 = "stablehlo.broadcast_in_dim"(%16) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x1xf32>
    %129 = "stablehlo.add"(%127, %128) : (tensor<2048x1xf32>, tensor<2048x1xf32>) -> tensor<2048x1xf32>
    %130 = "stablehlo.rsqrt"(%129) : (tensor<2048x1xf32>) -> tensor<2048x1xf32>
    %131 = "stablehlo.broadcast_in_dim"(%130) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<2048x1xf32>) -> tensor<2048x4096xf32>
    %132 = "stablehlo.multiply"(%121, %131) : (tensor<2048x4096xf32>, tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
    %133 = "stablehlo.convert"(%l2_norm_gain) : (tensor<4096xbf16>) -> tensor<4096xf32>
    %134 = "stablehlo.reshape"(%133) : (tensor<4096xf32>) -> tensor<1x4096xf32>
    %135 = "stablehlo.broadcast_in_dim"(%134) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x4096xf32>) -> tensor<2048x4096xf32>
    %136 = "stablehlo.multiply"(%132, %135) : (tensor<2048x4096xf32>, tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
    %137 = "stablehlo.convert"(%l2_norm_bias) : (tensor<4096xbf16>) -> tensor<4096xf32>
    %138 = "stablehlo.reshape"(%137) : (tensor<4096xf32>) -> tensor<1x4096xf32>
    %139 = "stablehlo.broadcast_in_dim"(%138) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x4096xf32>) -> tensor<2048x4096xf32>
    %140 = "stablehlo.add"(%136, %139) : (tensor<2048x4096xf32>, tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
    %141 = "stablehlo.convert"(%140) : (tensor<2048x4096xf32>) -> tensor<2048x4096xbf16>
    %142 = "stablehlo.dot_general"(%141, %l2_mlp_w1) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<2048x4096xbf16>, tensor<4096x2048xbf16>) -> tensor<2048x2048xbf16>
    %143 = "stablehlo.reshape"(%l2_mlp_b1) : (tensor<2048xbf16>) -> tensor<1x2048xbf16>
    %144 = "stablehlo.broadcast_in_dim"(%143) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x2048xbf16>) -> tensor<2048x2048xbf16>
    %145 = "stablehlo.add"(%142, %144) : (tensor<2048x2048xbf16>, tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16>
    %146 = "stablehlo.convert"(%145) : (tensor<2048x2048xbf16>) -> tensor<2048x2048xf32>
    %147 = "stablehlo.multiply"(%146, %146) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %148 = "stablehlo.multiply"(%146, %147) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %149 = "stablehlo.broadcast_in_dim"(%38) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x2048xf32>
    %150 = "stablehlo.multiply"(%148, %149) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %151 = "stablehlo.add"(%146, %150) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %152 = "stablehlo.broadcast_in_dim"(%42) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x2048xf32>
    %153 = "stablehlo.multiply"(%151, %152) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %154 = "stablehlo.broadcast_in_dim"(%45) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x2048xf32>
    %155 = "stablehlo.multiply"(%146, %154) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %156 = "stablehlo.tanh"(%153) : (tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %157 = "stablehlo.broadcast_in_dim"(%49) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x2048xf32>
    %158 = "stablehlo.add"(%156, %157) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %159 = "stablehlo.multiply"(%155, %158) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %160 = "stablehlo.convert"(%159) : (tensor<2048x2048xf32>) -> tensor<2048x2048xbf16>
    %161 = "stablehlo.dot_general"(%160, %l2_mlp_w2) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<2048x2048xbf16>, tensor<2048x4096xbf16>) -> tensor<2048x4096xbf16>
    %162 = "stablehlo.all_reduce"(%161) ({
      ^computation(%lhs: tensor<bf16>, %rhs: tensor<bf16>) :
          %55 = "stablehlo.add"(%lhs, %rhs) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
          "stablehlo.return"(%55) : (tensor<bf16>) -> ()
    }) { replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64> } : (tensor<2048x4096xbf16>) -> tensor<2048x4096xbf16>
    %163 = "stablehlo.reshape"(%l2_mlp_b2) : (tensor<4096xbf16>) -> tensor<1x4096xbf16>
    %164 = "stablehlo.broadcast_in_dim"(%163) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x4096xbf16>) -> tensor<2048x4096xbf16>
    %165 = "stablehlo.add"(%162, %164) : (tensor<2048x4096xbf16>, tensor<2048x4096xbf16>) -> tensor<2048x4096xbf16>
    %166 = "stablehlo.add"(%113, %165) : (tensor<2048x4096xbf16>, tensor<2048x4096xbf16>) -> tensor<2048x4096xbf16>
    %167 = "stablehlo.convert"(%166) : (tensor<2048x4096xbf16>) -> tensor<2048x4096xf32>
    %168 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %169 = "stablehlo.reduce"(%167, %168) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %1 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%1) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 1> } : (tensor<2048x4096xf32>, tensor<f32>) -> tensor<2048xf32>
    %170 = "stablehlo.broadcast_in_dim"(%4) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048xf32>
    %171 = "stablehlo.multiply"(%169, %170) : (tensor<2048xf32>, tensor<2048xf32>) -> tensor<2048xf32>
    %172 = "stablehlo.reshape"(%171) : (tensor<2048xf32>) -> tensor<2048x1xf32>
    %173 = "stablehlo.broadcast_in_dim"(%172) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<2048x1xf32>) -> tensor<2048x4096xf32>
    %174 = "stablehlo.subtract"(%167, %173) : (tensor<2048x4096xf32>, tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
    %175 = "stablehlo.multiply"(%174, %174) : (tensor<2048x4096xf32>, tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
    %176 = "stablehlo.constant"() { value = dense<0.0> : tensor<f32> } : () -> tensor<f32>
    %177 = "stablehlo.reduce"(%175, %176) ({
      ^reductionFn(%lhs: tensor<f32>, %rhs: tensor<f32>) :
          %1 = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
          "stablehlo.return"(%1) : (tensor<f32>) -> ()
    }) { dimensions = array<i64: 1> } : (tensor<2048x4096xf32>, tensor<f32>) -> tensor<2048xf32>
    %178 = "stablehlo.broadcast_in_dim"(%4) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048xf32>
    %179 = "stablehlo.multiply"(%177, %178) : (tensor<2048xf32>, tensor<2048xf32>) -> tensor<2048xf32>
    %180 = "stablehlo.reshape"(%179) : (tensor<2048xf32>) -> tensor<2048x1xf32>
    %181 = "stablehlo.broadcast_in_dim"(%16) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x1xf32>
    %182 = "stablehlo.add"(%180, %181) : (tensor<2048x1xf32>, tensor<2048x1xf32>) -> tensor<2048x1xf32>
    %183 = "stablehlo.rsqrt"(%182) : (tensor<2048x1xf32>) -> tensor<2048x1xf32>
    %184 = "stablehlo.broadcast_in_dim"(%183) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<2048x1xf32>) -> tensor<2048x4096xf32>
    %185 = "stablehlo.multiply"(%174, %184) : (tensor<2048x4096xf32>, tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
    %186 = "stablehlo.convert"(%l3_norm_gain) : (tensor<4096xbf16>) -> tensor<4096xf32>
    %187 = "stablehlo.reshape"(%186) : (tensor<4096xf32>) -> tensor<1x4096xf32>
    %188 = "stablehlo.broadcast_in_dim"(%187) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x4096xf32>) -> tensor<2048x4096xf32>
    %189 = "stablehlo.multiply"(%185, %188) : (tensor<2048x4096xf32>, tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
    %190 = "stablehlo.convert"(%l3_norm_bias) : (tensor<4096xbf16>) -> tensor<4096xf32>
    %191 = "stablehlo.reshape"(%190) : (tensor<4096xf32>) -> tensor<1x4096xf32>
    %192 = "stablehlo.broadcast_in_dim"(%191) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x4096xf32>) -> tensor<2048x4096xf32>
    %193 = "stablehlo.add"(%189, %192) : (tensor<2048x4096xf32>, tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
    %194 = "stablehlo.convert"(%193) : (tensor<2048x4096xf32>) -> tensor<2048x4096xbf16>
    %195 = "stablehlo.dot_general"(%194, %l3_mlp_w1) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<2048x4096xbf16>, tensor<4096x2048xbf16>) -> tensor<2048x2048xbf16>
    %196 = "stablehlo.reshape"(%l3_mlp_b1) : (tensor<2048xbf16>) -> tensor<1x2048xbf16>
    %197 = "stablehlo.broadcast_in_dim"(%196) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x2048xbf16>) -> tensor<2048x2048xbf16>
    %198 = "stablehlo.add"(%195, %197) : (tensor<2048x2048xbf16>, tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16>
    %199 = "stablehlo.convert"(%198) : (tensor<2048x2048xbf16>) -> tensor<2048x2048xf32>
    %200 = "stablehlo.multiply"(%199, %199) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %201 = "stablehlo.multiply"(%199, %200) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %202 = "stablehlo.broadcast_in_dim"(%38) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x2048xf32>
    %203 = "stablehlo.multiply"(%201, %202) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %204 = "stablehlo.add"(%199, %203) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %205 = "stablehlo.broadcast_in_dim"(%42) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x2048xf32>
    %206 = "stablehlo.multiply"(%204, %205) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %207 = "stablehlo.broadcast_in_dim"(%45) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x2048xf32>
    %208 = "stablehlo.multiply"(%199, %207) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %209 = "stablehlo.tanh"(%206) : (tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %210 = "stablehlo.broadcast_in_dim"(%49) { broadcast_dimensions = array<i64> } : (tensor<f32>) -> tensor<2048x2048xf32>
    %211 = "stablehlo.add"(%209, %210) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %212 = "stablehlo.multiply"(%208, %211) : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %213 = "stablehlo.convert"(%212) : (tensor<2048x2048xf32>) -> tensor<2048x2048xbf16>
    %214 = "stablehlo.dot_general"(%213, %l3_mlp_w2) {
      dot_dimension_numbers = #stablehlo.dot<
  lhs_batching_dimensions = [],
  rhs_batching_dimensions = [],
  lhs_contracting_dimensions = [1],
  rhs_contracting_dimensions = [0]
>,
      precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
    } : (tensor<2048x2048xbf16>, tensor<2048x4096xbf16>) -> tensor<2048x4096xbf16>
    %215 = "stablehlo.all_reduce"(%214) ({
      ^computation(%lhs: tensor<bf16>, %rhs: tensor<bf16>) :
          %55 = "stablehlo.add"(%lhs, %rhs) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
          "stablehlo.return"(%55) : (tensor<bf16>) -> ()
    }) { replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64> } : (tensor<2048x4096xbf16>) -> tensor<2048x4096xbf16>
    %216 = "stablehlo.reshape"(%l3_mlp_b2) : (tensor<4096xbf16>) -> tensor<1x4096xbf16>
    %217 = "stablehlo.broadcast_in_dim"(%216) { broadcast_dimensions = array<i64: 0, 1> } : (tensor<1x4096xbf16>) -> tensor<2048x4096xbf16>
    %218 = "stablehlo.add"(%215, %217) : (tensor<2048x4096xbf16>, tensor<2048x4096xbf16>) -> tensor<2048x4096xbf16>
    %219 = "stablehlo.add"(%166, %218) : (tensor<2048x4096xbf16>, tensor<2048x4096xbf16>) -> tensor<2048x4096xbf16>
    "stablehlo.return"(%60, %113, %166, %219) : (tensor<2048x4096xbf16>, tensor<2048x4096xbf16>, tensor<2048x4096xbf16>, tensor<2048x4096xbf16>) -> ()
  }
}
