package harness

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/arcpass/arc/proxy/fakepjrt"
)

// TestUpToTheDevices runs the device path on arc's fake PJRT plugin (two
// devices that compile but hold no buffers): arc's backend from its one line
// and the native backend on the same plugin, the three compiles, arc's
// lowering table and --dump all work, and the run stops, with the error
// named, at the first upload. The program --dump copies from arc's dumps is
// the one --dump-only writes.
func TestUpToTheDevices(t *testing.T) {
	plugin := fakepjrt.Plugin(t)
	record := t.TempDir()
	t.Setenv("FAKE_PJRT_DIR", record)
	t.Setenv("ARC_GPU_LIB", fakepjrt.GPULib(t, t.TempDir()))
	t.Setenv("GOPJRT_CUDA_CHECKS", "0")
	t.Setenv("ARC_DUMP_DIR", "")
	os.Unsetenv("ARC_DUMP_DIR")

	main := func(args ...string) (int, string, string) {
		fs := pflag.NewFlagSet("small", pflag.ContinueOnError)
		var out, errs bytes.Buffer
		code := Main(fs, small{}, "a test", args, &out, &errs)
		return code, out.String(), errs.String()
	}
	dump := filepath.Join(t.TempDir(), "gpu.mlir")
	code, out, errs := main("--plugin", plugin, "--target", "cuda:nvlink", "--quant", "int8", "--dump", dump)
	if code != ExitFail || !strings.Contains(errs, "arc inputs:") {
		t.Fatalf("exit %d, stderr %q: want the run to stop at arc's inputs\n%s", code, errs, out)
	}
	for _, want := range []string{"compiled arc ", "compiled native ", "compiled no all-reduce ",
		"arc's lowering of the program (quant int8):", "module small, target cuda:nvlink: 2 collective operand(s)", "oneshot"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	got := fakepjrt.MustRead(t, dump)
	wantDump := filepath.Join(t.TempDir(), "cpu.mlir")
	if code, _, errs := main("--dump-only", "--dump", wantDump); code != ExitOK {
		t.Fatalf("--dump-only: exit %d: %s", code, errs)
	}
	if want := fakepjrt.MustRead(t, wantDump); got != want {
		t.Errorf("--dump of the device run differs from --dump-only: %s", fakepjrt.Diff(got, want))
	}
	// The plugin compiled arc's lowering for the arc backend and gomlx's program for the native one.
	rec := fakepjrt.ReadRecord(t, record)
	if len(rec.Programs) != 3 || !strings.Contains(rec.Programs[0], `call_target_name = "arc_allreduce"`) ||
		rec.Programs[1] != got || strings.Contains(rec.Programs[2], "all_reduce") {
		t.Errorf("the plugin compiled %d programs; want arc's lowering, the native program and the control", len(rec.Programs))
	}
}
