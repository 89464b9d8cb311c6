module @blob {
  func.func @main() -> tensor<4xi32> {
    %0 = stablehlo.constant dense_resource<w0> : tensor<4xi32>
    return %0 : tensor<4xi32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      w0: "0x0400000001000000020000000300000004000000"
    }
  }
#-}
