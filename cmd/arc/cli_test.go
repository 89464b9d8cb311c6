package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// runArc runs the CLI in-process with stdin and returns the exit code and the
// two output streams.
func runArc(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, stdio{strings.NewReader(stdin), &out, &errb})
	return code, out.String(), errb.String()
}

// testdata returns an input of the golden tests: lowering/testdata/NAME,
// or the shared fixture testdata/fixtures/NAME.
func testdata(t *testing.T, name string) (path string, content []byte) {
	t.Helper()
	path = filepath.Join("..", "..", "lowering", "testdata", name)
	if _, err := os.Stat(path); err != nil {
		path = filepath.Join("..", "..", "testdata", "fixtures", name)
	}
	content, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, content
}

func TestCompileToStdout(t *testing.T) {
	in, _ := testdata(t, "multi_operand.mlir")
	_, want := testdata(t, "multi_operand.cuda-nvlink.out.mlir")
	code, out, errs := runArc(t, "", "compile", "--target", "cuda:nvlink", in)
	if code != exitOK || errs != "" || out != string(want) {
		t.Errorf("exit %d, stderr %q; stdout is the golden output: %v", code, errs, out == string(want))
	}
}

func TestCompileToFilesWithReport(t *testing.T) {
	in, _ := testdata(t, "sizes_w4.mlir")
	_, wantOut := testdata(t, "sizes_w4.rocm-mi300x.quant-int8.out.mlir")
	_, wantReport := testdata(t, "sizes_w4.rocm-mi300x.quant-int8.report.json")
	dir := t.TempDir()
	outPath, reportPath := filepath.Join(dir, "out.mlir"), filepath.Join(dir, "report.json")
	code, out, errs := runArc(t, "", "compile", "--target=rocm:mi300x", "--quant", "int8", "-o", outPath, "--report", reportPath, in)
	if code != exitOK || out != "" || errs != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	for path, want := range map[string][]byte{outPath: wantOut, reportPath: wantReport} {
		got, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s differs from the golden file (%v)", path, err)
		}
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode %v, want -rw-r--r--", path, fi.Mode())
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("the output directory holds %d files, want 2 (no temporary files left)", len(entries))
	}
}

func TestCompileFromStdin(t *testing.T) {
	_, src := testdata(t, "mesh2d.mlir")
	code, out, errs := runArc(t, string(src), "compile", "--target", "none", "-")
	if code != exitOK || out != string(src) || errs != "" {
		t.Errorf("--target none from stdin: exit %d, stderr %q, identity %v", code, errs, out == string(src))
	}
	// Problems of stdin are reported as <stdin>.
	code, _, errs = runArc(t, "module @m {\n  func.func @f( {\n}\n", "compile", "--target", "none", "-")
	if code != exitInput || !strings.HasPrefix(errs, "arc: <stdin>:") {
		t.Errorf("bad stdin: exit %d, stderr %q", code, errs)
	}
}

func TestCompilePrintAfterAndDumpDir(t *testing.T) {
	in, src := testdata(t, "reductions.mlir")
	_, lowered := testdata(t, "reductions.tpu-v6e-8.out.mlir")
	code, out, errs := runArc(t, "", "compile", "--target", "tpu:v6e-8", "--print-after", "select", "--print-after", "lower-tpu", in)
	if code != exitOK || out != string(lowered) {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	// select writes its decisions into the module; lower-tpu rewrites them.
	selected, loweredText, ok := strings.Cut(strings.TrimPrefix(errs, "// ----- after select -----\n"), "// ----- after lower-tpu -----\n")
	if !ok || loweredText != string(lowered) || selected == string(src) || !strings.Contains(selected, `arc.lowering = "ring"`) ||
		strings.Count(selected, "arc.lowering") != strings.Count(string(lowered), "arc.lowering") {
		t.Errorf("--print-after wrote\n%s\nwant the decided module, then\n%s", errs, lowered)
	}
	code, _, errs = runArc(t, "", "compile", "--target", "tpu:v6e-8", "--print-after", "all", in)
	for _, pass := range []string{"analyse", "select", "lower-tpu", "verify"} {
		if !strings.Contains(errs, "// ----- after "+pass+" -----\n") {
			t.Errorf("--print-after all: nothing after %s", pass)
		}
	}
	code, _, errs = runArc(t, "", "compile", "--target", "tpu:v6e-8", "--print-after", "lower-cuda", in)
	if code != exitUsage || errs != "arc: target tpu:v6e-8: --print-after lower-cuda: no such pass (passes: analyse, select, lower-tpu, verify)\n" {
		t.Errorf("unknown pass: exit %d, %q", code, errs)
	}

	dir := filepath.Join(t.TempDir(), "dump")
	if code, _, errs := runArc(t, "", "compile", "--target", "tpu:v6e-8", "--dump-dir", dir, in); code != exitOK {
		t.Fatalf("--dump-dir: exit %d, %s", code, errs)
	}
	for name, want := range map[string][]byte{"00-input.mlir": src, "01-analyse.mlir": src, "02-select.mlir": []byte(selected), "03-lower-tpu.mlir": lowered, "04-verify.mlir": lowered} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %v, equal %v", name, err, bytes.Equal(got, want))
		}
	}
}

func TestInspectTable(t *testing.T) {
	in, _ := testdata(t, "lowered_cuda.mlir")
	code, out, errs := runArc(t, "", "inspect", in)
	if code != exitOK || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	lines := strings.Split(out, "\n")
	if lines[0] != "module multi_operand: 9 collective operand(s)" {
		t.Errorf("title %q", lines[0])
	}
	for _, want := range []string{
		"# op line dtype shape bytes reduce ranks groups lowering codec est us why",
		"0 all_reduce 9 f16 64x128 16 KiB sum 4 {0 1 2 3} {4 5 6 7} oneshot none 7.1 (native 21.7) oneshot: est 7.1 us vs native 21.7 us (3.0x)",
		"1 all_reduce 10 f16 1024x1024 2 MiB sum 4 {0 1 2 3} {4 5 6 7} twoshot fp 19.7 (native 33.2) twoshot:fp: est 19.7 us vs native 33.3 us (1.7x)",
		// as the arc that wrote lowered_cuda.mlir decided it: inspect reads the module's marks
		"3 all_reduce 13 bf16 3 6 B sum 4 {0 1 2 3} {4 5 6 7} native none - 6 bytes is not a multiple of 16",
		"7 all_reduce[0] 27 f32 0 0 B sum 4 {0 1 2 3} {4 5 6 7} native none - empty tensor",
	} {
		if !slices.ContainsFunc(lines, func(l string) bool { return strings.Join(strings.Fields(l), " ") == want }) {
			t.Errorf("inspect lacks the line %q:\n%s", want, out)
		}
	}
	// An input arc never touched lists its collectives without decisions.
	in, _ = testdata(t, "jax_mixed_collectives_f32_2dev.mlir")
	_, out, _ = runArc(t, "", "inspect", in)
	var kinds []string
	for _, l := range strings.Split(out, "\n")[2:] {
		if f := strings.Fields(l); len(f) > 7 && f[0][0] >= '0' && f[0][0] <= '9' { // "32 B" takes two fields
			kinds = append(kinds, f[1]+" "+f[7])
		}
	}
	if got := strings.Join(kinds, ", "); got != "all_reduce max, all_reduce min, all_reduce sum, reduce_scatter sum, all_gather -" {
		t.Errorf("collectives of the JAX fixture: %s\n%s", got, out)
	}
}

// TestExplainSaysWhetherNCCLIsNeeded: --explain, and arc inspect of the
// lowered module, say when every collective runs on arc's kernels, so that
// the program needs no NCCL communicator, and otherwise how many stay.
func TestExplainSaysWhetherNCCLIsNeeded(t *testing.T) {
	for _, c := range []struct{ input, want string }{
		{"sizes_w2.mlir", "native collectives: 0 (every collective runs on arc's kernels): the program needs no NCCL communicator"},
		{"sizes_small.mlir", "native collectives: 1 of 11 operand(s) (1 all-reduce): these run on NCCL, so the program still makes NCCL communicators"},
	} {
		in, _ := testdata(t, c.input)
		out := filepath.Join(t.TempDir(), "out.mlir")
		code, _, errs := runArc(t, "", "compile", "--target", "cuda:nvlink", "--explain", "-o", out, in)
		if code != exitOK || !strings.Contains(errs, "\n"+c.want+"\n") {
			t.Errorf("%s: exit %d, --explain lacks %q:\n%s", c.input, code, c.want, errs)
		}
		code, table, errs := runArc(t, "", "inspect", out)
		if code != exitOK || !strings.Contains(table, "\n"+c.want+"\n") {
			t.Errorf("%s: exit %d (%s), arc inspect lacks %q:\n%s", c.input, code, errs, c.want, table)
		}
	}
}

// TestReportAndInspectShareOneSchema: arc compile --report and arc inspect
// --json of the lowered module write the same keys, row by row, and the
// same decisions.
func TestReportAndInspectShareOneSchema(t *testing.T) {
	in, _ := testdata(t, "multi_operand.mlir")
	dir := t.TempDir()
	out, reportPath := filepath.Join(dir, "out.mlir"), filepath.Join(dir, "r.json")
	if code, _, errs := runArc(t, "", "compile", "--target", "cuda:pcie", "-o", out, "--report", reportPath, in); code != exitOK {
		t.Fatal(errs)
	}
	reportJSON, err := os.ReadFile(reportPath)
	if err != nil {
		t.Fatal(err)
	}
	code, inspectJSON, errs := runArc(t, "", "inspect", "--json", out)
	if code != exitOK {
		t.Fatal(errs)
	}
	type doc struct {
		Target      string           `json:"target"`
		Collectives []map[string]any `json:"collectives"`
	}
	var rep, ins doc
	for _, d := range []struct {
		data []byte
		into *doc
	}{{reportJSON, &rep}, {[]byte(inspectJSON), &ins}} {
		dec := json.NewDecoder(bytes.NewReader(d.data))
		if err := dec.Decode(d.into); err != nil {
			t.Fatal(err)
		}
	}
	// The lowered module records its target, so inspect names it too.
	if rep.Target != "cuda:pcie" || ins.Target != "cuda:pcie" || len(rep.Collectives) != len(ins.Collectives) {
		t.Fatalf("targets %q and %q, %d and %d rows", rep.Target, ins.Target, len(rep.Collectives), len(ins.Collectives))
	}
	// The lowered module lists a split op's operands in a new order, so
	// rows are compared as sets of their keys and decisions.
	summary := func(rows []map[string]any) []string {
		var out []string
		for _, row := range rows {
			var keys []string
			for k := range row {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			out = append(out, strings.Join(keys, ",")+" "+row["dtype"].(string)+" "+row["lowering"].(string)+" "+row["codec"].(string))
		}
		sort.Strings(out)
		return out
	}
	if a, b := summary(rep.Collectives), summary(ins.Collectives); !slices.Equal(a, b) {
		t.Errorf("compile --report rows:\n%s\ninspect --json rows:\n%s", strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
	for _, k := range []string{"index", "op", "line", "dtype", "shape", "bytes", "reduction", "groups", "group_size", "lowering", "codec", "reason", "est_us"} {
		if _, ok := ins.Collectives[0][k]; !ok {
			t.Errorf("inspect --json rows lack %q", k)
		}
	}
}

func TestVersion(t *testing.T) {
	if code, out, errs := runArc(t, "", "version"); code != exitOK || out != "arc "+version+"\n" || errs != "" {
		t.Errorf("version: exit %d, %q, %q", code, out, errs)
	}
	if code, _, errs := runArc(t, "", "version", "--json"); code != exitUsage || errs == "" {
		t.Errorf("version with an argument: exit %d, %q", code, errs)
	}
}

func TestExitCodes(t *testing.T) {
	good, _ := testdata(t, "goxla_allreduce_4rep.mlir")
	gather := filepath.Join("..", "..", "testdata", "exact", "collectives", "all-gather-pairs.mlir")
	bad := filepath.Join(t.TempDir(), "bad.mlir")
	if err := os.WriteFile(bad, []byte("module @m {\n  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n    \"func.return\"(%y) : (tensor<4xf32>) -> ()\n  }\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	unparsable := filepath.Join(t.TempDir(), "unparsable.mlir")
	if err := os.WriteFile(unparsable, []byte("module @m {\n  %0 = \"a\"(\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	profile := filepath.Join(t.TempDir(), "p.json")
	if err := os.WriteFile(profile, []byte("{\n  \"costs\": [\n}"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args   []string
		code   int
		stderr string // a prefix of stderr
	}{
		{[]string{"compile", "--target", "cuda:nvlink", good}, exitOK, ""},
		{[]string{"help"}, exitOK, ""}, // help on stdout: TestConventions
		{[]string{}, exitUsage, "usage: arc <command>"},
		{[]string{"frobnicate"}, exitUsage, `arc: unknown command "frobnicate"`},
		{[]string{"compile", good}, exitUsage, "arc: --target is required"},
		{[]string{"compile", "--target", "gpu", good}, exitUsage, `arc: unknown target "gpu"`},
		{[]string{"compile", "--target", "cuda:nvlink", "--quant", "int2", good}, exitUsage, `arc compile: invalid argument "int2" for "--quant" flag: "int2" is not a codec`},
		{[]string{"compile", "--target", "cuda:nvlink", "--force", "one=oneshot", good}, exitUsage, `arc compile: invalid argument "one=oneshot" for "--force" flag: want INDEX=LOWERING[:CODEC]`},
		{[]string{"compile", "--target", "cuda:nvlink", "--min-bytes", "many", good}, exitUsage, `arc compile: invalid argument "many" for "--min-bytes"`},
		{[]string{"compile", "--target", "cuda:nvlink", "--no-such-flag", good}, exitUsage, "arc compile: unknown flag: --no-such-flag"},
		{[]string{"inspect", "--table"}, exitUsage, "arc inspect: unknown flag: --table"},
		{[]string{"compile", "--target", "cuda:nvlink"}, exitUsage, "arc compile: want exactly one input FILE"},
		{[]string{"compile", "--target", "cuda:nvlink", good, good}, exitUsage, "arc compile: want exactly one input FILE"},
		{[]string{"inspect"}, exitUsage, "arc inspect: want exactly one input FILE"},
		{[]string{"compile", "--target", "cuda:nvlink", "missing.mlir"}, exitInput, "arc: open missing.mlir: no such file or directory"},
		{[]string{"compile", "--target", "cuda:nvlink", bad}, exitInput, "arc: " + bad + ":3:19: %y is used but not defined"},
		{[]string{"compile", "--target", "none", unparsable}, exitInput, "arc: " + unparsable + ":3:1: "},
		{[]string{"inspect", unparsable}, exitInput, "arc: " + unparsable + ":3:1: "},
		{[]string{"compile", "--target", "cuda:nvlink", "--profile", profile, good}, exitInput, "arc: " + profile + ":3:1: "},
		{[]string{"compile", "--target", "cuda:nvlink", "--force", "7=oneshot", good}, exitUsage, "arc: --force 7: the module has 2 collective operand(s) (arc inspect lists them)"},
		{[]string{"compile", "--target", "cuda:nvlink", "--force", "1=oneshot", good}, exitUsage, "arc: --force 1=oneshot: reducer is max, arc's kernels sum"},
		{[]string{"compile", "--target", "cuda:nvlink", "--force", "1=oneshot", gather}, exitUsage, "arc: --force 1: operand 1 is read by stablehlo.all_gather, and arc lowers only all-reduces"},
	} {
		code, _, errs := runArc(t, "", c.args...)
		if code != c.code || !strings.HasPrefix(errs, c.stderr) {
			t.Errorf("arc %s: exit %d, stderr %q; want %d, %q...", strings.Join(c.args, " "), code, errs, c.code, c.stderr)
		}
	}
}

// TestFailedCompileLeavesOutputsAlone: when arc fails, an -o file (or
// report) from before stays as it was, and no temporary file is left.
func TestFailedCompileLeavesOutputsAlone(t *testing.T) {
	good, _ := testdata(t, "goxla_allreduce_4rep.mlir")
	bad := filepath.Join(t.TempDir(), "bad.mlir")
	if err := os.WriteFile(bad, []byte("module @m {\n  %0 = \n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	out, report := filepath.Join(dir, "out.mlir"), filepath.Join(dir, "report.json")
	for _, p := range []string{out, report} {
		if err := os.WriteFile(p, []byte("keep me\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"compile", "--target", "cuda:nvlink", "-o", out, "--report", report, bad}, exitInput},                                      // bad input
		{[]string{"compile", "--target", "cuda:nvlink", "-o", out, "--report", report, "--force", "0=ring", good}, exitUsage},                // a pass refuses an option
		{[]string{"compile", "--target", "cuda:nvlink", "-o", out, "--report", filepath.Join(dir, "no", "such", "r.json"), good}, exitInput}, // the report cannot be written
	} {
		args := c.args
		if code, _, errs := runArc(t, "", args...); code != c.code {
			t.Errorf("arc %s: exit %d (%s), want %d", strings.Join(args, " "), code, errs, c.code)
		}
		for _, p := range []string{out, report} {
			if got, err := os.ReadFile(p); err != nil || string(got) != "keep me\n" {
				t.Errorf("after arc %s, %s holds %q (%v)", strings.Join(args, " "), p, got, err)
			}
		}
	}
	// A successful compile replaces the file and keeps its permissions.
	if code, _, errs := runArc(t, "", "compile", "--target", "cuda:nvlink", "-o", out, good); code != exitOK {
		t.Fatal(errs)
	}
	if fi, err := os.Stat(out); err != nil || fi.Mode().Perm() != 0o600 || fi.Size() == int64(len("keep me\n")) {
		t.Errorf("replaced output: %v, %v", fi.Mode(), err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("left in the output directory: %v", names)
	}
}

// TestCompileMergesLibtpuInitArgs: on TPU targets the report's environment
// extends the LIBTPU_INIT_ARGS arc runs under, keeping the user's flags.
func TestCompileMergesLibtpuInitArgs(t *testing.T) {
	in, _ := testdata(t, "mesh2d.mlir")
	_, golden := testdata(t, "mesh2d.tpu-v6e-8.libtpu.report.json")
	t.Setenv("LIBTPU_INIT_ARGS", "--xla_dump_to=/tmp/dump")
	report := filepath.Join(t.TempDir(), "r.json")
	if code, _, errs := runArc(t, "", "compile", "--target", "tpu:v6e-8", "--report", report, in); code != exitOK {
		t.Fatal(errs)
	}
	if got, err := os.ReadFile(report); err != nil || !bytes.Equal(got, golden) {
		t.Errorf("report differs from mesh2d.tpu-v6e-8.libtpu.report.json (%v):\n%s", err, got)
	}
}

// TestDumpDirNeverHalfWritten: a dump whose write fails (here the file size
// limit, as a full disk would) leaves no file behind, as -o leaves none; a
// link planted where a dump goes is replaced, not written through.
func TestDumpDirNeverHalfWritten(t *testing.T) {
	in, src := testdata(t, "jax_llama_block_tp8_f32.mlir")
	dir := t.TempDir()
	const limit = 4096
	if len(src) <= limit {
		t.Fatalf("the input (%d bytes) must be larger than the limit", len(src))
	}
	cmd := exec.Command(os.Args[0], "compile", "--target", "tpu:v6e-8", "--dump-dir", dir, in)
	cmd.Env = append(os.Environ(), "ARC_TEST_AS_ARC=1", fmt.Sprintf("ARC_TEST_RLIMIT_FSIZE=%d", limit))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err == nil || cmd.ProcessState.ExitCode() <= 0 {
		t.Fatalf("a dump past the file size limit: %v; stderr %s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "cannot write "+filepath.Join(dir, "00-input.mlir")) {
		t.Errorf("stderr: %s", stderr.String())
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		info, _ := e.Info()
		t.Errorf("a failed dump left %s (%d bytes)", e.Name(), info.Size())
	}

	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(dir, "01-analyse.mlir")); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := runArc(t, "", "compile", "--target", "tpu:v6e-8", "--dump-dir", dir, in); code != exitOK {
		t.Fatalf("--dump-dir: exit %d, %s", code, errs)
	}
	if b, _ := os.ReadFile(victim); string(b) != "precious\n" {
		t.Errorf("the dump was written through a planted link: the victim holds %d bytes", len(b))
	}
	if got, err := os.ReadFile(filepath.Join(dir, "01-analyse.mlir")); err != nil || !bytes.Equal(got, src) {
		t.Errorf("01-analyse.mlir: %v, equal %v", err, bytes.Equal(got, src))
	}
}

// A newcomer's first tries: a module with nothing to lower says so, and
// ARC_* variables, which the command line does not read, are named with
// the flags that do what they would.
func TestCompileSaysWhatItDidNot(t *testing.T) {
	for _, in := range []string{"", "module {}\n"} {
		code, out, errs := runArc(t, in, "compile", "--target", "cuda:nvlink", "-")
		if code != exitOK || out != in || !strings.HasPrefix(errs, "arc: note: <stdin> has no all-reduce: nothing to lower") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", in, code, out, errs)
		}
	}
	t.Setenv("ARC_QUANT", "int8")
	t.Setenv("ARC_MIN_BYTES", "1M")
	code, _, errs := runArc(t, "module {}\n", "compile", "--target", "cuda:nvlink", "-")
	want := "arc: note: ARC_QUANT, ARC_MIN_BYTES are set: arc compile reads its flags (--quant, --min-bytes), not the ARC_* variables"
	if code != exitOK || !strings.HasPrefix(errs, want) {
		t.Errorf("exit %d, stderr %q, want it to start %q", code, errs, want)
	}
	// a flag given is not a variable ignored
	if _, _, errs := runArc(t, "module {}\n", "compile", "--target", "cuda:nvlink", "--quant", "int8", "-"); !strings.HasPrefix(errs, "arc: note: ARC_MIN_BYTES is set") {
		t.Errorf("stderr %q, want only ARC_MIN_BYTES named", errs)
	}
}
