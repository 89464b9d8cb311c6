// Layouts MLIR's lexer accepts and line-based readers get wrong: comments
// and line breaks between any two tokens, several statements on a line,
// and bodies on their signature's line.
module @layout {
  func.func @one_line(%x: tensor<4xf32>) -> tensor<4xf32> { return %x : tensor<4xf32> }
  func.func @two_on_a_line(%x: tensor<4xf32>) -> tensor<4xf32> { %0 = stablehlo.abs %x : tensor<4xf32>  %1 = stablehlo.negate %0 : tensor<4xf32>
    return %1 : tensor<4xf32> }
  func.func @spread // the name
      (%x // an argument
         : tensor<4xf32>, %y
       :
         tensor<4xf32>)
      ->
      tensor<4xf32>
  {
    %0
      =
      "stablehlo.all_reduce" // the op
      (%x) // its operand
      ({
        // a comment before the label
        ^bb0(%a // the first argument
             : tensor<f32>, %b : tensor<f32>)
             :
          %s = stablehlo.add %a, // a comment between operands
               %b : tensor<f32>
          stablehlo.return %s : tensor<f32>
      }) // between the regions and the attributes
      {replica_groups = dense<[[0], [1]]> : tensor<2x1xi64>} // before the type
      :
      (tensor<4xf32>)
      ->
      tensor<4xf32>
      // before the location
      loc("spread")
    %1:2 = stablehlo.while(%i = %0, %j = %y) : tensor<4xf32>, tensor<4xf32> // the types
    // a comment line between the op and its region
     cond {
      %c = stablehlo.constant dense<false> : tensor<i1>
      stablehlo.return %c : tensor<i1>
    } // after the first region
    // and a line before the second
    do {
      "stablehlo.return"(%j, %i) : (tensor<4xf32>, tensor<4xf32>) -> ()
    }
    "x.before_return"() : () -> () "func.return"(%1#0) : (tensor<4xf32>) -> ()
  }
	func.func @tabs(%x:	tensor<4xf32>) -> tensor<4xf32> {
		%0 = stablehlo.abs	%x	:	tensor<4xf32>
		return %0 : tensor<4xf32>
	}
  func.func private @declaration(tensor<4xf32>) -> tensor<4xf32>
  func.func private @with_attrs(%x: tensor<4xf32>) -> tensor<4xf32> attributes {llvm.emit_c_interface, "quoted.name" = "v"}
  {
    return %x : tensor<4xf32>
  }
}
