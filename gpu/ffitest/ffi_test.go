// Package ffitest tests arc's XLA FFI handler (gpu/arc_ffi.cc) and its
// communicator (gpu/arc_comm.cc) on a CPU: C++ drivers call the handler as
// XLA would, with the device runtime faked (testdata/fake_dev.h), and the
// transcripts of what the handler did are compared with golden files: one
// process (ffi_driver), and two processes meeting through a key-value store
// kept in files (mp_driver), as one process per GPU does.
package ffitest

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/arcpass/arc/internal/ctest"

	"github.com/arcpass/arc/internal/golden"
	"github.com/arcpass/arc/proxy/fakepjrt"
)

var update = golden.Update // the one -update of every golden test

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

// driver builds testdata/name.cc with the real handler and communicator,
// whose objects every driver shares (ctest compiles them once).
func driver(t *testing.T, name string) string {
	t.Helper()
	gpu, proxy := dirs()
	dir := t.TempDir()
	args := []string{"-O1", "-I", gpu, "-I", proxy, "-I", "testdata"}
	var objs []string
	for _, src := range []string{"arc_ffi.cc", "arc_comm.cc", "arc_shm.cc"} {
		obj := filepath.Join(dir, strings.TrimSuffix(src, ".cc")+".o")
		cxx(t, obj, slices.Concat(args, []string{"-c", filepath.Join(gpu, src)})...)
		objs = append(objs, obj)
	}
	out := filepath.Join(dir, name)
	cxx(t, out, slices.Concat(args, []string{filepath.Join("testdata", name+".cc")}, objs, []string{"-lpthread", "-lrt"})...)
	return out
}

func compareGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden := filepath.Join("testdata", name)
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

func TestHandlerTranscript(t *testing.T) {
	t.Parallel()
	bin := driver(t, "ffi_driver")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	got, err := exec.CommandContext(ctx, bin).Output()
	if err != nil {
		t.Fatalf("%s: %v", bin, err)
	}
	compareGolden(t, "ffi_driver.golden", got)
}

var pid = regexp.MustCompile(`pid [0-9]+`)

// Two processes, one device each, through the handler and a file-backed
// key-value store: they meet (keys, handles exported and opened), fail
// sticky, close before they free at a new client, meet again under the next
// generation, time out waiting for a process that never joins, and refuse a
// plan that differs (sizes, grid). The store's keys are part of the golden.
func TestTwoProcesses(t *testing.T) {
	t.Parallel()
	bin := driver(t, "mp_driver")
	kv := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var out, errs [2]bytes.Buffer
	var cmds [2]*exec.Cmd
	for p := range cmds {
		cmds[p] = exec.CommandContext(ctx, bin, kv, []string{"0", "1"}[p])
		cmds[p].Stdout, cmds[p].Stderr = &out[p], &errs[p]
		if err := cmds[p].Start(); err != nil {
			t.Fatal(err)
		}
	}
	for p, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("process %d: %v\nstdout:\n%s\nstderr:\n%s", p, err, out[p].String(), errs[p].String())
		}
	}
	// The watchdog reports process 0's failure on its stderr; process 1 had none.
	const report = "arc: group [0,1]: rank 0 (device 0) timed out after 600000 ms waiting for rank 1 (device 1) in call 4 (oneshot, 8192 f16); the communicator is unusable\n"
	if errs[0].String() != report {
		t.Errorf("process 0's stderr = %q, want the watchdog's report %q", errs[0].String(), report)
	}
	if errs[1].Len() != 0 {
		t.Errorf("process 1's stderr = %q, want nothing", errs[1].String())
	}
	entries, err := os.ReadDir(kv)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, e := range entries {
		keys = append(keys, strings.ReplaceAll(e.Name(), "!", "/"))
	}
	sort.Strings(keys)
	var got bytes.Buffer
	for p := range out {
		got.WriteString("== process " + []string{"0", "1"}[p] + "\n")
		got.WriteString(pid.ReplaceAllString(out[p].String(), "pid N"))
	}
	got.WriteString("== keys\n" + strings.Join(keys, "\n") + "\n")
	compareGolden(t, "mp_driver.golden", got.Bytes())
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
