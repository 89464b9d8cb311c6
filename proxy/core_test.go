package proxy_test

// Tests of the proxy's C core in pieces, through testdata/cdriver.c: the
// compile-options reader, the child processes (filters and workers) and
// their faults, libtpu's flag merge, the collective scan.

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arcpass/arc/lowering/tpu"
	"github.com/arcpass/arc/proxy/fakepjrt"
)

// TestMain doubles as the test worker: with ARC_TEST_WORKER set the test
// binary speaks the worker protocol instead of running tests.
func TestMain(m *testing.M) {
	if mode := os.Getenv("ARC_TEST_WORKER"); mode != "" {
		os.Exit(testWorker(mode))
	}
	code := m.Run()
	fakepjrt.Cleanup()
	os.Exit(code)
}

// cdriver builds testdata/cdriver.c with the core (ctest caches the build).
func cdriver(t *testing.T) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "cdriver")
	src := fakepjrt.SourceDir()
	args := append([]string{"-I", src, filepath.Join(src, "testdata", "cdriver.c")}, fakepjrt.CoreSources(t)...)
	fakepjrt.CC(t, out, append(args, "-ldl", "-lpthread")...)
	return out
}

func run(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	return runWith(t, cdriver(t), stdin, args...)
}

func runWith(t *testing.T, driver, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(driver, args...)
	cmd.Stdin = strings.NewReader(stdin)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("cdriver %v: %v\n%s", args, err, out.String())
	}
	return out.String()
}

// ---- protobuf, written by hand --------------------------------------------

type pb []byte

func (b pb) varint(v uint64) pb {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}
func (b pb) tag(num, wire int) pb         { return b.varint(uint64(num)<<3 | uint64(wire)) }
func (b pb) int(num int, v int64) pb      { return b.tag(num, 0).varint(uint64(v)) }
func (b pb) bytes(num int, v []byte) pb   { return b.tag(num, 2).varint(uint64(len(v))).raw(v) }
func (b pb) raw(v []byte) pb              { return append(b, v...) }
func (b pb) fixed64(num int, v uint64) pb { return binary.LittleEndian.AppendUint64(b.tag(num, 1), v) }
func (b pb) fixed32(num int, v uint32) pb { return binary.LittleEndian.AppendUint32(b.tag(num, 5), v) }
func msg(parts ...func(pb) pb) pb {
	var b pb
	for _, p := range parts {
		b = p(b)
	}
	return b
}
func field(num int, m pb) func(pb) pb     { return func(b pb) pb { return b.bytes(num, m) } }
func scalar(num int, v int64) func(pb) pb { return func(b pb) pb { return b.int(num, v) } }

// assignment builds a DeviceAssignmentProto from ids[replica][partition],
// each computation's ids packed or not.
func assignment(ids [][]int64, packed bool) pb {
	R, C := len(ids), 0
	if R > 0 {
		C = len(ids[0])
	}
	m := msg(scalar(1, int64(R)), scalar(2, int64(C)))
	for c := 0; c < C; c++ {
		var cd pb
		if packed {
			var p pb
			for r := 0; r < R; r++ {
				p = p.varint(uint64(ids[r][c]))
			}
			cd = cd.bytes(1, p)
		} else {
			for r := 0; r < R; r++ {
				cd = cd.int(1, ids[r][c])
			}
		}
		m = m.bytes(3, cd)
	}
	return m
}

// compileOptions wraps a DeviceAssignmentProto as JAX sends it, with the
// fields around it that the reader must skip.
func compileOptions(da pb, replicas, partitions int64) pb {
	debug := msg(scalar(1, 7), field(2, pb("xla_dump_to=/tmp")), func(b pb) pb { return b.fixed64(3, 42) })
	ebo := msg(scalar(1, -1), field(3, debug), scalar(4, replicas), scalar(5, partitions), scalar(6, 1))
	if da != nil {
		ebo = ebo.bytes(9, da)
	}
	ebo = ebo.fixed32(20, 5)
	return msg(field(1, pb("argument layouts")), field(3, ebo), scalar(4, 1), field(6, pb("env option")))
}

func TestCompileOptions(t *testing.T) {
	dir, driver := t.TempDir(), cdriver(t)
	// A second ExecutableBuildOptions merges into the first, as protobuf
	// merges a message field that occurs twice: its device assignment's
	// scalars win, its computation_devices are appended.
	first := compileOptions(msg(scalar(1, 2), scalar(2, 1), field(3, msg(scalar(1, 9), scalar(1, 1)))), 2, 2)
	second := msg(field(3, msg(field(9, msg(scalar(2, 2), field(3, msg(scalar(1, 3), scalar(1, 0))))))))
	for _, tc := range []struct {
		name  string
		proto []byte
		want  string
	}{
		{"identity 2 replicas", compileOptions(assignment([][]int64{{0}, {1}}, true), 2, 1),
			"replicas=2 partitions=1 shape=2x1 assignment=0;1"},
		{"permuted 2x2 packed", compileOptions(assignment([][]int64{{3, 1}, {0, 2}}, true), 2, 2),
			"replicas=2 partitions=2 shape=2x2 assignment=3,1;0,2"},
		{"permuted 2x2 unpacked", compileOptions(assignment([][]int64{{3, 1}, {0, 2}}, false), 2, 2),
			"replicas=2 partitions=2 shape=2x2 assignment=3,1;0,2"},
		{"spmd 1x8 permuted", compileOptions(assignment([][]int64{{7, 6, 5, 4, 0, 1, 2, 3}}, true), 1, 8),
			"replicas=1 partitions=8 shape=1x8 assignment=7,6,5,4,0,1,2,3"},
		{"large ids", compileOptions(assignment([][]int64{{1 << 40}, {300}}, false), 2, 1),
			"replicas=2 partitions=1 shape=2x1 assignment=1099511627776;300"},
		{"no assignment", compileOptions(nil, 4, 1), "replicas=4 partitions=1 shape=0x0 assignment=(none)"},
		{"empty options", nil, "replicas=0 partitions=0 shape=0x0 assignment=(none)"},
		{"merged messages", append(first, second...), "replicas=2 partitions=2 shape=2x2 assignment=9,3;1,0"},
		// computation_count says 2 but the first message lists 2 and the second 2 more.
		{"merged too many", append(compileOptions(assignment([][]int64{{9, 3}, {1, 0}}, true), 2, 2),
			msg(field(3, msg(field(9, msg(field(3, msg(scalar(1, 1), scalar(1, 2))))))))...),
			"error: the compile options are not a CompileOptionsProto arc can read: a device assignment whose computation_count is not the number of its computation_devices"},
		{"short replica list", compileOptions(msg(scalar(1, 2), scalar(2, 1), field(3, msg(scalar(1, 0)))), 2, 1),
			"error: the compile options are not a CompileOptionsProto arc can read: a device assignment whose computation_devices do not each list replica_count devices"},
		{"negative count", compileOptions(msg(scalar(1, -1), scalar(2, 0)), 1, 1),
			"error: the compile options are not a CompileOptionsProto arc can read: a device assignment whose computation_count is not the number of its computation_devices"},
		{"truncated", compileOptions(assignment([][]int64{{0}, {1}}, true), 2, 1)[:20],
			"error: the compile options are not a CompileOptionsProto arc can read: a length-delimited field longer than its message"},
		{"overlong varint", pb{0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f},
			"error: the compile options are not a CompileOptionsProto arc can read: a truncated varint"},
		{"group", pb{0x0b}, "error: the compile options are not a CompileOptionsProto arc can read: a wire type arc does not read (groups, or not protobuf)"},
		{"field zero", pb{0x00, 0x01}, "error: the compile options are not a CompileOptionsProto arc can read: a field number out of range"},
		{"truncated packed", compileOptions(msg(scalar(1, 1), scalar(2, 1), field(3, msg(field(1, pb{0x80})))), 1, 1),
			"error: the compile options are not a CompileOptionsProto arc can read: a truncated packed replica_device_ids"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".pb")
			if err := os.WriteFile(file, tc.proto, 0o644); err != nil {
				t.Fatal(err)
			}
			if got := strings.TrimSpace(runWith(t, driver, "", "options", file)); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestCompileOptionsFromGoXLA reads the options go-xla's compile builds (the
// fake plugin records them), with the default and a permuted assignment.
func TestCompileOptionsFromGoXLA(t *testing.T) {
	for _, tc := range []struct {
		assignment []int
		want       string
	}{
		{nil, "replicas=2 partitions=1 shape=2x1 assignment=0;1"},
		{[]int{1, 0}, "replicas=2 partitions=1 shape=2x1 assignment=1;0"},
	} {
		record := t.TempDir()
		t.Setenv("FAKE_PJRT_DIR", record)
		t.Setenv("GOPJRT_CUDA_CHECKS", "0")
		if err := fakepjrt.CompileWith(fakepjrt.Plugin(t), fakepjrt.Program(t), tc.assignment); err != nil {
			t.Fatal(err)
		}
		got := strings.TrimSpace(run(t, "", "options", filepath.Join(record, "compile-1.options")))
		if got != tc.want {
			t.Errorf("assignment %v: got %s, want %s", tc.assignment, got, tc.want)
		}
	}
}

// ---- filters --------------------------------------------------------------

type runResult struct{ rc, out, err string }

func runChild(t *testing.T, stdin string, ms int, sigchld string, argv ...string) runResult {
	t.Helper()
	args := []string{"run", fmt.Sprint(ms)}
	if sigchld != "" {
		args = append(args, sigchld)
	}
	got := run(t, stdin, append(append(args, "--"), argv...)...)
	rc, rest, _ := strings.Cut(strings.TrimPrefix(got, "rc="), "\nout=")
	out, errMsg, _ := strings.Cut(rest, "\nerr=")
	return runResult{rc, out, strings.TrimSuffix(errMsg, "\n")}
}

func TestRunFaults(t *testing.T) {
	for _, mode := range []string{"default", "ignore", "nocldwait", "handler"} {
		t.Run("sigchld "+mode, func(t *testing.T) {
			if r := runChild(t, "hello\n", 10000, mode, "/bin/cat"); r.rc != "0" || r.out != "hello\n" {
				t.Errorf("cat: %+v", r)
			}
			// A failing child must fail whatever the host does with SIGCHLD:
			// with it ignored, waitpid used to report success.
			if r := runChild(t, "", 10000, mode, "/bin/sh", "-c", "echo partial; exit 3"); r.rc == "0" ||
				r.err != "/bin/sh exited with status 3" {
				t.Errorf("exit 3: %+v", r)
			}
			if r := runChild(t, "", 10000, mode, "/bin/sh", "-c", "echo 'arc: bad' >&2; exit 1"); r.rc == "0" ||
				r.err != "arc: bad" {
				t.Errorf("exit 1 with a message: %+v", r)
			}
			r := runChild(t, "", 10000, mode, "/bin/sh", "-c", "kill -9 $$")
			if r.rc == "0" || !strings.HasPrefix(r.err, "/bin/sh was killed by signal 9") {
				t.Errorf("killed: %+v", r)
			}
		})
	}
	t.Run("hang", func(t *testing.T) {
		start := time.Now()
		pidFile := filepath.Join(t.TempDir(), "pid")
		r := runChild(t, "", 300, "", "/bin/sh", "-c", "sleep 30 >/dev/null 2>&1 </dev/null & echo $! > "+pidFile+"; sleep 30 & sleep 30; wait")
		if r.rc == "0" || r.err != "/bin/sh did not finish within 300 ms and was killed (ARC_COMPILE_TIMEOUT_MS sets the limit)" {
			t.Errorf("hang: %+v", r)
		}
		// The child's own children go too (its process group): else the
		// pipes stay open and the run waits for them, and one that closed
		// its pipes would run on.
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("the hung child took %v to be killed", d)
		}
		b, err := os.ReadFile(pidFile)
		pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || pid <= 0 {
			t.Fatalf("the child's child's pid: %q, %v", b, err)
		}
		for i := 0; processAlive(pid); i++ {
			if i == 50 {
				syscall.Kill(pid, syscall.SIGKILL)
				t.Fatalf("the child's child %d outlived the time limit", pid)
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	t.Run("hang sigchld ignored", func(t *testing.T) {
		r := runChild(t, "", 300, "ignore", "/bin/sleep", "30")
		if r.rc == "0" || !strings.Contains(r.err, "did not finish within 300 ms") {
			t.Errorf("hang: %+v", r)
		}
	})
	t.Run("large input and output", func(t *testing.T) {
		big := strings.Repeat("0123456789abcdef", 1<<16) // 1 MiB both ways: the pipes must not deadlock
		if r := runChild(t, big, 10000, "ignore", "/bin/cat"); r.rc != "0" || r.out != big {
			t.Errorf("cat of 1 MiB: rc %s, %d bytes back", r.rc, len(r.out))
		}
	})
	t.Run("not found", func(t *testing.T) {
		if r := runChild(t, "", 1000, "", "/nonexistent/arc"); r.rc == "0" ||
			r.err != "cannot run /nonexistent/arc: No such file or directory" {
			t.Errorf("%+v", r)
		}
	})
}

// TestWhichSkipsRelativeEntries: an empty PATH entry (or ".") names the
// current directory, where anyone may have planted an "arc".
func TestWhichSkipsRelativeEntries(t *testing.T) {
	cwd, bin := t.TempDir(), t.TempDir()
	for _, d := range []string{cwd, bin} {
		if err := os.WriteFile(filepath.Join(d, "arc-test-tool"), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ path, want string }{
		{":" + bin, filepath.Join(bin, "arc-test-tool")},
		{".:" + bin, filepath.Join(bin, "arc-test-tool")},
		{"::", "(none)"},
		{"", "(none)"},
		{bin + "::", filepath.Join(bin, "arc-test-tool")},
	} {
		cmd := exec.Command(cdriver(t), "which", "arc-test-tool")
		cmd.Dir = cwd
		cmd.Env = append(os.Environ(), "PATH="+tc.path)
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSpace(string(out)); got != tc.want {
			t.Errorf("PATH=%q: found %q, want %q", tc.path, got, tc.want)
		}
	}
}

// ---- workers --------------------------------------------------------------

// testWorker speaks the worker protocol in one of several ways, for the C
// side's tests. Requests are one frame each.
func testWorker(mode string) int {
	if mode == "no-serve" {
		fmt.Fprintln(os.Stderr, `arc: unknown command "serve"`)
		return 2
	}
	if mode == "silent" {
		time.Sleep(time.Minute)
		return 0
	}
	write := func(b []byte) {
		var hdr [4]byte
		binary.LittleEndian.PutUint32(hdr[:], uint32(len(b)))
		os.Stdout.Write(append(hdr[:], b...))
	}
	write([]byte("test-worker " + mode))
	fmt.Fprintln(os.Stderr, "test worker started")
	for n := 1; ; n++ {
		var hdr [4]byte
		if _, err := io.ReadFull(os.Stdin, hdr[:]); err != nil {
			return 0
		}
		req := make([]byte, binary.LittleEndian.Uint32(hdr[:]))
		if _, err := io.ReadFull(os.Stdin, req); err != nil {
			return 1
		}
		switch {
		case string(req) == "crash":
			fmt.Fprintln(os.Stderr, "test worker: crashing as asked")
			os.Exit(3)
		case string(req) == "hang":
			time.Sleep(time.Minute)
		case string(req) == "garbage":
			os.Stdout.Write([]byte{1, 0, 0, 0, 7})
		case string(req) == "fail":
			write(append([]byte{1}, "no such program"...))
		case mode == "exit-after-one" && n > 1:
			return 0
		default:
			write(append([]byte{0}, fmt.Sprintf("#%d %s", n, strings.ToUpper(string(req)))...))
		}
		if mode == "exit-after-one" {
			return 0 // idle death: the next call must restart it
		}
	}
}

func workerCalls(t *testing.T, mode string, ms int, reqs ...string) []string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(cdriver(t), append(append([]string{"worker", fmt.Sprint(ms)}, reqs...), "--", self)...)
	cmd.Env = append(os.Environ(), "ARC_TEST_WORKER="+mode)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
}

func TestWorker(t *testing.T) {
	for _, tc := range []struct {
		name, mode string
		ms         int
		reqs       []string
		want       []string // prefixes
	}{
		{"kept alive", "echo", 10000, []string{"a", "b", "c"}, []string{
			"1: rc=0 starts=1 hello=test-worker echo out=#1 A err=",
			"2: rc=0 starts=1 hello=test-worker echo out=#2 B err=",
			"3: rc=0 starts=1 hello=test-worker echo out=#3 C err="}},
		{"error answer", "echo", 10000, []string{"fail", "x"}, []string{
			"1: rc=1 starts=1 hello=test-worker echo out= err=no such program",
			"2: rc=0 starts=1 hello=test-worker echo out=#2 X err="}},
		{"crash then restart", "echo", 10000, []string{"a", "crash", "b"}, []string{
			"1: rc=0 starts=1",
			// Tried twice: the first death may have come before the request.
			"2: rc=-1 starts=2 hello=test-worker echo out= err=the test worker failed: it closed its output; it wrote: test worker started\ntest worker: crashing as asked",
			"3: rc=0 starts=3 hello=test-worker echo out=#1 B err="}},
		{"idle death", "exit-after-one", 10000, []string{"a", "b"}, []string{
			"1: rc=0 starts=1 hello=test-worker exit-after-one out=#1 A",
			"2: rc=0 starts=2 hello=test-worker exit-after-one out=#1 B"}},
		{"hang", "echo", 300, []string{"hang", "after"}, []string{
			"1: rc=-1 starts=1 hello=test-worker echo out= err=the test worker did not answer within 300 ms and was killed (ARC_COMPILE_TIMEOUT_MS sets the limit)",
			"2: rc=0 starts=2 hello=test-worker echo out=#1 AFTER"}},
		{"malformed answer", "echo", 10000, []string{"garbage", "x"}, []string{
			"1: rc=-1 starts=1 hello=test-worker echo out= err=the test worker failed: it answered with a malformed frame",
			"2: rc=0 starts=2"}},
		{"no serve", "no-serve", 10000, []string{"a"}, []string{
			"1: rc=-1 starts=1 hello= out= err=the test worker did not start: it closed its output; it wrote: arc: unknown command \"serve\""}},
		{"silent start", "silent", 300, []string{"a"}, []string{
			"1: rc=-1 starts=1 hello= out= err=the test worker did not start: no announcement within the time limit"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := workerCalls(t, tc.mode, tc.ms, tc.reqs...)
			joined := strings.Join(got, "\n")
			rest := joined
			for _, w := range tc.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("want %q in\n%s", w, joined)
				}
				rest = rest[i+len(w):]
			}
		})
	}
}

// TestConverterServe runs arc_mlir_to_text.py --serve (no jaxlib needed:
// without it every request is answered with the reason).
func TestConverterServe(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	script := filepath.Join(fakepjrt.SourceDir(), "arc_mlir_to_text.py")
	cmd := exec.Command(cdriver(t), "worker", "60000", "ML\xefRnot really", "x", "--", python, script, "--serve")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 {
		t.Fatalf("want two answers, got\n%s", out)
	}
	for i, l := range lines {
		if want := fmt.Sprintf("%d: rc=1 starts=1 hello=arc_mlir_to_text 1 out= err=cannot turn the program into StableHLO text: ", i+1); !strings.HasPrefix(l, want) {
			t.Errorf("answer %q, want one starting %q", l, want)
		}
	}
}

// ---- libtpu, the scan -----------------------------------------------------

func TestLibtpuMergeMatchesGo(t *testing.T) {
	if got := strings.TrimSpace(run(t, "", "flag")); got != tpu.LibtpuRingFlag {
		t.Fatalf("the C core's ring flag %q is not tpu.LibtpuRingFlag %q", got, tpu.LibtpuRingFlag)
	}
	for _, existing := range []string{
		"", "--xla_tpu_enable_latency_hiding_scheduler=true", "--xla_tpu_force_1d_allreduce_at_chunk_count=4",
		"-xla_tpu_force_1d_allreduce_at_chunk_count=4", "--noxla_tpu_force_1d_allreduce_at_chunk_count",
		"--xla_tpu_force_1d_allreduce_at_chunk_count", "--a=1 -- --xla_tpu_force_1d_allreduce_at_chunk_count=2",
		"a  b", " --x", "--xla_tpu_force_1d_allreduce_at_chunk_count_other=1", "--", "-", "--=3",
	} {
		got := strings.TrimSuffix(run(t, "", "libtpu", existing), "\n")
		if want := tpu.MergeLibtpuArgs(existing, tpu.LibtpuRingFlag); got != want {
			t.Errorf("LIBTPU_INIT_ARGS=%q: C gives %q, Go %q", existing, got, want)
		}
	}
}

func TestMentionsCollective(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		text string
		want string
	}{
		{fakepjrt.Program(t), "1"},
		{"module { func.func @main(%a: tensor<f32>) -> tensor<f32> { return %a : tensor<f32> } }", "0"},
		{`"stablehlo.custom_call"(%x) {call_target_name = "arc_allreduce"}`, "1"},
		{"ML\xefR\x00vhlo\x00all_reduce_v1\x00", "1"},
	} {
		file := filepath.Join(dir, "p")
		if err := os.WriteFile(file, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSpace(run(t, "", "mentions", file)); got != tc.want {
			t.Errorf("%.40q: %s, want %s", tc.text, got, tc.want)
		}
	}
}

// override is one env_option_overrides map entry: key, then an
// OptionOverrideProto holding value.
func override(key string, value func(pb) pb) pb {
	return msg(field(1, pb(key)), field(2, msg(value)))
}

func TestCompileOptionsArcKeys(t *testing.T) {
	dir, driver := t.TempDir(), cdriver(t)
	str := func(v string) func(pb) pb { return func(b pb) pb { return b.bytes(1, []byte(v)) } }
	boolean := func(v int64) func(pb) pb { return func(b pb) pb { return b.int(2, v) } }
	integer := func(v int64) func(pb) pb { return func(b pb) pb { return b.int(3, v) } }
	double := func(v float64) func(pb) pb { return func(b pb) pb { return b.fixed64(4, math.Float64bits(v)) } }
	base := compileOptions(assignment([][]int64{{0}, {1}}, true), 2, 1)
	xla := override("xla_gpu_enable_triton_gemm", boolean(0))
	head := "replicas=2 partitions=1 shape=2x1 assignment=0;1"
	for _, tc := range []struct {
		name     string
		proto    []byte
		want     string
		stripped []byte // what the real compile gets; nil: the options are passed as they are
	}{
		{"no overrides", base, head, nil},
		{"only XLA's", append(append(pb{}, base...), pb(nil).bytes(7, xla)...), head, nil},
		{"arc's among XLA's", msg(
			func(b pb) pb { return b.raw(base) },
			field(7, override("arc_quant", str("int8"))),
			field(7, xla),
			field(7, override("arc_min_bytes", integer(4096))),
			field(7, override("arc_strict", boolean(1))),
			field(7, override("arc_cast_bf16_to_fp16", boolean(0))),
		), head + "\narc=quant=int8|min-bytes=4096|strict=true|cast-bf16-to-fp16=false|",
			append(append(pb{}, base...), pb(nil).bytes(7, xla)...)},
		{"a double", msg(field(7, override("arc_max_bytes", double(65536)))),
			"replicas=0 partitions=0 shape=0x0 assignment=(none)\narc=max-bytes=65536|", pb{}},
		{"a force list", msg(field(7, override("arc_force", str("0=oneshot,all=twoshot:int8")))),
			"replicas=0 partitions=0 shape=0x0 assignment=(none)\narc=force=0=oneshot,all=twoshot:int8|", pb{}},
		{"a bad name", msg(field(7, override("arc_Quant", str("int8")))),
			"error: the compile options are not a CompileOptionsProto arc can read: an arc_ compiler option whose name is not arc_ and a setting's name (arc_quant, arc_min_bytes)", nil},
		{"a bare prefix", msg(field(7, override("arc_", str("int8")))),
			"error: the compile options are not a CompileOptionsProto arc can read: an arc_ compiler option whose name is not arc_ and a setting's name (arc_quant, arc_min_bytes)", nil},
		{"a newline", msg(field(7, override("arc_quant", str("int8\ntarget=none")))),
			"error: the compile options are not a CompileOptionsProto arc can read: an arc_ compiler option whose value holds a newline or a NUL", nil},
		{"a truncated entry", msg(field(7, pb{0x0a, 0x09, 'a'})),
			"error: the compile options are not a CompileOptionsProto arc can read: a length-delimited field longer than its message", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".pb")
			if err := os.WriteFile(file, tc.proto, 0o644); err != nil {
				t.Fatal(err)
			}
			want := tc.want
			if tc.stripped != nil {
				want += "\nstripped=" + hex.EncodeToString(tc.stripped)
			}
			if got := strings.TrimSpace(runWith(t, driver, "", "options", file)); got != want {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		})
	}
}

// processAlive reports whether process pid exists and is not a zombie.
func processAlive(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	_, rest, _ := strings.Cut(string(stat), ") ")
	return !strings.HasPrefix(rest, "Z") && !strings.HasPrefix(rest, "X")
}
