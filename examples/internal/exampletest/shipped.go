// Package exampletest holds what the examples' tests share. It checks the
// model.mlir an example ships: that the example still writes it byte for
// byte, that arc compiles it for every built-in target (golden reports), and
// what `arc inspect` shows a person for it (golden tables); `go test -update`
// rewrites the model and the golden files, `make examples-mlir` does that for
// every example. And it runs an example on GPUs when the machine has them.
package exampletest

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arcpass/arc"
	"github.com/arcpass/arc/passes"
)

var update = flag.Bool("update", false, "rewrite model.mlir and the golden files under testdata")

// DumpArgs are the flags that write a shipped model.mlir, as `make
// examples-mlir` passes them: the program on the CPU, over 8 ranks (a TPU
// v6e-8 slice, an 8-GPU node), the example's default sizes otherwise.
var DumpArgs = []string{"--dump-only", "--tp", "8"}

// ReadmeTargets are the targets whose lowered tables the README shows.
var ReadmeTargets = []string{"cuda:nvlink", "rocm:mi300x", "tpu:v6e-8"}

const model = "model.mlir"

// CheckProgram runs the example's main (run) with DumpArgs and requires the
// program it writes to equal the shipped model.mlir.
func CheckProgram(t *testing.T, run func(args []string, stdout, stderr io.Writer) int) {
	t.Helper()
	out := filepath.Join(t.TempDir(), model)
	var stdout, stderr bytes.Buffer
	if code := run(append(DumpArgs, "--dump", out), &stdout, &stderr); code != 0 {
		t.Fatalf("%v: exit %d\n%s", DumpArgs, code, stderr.String())
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, model, got, "the program no longer writes the shipped model (make examples-mlir rewrites it)")
}

// CheckReports compiles model.mlir for every target and compares each report
// with testdata/model.TARGET.report.json (":" spelled "-" in file names).
func CheckReports(t *testing.T) {
	t.Helper()
	src := read(t, model)
	for _, target := range passes.TargetNames() {
		_, rep, err := arc.Compile(model, src, arc.Options{Target: target, CastBF16: true})
		if err != nil {
			t.Errorf("arc compile --target %s %s: %v", target, model, err)
			continue
		}
		if len(rep.Collectives) == 0 {
			t.Errorf("--target %s: the report lists no collectives", target)
		}
		var b bytes.Buffer
		if err := rep.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		golden(t, filepath.Join("testdata", "model."+fileName(target)+".report.json"), b.Bytes(), "report for "+target)
	}
}

// CheckInspect runs the arc CLI as the README does: `arc inspect model.mlir`
// (testdata/inspect.txt), and `arc compile --target T` then `arc inspect` of
// the result for each README target (testdata/inspect.T.txt).
func CheckInspect(t *testing.T) {
	t.Helper()
	bin := arcBinary(t)
	golden(t, filepath.Join("testdata", "inspect.txt"), runArc(t, bin, "inspect", model), "arc inspect "+model)
	for _, target := range ReadmeTargets {
		lowered := filepath.Join(t.TempDir(), "lowered.mlir")
		runArc(t, bin, "compile", "--target", target, "-o", lowered, model)
		table := runArc(t, bin, "inspect", lowered)
		// The table names the file it read: show the one a reader would have.
		table = bytes.ReplaceAll(table, []byte(lowered), []byte("lowered.mlir"))
		golden(t, filepath.Join("testdata", "inspect."+fileName(target)+".txt"), table, "arc inspect of the "+target+" lowering")
	}
}

// fileName spells a target for a file name: Go module zips refuse ":".
func fileName(target string) string { return strings.ReplaceAll(target, ":", "-") }

func read(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// golden compares got with the file at path, or rewrites the file with -update.
func golden(t *testing.T, path string, got []byte, what string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%s: %v (go test -update writes it)", what, err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from %s (go test -update rewrites it):\n%s", what, path, firstDiff(got, want))
	}
}

func firstDiff(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n  got:  %s\n  want: %s", i+1, a, b)
		}
	}
	return "(same lines)"
}

// arcBinary builds the arc CLI into the test's temporary directory.
func arcBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "arc")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/arcpass/arc/cmd/arc").CombinedOutput(); err != nil {
		t.Fatalf("building the arc CLI: %v\n%s", err, out)
	}
	return bin
}

func runArc(t *testing.T, bin string, args ...string) []byte {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("arc %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.Bytes()
}
