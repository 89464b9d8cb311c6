package golden

import (
	"os/exec"
	"strings"
	"testing"
)

// TestEveryTestBinaryTakesUpdate: go test ./... -update hands -update to
// every package's test binary, and one that does not define the flag fails
// ("flag provided but not defined"). So every test binary of the module
// links this package, the one definition of -update.
func TestEveryTestBinaryTakesUpdate(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list over the module")
	}
	out, err := exec.Command("go", "list", "-test", "-f", "{{.ImportPath}} {{join .Deps \" \"}}", "../../...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	const self = "github.com/arcpass/arc/internal/golden"
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		bin, deps, _ := strings.Cut(line, " ")
		if !strings.HasSuffix(bin, ".test") {
			continue
		}
		n++
		if !strings.Contains(" "+deps+" ", " "+self+" ") && bin != self+".test" {
			t.Errorf("%s does not link %s: go test ./... -update fails there (add update_test.go: import _ %q)",
				strings.TrimSuffix(bin, ".test"), self, self)
		}
	}
	if n < 30 {
		t.Errorf("go list found %d test binaries; the module has more", n)
	}
}
