package plugintest

// The standalone plugin driven by testdata/host.c, a client that creates
// clients the way JAX does: with a key-value store, chosen compile options,
// several processes of one job.

import (
	"cmp"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/arcpass/arc/proxy/fakepjrt"
)

// host builds testdata/host.c.
func host(t *testing.T) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "host")
	fakepjrt.CC(t, out, "-I", fakepjrt.PJRTInclude(t), filepath.Join(fakepjrt.SourceDir(), "testdata", "host.c"), "-ldl")
	return out
}

// runHost runs the host on e's plugin with args and extra environment; it
// returns what the host printed but the proxy's "arc: active" line
// (TestAnnounce reads it).
func runHost(t *testing.T, e *env, bin string, extra []string, args ...string) string {
	t.Helper()
	_, rest := announced(runHostAll(t, e, bin, extra, args...))
	return rest
}

func runHostAll(t *testing.T, e *env, bin string, extra []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, append([]string{e.plugin}, args...)...)
	cmd.Env = append(os.Environ(), extra...)
	out, _ := cmd.CombinedOutput() // a failed compile exits 1: the output says which
	return string(out)
}

// announced splits the proxy's "arc: active" lines from the rest of out.
func announced(out string) (active []string, rest string) {
	var keep []string
	for _, line := range strings.SplitAfter(out, "\n") {
		if strings.HasPrefix(line, "arc: active") {
			active = append(active, strings.TrimSuffix(line, "\n"))
		} else {
			keep = append(keep, line)
		}
	}
	return active, strings.Join(keep, "")
}

// TestAnnounce: at its start the proxy says once that arc is active, with
// its target and where the real plugin and the kernels were found, or what
// is missing.
func TestAnnounce(t *testing.T) {
	for _, tc := range []struct {
		name, target string
		gpuLib       bool
		want         string // with PLUGIN and DIR for the test's paths
	}{
		{"gpu", "cuda:nvlink", true, "arc: active: target cuda:nvlink (from ARC_TARGET), real plugin PLUGIN, kernels DIR/libarc_gpu.so"},
		{"detected", "auto", true, "arc: active: target cuda:nvlink (detected from the devices: 2 visible GPUs, sm_90, every pair joined by NVLink), real plugin PLUGIN, kernels DIR/libarc_gpu.so"},
		{"detected, peer access", "auto,4,1,0,sm_89", true, "arc: active: target cuda:pcie (detected from the devices: 4 visible GPUs, sm_89, peer access between every pair, not every pair by NVLink), real plugin PLUGIN"},
		{"detected, no peer access", "auto,8,0,0,sm_89", true, "arc: active: target cuda:pcie-nop2p (detected from the devices: 8 visible GPUs, sm_89, a pair without peer access), real plugin PLUGIN"},
		{"detected, one GPU", "auto,1,0,0,sm_90", true, "arc: active: target cuda:pcie-nop2p (detected from the devices: 1 visible GPU, sm_90: no pair of GPUs to probe for peer access or NVLink, so the target that assumes neither; set ARC_TARGET where the processes' GPUs are joined), real plugin PLUGIN"},
		{"tpu", "tpu:v6e-8", false, "arc: active: target tpu:v6e-8 (from ARC_TARGET), real plugin PLUGIN"},
		{"no kernels", "rocm:mi300x", false, "arc: active: target rocm:mi300x (from ARC_TARGET), real plugin PLUGIN; arc's kernels are not registered: target rocm:mi300x runs arc's GPU kernels, but libarc_gpu.so is not built or not found"},
		{"no target", "auto", false, "arc: active on PLUGIN, but with no target: ARC_TARGET is auto, so arc detects the topology through libarc_gpu.so, but libarc_gpu.so is not built or not found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			target, link, _ := strings.Cut(tc.target, ",") // auto,LINK: what the fake library detects
			t.Setenv("ARC_TARGET", target)
			t.Setenv("FAKE_GPU_LINK", cmp.Or(link, "2,1,1,sm_90"))
			if tc.gpuLib {
				fakepjrt.GPULib(t, e.dir)
			}
			active, rest := announced(runHostAll(t, e, host(t), nil, "-repeat", "2",
				filepath.Join(fakepjrt.SourceDir(), "testdata", "allreduce_2rep.mlir"), options(t, [][]int64{{0}, {1}})))
			want := strings.NewReplacer("PLUGIN", os.Getenv("ARC_PJRT_PLUGIN"), "DIR", e.dir).Replace(tc.want)
			if len(active) != 1 || !strings.HasPrefix(active[0], want) {
				t.Errorf("the proxy said %q, want one line starting %q\n(the rest: %s)", active, want, rest)
			}
		})
	}
}

// options writes a CompileOptionsProto whose device assignment is ids[replica][partition].
func options(t *testing.T, ids [][]int64) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "options.pb")
	if err := os.WriteFile(file, optionsProto(ids), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// optionsProto is a CompileOptionsProto whose device assignment is ids[replica][partition].
func optionsProto(ids [][]int64) []byte {
	varint := func(b []byte, v uint64) []byte { return binary.AppendUvarint(b, v) }
	bytesField := func(b []byte, num int, v []byte) []byte {
		return append(varint(varint(b, uint64(num)<<3|2), uint64(len(v))), v...)
	}
	intField := func(b []byte, num int, v int64) []byte { return varint(varint(b, uint64(num)<<3), uint64(v)) }
	R, C := len(ids), len(ids[0])
	da := intField(intField(nil, 1, int64(R)), 2, int64(C))
	for c := 0; c < C; c++ {
		var packed []byte
		for r := 0; r < R; r++ {
			packed = varint(packed, uint64(ids[r][c]))
		}
		da = bytesField(da, 3, bytesField(nil, 1, packed))
	}
	ebo := bytesField(intField(intField(nil, 4, int64(R)), 5, int64(C)), 9, da)
	return bytesField(nil, 3, ebo)
}

// overrideEntry is one env_option_overrides entry (CompileOptionsProto field
// 7) whose value is a string: where JAX puts a program's compiler options.
func overrideEntry(key, value string) []byte {
	bytesField := func(b []byte, num int, v []byte) []byte {
		b = binary.AppendUvarint(b, uint64(num)<<3|2)
		return append(binary.AppendUvarint(b, uint64(len(v))), v...)
	}
	entry := bytesField(bytesField(nil, 1, []byte(key)), 2, bytesField(nil, 1, []byte(value)))
	return bytesField(nil, 7, entry)
}

// intOverrideEntry is overrideEntry with an integer value (int_field, 3), as
// JAX sends compiler_options={"arc_x": 1}.
func intOverrideEntry(key string, v int64) []byte {
	bytesField := func(b []byte, num int, v []byte) []byte {
		b = binary.AppendUvarint(b, uint64(num)<<3|2)
		return append(binary.AppendUvarint(b, uint64(len(v))), v...)
	}
	value := binary.AppendUvarint(binary.AppendUvarint(nil, 3<<3), uint64(v))
	return bytesField(nil, 7, bytesField(bytesField(nil, 1, []byte(key)), 2, value))
}

func lines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// TestRegistersAtClientCreation: a client that never compiles (its
// executables come from JAX's cache) still has arc's handler and the device
// table. A client of one process gets no store, whatever its callbacks hold:
// jaxlib leaves them uninitialized then.
func TestRegistersAtClientCreation(t *testing.T) {
	e := newEnv(t)
	t.Setenv("ARC_TARGET", "cuda:nvlink")
	fakepjrt.GPULib(t, e.dir)
	out := runHost(t, e, host(t), nil, "-kv-garbage")
	if out != "create: ok\ndestroy: ok\n" {
		t.Fatalf("host: %s", out)
	}
	rec := fakepjrt.ReadRecord(t, e.record)
	if len(rec.Registrations) != 1 || rec.Registrations[0] != fakepjrt.WantRegistration {
		t.Errorf("registrations %q", rec.Registrations)
	}
	want := []string{"create options=[host_option] get=set put=set try_get=set", "destroy"}
	if got := lines(t, filepath.Join(e.record, "create.log")); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the real plugin saw\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	want = []string{
		"attach size=72 process=0/1 platform=fake devices=0:0:0:-1,1:0:1:-1 kv=none",
		"detach process=0/1 platform=fake devices=0:0:0:-1,1:0:1:-1",
	}
	if got := lines(t, filepath.Join(e.record, "attach.log")); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("libarc_gpu.so got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestDeviceTableAcrossProcesses: two processes of one job, one device
// each, on two hosts (slice_index): each table names both devices, the
// other's as not addressable, and each process reads the other's key
// through the store the proxy hands on.
func TestDeviceTableAcrossProcesses(t *testing.T) {
	e := newEnv(t)
	t.Setenv("ARC_TARGET", "cuda:nvlink")
	fakepjrt.GPULib(t, e.dir)
	bin, kv := host(t), t.TempDir()
	var wg sync.WaitGroup
	outs := make([]string, 2)
	for p := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			topo := []string{"FAKE_PJRT_TOPOLOGY=" + []string{"0", "1"}[p] + ";5:0:0:0;9:1:0:1"}
			outs[p] = runHost(t, e, bin, topo, "-kv", kv, "-node", []string{"0/2", "1/2"}[p])
		}()
	}
	wg.Wait()
	for p, out := range outs {
		if out != "create: ok\ndestroy: ok\n" {
			t.Errorf("process %d: %s", p, out)
		}
	}
	// The real plugin got the store too, and used it.
	if c := strings.Join(lines(t, filepath.Join(e.record, "create.log")), "\n"); !strings.Contains(c, "kv get fake:0: process 0") ||
		!strings.Contains(c, "kv get fake:1: process 1") || !strings.Contains(c, "create options=[host_option,node_id,num_nodes] get=set put=set try_get=set") {
		t.Errorf("create.log:\n%s", c)
	}
	got := lines(t, filepath.Join(e.record, "attach.log"))
	want := map[string]bool{
		"attach size=72 process=0/2 platform=fake devices=5:0:0:0,9:1:-1:1 kv: put [ok] get [hello from 0] " +
			"put again [error key already exists] try_get [not found] peer 1 [hello from 1]": true,
		"attach size=72 process=1/2 platform=fake devices=5:0:-1:0,9:1:0:1 kv: put [ok] get [hello from 1] " +
			"put again [error key already exists] try_get [not found] peer 0 [hello from 0]": true,
		"detach process=0/2 platform=fake devices=5:0:0:0,9:1:-1:1": true,
		"detach process=1/2 platform=fake devices=5:0:-1:0,9:1:0:1": true,
	}
	if len(got) != len(want) {
		t.Fatalf("attach.log:\n%s", strings.Join(got, "\n"))
	}
	for _, l := range got {
		if !want[l] {
			t.Errorf("unexpected %q in attach.log:\n%s", l, strings.Join(got, "\n"))
		}
	}
}

func TestTPUCoordinates(t *testing.T) {
	e := newEnv(t)
	t.Setenv("ARC_TARGET", "tpu:v6e-8")
	fakepjrt.GPULib(t, e.dir) // a TPU target loads no libarc_gpu.so: nothing is attached
	t.Setenv("FAKE_PJRT_TOPOLOGY", "0;0:0:0:0:0,0,0;1:0:1:0:1,0,0;2:0:2:0:0,1,0;3:0:3:0:1,1,0")
	out := runHost(t, e, host(t), nil, filepath.Join(fakepjrt.SourceDir(), "testdata", "allreduce_2rep.mlir"),
		options(t, [][]int64{{2}, {3}}))
	if out != "create: ok\ncompile 1: ok\ndestroy: ok\n" {
		t.Fatalf("host: %s", out)
	}
	if got := lines(t, filepath.Join(e.record, "attach.log")); got != nil {
		t.Errorf("a TPU target attached %q", got)
	}
	if got := fakepjrt.MustRead(t, e.arcArgs); got != "compile --target tpu:v6e-8 --device-assignment 2;3 --device-coords 0=0,0,0;1=1,0,0;2=0,1,0;3=1,1,0 -\n" {
		t.Errorf("arc ran with %q", got)
	}
}

func TestOlderClientsAndLibraries(t *testing.T) {
	prog := filepath.Join(fakepjrt.SourceDir(), "testdata", "allreduce_2rep.mlir")
	t.Run("no try-get", func(t *testing.T) {
		e := newEnv(t)
		t.Setenv("ARC_TARGET", "cuda:nvlink")
		fakepjrt.GPULib(t, e.dir)
		if out := runHost(t, e, host(t), nil, "-old-create", "-kv", t.TempDir(), "-node", "0/2", prog, "-"); !strings.Contains(out, "compile 1: ok") {
			t.Fatalf("host: %s", out)
		}
		att := lines(t, filepath.Join(e.record, "attach.log"))
		if len(att) != 2 || !strings.HasSuffix(att[0], "try_get [absent]") {
			t.Errorf("attach.log %q: want a store without try-get", att)
		}
		if c := lines(t, filepath.Join(e.record, "create.log")); len(c) == 0 || !strings.HasSuffix(c[0], "try_get=null") {
			t.Errorf("create.log %q", c)
		}
	})
	t.Run("store of one process", func(t *testing.T) {
		e := newEnv(t)
		t.Setenv("ARC_TARGET", "cuda:nvlink")
		fakepjrt.GPULib(t, e.dir)
		out := runHost(t, e, host(t), nil, "-kv", t.TempDir(), "-node", "0/1", prog, "-")
		if !strings.Contains(out, "compile 1: ok") {
			t.Fatalf("host: %s", out)
		}
		if att := lines(t, filepath.Join(e.record, "attach.log")); len(att) != 2 || !strings.HasSuffix(att[0], " kv=none") {
			t.Errorf("attach.log %q: one process needs no store", att)
		}
	})
	t.Run("no store", func(t *testing.T) {
		e := newEnv(t)
		t.Setenv("ARC_TARGET", "cuda:nvlink")
		fakepjrt.GPULib(t, e.dir)
		if out := runHost(t, e, host(t), nil, prog, "-"); !strings.Contains(out, "compile 1: ok") {
			t.Fatalf("host: %s", out)
		}
		if att := lines(t, filepath.Join(e.record, "attach.log")); len(att) != 2 || !strings.HasSuffix(att[0], " kv=none") {
			t.Errorf("attach.log %q", att)
		}
	})
	t.Run("library without attach", func(t *testing.T) {
		e := newEnv(t)
		t.Setenv("ARC_TARGET", "cuda:nvlink")
		lib := filepath.Join(e.dir, "libarc_gpu.so")
		fakepjrt.CC(t, lib, "-shared", "-fPIC", "-DFAKE_GPU_NO_ATTACH", "-I", fakepjrt.SourceDir(),
			filepath.Join(fakepjrt.SourceDir(), "testdata", "fake_gpu.c"))
		if out := runHost(t, e, host(t), nil, prog, "-"); out != "create: ok\ncompile 1: ok\ndestroy: ok\n" {
			t.Fatalf("host: %s", out)
		}
		if att := lines(t, filepath.Join(e.record, "attach.log")); att != nil {
			t.Errorf("attach.log %q", att)
		}
	})
	t.Run("attach refused", func(t *testing.T) {
		e := newEnv(t)
		t.Setenv("ARC_TARGET", "cuda:nvlink")
		t.Setenv("FAKE_GPU_ATTACH_FAIL", "1")
		fakepjrt.GPULib(t, e.dir)
		out := runHost(t, e, host(t), nil, prog, "-")
		if !strings.Contains(out, "arc: arc_runtime_attach refused the client: fake: attach refused") ||
			!strings.Contains(out, "compile 1: ok") {
			t.Fatalf("host: %s", out)
		}
		if att := lines(t, filepath.Join(e.record, "attach.log")); len(att) != 1 { // attached once, never detached
			t.Errorf("attach.log %q", att)
		}
	})
}

// TestDeviceAssignmentReachesArc: the assignment in the client's compile
// options, permuted, reaches arc as PJRT global ids.
func TestDeviceAssignmentReachesArc(t *testing.T) {
	e := newEnv(t)
	t.Setenv("ARC_TARGET", "cuda:nvlink")
	fakepjrt.GPULib(t, e.dir)
	t.Setenv("FAKE_PJRT_TOPOLOGY", "0;0:0:0;1:0:1;2:0:2;3:0:3")
	prog := filepath.Join(fakepjrt.SourceDir(), "testdata", "allreduce_2rep.mlir")
	bad := filepath.Join(t.TempDir(), "bad.pb")
	os.WriteFile(bad, []byte{0x1a, 0x05, 0x01}, 0o644)
	out := runHost(t, e, host(t), nil, prog, options(t, [][]int64{{3, 1}, {0, 2}}), prog, bad)
	if !strings.Contains(out, "compile 1: ok") ||
		!strings.Contains(out, "compile 2: error: arc: the compile options are not a CompileOptionsProto arc can read") {
		t.Fatalf("host: %s", out)
	}
	if got := fakepjrt.MustRead(t, e.arcArgs); got != "compile --target cuda:nvlink --device-assignment 3,1;0,2 -\n" {
		t.Errorf("arc ran with %q", got)
	}
	rec := fakepjrt.ReadRecord(t, e.record)
	if len(rec.Programs) != 1 {
		t.Errorf("the plugin compiled %d programs, want 1 (the second's options are unreadable)", len(rec.Programs))
	}
	// The real plugin gets the client's options unchanged.
	if a, b := fakepjrt.MustRead(t, filepath.Join(e.record, "compile-1.options")),
		fakepjrt.MustRead(t, options(t, [][]int64{{3, 1}, {0, 2}})); a != b {
		t.Error("the compile options reached the plugin changed")
	}
}
