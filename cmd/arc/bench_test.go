package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arcpass/arc/bench"
	"github.com/arcpass/arc/internal/golden"
	"github.com/arcpass/arc/passes"
)

const benchTestdata = "../../bench/testdata"

func benchCLI(args ...string) (code int, stdout, stderr string) {
	var out, errw bytes.Buffer
	code = run(args, stdio{strings.NewReader(""), &out, &errw})
	return code, out.String(), errw.String()
}

func TestBenchHelp(t *testing.T) {
	for cmd, flags := range map[string][]string{
		"bench": {"--level", "--link", "--sizes", "--lowerings", "--chain", "--reps", "--warmup", "--jobs", "--plugin", "--gpu-lib", "--kbench", "--csv", "--plot", "--quiet", "--from", "--format", "--devices LIST", "logical ranks"},
		"tune":  {"--level", "--link", "--from", "--margin", "--output", "--chain"},
	} {
		code, out, errs := benchCLI(cmd, "--help")
		if code != exitOK || errs != "" || !strings.HasPrefix(out, "usage: arc "+cmd) {
			t.Errorf("%s --help: exit %d, stderr %q, stdout starts %q", cmd, code, errs, out[:min(len(out), 40)])
		}
		for _, f := range flags {
			if !strings.Contains(out, f) {
				t.Errorf("%s --help does not mention %s", cmd, f)
			}
		}
	}
}

func TestBenchUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"bench", "--level", "nccl"}, `--level "nccl": want xla or kernel`},
		{[]string{"bench", "--link", "pcie"}, `--link "pcie": want peer or host`},
		{[]string{"bench", "--sizes", "101"}, "--sizes: size 101 is not a whole number of f16 elements (2 bytes each)"},
		{[]string{"bench", "--lowerings", "twoshot:int9"}, `unknown lowering "twoshot:int9"`},
		{[]string{"bench", "--dtypes", "f64"}, `dtype "f64"`},
		{[]string{"bench", "--chain", "0"}, "--chain 0"},
		{[]string{"bench", "--plot", "out.gif"}, "name it .svg"},
		{[]string{"bench", "--format", "csv"}, `--format "csv": want table or nccl`},
		{[]string{"bench", "extra"}, `unexpected argument "extra"`},
		{[]string{"bench", "--no-such-flag"}, "unknown flag: --no-such-flag"},
		{[]string{"bench", "--target", "cuda:nvswitch"}, `--target: unknown target "cuda:nvswitch"`},
		{[]string{"bench", "--devices", "0,0"}, "--devices: only with --level kernel"},
		{[]string{"bench", "--level", "kernel", "--devices", "0,0", "--gpus", "2"}, "--devices and --gpus: pick one"},
		{[]string{"bench", "--level", "kernel", "--devices", "0,0", "--gpus", "0"}, "--devices and --gpus: pick one"},
		{[]string{"bench", "--level", "kernel", "--devices", "0,one"}, `--devices "0,one": want GPU numbers separated by commas`},
		{[]string{"bench", "--level", "kernel", "--devices", "0,-1"}, `--devices "0,-1": want GPU numbers`},
		{[]string{"bench", "--level", "kernel", "--devices", "0,,1"}, `--devices "0,,1": want GPU numbers`},
		{[]string{"bench", "--level", "kernel", "--devices", "0"}, "--devices 0: a world of 1; arc's kernels run worlds of 2, 4, 6 or 8 ranks"},
		{[]string{"bench", "--level", "kernel", "--devices", "0,0,0"}, "--devices 0,0,0: a world of 3"},
		{[]string{"bench", "--level", "kernel", "--devices", "0,1,2,3,4,5,6,7,0"}, "a world of 9"},
		{[]string{"tune", "--level", "kernel", "--devices", "0,0"}, "unknown flag: --devices"},
		{[]string{"tune", "--margin", "1.5"}, "--margin 1.5"},
		{[]string{"tune", "--gpus", "-1"}, "--gpus -1"},
	} {
		code, _, errs := benchCLI(tc.args...)
		if code != exitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("arc %s: exit %d, stderr %q; want exit 2 and %q", strings.Join(tc.args, " "), code, errs, tc.want)
		}
	}
}

// TestBenchLogicalRanks: --devices reaches kbench (a script standing in for
// it, printing a sweep of two logical ranks on one GPU), which is asked for
// no NCCL row; the log says why native is missing, and the tables are
// bench's for those measurements, the floor table among them.
func TestBenchLogicalRanks(t *testing.T) {
	dir := t.TempDir()
	csv, err := filepath.Abs(filepath.Join(benchTestdata, "kbench_logical.csv"))
	if err != nil {
		t.Fatal(err)
	}
	record, kbench := filepath.Join(dir, "args"), filepath.Join(dir, "kbench")
	if err := os.WriteFile(kbench, []byte("#!/bin/sh\necho \"$*\" > "+record+"\ncat "+csv+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, out, errs := benchCLI("bench", "-q", "--level", "kernel", "--kbench", kbench, "--devices", "0,0", "--sizes", "1M:64M", "--dtypes", "f16",
		"--lowerings", "native,oneshot,twoshot:fp,twoshot:int8,twoshot:int4,auto", "--reps", "7")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	args, _ := os.ReadFile(record)
	if want := "--link peer --dtypes f16 --min 1048576 --max 67108864 --reps 7 --only oneshot,twoshot-fp,twoshot-int8,twoshot-int4 --devices 0,0\n"; string(args) != want {
		t.Errorf("kbench ran as %q, want %q", args, want)
	}
	if errs != "arc: native is not measured: NCCL refuses ranks that share a GPU (logical ranks, --devices 0,0)\n" {
		t.Errorf("stderr %q", errs)
	}
	want, err := os.ReadFile(filepath.Join(benchTestdata, "logical_table.txt"))
	if err != nil || out != string(want) {
		t.Errorf("tables differ from bench/testdata/logical_table.txt (%v):\n%s", err, out)
	}
}

// TestBenchWithoutGPU: on a machine without the CUDA plugin, kbench or
// GPUs, bench and tune stop at once and say what is missing.
func TestBenchWithoutGPU(t *testing.T) {
	t.Setenv("ARC_PJRT_PLUGIN", "")
	t.Setenv("PJRT_PLUGIN_LIBRARY_PATH", t.TempDir())
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"bench", "-q", "--plugin", "/nonexistent/xla_cuda_plugin.so"}, xlaMissing("arc: PJRT plugin not found: /nonexistent/xla_cuda_plugin.so")},
		{[]string{"bench", "-q"}, xlaMissing(`arc: PJRT plugin "cuda" not found`)},
		{[]string{"tune", "-q", "--link", "host"}, xlaMissing(`arc: PJRT plugin "cuda" not found`)},
		{[]string{"bench", "--profile", "/nonexistent/profile.json"}, "arc: open /nonexistent/profile.json: no such file or directory"},
		{[]string{"bench", "--level", "kernel", "--kbench", "/nonexistent/kbench"}, "arc: kernel benchmark program /nonexistent/kbench not found: build it on the GPU machine with `make kbench`"},
	} {
		code, out, errs := benchCLI(tc.args...)
		if code != exitInput || out != "" || !strings.HasPrefix(errs, tc.want) {
			t.Errorf("arc %s: exit %d, stdout %q, stderr %q; want exit 1 and %q", strings.Join(tc.args, " "), code, out, errs, tc.want)
		}
	}
}

// TestTuneFrom fits the sample sweep (bench/testdata/sample.csv):
// the profile matches its golden file, loads as arc compile --profile
// loads profiles, and the summary says where each lowering wins.
func TestTuneFrom(t *testing.T) {
	sample := filepath.Join(benchTestdata, "sample.csv")
	path := filepath.Join(t.TempDir(), "cuda-nvlink.json")
	code, out, errs := benchCLI("tune", "--from", sample, "--level", "xla", "--link", "peer", "-o", path)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	goldenPath := filepath.Join(benchTestdata, "tune_from_sample.json")
	if *golden.Update {
		os.WriteFile(goldenPath, got, 0o644)
	}
	if want, err := os.ReadFile(goldenPath); err != nil || !bytes.Equal(got, want) {
		t.Errorf("profile differs from %s (%v; -update rewrites it):\n%s", goldenPath, err, got)
	}
	p, err := passes.LoadProfile(path)
	if err != nil {
		t.Fatal(err)
	}
	if p.Target != "cuda:nvlink" || p.Source != "arc tune --from sample.csv: xla level, peer link" {
		t.Errorf("target %q, source %q", p.Target, p.Source)
	}
	for _, line := range []string{"profile for cuda:nvlink", "2      f16    twoshot:int6  never", "2      f16    twoshot:fp    2.4 MiB to any size"} {
		if !strings.Contains(out, line) {
			t.Errorf("summary lacks %q:\n%s", line, out)
		}
	}

	// To stdout; the host half of the file picks cuda:pcie-nop2p by itself.
	code, out, errs = benchCLI("tune", "--from", sample, "--link", "host")
	if code != exitOK || !strings.Contains(out, `"target": "cuda:pcie-nop2p"`) || !strings.Contains(out, `"twoshot:fp8"`) {
		t.Errorf("--link host: exit %d, %s\n%s", code, errs, out)
	}
}

// TestBenchFrom redraws a saved sweep without a GPU: the same table arc
// bench printed for those measurements, the plot, and the CSV of the kind
// picked; a file of several kinds needs --level and --link.
func TestBenchFrom(t *testing.T) {
	sample := filepath.Join(benchTestdata, "sample.csv")
	f, err := os.Open(sample)
	if err != nil {
		t.Fatal(err)
	}
	all, err := bench.ReadCSV(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	var host []bench.Result
	for _, r := range all {
		if r.Level == "xla" && r.Link == "host" {
			host = append(host, r)
		}
	}
	var want bytes.Buffer
	bench.WriteTable(&want, host)

	dir := t.TempDir()
	plot, csvOut := filepath.Join(dir, "host.svg"), filepath.Join(dir, "host.csv")
	code, out, errs := benchCLI("bench", "--from", sample, "--link", "host", "--plot", plot, "--csv", csvOut)
	if code != exitOK || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if out != want.String() || !strings.Contains(out, "host link") {
		t.Errorf("table differs from bench.WriteTable of the host rows:\n%s\nwant:\n%s", out, want.String())
	}
	if svg, err := os.ReadFile(plot); err != nil || !bytes.Contains(svg, []byte("<svg")) {
		t.Errorf("plot: %v, %d bytes", err, len(svg))
	}
	f, err = os.Open(csvOut)
	if err != nil {
		t.Fatal(err)
	}
	again, err := bench.ReadCSV(f)
	f.Close()
	if err != nil || len(again) != len(host) {
		t.Errorf("--csv wrote %d rows (%v), want the %d host rows", len(again), err, len(host))
	}

	// nccl-tests' columns for the same rows.
	want.Reset()
	bench.WriteNCCL(&want, host)
	code, out, errs = benchCLI("bench", "--from", sample, "--link", "host", "--format", "nccl")
	if code != exitOK || out != want.String() || !strings.Contains(out, "algbw") {
		t.Errorf("--format nccl: exit %d, %s\n%s\nwant:\n%s", code, errs, out, want.String())
	}

	// The files are written before the first line is printed: a reader that
	// stops early (| head) stops arc at a write, and the plot is there.
	os.Remove(plot)
	first := &firstWrite{check: func() bool { _, err := os.Stat(plot); return err == nil }}
	if code := run([]string{"bench", "--from", sample, "--link", "host", "--plot", plot}, stdio{strings.NewReader(""), first, io.Discard}); code != exitOK || !first.ok {
		t.Errorf("exit %d; the plot was there at the first line printed: %v", code, first.ok)
	}

	code, _, errs = benchCLI("bench", "--from", sample)
	if code != exitInput || !strings.Contains(errs, "pick one with --level and --link") {
		t.Errorf("a mixed file without --link: exit %d, %q", code, errs)
	}
}

func TestTuneFromErrors(t *testing.T) {
	sample := filepath.Join(benchTestdata, "sample.csv")
	bad := filepath.Join(t.TempDir(), "bad.csv")
	os.WriteFile(bad, []byte("level,link\nxla,peer\n"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"tune", "--from", sample}, "holds several kinds of measurement (xla level, host link; xla level, peer link): pick one with --level and --link"},
		{[]string{"tune", "--from", sample, "--level", "kernel"}, "has no measurements of the --level and --link asked for"},
		{[]string{"tune", "--from", bad}, `bad.csv: line 1: no "world" column`},
		{[]string{"tune", "--from", "/nonexistent.csv"}, "/nonexistent.csv"},
	} {
		code, _, errs := benchCLI(tc.args...)
		if code != exitInput || !strings.HasPrefix(errs, "arc: ") || !strings.Contains(errs, tc.want) {
			t.Errorf("arc %s: exit %d, stderr %q; want exit 1 and %q", strings.Join(tc.args, " "), code, errs, tc.want)
		}
	}
}

// firstWrite records, at its first Write, what check says.
type firstWrite struct {
	check   func() bool
	ok, any bool
}

func (w *firstWrite) Write(p []byte) (int, error) {
	if !w.any {
		w.any, w.ok = true, w.check()
	}
	return len(p), nil
}
