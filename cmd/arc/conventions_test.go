package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestConventions is the table of the command line's conventions (issue
// 17): help asked for goes to stdout with exit 0 and help after a mistake
// to stderr with exit 2; arc version and --version; size suffixes wherever
// a size is taken; booleans as bare flags and as --flag=false, never as a
// separate word; codec words in any case, with vLLM's spellings; the
// lowering words of reports everywhere; - for stdin and stdout; exit 0
// for success, 1 for bad input, 2 for bad usage; results on stdout, every
// message on stderr.
func TestConventions(t *testing.T) {
	in, _ := testdata(t, "goxla_allreduce_4rep.mlir")
	_, src := testdata(t, "goxla_allreduce_4rep.mlir")
	_, nvlink := testdata(t, "goxla_allreduce_4rep.cuda-nvlink.out.mlir")
	decoder := filepath.Join("..", "..", "examples", "decoder", "model.mlir") // 8 MiB all-reduces: codecs pay
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.mlir")
	if err := os.WriteFile(bad, []byte("module @m {\n  %0 = \n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// match is a check of one stream: "" (empty), "=TEXT" (equal), "^TEXT"
	// (prefix), "~RE" (a regular expression matches), "*TEXT" (contains).
	type row struct {
		name           string
		args           []string
		stdin          string
		code           int
		stdout, stderr string
	}
	rows := []row{
		// help and version
		{"arc --help", []string{"--help"}, "", exitOK, "^usage: arc <command>", ""},
		{"arc -h", []string{"-h"}, "", exitOK, "^usage: arc <command>", ""},
		{"arc help", []string{"help"}, "", exitOK, "^usage: arc <command>", ""},
		{"arc help compile", []string{"help", "compile"}, "", exitOK, "^usage: arc compile", ""},
		{"arc help nothing", []string{"help", "nothing"}, "", exitUsage, "", `^arc: unknown command "nothing"`},
		{"arc alone", nil, "", exitUsage, "", "^usage: arc <command>"},
		{"unknown command", []string{"frobnicate"}, "", exitUsage, "", `^arc: unknown command "frobnicate"`},
		{"compile --help", []string{"compile", "--help"}, "", exitOK, "^usage: arc compile", ""},
		{"compile -h", []string{"compile", "-h"}, "", exitOK, "^usage: arc compile", ""},
		{"inspect --help", []string{"inspect", "--help"}, "", exitOK, "^usage: arc inspect", ""},
		{"accuracy --help", []string{"accuracy", "--help"}, "", exitOK, "^usage: arc accuracy", ""},
		{"bench --help", []string{"bench", "--help"}, "", exitOK, "^usage: arc bench", ""},
		{"tune --help", []string{"tune", "--help"}, "", exitOK, "^usage: arc tune", ""},
		{"version --help", []string{"version", "--help"}, "", exitOK, "^usage: arc version", ""},
		{"serve --help", []string{"serve", "--help"}, "", exitOK, "^usage: arc serve", ""},
		{"help names its flags by placeholder", []string{"compile", "--help"}, "", exitOK, "~--profile FILE.json +cost profile", ""},
		{"bench's placeholders", []string{"bench", "--help"}, "", exitOK, "~--from FILE.csv +print the tables", ""},
		{"an unknown flag", []string{"compile", "--frobnicate", in}, "", exitUsage, "", "^arc compile: unknown flag: --frobnicate"},
		{"arc version", []string{"version"}, "", exitOK, "=arc " + version + "\n", ""},
		{"arc --version", []string{"--version"}, "", exitOK, "=arc " + version + "\n", ""},
		{"version with an argument", []string{"version", "now"}, "", exitUsage, "", "^arc version: takes no arguments"},

		// sizes take suffixes; booleans are flags
		{"--max-bytes 1K", []string{"compile", "--target", "cuda:nvlink", "--max-bytes", "1K", "-o", "/dev/null", "--report", "-", in}, "", exitOK, `*"reason": "above --max-bytes 1024"`, "^arc: note: nothing lowered"},
		{"--max-bytes 16M", []string{"compile", "--target", "cuda:nvlink", "--max-bytes", "16M", in}, "", exitOK, "=" + string(nvlink), ""},
		{"--min-bytes 64KiB", []string{"compile", "--target", "cuda:nvlink", "--min-bytes=64KiB", "-o", "/dev/null", "--report", "-", in}, "", exitOK, `*"reason": "below --min-bytes 65536"`, "^arc: note: nothing lowered"},
		{"--min-bytes 2mb", []string{"compile", "--target", "cuda:nvlink", "--min-bytes", "2mb", "-o", "/dev/null", "--report", "-", in}, "", exitOK, `*"reason": "below --min-bytes 2097152"`, "^arc: note"},
		{"--max-bytes many", []string{"compile", "--target", "cuda:nvlink", "--max-bytes", "many", in}, "", exitUsage, "", `^arc compile: invalid argument "many" for "--max-bytes"`},
		{"accuracy --elems 4K", []string{"accuracy", "--algo", "oneshot", "--world", "2", "--dtype", "f16", "--dist", "gaussian", "--elems", "4K"}, "", exitOK, "^oneshot - f16 world 2, gaussian inputs, 4096 values per rank", ""},
		{"--explain", []string{"compile", "--target", "cuda:nvlink", "--explain", in}, "", exitOK, "=" + string(nvlink), "^module tp_block, target cuda:nvlink"},
		{"--explain=true", []string{"compile", "--target", "cuda:nvlink", "--explain=true", in}, "", exitOK, "=" + string(nvlink), "^module tp_block"},
		{"--explain=false", []string{"compile", "--target", "cuda:nvlink", "--explain=false", in}, "", exitOK, "=" + string(nvlink), ""},
		{"--explain false", []string{"compile", "--target", "cuda:nvlink", "--explain", "false", in}, "", exitUsage, "", "^arc compile: --explain false: a boolean flag takes its value after '=': write --explain=false"},
		{"--cast-bf16-to-fp16 false", []string{"compile", "--target", "rocm:mi300x", "--cast-bf16-to-fp16", "false", in}, "", exitUsage, "", "^arc compile: --cast-bf16-to-fp16 false: a boolean flag takes its value after '='"},
		{"--cast-bf16-to-fp16=false", []string{"compile", "--target", "rocm:mi300x", "--cast-bf16-to-fp16=false", in}, "", exitOK, "*arc_allreduce", ""},
		{"--strict=0", []string{"compile", "--target", "cuda:nvlink", "--strict=0", in}, "", exitOK, "=" + string(nvlink), ""},
		{"--strict=maybe", []string{"compile", "--target", "cuda:nvlink", "--strict=maybe", in}, "", exitUsage, "", `^arc compile: invalid argument "maybe" for "--strict"`},
		{"-q false", []string{"accuracy", "-q", "false"}, "", exitUsage, "", "^arc accuracy: -q false: a boolean flag"},
		{"a flag's value that reads as a boolean", []string{"compile", "--target", "none", "--dump-dir", filepath.Join(dir, "true"), in}, "", exitOK, "=" + string(src), ""},

		// codec words in any case, vLLM's spellings; one name per lowering
		{"--quant INT8", []string{"compile", "--target", "cuda:nvlink", "--quant", "INT8", decoder}, "", exitOK, `*codec = "int8"`, ""},
		{"--quant Int4", []string{"compile", "--target", "cuda:nvlink", "--quant", "Int4", decoder}, "", exitOK, `*codec = "int4"`, ""},
		{"--quant FP (vLLM)", []string{"compile", "--target", "cuda:nvlink", "--quant", "FP", in}, "", exitOK, "=" + string(nvlink), "^arc: note: --quant fp is used by no all-reduce: "},
		{"--quant NONE (vLLM)", []string{"compile", "--target", "cuda:nvlink", "--quant", "NONE", in}, "", exitOK, "=" + string(nvlink), ""},
		{"--quant int2", []string{"compile", "--target", "cuda:nvlink", "--quant", "int2", in}, "", exitUsage, "", `^arc compile: invalid argument "int2" for "--quant" flag`},
		{"accuracy --codec INT4", []string{"accuracy", "--codec", "INT4", "--algo", "twoshot", "--world", "2", "--dtype", "f16", "--dist", "gaussian", "--elems", "1K"}, "", exitOK, "^twoshot int4 f16 world 2", ""},
		{"accuracy --algo lowprec", []string{"accuracy", "--algo", "lowprec", "--dtype", "f16", "--dist", "gaussian", "--elems", "1K", "-q"}, "", exitOK, "~twoshot +fp8 .*\nhier +fp8 ", ""},
		{"accuracy --algo quickreduce", []string{"accuracy", "--algo", "quickreduce", "--codec", "int6", "--world", "8", "--dtype", "bf16", "--dist", "llm", "--elems", "1K"}, "", exitOK, "^twoshot int6 bf16 world 8", ""},

		// - is stdin and stdout
		{"- reads stdin", []string{"compile", "--target", "cuda:nvlink", "-"}, string(src), exitOK, "=" + string(nvlink), ""},
		{"-o - writes stdout", []string{"compile", "--target", "cuda:nvlink", "-o", "-", in}, "", exitOK, "=" + string(nvlink), ""},
		{"inspect -", []string{"inspect", "-"}, string(nvlink), exitOK, "^module tp_block, target cuda:nvlink", ""},
		{"--report -", []string{"compile", "--target", "cuda:nvlink", "-o", filepath.Join(dir, "o.mlir"), "--report", "-", in}, "", exitOK, `^{` + "\n" + `  "target": "cuda:nvlink"`, ""},
		{"-o - and --report -", []string{"compile", "--target", "cuda:nvlink", "--report", "-", in}, "", exitUsage, "", "^arc compile: -o and --report both write standard output"},
		{"-o \"\"", []string{"compile", "--target", "cuda:nvlink", "-o", "", in}, "", exitUsage, "", `^arc compile: -o "": want a file name`},

		// exit codes: bad input is 1, with its position; nothing on stdout
		{"bad input", []string{"compile", "--target", "cuda:nvlink", bad}, "", exitInput, "", "^arc: " + bad + ":3:1: "},
		{"bad stdin", []string{"inspect", "-"}, "hello world\n", exitInput, "", "^arc: <stdin>:1:1: not an MLIR module"},
		{"missing input", []string{"compile", "--target", "cuda:nvlink", filepath.Join(dir, "missing.mlir")}, "", exitInput, "", "^arc: open "},
		{"no input", []string{"compile", "--target", "cuda:nvlink"}, "", exitUsage, "", "^arc compile: want exactly one input FILE"},
		{"--strict, nothing lowered", []string{"compile", "--target", "tpu:v6e-1", "--strict", in}, "", exitInput, "", "^arc: " + in + ":"},
	}
	for _, r := range rows {
		code, out, errs := runArc(t, r.stdin, r.args...)
		if code != r.code {
			t.Errorf("%s: exit %d, want %d (stderr %q)", r.name, code, r.code, errs)
			continue
		}
		for _, s := range []struct{ stream, got, want string }{{"stdout", out, r.stdout}, {"stderr", errs, r.stderr}} {
			if !matches(s.got, s.want) {
				t.Errorf("%s: %s is %q, want %q", r.name, s.stream, clip(s.got), s.want)
			}
		}
	}
}

// matches checks one stream against a row's expectation (see TestConventions).
func matches(got, want string) bool {
	switch {
	case want == "":
		return got == ""
	case want[0] == '=':
		return got == want[1:]
	case want[0] == '^':
		return strings.HasPrefix(got, want[1:])
	case want[0] == '*':
		return strings.Contains(got, want[1:])
	case want[0] == '~':
		return regexp.MustCompile(want[1:]).MatchString(got)
	}
	panic("bad expectation " + want)
}

func clip(s string) string {
	if len(s) > 300 {
		return s[:300] + "..."
	}
	return s
}

// TestSettingsHaveVariables: every option of arc.Settings, which the CLI
// registers as flags, has its ARC_* variable for the plugins, spelled from
// the flag, and compile's help names it; but the few that show the
// pipeline's work, which the help marks as having none.
func TestSettingsHaveVariables(t *testing.T) {
	_, help, _ := runArc(t, "", "compile", "--help")
	var names []string
	for _, f := range settingNames() {
		if slices.Contains([]string{"print-after", "dump-dir", "verify-each", "passes"}, f.name) {
			if f.env != "" || !regexp.MustCompile(`--`+f.name+`[ \[].*\(no variable\)`).MatchString(help) {
				t.Errorf("--%s: variable %q, or compile --help does not say it has none", f.name, f.env)
			}
			continue
		}
		want := "ARC_" + strings.ToUpper(strings.ReplaceAll(f.name, "-", "_"))
		if f.env != want {
			t.Errorf("--%s's variable is %q, want %q", f.name, f.env, want)
		}
		if !strings.Contains(help, "--"+f.name) || !strings.Contains(help, want) {
			t.Errorf("compile --help lacks --%s or %s", f.name, want)
		}
		names = append(names, f.name)
	}
	sort.Strings(names)
	for _, must := range []string{"strict", "profile-any-target", "quant", "min-bytes", "cast-bf16-to-fp16"} {
		if i := sort.SearchStrings(names, must); i == len(names) || names[i] != must {
			t.Errorf("arc.Settings lacks --%s", must)
		}
	}
}

// TestReportJSONOnStdout: --report - is the JSON report alone on stdout.
func TestReportJSONOnStdout(t *testing.T) {
	in, _ := testdata(t, "goxla_allreduce_4rep.mlir")
	code, out, errs := runArc(t, "", "compile", "--target", "cuda:nvlink", "-o", filepath.Join(t.TempDir(), "o.mlir"), "--report", "-", in)
	var rep struct {
		Target      string           `json:"target"`
		Collectives []map[string]any `json:"collectives"`
	}
	if code != exitOK || errs != "" || json.Unmarshal([]byte(out), &rep) != nil || rep.Target != "cuda:nvlink" || len(rep.Collectives) != 2 {
		t.Errorf("exit %d, stderr %q, report %+v", code, errs, rep)
	}
}

// TestForceExitAsDocumented: docs/LOWERINGS.md says what a --force that
// does not fit the module exits with, and the CLI exits with it for each
// case the page names: an ineligible row, a kernel the target lacks, an
// index past the last row (bad usage, as for any flag).
func TestForceExitAsDocumented(t *testing.T) {
	page, err := os.ReadFile("../../docs/LOWERINGS.md")
	if err != nil {
		t.Fatal(err)
	}
	_, bullet, ok := strings.Cut(string(page), "\n- `--force INDEX=LOWERING[:CODEC]`")
	bullet, _, _ = strings.Cut(bullet, "\n- ")
	m := regexp.MustCompile(`\(exit (\d)\b`).FindStringSubmatch(bullet)
	if !ok || m == nil {
		t.Fatal("docs/LOWERINGS.md: no --force bullet that says its exit status")
	}
	documented, _ := strconv.Atoi(m[1])
	if documented != exitUsage {
		t.Errorf("docs/LOWERINGS.md says a bad --force exits %d; a flag that does not fit is bad usage (%d)", documented, exitUsage)
	}
	misc, _ := testdata(t, "goxla_misc_collectives.mlir")
	tp2, _ := testdata(t, "jax_llama_block_tp2_f32.mlir")
	for _, args := range [][]string{
		{"--target", "cuda:nvlink", "--force", "0=oneshot", misc}, // a product reducer
		{"--target", "cuda:nvlink", "--force", "0=ring", tp2},
		{"--target", "tpu:v6e-8", "--force", "0=oneshot", tp2},
		{"--target", "cuda:nvlink", "--force", "99=oneshot", tp2},
	} {
		code, _, errs := runArc(t, "", append([]string{"compile"}, args...)...)
		if code != documented || !strings.HasPrefix(errs, "arc: --force") {
			t.Errorf("arc compile %s: exit %d (docs/LOWERINGS.md: %d), %q", strings.Join(args, " "), code, documented, errs)
		}
	}
}
