// Package ffitest tests arc's XLA FFI handler (runtime/gpu/arc_ffi.cc) on a
// CPU: a C++ driver calls it as XLA would, with the kernels' C API faked, and
// the transcript of what the handler did is compared with a golden file.
package ffitest

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/arcpass/arc/runtime/pjrt/fakepjrt"
)

var update = flag.Bool("update", false, "rewrite testdata/ffi_driver.golden")

func cxx(t *testing.T, args ...string) {
	t.Helper()
	if _, err := exec.LookPath("g++"); err != nil {
		t.Skip("g++ not found")
	}
	if out, err := exec.Command("g++", append([]string{"-std=c++17", "-Wall", "-Werror"}, args...)...).CombinedOutput(); err != nil {
		t.Fatalf("g++: %v\n%s", err, out)
	}
}

func TestHandlerTranscript(t *testing.T) {
	src := fakepjrt.SourceDir()
	gpu := filepath.Join(src, "..", "gpu")
	driver := filepath.Join(t.TempDir(), "ffi_driver")
	cxx(t, "-O1", "-I", gpu, "-o", driver, filepath.Join(src, "testdata", "ffi_driver.cc"),
		filepath.Join(gpu, "arc_ffi.cc"), "-lpthread")
	got, err := exec.Command(driver).Output()
	if err != nil {
		t.Fatalf("%s: %v", driver, err)
	}
	golden := filepath.Join(src, "testdata", "ffi_driver.golden")
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
	src := fakepjrt.SourceDir()
	cxx(t, "-fsyntax-only", "-I", filepath.Join(src, "..", "gpu"), "-I", include,
		filepath.Join(src, "testdata", "ffi_abi_check.cc"))
}
