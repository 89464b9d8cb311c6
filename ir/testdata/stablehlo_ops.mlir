// StableHLO ops in the pretty forms stablehlo-opt prints, with the attribute
// and type spellings of StableHLO's own tests: dims and enums in custom
// syntax, slices, reducers in both forms, regions of if/case/sort, tuples,
// tokens, custom calls and composites.
module @ops attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<3x4xf32>, %arg2: tensor<i1>, %arg3: tensor<8xi32>) -> (tensor<2x4xf32>, tensor<8xi32>) {
    %c = stablehlo.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_0 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %c_1 = stablehlo.constant dense<[[true, false], [false, true]]> : tensor<2x2xi1>
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    %1 = stablehlo.dot_general %arg0, %arg0, batching_dims = [0] x [0], contracting_dims = [1] x [1] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2xf32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x4xf32>
    %3 = stablehlo.compare  GT, %0, %2,  FLOAT : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xi1>
    %4 = stablehlo.select %3, %0, %2 : tensor<2x4xi1>, tensor<2x4xf32>
    %5 = stablehlo.transpose %4, dims = [1, 0] : (tensor<2x4xf32>) -> tensor<4x2xf32>
    %6 = stablehlo.reshape %5 : (tensor<4x2xf32>) -> tensor<8xf32>
    %7 = stablehlo.convert %6 : (tensor<8xf32>) -> tensor<8xi32>
    %8 = stablehlo.slice %7 [2:6:2] : (tensor<8xi32>) -> tensor<2xi32>
    %9 = stablehlo.concatenate %8, %8, %8, %8, dim = 0 : (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<8xi32>
    %10 = stablehlo.iota dim = 0 : tensor<8xi32>
    %11 = stablehlo.add %9, %10 : tensor<8xi32>
    %12 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    %13 = stablehlo.reduce(%arg0 init: %cst) across dimensions = [0, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<f32>
     reducer(%a: tensor<f32>, %b: tensor<f32>)  {
      %m = stablehlo.maximum %a, %b : tensor<f32>
      stablehlo.return %m : tensor<f32>
    }
    %14 = "stablehlo.if"(%arg2) ({
      stablehlo.return %11 : tensor<8xi32>
    }, {
      stablehlo.return %c : tensor<8xi32>
    }) : (tensor<i1>) -> tensor<8xi32>
    %15 = stablehlo.convert %arg2 : (tensor<i1>) -> tensor<i32>
    %16 = "stablehlo.case"(%15) ({
      stablehlo.return %14 : tensor<8xi32>
    }, {
      stablehlo.return %arg3 : tensor<8xi32>
    }) : (tensor<i32>) -> tensor<8xi32>
    %17 = "stablehlo.sort"(%16) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%l: tensor<i32>, %r: tensor<i32>):
      %lt = stablehlo.compare  LT, %l, %r,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    }) : (tensor<8xi32>) -> tensor<8xi32>
    %18:2 = stablehlo.while(%iterArg = %17, %iterArg_2 = %c) : tensor<8xi32>, tensor<8xi32>
    attributes {stablehlo.note = "a while with attributes"}
     cond {
      %c_3 = stablehlo.constant dense<0> : tensor<i32>
      %t = stablehlo.compare  EQ, %c_3, %c_3,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %t : tensor<i1>
    } do {
      stablehlo.return %iterArg_2, %iterArg : tensor<8xi32>, tensor<8xi32>
    }
    %19 = stablehlo.tuple %18#0, %cst : tuple<tensor<8xi32>, tensor<f32>>
    %20 = stablehlo.get_tuple_element %19[0] : (tuple<tensor<8xi32>, tensor<f32>>) -> tensor<8xi32>
    %21 = stablehlo.custom_call @my_kernel(%20) {backend_config = "opaque", has_side_effect = true} : (tensor<8xi32>) -> tensor<8xi32>
    %22 = stablehlo.custom_call @ffi_kernel(%21) {api_version = 4 : i32, backend_config = {alpha = 1.000000e+00 : f32, name = "k"}} : (tensor<8xi32>) -> tensor<8xi32>
    %23 = stablehlo.composite "my.double" %22 {composite_attributes = {factor = 2 : i64}, decomposition = @double, version = 1 : i32} : (tensor<8xi32>) -> tensor<8xi32>
    %24 = stablehlo.optimization_barrier %23 : tensor<8xi32>
    %token = stablehlo.create_token : !stablehlo.token
    %25 = stablehlo.after_all %token, %token : !stablehlo.token
    %26 = "stablehlo.outfeed"(%24, %25) <{outfeed_config = ""}> : (tensor<8xi32>, !stablehlo.token) -> !stablehlo.token
    %27 = stablehlo.replica_id : tensor<ui32>
    %28 = stablehlo.partition_id : tensor<ui32>
    %29 = "stablehlo.gather"(%arg3, %c) <{dimension_numbers = #stablehlo.gather<offset_dims = [], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
    %30 = stablehlo.add %24, %29 : tensor<8xi32>
    return %0, %30 : tensor<2x4xf32>, tensor<8xi32>
  }
  func.func private @double(%x: tensor<8xi32>) -> tensor<8xi32> {
    %0 = stablehlo.add %x, %x : tensor<8xi32>
    return %0 : tensor<8xi32>
  }
}
