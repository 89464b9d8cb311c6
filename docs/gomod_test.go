package docs

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestGoModIsTidy checks, offline, what `go mod tidy` would change in
// go.mod: a module a package of arc imports is a direct requirement, any
// other a package of the build needs is an indirect one, each at the version
// the build selects, and go.mod requires nothing else. `go mod tidy -diff`
// says the same but reads the tests of every dependency, whose modules
// (testify, go-cmp, ...) the module cache of `make test` does not hold, so
// it needs the network where this test does not. The build is every file
// of the module but those tagged ignore: with and without cgo, with and
// without the tag xla.
func TestGoModIsTidy(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list over the module")
	}
	direct, needed := map[string]bool{}, map[string]string{} // module path -> selected version
	for _, build := range []struct{ env, tags string }{{"CGO_ENABLED=1", ""}, {"CGO_ENABLED=1", "xla"}, {"CGO_ENABLED=0", ""}} {
		// The module's own packages, with their tests: what they import.
		out := goList(t, build.env, build.tags, "{{range .Imports}}{{.}}\n{{end}}{{range .TestImports}}{{.}}\n{{end}}{{range .XTestImports}}{{.}}\n{{end}}", "./...")
		imported := map[string]bool{}
		for _, p := range strings.Fields(out) {
			imported[p] = true
		}
		// Every package the module's packages and their tests need, with its module.
		out = goList(t, build.env, build.tags, "{{.ImportPath}} {{with .Module}}{{.Path}} {{.Version}} {{.Main}}{{end}}", "-deps", "-test", "./...")
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			f := strings.Fields(line)
			if len(f) != 4 || f[3] == "true" {
				continue // the standard library, or arc's own
			}
			needed[f[1]] = f[2]
			if imported[f[0]] {
				direct[f[1]] = true
			}
		}
	}
	if len(needed) < 5 {
		t.Fatalf("go list found %d modules the build needs; arc needs more", len(needed))
	}

	gomod, err := os.Open(filepath.Join("..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	defer gomod.Close()
	requireLine := regexp.MustCompile(`^\s*(?:require\s+)?(\S+) (v\S+)( // indirect)?$`)
	listed := map[string]bool{}
	inBlock := false
	sc := bufio.NewScanner(gomod)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "require ("):
			inBlock = true
			continue
		case inBlock && strings.TrimSpace(line) == ")":
			inBlock = false
			continue
		case !inBlock && !strings.HasPrefix(line, "require "):
			continue
		}
		m := requireLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		path, version, indirect := m[1], m[2], m[3] != ""
		listed[path] = true
		switch v, ok := needed[path]; {
		case !ok:
			t.Errorf("go.mod:%d: %s: no package of the build needs it (go mod tidy drops it)", n, path)
		case v != version:
			t.Errorf("go.mod:%d: %s %s, but the build selects %s", n, path, version, v)
		case direct[path] && indirect:
			t.Errorf("go.mod:%d: %s is marked indirect, but a package of arc imports it (go mod tidy lists it as direct)", n, path)
		case !direct[path] && !indirect:
			t.Errorf("go.mod:%d: %s is listed as direct, but no package of arc imports it (go mod tidy marks it // indirect)", n, path)
		}
	}
	for _, path := range slices.Sorted(func(yield func(string) bool) {
		for p := range needed {
			if !yield(p) {
				return
			}
		}
	}) {
		if !listed[path] {
			t.Errorf("go.mod does not require %s %s, which the build needs (go mod tidy adds it)", path, needed[path])
		}
	}
}

func goList(t *testing.T, env, tags, format string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-tags", tags, "-f", format}, args...)...)
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), env)
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("%s go list -tags %q %s: %v\n%s", env, tags, strings.Join(args, " "), err, msg)
	}
	return string(out)
}
