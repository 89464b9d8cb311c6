// arc: --target tpu:v6e-8
// want: lowered
// The host send and recv own channels 1 and 2: the ring's new channel is 3.
module @host_io attributes {mhlo.num_replicas = 4 : i32} {
  func.func @main(%w: tensor<2048xf32>, %tok: !stablehlo.token) -> (tensor<2048xf32>, !stablehlo.token) {
    %t1 = "stablehlo.send"(%w, %tok) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>, is_host_transfer = true} : (tensor<2048xf32>, !stablehlo.token) -> !stablehlo.token
    %in:2 = "stablehlo.recv"(%t1) {channel_handle = #stablehlo.channel_handle<handle = 2, type = 3>, is_host_transfer = true} : (!stablehlo.token) -> (tensor<2048xf32>, !stablehlo.token)
    %sum = "stablehlo.all_reduce"(%in#0) ({
    ^bb0(%l: tensor<f32>, %r: tensor<f32>):
      %s = stablehlo.add %l, %r : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<2048xf32>) -> tensor<2048xf32>
    return %sum, %in#1 : tensor<2048xf32>, !stablehlo.token
  }
}
