package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestMessagesPointAtTheFix: each message a newcomer meets says what to do
// next, with the exit code of its kind (1 bad input or no machine, 2 bad
// usage) and no internal names.
func TestMessagesPointAtTheFix(t *testing.T) {
	t.Setenv("ARC_PJRT_PLUGIN", "")
	t.Setenv("PJRT_PLUGIN_LIBRARY_PATH", t.TempDir())
	model := filepath.Join("..", "..", "examples", "tpmlp", "model.mlir")
	for _, c := range []struct {
		name   string
		args   []string
		code   int
		stdout bool     // the words are on stdout (help), else on stderr
		want   []string // words the fix needs
		not    []string // words it must not show
	}{
		{"bench without a GPU", []string{"bench", "-q"}, exitInput, false,
			[]string{"--from", "docs/bench/h200-xla-peer.csv", "without a GPU"}, nil},
		{"tune without a GPU", []string{"tune", "-q", "--link", "host"}, exitInput, false,
			[]string{"arc tune --from docs/bench/h200-xla-peer.csv"}, nil},
		{"kernel level without kbench", []string{"bench", "--level", "kernel", "--kbench", "/nonexistent/kbench"}, exitInput, false,
			[]string{"make kbench", "--from"}, nil},
		{"an unknown flag", []string{"compile", "--frobnicate", model}, exitUsage, false,
			[]string{"unknown flag: --frobnicate", "arc compile --help"}, nil},
		{"an unknown flag of bench", []string{"bench", "--plto", "x.svg"}, exitUsage, false, []string{"arc bench --help"}, nil},
		{"a --force row the module lacks", []string{"compile", "--target", "cuda:nvlink", "--force", "5=oneshot", "-o", "/dev/null", model}, exitUsage, false,
			[]string{"--force 5: the module has 4 collective operand(s)", "arc inspect"}, []string{"select"}},
		{"a --force lowering its row cannot take", []string{"compile", "--target", "tpu:v6e-8", "--force", "0=oneshot", "-o", "/dev/null", model}, exitUsage, false,
			[]string{"--force 0=oneshot: TPU targets lower all-reduces to ring only"}, []string{"select"}},
		{"help lists user commands", []string{"help"}, exitOK, true,
			[]string{"compile", "inspect", "bench", "tune", "accuracy", "version"}, []string{"serve"}},
		{"help shows the flags' value forms", []string{"help", "compile"}, exitOK, true,
			[]string{"--force INDEX=LOWERING[:CODEC]", "--min-bytes BYTES", "--strict[=true|false]"}, []string{"stringArray"}},
		{"a --quant a TPU cannot use", []string{"compile", "--target", "tpu:v6e-8", "--quant", "int8", "-o", "/dev/null", model}, exitOK, false,
			[]string{"note: --quant int8 is used by no all-reduce: TPU targets keep XLA's all-reduce"}, nil},
		{"--strict and a --quant no all-reduce uses", []string{"compile", "--target", "rocm:mi300x", "--quant", "INT8", "--strict", "-o", "/dev/null", model}, exitInput, false,
			[]string{"--strict: --quant int8 is used by no all-reduce", "keeps twoshot:int8 off for bf16 at world 8"}, nil},
		{"--devices at the XLA level", []string{"bench", "--devices", "0,0"}, exitUsage, false,
			[]string{"--devices: only with --level kernel"}, nil},
		{"a plot arc does not draw", []string{"bench", "--plot", "x.png"}, exitUsage, false, []string{"name it .svg"}, nil},
		{"progress into a log", []string{"accuracy", "--codec", "int8", "--world", "2", "--dtype", "f16", "--dist", "gaussian", "--elems", "4096"}, exitOK, false,
			nil, []string{"\r"}},
	} {
		code, out, errs := runArc(t, "", c.args...)
		text := errs
		if c.stdout {
			text = out
		}
		if code != c.code {
			t.Errorf("%s: arc %s: exit %d, want %d\n%s%s", c.name, strings.Join(c.args, " "), code, c.code, out, errs)
		}
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: arc %s does not say %q:\n%s", c.name, strings.Join(c.args, " "), w, text)
			}
		}
		for _, w := range c.not {
			if strings.Contains(out+errs, w) {
				t.Errorf("%s: arc %s shows %q:\n%s%s", c.name, strings.Join(c.args, " "), w, out, errs)
			}
		}
	}
}
