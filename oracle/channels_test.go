package oracle

import (
	"strings"
	"testing"

	"github.com/arcpass/arc/ir"
)

func TestChannelProblems(t *testing.T) {
	const orig = `module @m attributes {mhlo.num_replicas = 2 : i32} {
  func.func @main(%x: tensor<4xf32>, %t: !stablehlo.token) -> (tensor<4xf32>, !stablehlo.token) {
    %s = "stablehlo.send"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>, is_host_transfer = true} : (tensor<4xf32>, !stablehlo.token) -> !stablehlo.token
    %0 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %r = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %r : tensor<f32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>CHANNEL} : (tensor<4xf32>) -> tensor<4xf32>
    %1 = "stablehlo.all_reduce"(%0) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %r = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %r : tensor<f32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>CHANNEL2} : (tensor<4xf32>) -> tensor<4xf32>
    return %1, %s : tensor<4xf32>, !stablehlo.token
  }
}
`
	parse := func(ch, ch2 string) *ir.Module {
		src := strings.Replace(strings.Replace(orig, "CHANNEL2", ch2, 1), "CHANNEL", ch, 1)
		m, err := ir.ParseString("m.mlir", src)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	handle := func(n string) string {
		return ", channel_handle = #stablehlo.channel_handle<handle = " + n + ", type = 1>, use_global_device_ids"
	}
	o := parse("", "")
	for _, tc := range []struct {
		name       string
		ch, ch2    string
		wantUnique bool
	}{
		{"fresh ids", handle("2"), handle("3"), true},
		{"the send's id", handle("1"), handle("3"), false},
		{"one new id twice", handle("2"), handle("2"), false},
	} {
		problems := channelProblems(o, parse(tc.ch, tc.ch2))
		if (len(problems) == 0) != tc.wantUnique {
			t.Errorf("%s: problems %q", tc.name, problems)
		}
	}
	// Ids the original shares among ops of one kind may stay so.
	two := parse(handle("2"), handle("2"))
	if p := channelProblems(two, two); len(p) > 0 {
		t.Errorf("an unchanged module: %q", p)
	}
	err := Check(o, parse(handle("1"), handle("3")), Options{})
	if _, ok := err.(*MismatchError); !ok || !strings.Contains(err.Error(), "channel id 1") {
		t.Errorf("Check: %v, want a mismatch on channel id 1", err)
	}
}
