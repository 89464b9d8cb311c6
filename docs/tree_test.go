package docs

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// trackedFiles lists the repository's files git tracks that match the
// patterns (every file without one), or skips the test outside a checkout.
func trackedFiles(t *testing.T, patterns ...string) []string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", "..", "ls-files", "-z", "--"}, patterns...)...).Output()
	if err != nil {
		t.Skipf("git ls-files: %v (not a git checkout)", err)
	}
	return strings.FieldsFunc(string(out), func(r rune) bool { return r == 0 })
}

// The tree holds sources, documents and test data, never a build's output:
// no executable or object file of any platform (a 20 MB ELF build of a test
// driver was once committed with a refactor), whatever its name.
func TestNoBuildOutputsInTheTree(t *testing.T) {
	magics := []struct {
		what  string
		magic []byte
	}{
		{"an ELF executable or object", []byte("\x7fELF")},
		{"a Mach-O binary", []byte{0xcf, 0xfa, 0xed, 0xfe}},
		{"a Mach-O binary", []byte{0xce, 0xfa, 0xed, 0xfe}},
		{"a universal Mach-O binary", []byte{0xca, 0xfe, 0xba, 0xbe}},
		{"a Windows executable", []byte("MZ")},
		{"an ar archive (.a)", []byte("!<arch>\n")},
	}
	for _, f := range trackedFiles(t) {
		switch filepath.Ext(f) {
		case ".o", ".so", ".a", ".dylib", ".dll", ".exe", ".test", ".pyc", ".whl", ".cubin", ".fatbin":
			t.Errorf("%s: a build output is committed", f)
			continue
		}
		fh, err := os.Open(filepath.Join("..", f))
		if err != nil {
			continue // a file of the index deleted in the work tree
		}
		head := make([]byte, 8)
		n, _ := fh.Read(head)
		fh.Close()
		for _, m := range magics {
			if bytes.HasPrefix(head[:n], m.magic) && !(m.what == "a Windows executable" && !looksPE(filepath.Join("..", f))) {
				t.Errorf("%s: %s is committed", f, m.what)
			}
		}
	}
}

// looksPE tells a Windows executable ("MZ", then a PE header where the DOS
// header points) from a text file that happens to start with "MZ".
func looksPE(path string) bool {
	b, err := os.ReadFile(path)
	if err != nil || len(b) < 0x40 {
		return false
	}
	off := int(b[0x3c]) | int(b[0x3d])<<8 | int(b[0x3e])<<16 | int(b[0x3f])<<24
	return off > 0 && off+4 <= len(b) && bytes.Equal(b[off:off+4], []byte("PE\x00\x00"))
}

// What runs on the GPU machine lives in devtest/, outside the product's
// packages: a script anywhere else is one of these, which the product or
// its tests run on a CPU.
var productScripts = []string{
	"proxy/arc_mlir_to_text.py",  // the proxy's bytecode converter
	"proxy/testdata/fake_arc.sh", // a stand-in arc for the proxy's tests
	"python/arc_build.py",        // the wheel's build backend
	"python/arc_jax/__init__.py", // the wheel
	"python/arc_jax/__main__.py", // python -m arc_jax check
	"python/build_wheel.py",      // make wheel and the backend pack with it
	"python/test_arc_jax.py",     // the wheel's tests (CPU)
	"python/test_build_backend.py",
	"spec/testdata/verify_cases.py", // writes spec's verifier cases
}

func TestGPUMachineScriptsInDevtest(t *testing.T) {
	for _, f := range trackedFiles(t, "*.sh", "*.py") {
		if !strings.HasPrefix(f, "devtest/") && !slices.Contains(productScripts, f) {
			t.Errorf("%s: a script outside devtest/ that docs/tree_test.go does not list as the product's", f)
		}
	}
}
