// arc: --target tpu:v6e-4
// want: error 8:5 channel_id must be positive when useGlobalDeviceIds is set
// A handle of 0 is no channel: flattened ids without one break all_reduce_c4,
// whatever ids the recv beside it holds.
module @zero attributes {mhlo.num_replicas = 4 : i32} {
  func.func @main(%x: tensor<256xf32>, %tok: !stablehlo.token) -> (tensor<256xf32>, !stablehlo.token) {
    %in:2 = "stablehlo.recv"(%tok) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 3>, is_host_transfer = true} : (!stablehlo.token) -> (tensor<256xf32>, !stablehlo.token)
    %0 = "stablehlo.all_reduce"(%in#0) ({
    ^bb0(%l: tensor<f32>, %r: tensor<f32>):
      %s = stablehlo.add %l, %r : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {channel_handle = #stablehlo.channel_handle<handle = 0, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids} : (tensor<256xf32>) -> tensor<256xf32>
    return %0, %in#1 : tensor<256xf32>, !stablehlo.token
  }
}
