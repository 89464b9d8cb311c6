package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestBytecode: MLIR bytecode is refused with the hint when no converter
// is found, and converted with ARC_MLIR_TO_TEXT (the proxy's converter
// setting) when one is; a converter that fails or prints no MLIR text is
// an error, with no output written.
func TestBytecode(t *testing.T) {
	dir := t.TempDir()
	bc := filepath.Join(dir, "model.mlirbc")
	if err := os.WriteFile(bc, []byte("ML\xefR\x00\x01\x02 not really bytecode"), 0o644); err != nil {
		t.Fatal(err)
	}
	text, _ := testdata(t, "goxla_allreduce_4rep.mlir")
	_, lowered := testdata(t, "goxla_allreduce_4rep.cuda-nvlink.out.mlir")
	t.Setenv("ARC_MLIR_TO_TEXT", "")
	out := filepath.Join(dir, "out.mlir")
	code, _, errs := runArc(t, "", "compile", "--target", "cuda:nvlink", "-o", out, bc)
	if code != exitInput || !strings.HasPrefix(errs, "arc: "+bc+":1:1: this is MLIR bytecode, not text: ") ||
		!strings.Contains(errs, "jax.jit(f).lower(*args).as_text()") || !strings.Contains(errs, "ARC_MLIR_TO_TEXT") {
		t.Errorf("no converter: exit %d, %q", code, errs)
	}
	t.Setenv("ARC_MLIR_TO_TEXT", "cat "+text)
	code, stdout, errs := runArc(t, "", "compile", "--target", "cuda:nvlink", bc)
	if code != exitOK || stdout != string(lowered) || !strings.HasPrefix(errs, "arc: note: "+bc+" is MLIR bytecode, converted to text with ARC_MLIR_TO_TEXT") {
		t.Errorf("with a converter: exit %d, stderr %q, lowered %v", code, errs, stdout == string(lowered))
	}
	for cmd, want := range map[string]string{
		"echo cannot >&2; exit 3": "converting it with ARC_MLIR_TO_TEXT failed: exit status 3: cannot",
		"printf 'ML\\357R'":       "converting it with ARC_MLIR_TO_TEXT failed: it did not print MLIR text",
		"echo hello":              `not an MLIR module: it starts with "hello", where MLIR expects an operation (module, func.func, ...) (in the text ARC_MLIR_TO_TEXT made of the bytecode)`,
	} {
		t.Setenv("ARC_MLIR_TO_TEXT", cmd)
		code, _, errs := runArc(t, "", "compile", "--target", "cuda:nvlink", "-o", out, bc)
		if code != exitInput || !strings.HasPrefix(errs, "arc: "+bc+":1:1: ") || !strings.Contains(errs, want) {
			t.Errorf("converter %q: exit %d, %q", cmd, code, errs)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed conversion left %s", out)
	}
}

// TestConverterLeavesNoChildren: what the converter starts ends with it, at
// the time limit (the limit kills the converter's whole process group) and
// when it exits leaving a child behind.
func TestConverterLeavesNoChildren(t *testing.T) {
	dir := t.TempDir()
	bc := filepath.Join(dir, "model.mlirbc")
	if err := os.WriteFile(bc, []byte("ML\xefR\x00\x01\x02 not really bytecode"), 0o644); err != nil {
		t.Fatal(err)
	}
	text, _ := testdata(t, "goxla_allreduce_4rep.mlir")
	defer func(d time.Duration) { converterTimeout = d }(converterTimeout)
	converterTimeout = time.Second
	for name, c := range map[string]struct {
		cmd  string
		code int
		want string
	}{
		"past the limit":     {"sleep 300 & echo $! > PID; wait", exitInput, "it ran longer than 1s"},
		"done, a child left": {"sleep 300 >/dev/null 2>&1 </dev/null & echo $! > PID; cat " + text, exitOK, "converted to text"},
	} {
		t.Run(name, func(t *testing.T) {
			pidFile := filepath.Join(t.TempDir(), "pid")
			t.Setenv("ARC_MLIR_TO_TEXT", strings.ReplaceAll(c.cmd, "PID", pidFile))
			start := time.Now()
			code, _, errs := runArc(t, "", "compile", "--target", "cuda:nvlink", bc)
			if code != c.code || !strings.Contains(errs, c.want) {
				t.Errorf("exit %d, %q", code, errs)
			}
			if d := time.Since(start); d > 30*time.Second {
				t.Errorf("the conversion took %v", d)
			}
			b, err := os.ReadFile(pidFile)
			if err != nil {
				t.Fatal(err)
			}
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; alive(pid); i++ {
				if i == 50 { // 5 s for init to reap it
					syscall.Kill(pid, syscall.SIGKILL)
					t.Fatalf("the converter's child %d outlived it", pid)
				}
				time.Sleep(100 * time.Millisecond)
			}
		})
	}
}

// alive reports whether process pid exists and is not a zombie.
func alive(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	_, rest, _ := strings.Cut(string(stat), ") ")
	return !strings.HasPrefix(rest, "Z") && !strings.HasPrefix(rest, "X")
}
