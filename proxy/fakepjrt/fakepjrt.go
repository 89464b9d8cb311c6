// Package fakepjrt builds, for arc's CPU tests, the C pieces of the PJRT
// proxy and the fakes it runs against: a tiny PJRT plugin whose Compile
// records the programs it receives (testdata/fake_plugin.c), and a stand-in
// for libarc_gpu.so (testdata/fake_gpu.c). Everything is compiled with gcc
// into the test's temporary directory; tests skip when gcc is missing.
package fakepjrt

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/arcpass/arc/internal/ctest"
	"github.com/gomlx/go-xla/pkg/pjrt"
)

// SourceDir is proxy, where the proxy's C sources live.
func SourceDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(filepath.Dir(file))
}

var goXLA struct {
	once sync.Once
	dir  string
	err  error
}

// PJRTInclude returns the directory of the pjrt_c_api.h that go-xla ships.
func PJRTInclude(t testing.TB) string {
	t.Helper()
	goXLA.once.Do(func() {
		out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/gomlx/go-xla").Output()
		goXLA.dir, goXLA.err = filepath.Join(strings.TrimSpace(string(out)), "pkg", "pjrt"), err
	})
	if goXLA.err != nil {
		t.Fatalf("locating go-xla's pjrt_c_api.h: %v", goXLA.err)
	}
	return goXLA.dir
}

// CC compiles C sources with gcc into out (ctest.Build: the test cache
// sees every source and header), skipping the test when gcc is missing.
func CC(t testing.TB, out string, args ...string) {
	t.Helper()
	ctest.Build(t, "gcc", out, append([]string{"-std=gnu11", "-Wall", "-Werror"}, args...)...)
}

// Cleanup removes the builds of this process; call it from TestMain after m.Run.
func Cleanup() { ctest.Cleanup() }

// Plugin builds the fake PJRT plugin into a fresh directory and returns its
// path. Each call gives a new file, so each test gets its own plugin state.
func Plugin(t testing.TB) string {
	out := filepath.Join(t.TempDir(), "fake_pjrt_plugin.so")
	CC(t, out, "-shared", "-fPIC", "-I", PJRTInclude(t), filepath.Join(SourceDir(), "testdata", "fake_plugin.c"))
	return out
}

// GPULib builds the stand-in for libarc_gpu.so at dir/libarc_gpu.so.
func GPULib(t testing.TB, dir string) string {
	out := filepath.Join(dir, "libarc_gpu.so")
	CC(t, out, "-shared", "-fPIC", "-I", SourceDir(), filepath.Join(SourceDir(), "testdata", "fake_gpu.c"))
	return out
}

// Standalone builds pjrt_c_api_arc_plugin.so (as `make plugin` does) into
// dir, with arc_mlir_to_text.py beside it, and returns its path.
func Standalone(t testing.TB, dir string) string {
	src := SourceDir()
	out := filepath.Join(dir, "pjrt_c_api_arc_plugin.so")
	args := []string{"-O1", "-shared", "-fPIC", "-fvisibility=hidden", "-I", src, filepath.Join(src, "standalone", "standalone.c")}
	args = append(append(args, CoreSources(t)...), "-ldl", "-lpthread")
	CC(t, out, args...)
	script, err := os.ReadFile(filepath.Join(src, "arc_mlir_to_text.py"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "arc_mlir_to_text.py"), script, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// CoreSources are the proxy's C files (proxy/*.c without the cgo glue), as
// the Makefile's plugin target lists them.
func CoreSources(t testing.TB) []string {
	t.Helper()
	all, err := filepath.Glob(filepath.Join(SourceDir(), "*.c"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range all {
		if filepath.Base(f) != "proxy_go.c" {
			out = append(out, f)
		}
	}
	return out
}

// Record is what the fake plugin saw: the programs handed to its Compile, in
// order, and one line per GPU custom-call registration.
type Record struct {
	Programs      []string
	Registrations []string
}

// ReadRecord reads the fake plugin's record from dir ($FAKE_PJRT_DIR).
func ReadRecord(t testing.TB, dir string) Record {
	t.Helper()
	var r Record
	names, _ := filepath.Glob(filepath.Join(dir, "compile-*.mlir"))
	sort.Slice(names, func(i, j int) bool { return number(names[i]) < number(names[j]) })
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		r.Programs = append(r.Programs, string(b))
	}
	if b, err := os.ReadFile(filepath.Join(dir, "register.log")); err == nil {
		r.Registrations = strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	}
	return r
}

func number(path string) int {
	n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(filepath.Base(path), "compile-"), ".mlir"))
	return n
}

// WantRegistration is the line the fake plugin logs when arc registers its
// all-reduce handler correctly: typed FFI (api_version 1), the args struct of
// the extension's version 3 (68 bytes), and a handler that answers XLA's
// metadata handshake with FFI API 0.1 and no traits.
const WantRegistration = "register name=arc_allreduce api_version=1 struct_size=68 execute=set metadata=0.1 traits=1 error=no"

// Dumps returns the names of the files in an ARC_DUMP_DIR, sorted.
func Dumps(t testing.TB, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// Program is the two-replica all-reduce the proxy tests compile
// (testdata/allreduce_2rep.mlir).
func Program(t testing.TB) string {
	return MustRead(t, filepath.Join(SourceDir(), "testdata", "allreduce_2rep.mlir"))
}

// Compile hands program to the PJRT plugin go-xla knows as name, as gomlx
// does (SPMD over 2 devices), and returns what loading or compiling said.
func Compile(name, program string) error { return CompileWith(name, program, nil) }

// CompileWith is Compile with a device assignment (nil: go-xla's default).
func CompileWith(name, program string, assignment []int) error {
	plugin, err := pjrt.GetPlugin(name)
	if err != nil {
		return err
	}
	client, err := plugin.NewClient(nil)
	if err != nil {
		return err
	}
	defer client.Destroy()
	cc := client.Compile().WithStableHLO([]byte(program)).WithSPMD(2)
	if assignment != nil {
		cc = cc.WithDeviceAssignment(assignment)
	}
	exec, err := cc.Done()
	if exec != nil {
		exec.Destroy()
	}
	return err
}

// MustRead returns a file's contents.
func MustRead(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Diff describes the first difference between two texts, for test messages.
func Diff(got, want string) string {
	if got == want {
		return ""
	}
	g, w := []byte(got), []byte(want)
	i := 0
	for i < len(g) && i < len(w) && g[i] == w[i] {
		i++
	}
	line := bytes.Count(g[:i], []byte("\n")) + 1
	return fmt.Sprintf("texts differ at line %d (byte %d): got %d bytes, want %d", line, i, len(g), len(w))
}
