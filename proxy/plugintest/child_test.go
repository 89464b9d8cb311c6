package plugintest

// The standalone plugin's child processes: arc's worker kept alive, time
// limits, SIGCHLD, dumps that planted files cannot redirect.

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arcpass/arc"
	"github.com/arcpass/arc/internal/ctest"
	"github.com/arcpass/arc/lowering/tpu"
	"github.com/arcpass/arc/proxy/fakepjrt"
)

var serveBin struct {
	sync.Once
	dir, path string
	err       error
	out       []byte
}

// arcServe puts testdata/arcserve (an arc with `serve`, built once per test
// process) beside e's plugin, in place of the fake arc.
func arcServe(t *testing.T, e *env) string {
	t.Helper()
	ctest.TrackGoSources(t, filepath.Join(fakepjrt.SourceDir(), "..")) // the build below reads them
	serveBin.Do(func() {
		if serveBin.dir, serveBin.err = os.MkdirTemp("", "arc-serve-"); serveBin.err != nil {
			return
		}
		serveBin.path = filepath.Join(serveBin.dir, "arc")
		serveBin.out, serveBin.err = exec.Command("go", "build", "-o", serveBin.path, "./testdata/arcserve").CombinedOutput()
	})
	if serveBin.err != nil {
		t.Fatalf("go build arcserve: %v\n%s", serveBin.err, serveBin.out)
	}
	b, err := os.ReadFile(serveBin.path)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(e.dir, "arc")
	os.Remove(bin)
	if err := os.WriteFile(bin, b, 0o755); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(e.record, "serve.log")
	t.Setenv("ARC_SERVE_LOG", log)
	return log
}

// frames splits what the worker read into its frames.
func frames(t *testing.T, path string) []string {
	t.Helper()
	b := []byte(fakepjrt.MustRead(t, path))
	var out []string
	for len(b) >= 4 {
		n := binary.LittleEndian.Uint32(b)
		out = append(out, string(b[4:4+n]))
		b = b[4+n:]
	}
	return out
}

// TestArcWorker: compiles go to one `arc serve` process, which answers
// what arc.Compile makes of each program, and is restarted when killed.
func TestArcWorker(t *testing.T) {
	e := newEnv(t)
	log := arcServe(t, e)
	t.Setenv("ARC_TARGET", "cuda:nvlink")
	t.Setenv("ARC_FORCE", "0=oneshot")
	fakepjrt.GPULib(t, e.dir)
	prog := filepath.Join(fakepjrt.SourceDir(), "testdata", "allreduce_2rep.mlir")
	out := runHost(t, e, host(t), nil, "-repeat", "3", prog, options(t, [][]int64{{1}, {0}}))
	if !strings.Contains(out, "compile 3: ok") {
		t.Fatalf("host: %s", out)
	}
	if got := lines(t, log); len(got) != 1 {
		t.Errorf("3 compiles started %d workers: %q", len(got), got)
	}
	want, _, err := arc.Compile("<stdin>", []byte(fakepjrt.Program(t)),
		arc.Options{Target: "cuda:nvlink", Force: []string{"0=oneshot"}, DeviceAssignment: "1;0"})
	if err != nil {
		t.Fatal(err)
	}
	rec := fakepjrt.ReadRecord(t, e.record)
	if len(rec.Programs) != 3 || rec.Programs[2] != string(want) {
		t.Errorf("the plugin got %d programs, the last:\n%s\nwant\n%s", len(rec.Programs), last(rec.Programs), want)
	}
	f := frames(t, log+".frames")
	// ARC_FORCE reaches arc through the worker's environment, not the request.
	if len(f) != 6 || f[0] != "target=cuda:nvlink\ndevice-assignment=1;0\n" || f[1] != fakepjrt.Program(t) {
		t.Errorf("the worker read %d frames, first %q", len(f), first(f))
	}
}

func first(s []string) string {
	if len(s) == 0 {
		return "(none)"
	}
	return s[0]
}

func last(s []string) string {
	if len(s) == 0 {
		return "(none)"
	}
	return s[len(s)-1]
}

// TestArcWorkerRestarts: a worker that dies between compiles is replaced.
func TestArcWorkerRestarts(t *testing.T) {
	e := newEnv(t)
	log := arcServe(t, e)
	t.Setenv("ARC_TARGET", "cuda:nvlink")
	fakepjrt.GPULib(t, e.dir)
	// Two clients in one process through go-xla: the worker outlives the first.
	if err := fakepjrt.Compile(e.plugin, fakepjrt.Program(t)); err != nil {
		t.Fatal(err)
	}
	starts := lines(t, log)
	if len(starts) != 1 {
		t.Fatalf("workers %q", starts)
	}
	pid := 0
	if _, err := fmtSscan(starts[0], &pid); err != nil {
		t.Fatal(err)
	}
	p, _ := os.FindProcess(pid)
	p.Kill()
	time.Sleep(50 * time.Millisecond)
	if err := fakepjrt.Compile(e.plugin, fakepjrt.Program(t)); err != nil {
		t.Fatalf("after the worker was killed: %v", err)
	}
	if got := lines(t, log); len(got) != 2 {
		t.Errorf("workers %q, want a second one", got)
	}
}

// TestCoordinatesReachTheWorker: a TPU client's device coordinates reach
// arc with the assignment, and libtpu's ring flag is in LIBTPU_INIT_ARGS
// before the real plugin creates its client.
func TestCoordinatesReachTheWorker(t *testing.T) {
	e := newEnv(t)
	log := arcServe(t, e)
	t.Setenv("ARC_TARGET", "tpu:v6e-8")
	t.Setenv("LIBTPU_INIT_ARGS", "--xla_tpu_enable_latency_hiding_scheduler=true")
	t.Setenv("FAKE_PJRT_TOPOLOGY", "0;0:0:0:0:0,0,0;1:0:1:0:1,0,0")
	out := runHost(t, e, host(t), nil, filepath.Join(fakepjrt.SourceDir(), "testdata", "allreduce_2rep.mlir"),
		options(t, [][]int64{{1}, {0}}))
	if !strings.Contains(out, "compile 1: ok") {
		t.Fatalf("host: %s", out)
	}
	f := frames(t, log+".frames")
	if want := "target=tpu:v6e-8\ndevice-assignment=1;0\ndevice-coords=0=0,0,0;1=1,0,0\n"; len(f) != 2 || f[0] != want {
		t.Errorf("the worker read %q, want settings %q", f, want)
	}
	want := "LIBTPU_INIT_ARGS=" + tpu.MergeLibtpuArgs("--xla_tpu_enable_latency_hiding_scheduler=true", tpu.LibtpuRingFlag)
	if c := lines(t, filepath.Join(e.record, "create.log")); len(c) < 2 || c[1] != want {
		t.Errorf("create.log %q, want %q", c, want)
	}
}

// TestProcessesReachTheWorker: a client of several processes tells arc which
// process holds each device, and a group across processes is never given
// the host-staged link, which the runtime runs in one process only: the
// program the real plugin compiles keeps its all-reduce.
func TestProcessesReachTheWorker(t *testing.T) {
	e := newEnv(t)
	log := arcServe(t, e)
	t.Setenv("ARC_TARGET", "cuda:pcie-nop2p")
	fakepjrt.GPULib(t, e.dir)
	t.Setenv("FAKE_PJRT_TOPOLOGY", "0;0:0:0;1:1:0")
	out := runHost(t, e, host(t), nil, filepath.Join(fakepjrt.SourceDir(), "testdata", "allreduce_2rep.mlir"),
		options(t, [][]int64{{0}, {1}}))
	if !strings.Contains(out, "compile 1: ok") {
		t.Fatalf("host: %s", out)
	}
	f := frames(t, log+".frames")
	if len(f) != 2 || !strings.Contains(f[0], "device-processes=0=0;1=1\n") {
		t.Errorf("the worker read %q, want the devices' processes", f)
	}
	got := fakepjrt.MustRead(t, filepath.Join(e.record, "compile-1.mlir"))
	if strings.Contains(got, "arc_allreduce") || !strings.Contains(got, "runs in 2 processes: the host-staged link") {
		t.Errorf("the plugin compiled:\n%s\nwant the all-reduce native, with the reason", got)
	}
}

// TestCompilerOptions: a program's arc_NAME compiler options reach arc as
// its settings, and the real compile gets the options without them (XLA
// refuses names it does not know), also for a program that passes through.
func TestCompilerOptions(t *testing.T) {
	e := newEnv(t)
	log := arcServe(t, e)
	t.Setenv("ARC_TARGET", "cuda:nvlink")
	t.Setenv("ARC_FORCE", "0=native")
	fakepjrt.GPULib(t, e.dir)
	base := optionsProto([][]int64{{1}, {0}})
	xla := overrideEntry("xla_gpu_enable_latency_hiding_scheduler", "true")
	var proto []byte
	for _, part := range [][]byte{base, overrideEntry("arc_force", "0=oneshot"), xla, overrideEntry("arc_min_bytes", "16")} {
		proto = append(proto, part...)
	}
	file := filepath.Join(t.TempDir(), "options.pb")
	if err := os.WriteFile(file, proto, 0o644); err != nil {
		t.Fatal(err)
	}
	passThrough := filepath.Join(t.TempDir(), "plain.mlir")
	plain := "module { func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> { return %a : tensor<4xf32> } }\n"
	if err := os.WriteFile(passThrough, []byte(plain), 0o644); err != nil {
		t.Fatal(err)
	}
	// The program's force replaces ARC_FORCE's.
	lowered, _, err := arc.Compile("<stdin>", []byte(fakepjrt.Program(t)),
		arc.Options{Target: "cuda:nvlink", Force: []string{"0=oneshot"}, MinBytes: 16, DeviceAssignment: "1;0"})
	if err != nil {
		t.Fatal(err)
	}
	stripped := append(append([]byte{}, base...), xla...)
	prog := filepath.Join(fakepjrt.SourceDir(), "testdata", "allreduce_2rep.mlir")
	for _, tc := range []struct{ program, want string }{{prog, string(lowered)}, {passThrough, plain}} {
		record := t.TempDir()
		if out := runHost(t, e, host(t), []string{"FAKE_PJRT_DIR=" + record}, tc.program, file); !strings.Contains(out, "compile 1: ok") {
			t.Fatalf("host %s: %s", filepath.Base(tc.program), out)
		}
		if rec := fakepjrt.ReadRecord(t, record); len(rec.Programs) != 1 || rec.Programs[0] != tc.want {
			t.Errorf("%s: the plugin got %q, want %q", filepath.Base(tc.program), rec.Programs, tc.want)
		}
		if got := fakepjrt.MustRead(t, filepath.Join(record, "compile-1.options")); got != string(stripped) {
			t.Errorf("%s: the plugin got options %x, want %x", filepath.Base(tc.program), got, stripped)
		}
	}
	f := frames(t, log+".frames")
	if want := "target=cuda:nvlink\nforce=0=oneshot\nmin-bytes=16\ndevice-assignment=1;0\n"; len(f) != 2 || f[0] != want {
		t.Errorf("the worker read %q, want settings %q (and no request for the program that passes through)", f, want)
	}
}

// TestProgramsWithoutCollectivesPassThrough: no arc process, no converter,
// no libarc_gpu.so: the real plugin gets the program as the client sent it.
func TestProgramsWithoutCollectivesPassThrough(t *testing.T) {
	e := newEnv(t)
	log := arcServe(t, e)
	t.Setenv("ARC_TARGET", "auto") // and no libarc_gpu.so to detect with
	t.Setenv("ARC_MLIR_TO_TEXT", "echo never >&2; exit 1")
	text := "module { func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> { return %a : tensor<4xf32> } }\n"
	for _, prog := range []string{text, "ML\xefR\x00vhlo\x00func_v1\x00add_v1\x00"} {
		if err := fakepjrt.Compile(e.plugin, prog); err != nil {
			t.Fatal(err)
		}
	}
	rec := fakepjrt.ReadRecord(t, e.record)
	if len(rec.Programs) != 2 || rec.Programs[0] != text || rec.Programs[1] != "ML\xefR\x00vhlo\x00func_v1\x00add_v1\x00" {
		t.Errorf("the plugin got %q", rec.Programs)
	}
	if _, err := os.Stat(log); err == nil {
		t.Error("an arc worker started for programs without collectives")
	}
	// A program with an all-reduce still needs the library to pick a target.
	err := fakepjrt.Compile(e.plugin, fakepjrt.Program(t))
	if err == nil || !strings.Contains(err.Error(), "ARC_TARGET is auto, so arc detects the topology through libarc_gpu.so") {
		t.Errorf("all-reduce with no library: %v", err)
	}
}

func TestCompileTimeLimit(t *testing.T) {
	e := newEnv(t)
	t.Setenv("ARC_TARGET", "tpu:v6e-8")
	t.Setenv("ARC_COMPILE_TIMEOUT_MS", "300")
	start := time.Now()
	err := fakepjrt.Compile(e.plugin, fakepjrt.Program(t)+"// ARC_HANG\n")
	if err == nil || !strings.Contains(err.Error(), "did not finish within 300 ms and was killed (ARC_COMPILE_TIMEOUT_MS sets the limit)") {
		t.Fatalf("compile of a hanging arc: %v", err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("the compile took %v", d)
	}
	if n := len(fakepjrt.ReadRecord(t, e.record).Programs); n != 0 {
		t.Errorf("the plugin compiled %d programs", n)
	}
}

// TestChildFaultsUnderSIGCHLD: whatever the host does with SIGCHLD, a
// failing or killed arc fails the compile; the real plugin never gets an
// empty program.
func TestChildFaultsUnderSIGCHLD(t *testing.T) {
	prog := fakepjrt.Program(t)
	for _, mode := range []string{"default", "ignore", "nocldwait", "handler"} {
		t.Run(mode, func(t *testing.T) {
			e := newEnv(t)
			t.Setenv("ARC_TARGET", "tpu:v6e-8")
			dir := t.TempDir()
			var args []string
			if mode != "default" {
				args = append(args, "-sigchld", mode)
			}
			for _, marker := range []string{"", "ARC_SILENT_FAIL", "ARC_KILL", "ARC_BAD_INPUT"} {
				file := filepath.Join(dir, "p"+marker+".mlir")
				os.WriteFile(file, []byte(prog+"// "+marker+"\n"), 0o644)
				args = append(args, file, "-")
			}
			out := runHost(t, e, host(t), nil, args...)
			for _, want := range []string{"compile 1: ok", "compile 2: error: arc: " + filepath.Join(e.dir, "arc") + " exited with status 3",
				"compile 3: error: arc: " + filepath.Join(e.dir, "arc") + " was killed by signal 9",
				"compile 4: error: arc: <stdin>:1:1: unexpected token"} {
				if !strings.Contains(out, want) {
					t.Errorf("want %q in\n%s", want, out)
				}
			}
			rec := fakepjrt.ReadRecord(t, e.record)
			if len(rec.Programs) != 1 || !strings.HasPrefix(rec.Programs[0], "// fake arc:") {
				t.Errorf("the plugin got %d programs: %q", len(rec.Programs), rec.Programs)
			}
		})
	}
}

// TestDumpDirRefusesPlantedPaths: a symbolic link for the directory, a
// directory others may write to, a planted link where a dump goes.
func TestDumpDirRefusesPlantedPaths(t *testing.T) {
	victimDir := t.TempDir()
	victim := filepath.Join(victimDir, "victim")
	os.WriteFile(victim, []byte("precious\n"), 0o644)
	check := func(t *testing.T, e *env) {
		t.Helper()
		if b, _ := os.ReadFile(victim); string(b) != "precious\n" {
			t.Fatalf("the victim file was overwritten: %q", b)
		}
		if n := len(fakepjrt.ReadRecord(t, e.record).Programs); n != 1 {
			t.Errorf("the compile did not go through (%d programs): dumps never fail it", n)
		}
	}
	t.Run("directory is a symlink", func(t *testing.T) {
		e := newEnv(t)
		t.Setenv("ARC_TARGET", "tpu:v6e-8")
		link := filepath.Join(t.TempDir(), "dump")
		os.Symlink(victimDir, link)
		t.Setenv("ARC_DUMP_DIR", link)
		out := runHost(t, e, host(t), nil, filepath.Join(fakepjrt.SourceDir(), "testdata", "allreduce_2rep.mlir"), "-")
		if !strings.Contains(out, "ARC_DUMP_DIR="+link+": it is a symbolic link or not a directory; no dumps are written") {
			t.Errorf("host: %s", out)
		}
		if names := fakepjrt.Dumps(t, victimDir); len(names) != 1 {
			t.Errorf("dumps went through the link: %q", names)
		}
		check(t, e)
	})
	t.Run("writable by others", func(t *testing.T) {
		e := newEnv(t)
		t.Setenv("ARC_TARGET", "tpu:v6e-8")
		dump := t.TempDir()
		os.Chmod(dump, 0o777)
		t.Setenv("ARC_DUMP_DIR", dump)
		out := runHost(t, e, host(t), nil, filepath.Join(fakepjrt.SourceDir(), "testdata", "allreduce_2rep.mlir"), "-")
		if !strings.Contains(out, "others may write into it; no dumps are written") {
			t.Errorf("host: %s", out)
		}
		if names := fakepjrt.Dumps(t, dump); len(names) != 0 {
			t.Errorf("dumps %q", names)
		}
		check(t, e)
	})
	t.Run("planted file links", func(t *testing.T) {
		e := newEnv(t)
		t.Setenv("ARC_TARGET", "tpu:v6e-8")
		dump := t.TempDir()
		os.Chmod(dump, 0o755)
		os.Symlink(victim, filepath.Join(dump, "arc-0001-before.mlir")) // program 1 is taken: arc uses 2
		os.Symlink(victim, filepath.Join(dump, "arc-0002-after.mlir"))  // and refuses this one
		t.Setenv("ARC_DUMP_DIR", dump)
		out := runHost(t, e, host(t), nil, filepath.Join(fakepjrt.SourceDir(), "testdata", "allreduce_2rep.mlir"), "-")
		if !strings.Contains(out, "arc: cannot write "+dump+"/arc-0002-after.mlir: File exists") {
			t.Errorf("host: %s", out)
		}
		got := fakepjrt.Dumps(t, dump)
		if strings.Join(got, " ") != "arc-0001-before.mlir arc-0002-after.mlir arc-0002-before.mlir" {
			t.Errorf("dumps %q", got)
		}
		if b, _ := os.ReadFile(filepath.Join(dump, "arc-0002-before.mlir")); !bytes.Equal(b, []byte(fakepjrt.Program(t))) {
			t.Error("the before dump is not the program")
		}
		check(t, e)
	})
}

func fmtSscan(line string, pid *int) (int, error) { return fmt.Sscanf(line, "start %d", pid) }

// TestProxyErrorsReadAsJAXReadsThem: a setting the program's compiler options
// name and arc lacks fails the compile with arc's message. The client reads
// the error as jaxlib 0.11 does, PJRT_Error_ForEachPayload first: the proxy
// answers it for its own errors (the fake plugin, like the real one, aborts
// on an error it did not make), whatever type the option's value has.
func TestProxyErrorsReadAsJAXReadsThem(t *testing.T) {
	e := newEnv(t)
	arcServe(t, e)
	t.Setenv("ARC_TARGET", "cuda:nvlink")
	fakepjrt.GPULib(t, e.dir)
	prog := filepath.Join(fakepjrt.SourceDir(), "testdata", "allreduce_2rep.mlir")
	for name, entry := range map[string][]byte{
		"string": overrideEntry("arc_no_such_setting", "1"),
		"int":    intOverrideEntry("arc_no_such_setting", 1),
	} {
		file := filepath.Join(t.TempDir(), "options.pb")
		if err := os.WriteFile(file, append(optionsProto([][]int64{{1}, {0}}), entry...), 0o644); err != nil {
			t.Fatal(err)
		}
		out := runHost(t, e, host(t), nil, prog, file)
		if want := "compile 1: error: arc: arc serve: setting \"no-such-setting\" (compiler option arc_no_such_setting)"; !strings.Contains(out, want) || !strings.Contains(out, "destroy: ok") {
			t.Errorf("%s value: the host printed %q, want %q and a clean destroy", name, out, want)
		}
	}
}
