//go:build cgo

package xlarun

import (
	"os"
	"strings"
	"testing"

	"github.com/arcpass/arc/bench"
	"github.com/arcpass/arc/proxy/fakepjrt"
)

// A process holds at most 8 of arc's PJRT proxies and NewXLA registers one
// per call: keep the NewXLA calls of this package's tests below that.

func TestXLAWithoutPlugin(t *testing.T) {
	t.Setenv("ARC_PJRT_PLUGIN", "")
	_, err := NewXLA(XLAOptions{Plugin: "/nonexistent/xla_cuda_plugin.so", Lower: bench.LowerOptions{Target: "cuda:nvlink"}})
	if err == nil || !strings.Contains(err.Error(), "PJRT plugin not found: /nonexistent/xla_cuda_plugin.so") {
		t.Errorf("NewXLA without a plugin: %v", err)
	}
}

// TestXLAThroughFakePlugin runs the XLA machine against a fake PJRT plugin
// with two devices that compiles (recording the programs it gets) but holds
// no buffers: the programs reach the plugin exactly as the bench lowered
// them, and the missing buffers fail the cell with a message naming them.
func TestXLAThroughFakePlugin(t *testing.T) {
	record := t.TempDir()
	t.Setenv("FAKE_PJRT_DIR", record)
	t.Setenv("GOPJRT_CUDA_CHECKS", "0")
	for _, k := range []string{"ARC_TARGET", "ARC_QUANT", "ARC_PROFILE", "ARC_DUMP_DIR", "ARC_FALLBACK", "NCCL_P2P_DISABLE"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	opt := XLAOptions{Plugin: fakepjrt.Plugin(t), GPULib: fakepjrt.GPULib(t, t.TempDir()), Link: "host",
		Lower: bench.LowerOptions{Target: "cuda:pcie-nop2p"}}
	if _, err := NewXLA(XLAOptions{Plugin: opt.Plugin, GPULib: opt.GPULib, GPUs: 3, Lower: opt.Lower}); err == nil ||
		!strings.Contains(err.Error(), "sees 2 device(s)") {
		t.Errorf("--gpus 3 on 2 devices: %v", err)
	}
	m, err := NewXLA(opt)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if m.World() != 2 || os.Getenv("NCCL_P2P_DISABLE") != "1" {
		t.Errorf("world %d, NCCL_P2P_DISABLE=%q; want 2 and 1", m.World(), os.Getenv("NCCL_P2P_DISABLE"))
	}

	cell := &xlaCell{x: m, dtype: "bf16", elems: 2048}
	chain, chose, err := cell.Chain("lowprec:fp8", 3)
	if err != nil {
		t.Fatal(err)
	}
	chain.Close()
	control, err := cell.Control(3)
	if err != nil {
		t.Fatal(err)
	}
	control.Close()
	want, _, err := bench.LowerChain(opt.Lower, "lowprec:fp8", "bf16", 2048, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	rec := fakepjrt.ReadRecord(t, record)
	if chose != "twoshot:fp8" || len(rec.Programs) != 2 || rec.Programs[0] != want ||
		rec.Programs[1] != bench.ProgramText("bf16", 2048, 2, 3, false) {
		t.Errorf("chose %q; the plugin got %d programs, want the lowered chain and the control unchanged", chose, len(rec.Programs))
	}
	if !strings.Contains(want, `link = "host"`) {
		t.Errorf("cuda:pcie-nop2p did not lower to the host-staged path:\n%s", want)
	}

	rs := bench.Sweep(m, bench.Plan{Sizes: []int64{4096}, DTypes: []string{"f16"}, Lowerings: []bench.Lowering{"native"}, Chain: 1, Reps: 1, Jobs: 1}, "host", bench.NopProgress{}, nil)
	if len(rs) != 1 || !strings.HasPrefix(rs[0].Err, "copying 4K of input to GPU 0: ") {
		t.Errorf("sweep on a plugin without buffers: %+v", rs)
	}
}
