// Package plugintest tests the standalone form of arc's PJRT proxy,
// pjrt_c_api_arc_plugin.so, as gomlx loads it: through go-xla's PJRT client,
// wrapping a fake PJRT plugin (no GPU needed), with a stand-in for the arc
// binary that marks what it was asked to do.
package plugintest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arcpass/arc"
	"github.com/arcpass/arc/internal/ctest"
	"github.com/arcpass/arc/proxy/fakepjrt"
)

// env is one test's world: a fresh standalone plugin, a fresh fake plugin
// (so plugin state never leaks between tests), the fake arc beside the
// standalone plugin, and the directories the fakes record into.
type env struct {
	plugin  string // the standalone plugin
	record  string // $FAKE_PJRT_DIR
	arcArgs string // $FAKE_ARC_ARGS
	dir     string // the standalone plugin's directory
}

func newEnv(t *testing.T) *env {
	t.Helper()
	e := &env{dir: t.TempDir(), record: t.TempDir()}
	e.plugin = fakepjrt.Standalone(t, e.dir)
	e.arcArgs = filepath.Join(e.record, "arc-args")
	script, err := os.ReadFile(filepath.Join(fakepjrt.SourceDir(), "testdata", "fake_arc.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(e.dir, "arc"), script, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"ARC_TARGET", "ARC_QUANT", "ARC_PROFILE", "ARC_FORCE", "ARC_DUMP_DIR", "ARC_FALLBACK",
		"ARC_GPU_LIB", "ARC_BIN", "ARC_MLIR_TO_TEXT", "ARC_PYTHON", "ARC_COMPILE_TIMEOUT_MS", "ARC_SERVE_LOG",
		"LIBTPU_INIT_ARGS", "FAKE_PJRT_OLD", "FAKE_PJRT_NO_GPU_EXT", "FAKE_PJRT_REGISTER_FAIL", "FAKE_PJRT_TOPOLOGY",
		"FAKE_GPU_LINK", "FAKE_GPU_ATTACH_FAIL"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	t.Setenv("ARC_PJRT_PLUGIN", fakepjrt.Plugin(t))
	t.Setenv("FAKE_PJRT_DIR", e.record)
	t.Setenv("FAKE_ARC_ARGS", e.arcArgs)
	t.Setenv("GOPJRT_CUDA_CHECKS", "0") // test names reach plugin paths; "cuda" in a path triggers go-xla's checks
	return e
}

// lowered is what the fake arc prints for program with the given arguments.
func lowered(args, program string) string {
	return "// fake arc: " + args + "\n" + strings.TrimRight(program, "\n") + "\n"
}

func TestCompileHandsArcOutputToThePlugin(t *testing.T) {
	e := newEnv(t)
	t.Setenv("ARC_TARGET", "cuda:nvlink")
	fakepjrt.GPULib(t, e.dir) // found next to the plugin
	if err := fakepjrt.Compile(e.plugin, fakepjrt.Program(t)); err != nil {
		t.Fatal(err)
	}
	// The proxy passes what it knows itself; every other option is read by
	// arc from the ARC_* variables (TestArcWorker).
	args := "compile --target cuda:nvlink --device-assignment 0;1 -"
	rec := fakepjrt.ReadRecord(t, e.record)
	if len(rec.Programs) != 1 {
		t.Fatalf("plugin compiled %d programs, want 1", len(rec.Programs))
	}
	if want := lowered(args, fakepjrt.Program(t)); rec.Programs[0] != want {
		t.Errorf("plugin got\n%s\nwant\n%s", rec.Programs[0], want)
	}
	if len(rec.Registrations) != 1 || rec.Registrations[0] != fakepjrt.WantRegistration {
		t.Errorf("registrations %q, want one %q", rec.Registrations, fakepjrt.WantRegistration)
	}
}

func TestRegistersOnceForManyCompiles(t *testing.T) {
	e := newEnv(t)
	t.Setenv("ARC_TARGET", "rocm:mi300x")
	fakepjrt.GPULib(t, e.dir)
	for i := 0; i < 3; i++ {
		if err := fakepjrt.Compile(e.plugin, fakepjrt.Program(t)); err != nil {
			t.Fatal(err)
		}
	}
	rec := fakepjrt.ReadRecord(t, e.record)
	if len(rec.Programs) != 3 || len(rec.Registrations) != 1 {
		t.Errorf("%d programs and %d registrations, want 3 and 1", len(rec.Programs), len(rec.Registrations))
	}
}

func TestAutoTargetFromTopology(t *testing.T) {
	for _, tc := range []struct{ link, target string }{
		{"2,1,1,sm_90", "cuda:nvlink"},
		{"4,1,0,sm_89", "cuda:pcie"},
		{"2,0,0,sm_90", "cuda:pcie-nop2p"},
		{"8,1,1,gfx942", "rocm:mi300x"},
		{"8,1,1,gfx950", "rocm:mi355x"},
	} {
		t.Run(tc.target, func(t *testing.T) {
			e := newEnv(t)
			t.Setenv("ARC_TARGET", "auto")
			t.Setenv("FAKE_GPU_LINK", tc.link)
			fakepjrt.GPULib(t, e.dir)
			if err := fakepjrt.Compile(e.plugin, fakepjrt.Program(t)); err != nil {
				t.Fatal(err)
			}
			if got, want := fakepjrt.MustRead(t, e.arcArgs), "compile --target "+tc.target+" --device-assignment 0;1 -\n"; got != want {
				t.Errorf("arc ran with %q, want %q", got, want)
			}
		})
	}
}

func TestErrorsNameWhatIsMissing(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		lib  bool   // build the fake libarc_gpu.so next to the plugin
		want string // in the compile error
	}{
		{"no gpu library", map[string]string{"ARC_TARGET": "cuda:nvlink"}, false,
			"libarc_gpu.so is not built or not found"},
		{"gpu library path", map[string]string{"ARC_TARGET": "cuda:nvlink", "ARC_GPU_LIB": "/nonexistent/libarc_gpu.so"},
			true, "cannot load ARC_GPU_LIB=/nonexistent/libarc_gpu.so"},
		{"auto without library", nil, false, "ARC_TARGET is auto, so arc detects the topology through libarc_gpu.so"},
		{"detection fails", map[string]string{"FAKE_GPU_LINK": "fail"}, true, "detecting the topology failed: fake: no device"},
		{"no extension", map[string]string{"ARC_TARGET": "cuda:nvlink", "FAKE_PJRT_NO_GPU_EXT": "1"}, true,
			"has no GPU custom-call extension, which target cuda:nvlink needs"},
		{"registration refused", map[string]string{"ARC_TARGET": "cuda:nvlink", "FAKE_PJRT_REGISTER_FAIL": "1"}, true,
			"registering arc_allreduce with"},
		{"bad input", map[string]string{"ARC_TARGET": "tpu:v6e-8"}, false, "arc: <stdin>:1:1: unexpected token"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			if tc.lib {
				fakepjrt.GPULib(t, e.dir)
			}
			// The fake arc prints its input back, so a custom call in the
			// input stands for one the lowering printed.
			prog := fakepjrt.Program(t) + "// call_target_name = \"arc_allreduce\"\n"
			if tc.name == "bad input" {
				prog += "// ARC_BAD_INPUT\n"
			}
			err := fakepjrt.Compile(e.plugin, prog)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("compile error %v, want one containing %q", err, tc.want)
			}
			if n := len(fakepjrt.ReadRecord(t, e.record).Programs); n != 0 {
				t.Errorf("the plugin compiled %d programs after an arc error", n)
			}
		})
	}
}

func TestProgramsWithoutArcKernelsNeedNoLibrary(t *testing.T) {
	e := newEnv(t)
	t.Setenv("ARC_TARGET", "cuda:nvlink") // no libarc_gpu.so anywhere
	if err := fakepjrt.Compile(e.plugin, fakepjrt.Program(t)); err != nil {
		t.Fatalf("a program the lowering left native failed: %v", err)
	}
}

func TestFallbackNative(t *testing.T) {
	e := newEnv(t)
	t.Setenv("ARC_TARGET", "cuda:nvlink")
	t.Setenv("ARC_FALLBACK", "native")
	prog := fakepjrt.Program(t) + "// ARC_BAD_INPUT\n"
	if err := fakepjrt.Compile(e.plugin, prog); err != nil {
		t.Fatal(err)
	}
	rec := fakepjrt.ReadRecord(t, e.record)
	if len(rec.Programs) != 1 || rec.Programs[0] != prog {
		t.Errorf("with ARC_FALLBACK=native the plugin must get the unmodified program; got %q", rec.Programs)
	}
}

func TestDumpDir(t *testing.T) {
	e := newEnv(t)
	dump := filepath.Join(t.TempDir(), "a", "b")
	t.Setenv("ARC_TARGET", "tpu:v6e-8")
	t.Setenv("ARC_DUMP_DIR", dump)
	if err := fakepjrt.Compile(e.plugin, fakepjrt.Program(t)); err != nil {
		t.Fatal(err)
	}
	if err := fakepjrt.Compile(e.plugin, fakepjrt.Program(t)+"// ARC_BAD_INPUT\n"); err == nil {
		t.Fatal("bad input compiled")
	}
	want := []string{"arc-0001-after.mlir", "arc-0001-before.mlir", "arc-0002-before.mlir", "arc-0002-error.txt"}
	if got := fakepjrt.Dumps(t, dump); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("dumps %q, want %q", got, want)
	}
	if got := fakepjrt.MustRead(t, filepath.Join(dump, "arc-0001-before.mlir")); got != fakepjrt.Program(t) {
		t.Error("before dump differs from the program:", fakepjrt.Diff(got, fakepjrt.Program(t)))
	}
	after := fakepjrt.MustRead(t, filepath.Join(dump, "arc-0001-after.mlir"))
	if want := lowered("compile --target tpu:v6e-8 --device-assignment 0;1 -", fakepjrt.Program(t)); after != want {
		t.Error("after dump differs from arc's output:", fakepjrt.Diff(after, want))
	}
	if got := fakepjrt.MustRead(t, filepath.Join(dump, "arc-0002-error.txt")); got != "<stdin>:1:1: unexpected token" {
		t.Errorf("error dump %q", got)
	}
}

// bytecode stands for what JAX sends: MLIR bytecode whose string table
// names VHLO's all-reduce.
const bytecode = "ML\xefR\x00vhlo\x00all_reduce_v1\x00"

func TestBytecodeGoesThroughTheConverter(t *testing.T) {
	e := newEnv(t)
	t.Setenv("ARC_TARGET", "tpu:v6e-8")
	// A converter that prints a fixed text stands in for jaxlib's deserializer.
	t.Setenv("ARC_MLIR_TO_TEXT", "cat >/dev/null; echo 'module @from_bytecode {}'")
	if err := fakepjrt.Compile(e.plugin, bytecode); err != nil {
		t.Fatal(err)
	}
	rec := fakepjrt.ReadRecord(t, e.record)
	if want := lowered("compile --target tpu:v6e-8 --device-assignment 0;1 -", "module @from_bytecode {}"); len(rec.Programs) != 1 ||
		rec.Programs[0] != want {
		t.Errorf("plugin got %q, want %q", rec.Programs, want)
	}
}

func TestBytecodeWithoutConverter(t *testing.T) {
	e := newEnv(t)
	t.Setenv("ARC_TARGET", "tpu:v6e-8")
	t.Setenv("ARC_PYTHON", "/nonexistent/python3")
	err := fakepjrt.Compile(e.plugin, bytecode)
	if err == nil || !strings.Contains(err.Error(), "converting MLIR bytecode to text: cannot run /nonexistent/python3") {
		t.Fatalf("compile error %v", err)
	}
}

func TestLoadErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		want string
	}{
		{"plugin unset", map[string]string{"ARC_PJRT_PLUGIN": ""}, "no PJRT plugin to wrap: set ARC_PJRT_PLUGIN"},
		{"plugin missing", map[string]string{"ARC_PJRT_PLUGIN": "/nonexistent/xla_cuda_plugin.so"},
			"PJRT plugin not found: /nonexistent/xla_cuda_plugin.so"},
		{"plugin too old", map[string]string{"FAKE_PJRT_OLD": "1"}, "is too old: its C API 0."},
		{"no arc binary", map[string]string{"ARC_BIN": "/nonexistent/arc"}, "ARC_BIN=/nonexistent/arc is not an executable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			err := fakepjrt.Compile(e.plugin, fakepjrt.Program(t))
			if err == nil || !strings.Contains(err.Error(), "arc: ") || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestABIMatchesGoXLAHeader compiles static asserts that put arc's own PJRT
// declarations side by side with the pjrt_c_api.h go-xla ships.
func TestABIMatchesGoXLAHeader(t *testing.T) {
	src := fakepjrt.SourceDir()
	fakepjrt.CC(t, os.DevNull, "-fsyntax-only", "-I", src, "-I", fakepjrt.PJRTInclude(t),
		filepath.Join(src, "testdata", "abi_check.c"))
}

// TestWithTheArcBinary runs the real arc CLI behind the standalone plugin:
// the plugin must get exactly what arc.Compile makes of the program.
func TestWithTheArcBinary(t *testing.T) {
	e := newEnv(t)
	os.Remove(filepath.Join(e.dir, "arc"))                             // the fake arc
	ctest.TrackGoSources(t, filepath.Join(fakepjrt.SourceDir(), "..")) // go build reads them, the test cache does not
	build := exec.Command("go", "build", "-o", filepath.Join(e.dir, "arc"), "github.com/arcpass/arc/cmd/arc")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build arc: %v\n%s", err, out)
	}
	t.Setenv("ARC_TARGET", "cuda:nvlink")
	fakepjrt.GPULib(t, e.dir)
	if err := fakepjrt.Compile(e.plugin, fakepjrt.Program(t)); err != nil {
		t.Fatal(err)
	}
	want, _, err := arc.Compile("-", []byte(fakepjrt.Program(t)), arc.Options{Target: "cuda:nvlink", DeviceAssignment: "0;1"})
	if err != nil {
		t.Fatal(err)
	}
	rec := fakepjrt.ReadRecord(t, e.record)
	if len(rec.Programs) != 1 || rec.Programs[0] != string(want) {
		t.Fatalf("the plugin got:\n%s\nwant arc's lowering:\n%s", strings.Join(rec.Programs, "\n----\n"), want)
	}
	if !strings.Contains(rec.Programs[0], `call_target_name = "arc_allreduce"`) {
		t.Error("the lowering has no arc_allreduce call; the test proves less than it should")
	}
	if len(rec.Registrations) != 1 || rec.Registrations[0] != fakepjrt.WantRegistration {
		t.Errorf("registrations %q", rec.Registrations)
	}
	err = fakepjrt.Compile(e.plugin, "module { not stablehlo, mentions all_reduce")
	if err == nil || !strings.Contains(err.Error(), "arc: ") {
		t.Errorf("bad input: %v, want arc's message", err)
	}
}
