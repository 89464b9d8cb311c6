// arc: --target tpu:v6e-8
// want: lowered
// An mhlo send holds 9 and a custom call's backend config names channel_id
// 11: the mhlo all-reduce's new #mhlo.channel_handle is 12.
module @mixed attributes {mhlo.num_replicas = 2 : i32} {
  func.func @main(%x: tensor<512xf32>, %tok: !mhlo.token) -> (tensor<512xf32>, tensor<512xf32>, !mhlo.token) {
    %t = "mhlo.send"(%x, %tok) {channel_handle = #mhlo.channel_handle<handle = 9, type = 2>, is_host_transfer = true} : (tensor<512xf32>, !mhlo.token) -> !mhlo.token
    %y = stablehlo.custom_call @vendor_collective(%x) {backend_config = "{\"channel_id\": 11}"} : (tensor<512xf32>) -> tensor<512xf32>
    %z = "mhlo.all_reduce"(%x) ({
    ^bb0(%l: tensor<f32>, %r: tensor<f32>):
      %s = mhlo.add %l, %r : tensor<f32>
      mhlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<512xf32>) -> tensor<512xf32>
    return %y, %z, %t : tensor<512xf32>, tensor<512xf32>, !mhlo.token
  }
}
