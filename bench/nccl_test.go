package bench

import (
	"bytes"
	"strings"
	"testing"
)

func TestWriteNCCL(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteReport(&buf, sampleResults(), "nccl"); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "sample_nccl.txt", buf.String())
	out := buf.String()
	// nccl-tests' header lines, byte for byte (all_reduce_perf without its
	// root column and in-place half).
	for _, want := range []string{
		"#       size         count      type   redop     time   algbw   busbw #wrong\n",
		"#        (B)    (elements)                       (us)  (GB/s)  (GB/s)       \n",
		// 64 MiB of f16 natively in 285.435 us: 235.11 GB/s, and 2(W-1)/W = 1 times that on the bus.
		"    67108864      33554432      half     sum    285.4  235.11  235.11    N/A\n",
		"        4096          2048      half     sum     3.03    1.35    1.35    N/A\n",
		"# xla level, host link, 2 GPUs, bf16, lowering twoshot:int8\n",
		"#   16777216  not measured: no such kernel\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("nccl format lacks %q", want)
		}
	}
	if err := WriteReport(&buf, nil, "json"); err == nil {
		t.Error("format json accepted")
	}
}

// TestNCCLColumns: the time's decimals follow nccl-tests, count is elements,
// and the bus bandwidth of 4 ranks is 1.5 times the algorithm bandwidth.
func TestNCCLColumns(t *testing.T) {
	for us, want := range map[float64]string{9.876: "   9.88", 123.45: "  123.5", 12345.6: "  12346"} {
		if got := ncclTime(us); got != want {
			t.Errorf("ncclTime(%g) = %q, want %q", us, got, want)
		}
	}
	rs := []Result{{Level: "kernel", Link: "peer", World: 4, DType: "bf16", Bytes: 1 << 20, Lowering: "twoshot:int8", US: 10}}
	var buf bytes.Buffer
	WriteNCCL(&buf, rs)
	if want := "     1048576        524288  bfloat16     sum    10.00  104.86  157.29    N/A\n"; !strings.Contains(buf.String(), want) {
		t.Errorf("got\n%s\nwant a row %q", buf.String(), want)
	}
	if !strings.Contains(buf.String(), "# Avg bus bandwidth    : 157.286 \n") {
		t.Errorf("no average bus bandwidth:\n%s", buf.String())
	}
}
