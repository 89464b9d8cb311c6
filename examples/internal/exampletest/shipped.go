// Package exampletest holds what the examples' tests share. It checks the
// model.mlir an example ships: that the example still writes it byte for
// byte, that arc compiles it for every built-in target (golden reports), and
// what `arc inspect` shows a person for it (golden tables); `go test -update`
// rewrites the model and the golden files, `make examples-mlir` does that for
// every example. And it runs an example on GPUs when the machine has them.
package exampletest

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arcpass/arc"
	"github.com/arcpass/arc/internal/golden"
	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/passes"
)

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
	checkFile(t, model, got, "the program no longer writes the shipped model (make examples-mlir rewrites it)")
}

// CheckReports compiles model.mlir for every target and compares each report
// with testdata/model.TARGET.report.json (":" spelled "-" in file names).
func CheckReports(t *testing.T) {
	t.Helper()
	src := read(t, model)
	for _, target := range arc.Targets() {
		_, rep, err := arc.Compile(model, src, arc.Options{Target: target})
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
		checkFile(t, filepath.Join("testdata", "model."+fileName(target)+".report.json"), b.Bytes(), "report for "+target)
	}
}

// CheckInspect compares what `arc inspect model.mlir` prints with
// testdata/inspect.txt, and what it prints for the module `arc compile
// --target T` makes of it with testdata/inspect.T.txt, for each README
// target. It calls what the CLI calls (arc.Compile with the CLI's defaults,
// then the report's table), which keeps the test fast; cmd/arc's own tests
// cover the CLI around it.
func CheckInspect(t *testing.T) {
	t.Helper()
	src := read(t, model)
	checkFile(t, filepath.Join("testdata", "inspect.txt"), table(t, src), "arc inspect "+model)
	for _, target := range ReadmeTargets {
		lowered, _, err := arc.Compile(model, src, arc.Options{Target: target, Quant: "none"})
		if err != nil {
			t.Fatalf("arc compile --target %s: %v", target, err)
		}
		checkFile(t, filepath.Join("testdata", "inspect."+fileName(target)+".txt"), table(t, lowered),
			"arc inspect of the "+target+" lowering")
	}
}

// table is `arc inspect`'s table of a module.
func table(t *testing.T, src []byte) []byte {
	t.Helper()
	m, err := ir.Parse(model, src)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := passes.NewReport(m, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := rep.WriteTable(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
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

// checkFile compares got with the file at path, or rewrites the file with -update.
func checkFile(t *testing.T, path string, got []byte, what string) {
	t.Helper()
	if *golden.Update {
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
