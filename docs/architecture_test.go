package docs

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/arcpass/arc/lowering"
	"github.com/arcpass/arc/passes"
)

// packageDirs are the directories of the packages ARCHITECTURE.md's "Where
// to add" names as pkg.Name.
var packageDirs = map[string]string{
	"arc": ".", "passes": "passes", "lowering": "lowering", "gpu": "lowering/gpu",
	"passtest": "internal/passtest", "golden": "internal/golden", "decision": "decision", "abi": "abi", "tpu": "lowering/tpu",
}

// TestWhereToAddIsTrue keeps ARCHITECTURE.md's "Where to add" steps true:
// every file and folder it names exists, every pkg.Name is declared in
// that package, and every lowering pass of a registered target has the
// per-pass goldens, at least five, where the page says they are.
func TestWhereToAddIsTrue(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(root, "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(page), "\n## Where to add\n")
	if !ok {
		t.Fatal(`ARCHITECTURE.md has no "## Where to add"`)
	}
	section, _, _ = strings.Cut(section, "\n## ")

	paths, names := 0, 0
	for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(section, -1) {
		word := m[1]
		switch {
		case strings.ContainsAny(word, " <(\""):
			// a call or a pattern (passtest.Run(t, "<pass>"), testdata/<pass>/): checked below
		case strings.Contains(word, "/"):
			paths++
			if _, err := os.Stat(filepath.Join(root, word)); err != nil {
				t.Errorf("ARCHITECTURE.md names %s: %v", word, err)
			}
		case regexp.MustCompile(`^[a-z]+\.[A-Z]\w*$`).MatchString(word):
			names++
			pkg, name, _ := strings.Cut(word, ".")
			dir, known := packageDirs[pkg]
			if !known {
				t.Errorf("ARCHITECTURE.md names %s: add the folder of package %s to packageDirs", word, pkg)
				continue
			}
			if !declares(t, filepath.Join(root, dir), name) {
				t.Errorf("ARCHITECTURE.md names %s: %s declares no %s", word, dir, name)
			}
		}
	}
	if paths < 8 || names < 8 {
		t.Errorf("checked %d paths and %d names; the section names more", paths, names)
	}

	// The per-pass goldens of the passes that decide or rewrite.
	dirs := map[string]string{passes.SelectPass.Name(): "passes/testdata/select"}
	for _, tg := range lowering.Targets() {
		if p := tg.Lower(); p != nil {
			family := strings.TrimPrefix(p.Name(), "lower-")
			dirs[p.Name()] = filepath.Join("lowering", family, "testdata", p.Name())
		}
	}
	if len(dirs) < 4 {
		t.Errorf("found the passes %v; select and the lowerings of cuda, rocm and tpu at least", dirs)
	}
	for pass, dir := range dirs {
		cases, _ := filepath.Glob(filepath.Join(root, dir, "*.mlir"))
		n := 0
		for _, c := range cases {
			if !strings.HasSuffix(c, ".out.mlir") {
				n++
			}
		}
		if n < 5 {
			t.Errorf("pass %s has %d per-pass cases in %s, want at least 5 (ARCHITECTURE.md, A pass)", pass, n, dir)
		}
		test, _ := filepath.Glob(filepath.Join(root, filepath.Dir(filepath.Dir(dir)), "*_test.go"))
		if !anyContains(t, test, `passtest.Run(t, "`+pass+`")`) {
			t.Errorf("no test of %s runs passtest.Run(t, %q)", filepath.Dir(filepath.Dir(dir)), pass)
		}
	}
}

// declares reports whether the Go package in dir declares name at its top
// level (a func, type, var or const; tests excluded).
func declares(t *testing.T, dir, name string) bool {
	pkgs, err := parser.ParseDir(token.NewFileSet(), dir, func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		for _, f := range p.Files {
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if d.Recv == nil && d.Name.Name == name {
						return true
					}
				case *ast.GenDecl:
					for _, s := range d.Specs {
						switch s := s.(type) {
						case *ast.TypeSpec:
							if s.Name.Name == name {
								return true
							}
						case *ast.ValueSpec:
							for _, n := range s.Names {
								if n.Name == name {
									return true
								}
							}
						}
					}
				}
			}
		}
	}
	return false
}

func anyContains(t *testing.T, files []string, s string) bool {
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), s) {
			return true
		}
	}
	return false
}
