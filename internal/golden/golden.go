// Package golden compares test output with files kept in testdata, in the
// TinyGo style: `go test ./... -update` rewrites the files from the current
// output, and a reviewer reads the change in the diff. Every test with
// golden files uses it, so that one flag rewrites them all.
package golden

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

// Update rewrites golden files instead of comparing with them.
var Update = flag.Bool("update", false, "rewrite the golden files in testdata from the current output")

// Check compares got with the golden file at path, or writes it with -update.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *Update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (go test -update rewrites it):\n%s", path, Diff(want, got))
	}
}

// Diff shows the first line where want and got differ, after the line
// before it.
func Diff(want, got []byte) string {
	w, g := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	var b strings.Builder
	if i > 0 {
		fmt.Fprintf(&b, "  %d: %s\n", i, w[i-1])
	}
	if i < len(w) {
		fmt.Fprintf(&b, "- %d: %s\n", i+1, w[i])
	}
	if i < len(g) {
		fmt.Fprintf(&b, "+ %d: %s\n", i+1, g[i])
	}
	return b.String()
}
