// Package python holds arc_jax, the Python package that makes arc JAX's GPU
// platform, the builder of its wheel (make wheel) and the PEP 517 backend
// that pyproject.toml names (pip wheel ., python -m build). This Go test
// runs their CPU tests (test_*.py) so that `go test ./...` covers them.
package python

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestPython(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3: arc_jax's tests need one")
	}
	// Read every Python file here, so that go test's cache sees an edit to
	// any of them (it tracks the files a test opens, not a child's).
	files, err := filepath.Glob("*.py")
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob("arc_jax/*.py")
	// and the files of the repository they read
	more = append(more, "../pyproject.toml", "../Makefile", "../go.mod", "../cmd/arc/version.go")
	for _, f := range append(files, more...) {
		if _, err := os.ReadFile(f); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(python, "-m", "unittest", "discover", "-s", ".", "-p", "test_*.py")
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("python3 -m unittest: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "\nOK") {
		t.Fatalf("python3 -m unittest:\n%s", out)
	}
}
