module @nonl {
  func.func @main(%x: tensor<f32>) -> tensor<f32> {
    return %x : tensor<f32>
  }
}