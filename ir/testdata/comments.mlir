// A file that starts with comments: %x is not a value here, "quotes are
// unbalanced, and so are ( [ { brackets.
module @comments {
  // A comment before a function } with a stray brace.
  func.func @main(%x: tensor<f32>) -> tensor<f32> { // trailing comment with %y and "
    // Comment as the first line of a region: %z = "stablehlo.add"(%x, %x)
    %0 = "stablehlo.add"(%x, %x) : (tensor<f32>, tensor<f32>) -> tensor<f32> // uses %x (twice) ]
    %1 = "stablehlo.all_reduce"(%0) ({
    // Comment before a block label: ^bb7(
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      // "%a" and %b are read below
      %2 = "stablehlo.maximum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%2) : (tensor<f32>) -> ()
    }) {
      // a comment inside a multi-line dictionary: {"not" = [an, entry
      replica_groups = dense<[[0]]> : tensor<1x1xi64>
    } : (tensor<f32>) -> tensor<f32>
    // %3 = "stablehlo.negate"(%1) : commented-out op
    "stablehlo.return"(%1) : (tensor<f32>) -> ()
  }
}
// A comment at the very end, after the module.
