package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
