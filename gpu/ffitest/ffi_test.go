// Package ffitest tests arc's XLA FFI handler (gpu/arc_ffi.cc) on a
// CPU: a C++ driver calls it as XLA would, with the kernels' C API faked, and
// the transcript of what the handler did is compared with a golden file.
package ffitest

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/arcpass/arc/internal/ctest"

	"github.com/arcpass/arc/proxy/fakepjrt"
)

var update = flag.Bool("update", false, "rewrite testdata/ffi_driver.golden")

func cxx(t *testing.T, out string, args ...string) {
	t.Helper()
	ctest.Build(t, "g++", out, append([]string{"-std=c++17", "-Wall", "-Werror"}, args...)...)
}

// gpuDir is gpu/, where the handler's sources live; proxyDir holds the FFI ABI headers.
func dirs() (gpuDir, proxyDir string) {
	_, file, _, _ := runtime.Caller(0)
	gpuDir = filepath.Dir(filepath.Dir(file))
	return gpuDir, filepath.Join(filepath.Dir(gpuDir), "proxy")
}

func TestHandlerTranscript(t *testing.T) {
	gpu, proxy := dirs()
	driver := filepath.Join(t.TempDir(), "ffi_driver")
	cxx(t, driver, "-O1", "-I", gpu, "-I", proxy, filepath.Join("testdata", "ffi_driver.cc"),
		filepath.Join(gpu, "arc_ffi.cc"), "-lpthread")
	got, err := exec.Command(driver).Output()
	if err != nil {
		t.Fatalf("%s: %v", driver, err)
	}
	golden := filepath.Join("testdata", "ffi_driver.golden")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := fakepjrt.MustRead(t, golden)
	if string(got) != want {
		t.Errorf("transcript differs from %s (%s); got:\n%s", golden, fakepjrt.Diff(string(got), want), got)
	}
}

// TestABIMatchesXLAHeader checks arc's FFI declarations against XLA's own
// header where one is at hand: set ARC_XLA_FFI_INCLUDE to a directory holding
// xla/ffi/api/c_api.h (jaxlib ships it under jaxlib/include).
func TestABIMatchesXLAHeader(t *testing.T) {
	include := os.Getenv("ARC_XLA_FFI_INCLUDE")
	if include == "" {
		t.Skip("ARC_XLA_FFI_INCLUDE is not set")
	}
	_, proxy := dirs()
	cxx(t, os.DevNull, "-fsyntax-only", "-I", proxy, "-I", include, filepath.Join("testdata", "ffi_abi_check.cc"))
}
