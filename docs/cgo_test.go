package docs

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestCgoOffSaysSo: a package that is C underneath, built without cgo,
// stops with a message that says what to do (README.md, "Depending on
// arc"), not with "build constraints exclude all Go files".
func TestCgoOffSaysSo(t *testing.T) {
	for pkg, name := range map[string]string{"./capture": "capture", "./proxy": "proxy", "./bench/xlarun": "bench/xlarun"} {
		cmd := exec.Command("go", "build", pkg)
		cmd.Dir = ".."
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		out, err := cmd.CombinedOutput()
		want := name + " needs cgo: build with CGO_ENABLED=1 and a C compiler (gcc or clang)"
		if err == nil || !strings.Contains(string(out), want) {
			t.Errorf("CGO_ENABLED=0 go build %s: %v, want a failure saying %q:\n%s", pkg, err, want, out)
		}
	}
}
