package arcgomlx

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arcpass/arc"
	"github.com/arcpass/arc/lowering/tpu"
	"github.com/arcpass/arc/proxy/fakepjrt"
	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/pkg/core/distributed"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
	"github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/shapes"
)

// Each test registers its own proxy around its own fake plugin; a process
// holds at most ARC_PROXY_MAX (8) proxies, so keep the count of Register and
// New calls in this file below that.

// fake is one test's fake plugin, its record directory and a stand-in libarc_gpu.so.
type fake struct {
	plugin, record, gpuLib string
}

func newFake(t *testing.T) fake {
	t.Helper()
	f := fake{plugin: fakepjrt.Plugin(t), record: t.TempDir()}
	f.gpuLib = fakepjrt.GPULib(t, t.TempDir())
	for _, k := range []string{"ARC_TARGET", "ARC_QUANT", "ARC_PROFILE", "ARC_DUMP_DIR", "ARC_FALLBACK", "ARC_GPU_LIB",
		"ARC_PJRT_PLUGIN", "ARC_FORCE", "LIBTPU_INIT_ARGS"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	t.Setenv("FAKE_PJRT_DIR", f.record)
	t.Setenv("GOPJRT_CUDA_CHECKS", "0")
	return f
}

// lowered is what arc's pipeline makes of program, computed here directly.
func lowered(t *testing.T, program string, opt arc.Options) string {
	t.Helper()
	out, _, err := arc.Compile("<program>", []byte(program), opt)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func TestPluginGetsArcsLowering(t *testing.T) {
	f := newFake(t)
	name, err := Register(f.plugin, Options{Compile: arc.Options{Target: "cuda:nvlink"}, GPULib: f.gpuLib})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if err := fakepjrt.Compile(name, fakepjrt.Program(t)); err != nil {
			t.Fatal(err)
		}
	}
	// go-xla's compile options carry its default assignment, devices 0 and 1.
	want := lowered(t, fakepjrt.Program(t), arc.Options{Target: "cuda:nvlink", DeviceAssignment: "0;1"})
	if !strings.Contains(want, `call_target_name = "arc_allreduce"`) {
		t.Fatalf("cuda:nvlink left the all-reduce native; the test needs a lowered program:\n%s", want)
	}
	rec := fakepjrt.ReadRecord(t, f.record)
	if len(rec.Programs) != 2 || rec.Programs[0] != want || rec.Programs[1] != want {
		t.Errorf("the plugin got %d programs; first:\n%s\nwant:\n%s", len(rec.Programs), first(rec.Programs), want)
	}
	if len(rec.Registrations) != 1 || rec.Registrations[0] != fakepjrt.WantRegistration {
		t.Errorf("registrations %q, want one %q", rec.Registrations, fakepjrt.WantRegistration)
	}
}

// TestDeviceAssignment: a permuted assignment in the compile options
// reaches arc.Compile as global ids.
func TestDeviceAssignment(t *testing.T) {
	f := newFake(t)
	name, err := Register(f.plugin, Options{Compile: arc.Options{Target: "cuda:nvlink"}, GPULib: f.gpuLib})
	if err != nil {
		t.Fatal(err)
	}
	if err := fakepjrt.CompileWith(name, fakepjrt.Program(t), []int{1, 0}); err != nil {
		t.Fatal(err)
	}
	want := lowered(t, fakepjrt.Program(t), arc.Options{Target: "cuda:nvlink", DeviceAssignment: "1;0"})
	if rec := fakepjrt.ReadRecord(t, f.record); len(rec.Programs) != 1 || rec.Programs[0] != want {
		t.Errorf("the plugin got:\n%s\nwant arc's lowering for devices 1, 0:\n%s", first(rec.Programs), want)
	}
}

func first(s []string) string {
	if len(s) == 0 {
		return "(none)"
	}
	return s[0]
}

// TestGomlxGraph compiles a gomlx SPMD all-reduce through New: the program
// gomlx printed reaches arc (dumped before), and the plugin gets arc's lowering.
func TestGomlxGraph(t *testing.T) {
	f := newFake(t)
	dump := t.TempDir()
	backend, err := New(f.plugin, Options{Compile: arc.Options{Target: "cuda:nvlink"}, GPULib: f.gpuLib, Dump: dump})
	if err != nil {
		t.Fatal(err)
	}
	defer backend.Finalize()
	if backend.NumDevices() != 2 {
		t.Fatalf("backend has %d devices, want the fake plugin's 2", backend.NumDevices())
	}
	mesh, err := distributed.NewDeviceMesh([]int{2}, []string{"replica"})
	if err != nil {
		t.Fatal(err)
	}
	g := graph.NewGraph(backend, "allreduce")
	if err := g.SetSPMD(mesh); err != nil {
		t.Fatal(err)
	}
	x := graph.Parameter(g, "x", shapes.Make(dtypes.Float16, 16, 512))
	y := g.Distributed().AllReduceOne(x, backends.ReduceOpSum)
	if err := catch(func() { g.Compile(y) }); err != nil {
		t.Fatal(err)
	}
	before := fakepjrt.MustRead(t, filepath.Join(dump, "arc-0001-before.mlir"))
	if !strings.Contains(before, "stablehlo.all_reduce") {
		t.Fatalf("gomlx's program has no all-reduce:\n%s", before)
	}
	want := lowered(t, before, arc.Options{Target: "cuda:nvlink", DeviceAssignment: "0;1"})
	rec := fakepjrt.ReadRecord(t, f.record)
	if len(rec.Programs) != 1 || rec.Programs[0] != want {
		t.Errorf("the plugin got:\n%s\nwant arc's lowering of gomlx's program:\n%s", first(rec.Programs), want)
	}
	if after := fakepjrt.MustRead(t, filepath.Join(dump, "arc-0001-after.mlir")); after != want {
		t.Error("after dump differs from what the plugin got:", fakepjrt.Diff(after, want))
	}
}

func catch(fn func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	fn()
	return nil
}

func TestErrorsAndFallback(t *testing.T) {
	f := newFake(t)
	bad := "module { this all_reduce is not stablehlo\n" // mentions a collective: arc reads it
	strict, err := Register(f.plugin, Options{Compile: arc.Options{Target: "cuda:nvlink"}, GPULib: f.gpuLib})
	if err != nil {
		t.Fatal(err)
	}
	if err := fakepjrt.Compile(strict, bad); err == nil || !strings.Contains(err.Error(), "arc: <program>:") {
		t.Errorf("compile of bad input: %v, want arc's positioned message", err)
	}
	lenient, err := Register(f.plugin, Options{Compile: arc.Options{Target: "cuda:nvlink"}, GPULib: f.gpuLib, FallbackNative: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := fakepjrt.Compile(lenient, bad); err != nil {
		t.Fatalf("with FallbackNative: %v", err)
	}
	rec := fakepjrt.ReadRecord(t, f.record)
	if len(rec.Programs) != 1 || rec.Programs[0] != bad {
		t.Errorf("the plugin got %q, want only the unmodified program from the fallback", rec.Programs)
	}
}

// TestEnvironment: ARC_* variables configure the proxy when Options leave a
// field empty, and a TPU target adds libtpu's ring flag to the user's LIBTPU_INIT_ARGS.
func TestEnvironment(t *testing.T) {
	f := newFake(t)
	t.Setenv("ARC_PJRT_PLUGIN", f.plugin)
	t.Setenv("ARC_TARGET", "tpu:v6e-8")
	t.Setenv("LIBTPU_INIT_ARGS", "--xla_tpu_enable_latency_hiding_scheduler=true")
	t.Setenv("ARC_FORCE", "0=native")
	dump := t.TempDir()
	t.Setenv("ARC_DUMP_DIR", dump)
	name, err := Register("tpu", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := tpu.LibtpuRingFlag + " --xla_tpu_enable_latency_hiding_scheduler=true"; os.Getenv("LIBTPU_INIT_ARGS") != want {
		t.Errorf("LIBTPU_INIT_ARGS=%q, want %q", os.Getenv("LIBTPU_INIT_ARGS"), want)
	}
	if err := fakepjrt.Compile(name, fakepjrt.Program(t)); err != nil {
		t.Fatal(err)
	}
	want := lowered(t, fakepjrt.Program(t), arc.Options{Target: "tpu:v6e-8", Force: []string{"0=native"}, DeviceAssignment: "0;1"})
	if rec := fakepjrt.ReadRecord(t, f.record); len(rec.Programs) != 1 || rec.Programs[0] != want {
		t.Errorf("the plugin got:\n%s\nwant the tpu:v6e-8 lowering with 0=native forced:\n%s", first(rec.Programs), want)
	}
	if lowered(t, fakepjrt.Program(t), arc.Options{Target: "tpu:v6e-8"}) == want {
		t.Error("forcing native changed nothing: the test cannot tell whether ARC_FORCE reached arc")
	}
	if got := fakepjrt.Dumps(t, dump); strings.Join(got, " ") != "arc-0001-after.mlir arc-0001-before.mlir" {
		t.Errorf("ARC_DUMP_DIR holds %q", got)
	}
}

func TestMissingPlugin(t *testing.T) {
	newFake(t)
	for _, tc := range []struct{ platform, want string }{
		{"/nonexistent/pjrt_c_api_cuda_plugin.so", "arc: PJRT plugin not found: /nonexistent/pjrt_c_api_cuda_plugin.so"},
		{"no-such-platform", `arc: PJRT plugin "no-such-platform" not found`},
	} {
		if _, err := Register(tc.platform, Options{}); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("Register(%q): %v, want an error starting %q", tc.platform, err, tc.want)
		}
	}
}
