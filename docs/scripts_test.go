package docs

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// Every shell script of the repository parses (bash -n): a script the docs
// cite (.ci/coldtime for the README's timings) or the GPU machine runs must
// not die before its first line, as .ci/coldtime once did on an apostrophe
// inside its single-quoted awk program.
func TestShellScriptsParse(t *testing.T) {
	files := trackedFiles(t, "*.sh", ".ci/*")
	if len(files) == 0 {
		t.Fatal("no scripts found")
	}
	for _, f := range files {
		if msg, err := exec.Command("bash", "-n", filepath.Join("..", f)).CombinedOutput(); err != nil {
			t.Errorf("bash -n %s: %v\n%s", f, err, msg)
		}
	}
}
