//go:build cgo

package xlarun

import (
	"fmt"
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

	// Native with XLA's switches: the same program as native, with the
	// switches as this program's XLA flags in its compile options.
	chain, chose, err = cell.Chain("native+all", 3)
	if err != nil {
		t.Fatal(err)
	}
	chain.Close()
	wantNative, _, _ := bench.LowerChain(opt.Lower, "native", "bf16", 2048, 2, 3)
	if rec := fakepjrt.ReadRecord(t, record); chose != "native" || len(rec.Programs) != 3 || rec.Programs[2] != wantNative {
		t.Errorf("native+all: chose %q; the plugin got %d programs, want native's unchanged", chose, len(rec.Programs))
	}
	cc := m.client.Compile().WithStableHLO([]byte(wantNative)).WithSPMD(2)
	if err := withXLAFlags(cc, bench.Lowering("native+all").XLAFlags()); err != nil {
		t.Fatal(err)
	}
	got, err := overridesOf(cc)
	if err != nil {
		t.Fatal(err)
	}
	wantFlags := map[string]string{
		"xla_gpu_unsupported_use_all_reduce_one_shot_kernel": "bool_field=true",
		"xla_gpu_experimental_enable_nccl_symmetric_buffers": "bool_field=true",
		"xla_gpu_enable_nccl_user_buffers":                   "bool_field=true",
	}
	if fmt.Sprint(got) != fmt.Sprint(wantFlags) {
		t.Errorf("compile options carry %v, want %v", got, wantFlags)
	}
	if exec, err := cc.Done(); err != nil {
		t.Errorf("compiling with the overrides: %v", err)
	} else {
		exec.Destroy()
	}

	rs := bench.Sweep(m, bench.Plan{Sizes: []int64{4096}, DTypes: []string{"f16"}, Lowerings: []bench.Lowering{"native"}, Chain: 1, Reps: 1, Jobs: 1}, "host", bench.NopProgress{}, nil)
	if len(rs) != 1 || !strings.HasPrefix(rs[0].Err, "copying 4K of input to GPU 0: ") {
		t.Errorf("sweep on a plugin without buffers: %+v", rs)
	}
}

// TestOverrideValues: values as XLA_FLAGS spells them become the
// OptionOverrideProto field of their type.
func TestOverrideValues(t *testing.T) {
	record := t.TempDir()
	t.Setenv("FAKE_PJRT_DIR", record)
	t.Setenv("GOPJRT_CUDA_CHECKS", "0")
	client, devices, err := OpenClient(XLAOptions{Plugin: fakepjrt.Plugin(t), GPULib: fakepjrt.GPULib(t, t.TempDir()),
		Lower: bench.LowerOptions{Target: "cuda:nvlink"}, CollectiveMemory: 256 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer client.Destroy()
	if devices != 2 {
		t.Errorf("%d devices", devices)
	}
	cc := client.Compile().WithStableHLO([]byte(bench.ProgramText("f32", 16, 2, 1, true))).WithSPMD(2)
	flags := []bench.XLAFlag{{Name: "a", Value: "false"}, {Name: "b", Value: "7"}, {Name: "c", Value: "0.5"}, {Name: "d", Value: "FUSION,CUBLAS"}}
	if err := withXLAFlags(cc, flags); err != nil {
		t.Fatal(err)
	}
	got, err := overridesOf(cc)
	if err != nil {
		t.Fatal(err)
	}
	if want := "map[a:bool_field=false b:int_field=7 c:double_field=0.5 d:string_field=FUSION,CUBLAS]"; fmt.Sprint(got) != want {
		t.Errorf("overrides %v, want %s", got, want)
	}
	if err := withXLAFlags(client.Compile(), nil); err != nil {
		t.Errorf("no flags: %v", err)
	}
}
