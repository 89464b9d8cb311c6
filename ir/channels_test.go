package ir

import (
	"math"
	"slices"
	"testing"
)

func TestChannelIDs(t *testing.T) {
	src := `#ch = #stablehlo.channel_handle<handle = 0x10, type = 1>
module @m {
  // channel_handle<handle = 99, type = 1> in a comment is no id
  func.func @main(%x: tensor<4xf32>, %t: !stablehlo.token) -> !stablehlo.token {
    %s = "stablehlo.send"(%x, %t) {channel_handle = #stablehlo.channel_handle<type = 2, handle = 3>, is_host_transfer = true} : (tensor<4xf32>, !stablehlo.token) -> !stablehlo.token
    %r:2 = "mhlo.recv"(%t) <{channel_handle = #mhlo.channel_handle<handle = 7, type = 3>}> : (!stablehlo.token) -> (tensor<4xf32>, !stablehlo.token)
    %c = stablehlo.custom_call @f(%x) {backend_config = "{\"channel_id\": 12}", mhlo.channel_id = 5 : i64} : (tensor<4xf32>) -> tensor<4xf32>
    return %s : !stablehlo.token
  }
  module @inner {
    func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {
      %0 = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = -2, type = 1>, replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<4xf32>) -> tensor<4xf32>
      return %0 : tensor<4xf32>
    }
  }
}
`
	m, err := ParseString("c.mlir", src)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	kinds := map[int64]string{}
	for _, c := range m.ChannelIDs() {
		ids = append(ids, c.ID)
		kinds[c.ID] = c.Op.Name
	}
	if want := []int64{16, 3, 7, 12, 5, -2}; !slices.Equal(ids, want) {
		t.Errorf("ids %v, want %v", ids, want)
	}
	if kinds[3] != "stablehlo.send" || kinds[7] != "mhlo.recv" || kinds[-2] != "stablehlo.all_gather" || kinds[16] != "" {
		t.Errorf("ops %v", kinds)
	}
	ch := m.NewChannels()
	if a, b := ch.New(), ch.New(); a != 17 || b != 18 {
		t.Errorf("new ids %d, %d; want 17, 18", a, b)
	}
}

func TestChannelsPastMaxInt64(t *testing.T) {
	src := `module {
  func.func @main(%x: tensor<4xf32>, %t: !stablehlo.token) -> !stablehlo.token {
    %a = "stablehlo.send"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>} : (tensor<4xf32>, !stablehlo.token) -> !stablehlo.token
    %b = "stablehlo.send"(%x, %a) {channel_handle = #stablehlo.channel_handle<handle = 99999999999999999999, type = 2>} : (tensor<4xf32>, !stablehlo.token) -> !stablehlo.token
    %c = "stablehlo.send"(%x, %b) {channel_handle = #stablehlo.channel_handle<handle = 3, type = 2>} : (tensor<4xf32>, !stablehlo.token) -> !stablehlo.token
    return %c : !stablehlo.token
  }
}
`
	m, err := ParseString("c.mlir", src)
	if err != nil {
		t.Fatal(err)
	}
	ch := m.NewChannels()
	if ch.held[math.MaxInt64] != true {
		t.Fatalf("held %v", ch.held)
	}
	var got []int64
	for range 3 {
		got = append(got, ch.New())
	}
	if want := []int64{2, 4, 5}; !slices.Equal(got, want) {
		t.Errorf("new ids %v, want %v (the free ones from 1)", got, want)
	}
}
