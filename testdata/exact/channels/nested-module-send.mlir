// arc: --target tpu:v5e-8
// want: lowered
// A function of a nested module sends on channel 6, the all-gather holds 4:
// each new ring channel is above both.
module @outer attributes {mhlo.num_replicas = 8 : i32} {
  module @helpers {
    func.func private @ship(%v: tensor<64xbf16>, %tok: !stablehlo.token) -> !stablehlo.token {
      %t = "stablehlo.send"(%v, %tok) {channel_handle = #stablehlo.channel_handle<handle = 6, type = 2>, is_host_transfer = true} : (tensor<64xbf16>, !stablehlo.token) -> !stablehlo.token
      return %t : !stablehlo.token
    }
  }
  func.func @main(%a: tensor<64xbf16>, %b: tensor<8x64xbf16>) -> (tensor<64xbf16>, tensor<64xbf16>, tensor<64x64xbf16>) {
    %g = "stablehlo.all_gather"(%b) {all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids} : (tensor<8x64xbf16>) -> tensor<64x64xbf16>
    %m = "stablehlo.all_reduce"(%a) ({
    ^bb0(%l: tensor<bf16>, %r: tensor<bf16>):
      %s = stablehlo.maximum %l, %r : tensor<bf16>
      stablehlo.return %s : tensor<bf16>
    }) {replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>} : (tensor<64xbf16>) -> tensor<64xbf16>
    %n = "stablehlo.all_reduce"(%m) ({
    ^bb0(%l: tensor<bf16>, %r: tensor<bf16>):
      %s = stablehlo.add %l, %r : tensor<bf16>
      stablehlo.return %s : tensor<bf16>
    }) {replica_groups = dense<[[0, 2, 4, 6], [1, 3, 5, 7]]> : tensor<2x4xi64>} : (tensor<64xbf16>) -> tensor<64xbf16>
    return %m, %n, %g : tensor<64xbf16>, tensor<64xbf16>, tensor<64x64xbf16>
  }
}
