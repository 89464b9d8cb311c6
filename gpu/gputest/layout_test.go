package gputest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/arcpass/arc/internal/ctest"
)

// The test library declares its own copies of arc_gpu.h's structs (lib.go
// reaches the library through dlsym, without its header). A copy that
// lacks a field the header gained passes a shorter struct, which the
// library reads past its end: each copy must have the header's size and
// every field at the header's offset, which g++ checks here.
func TestLibStructsMatchTheHeader(t *testing.T) {
	src, err := os.ReadFile("lib.go")
	if err != nil {
		t.Fatal(err)
	}
	var c strings.Builder
	c.WriteString("#include <stddef.h>\n#include \"gpu/arc_gpu.h\"\n")
	for _, name := range []string{"arc_norm", "arc_comm_config"} {
		m := regexp.MustCompile(`typedef struct \{([^{}]*)\} ` + name + `;`).FindStringSubmatch(string(src))
		if m == nil {
			t.Fatalf("lib.go declares no %s", name)
		}
		copyName := "lib_" + name
		fmt.Fprintf(&c, "typedef struct {%s} %s;\n", m[1], copyName)
		fmt.Fprintf(&c, "_Static_assert(sizeof(%s) == sizeof(%s), \"lib.go's %s differs in size from arc_gpu.h's\");\n", copyName, name, name)
		for _, f := range fieldNames(m[1]) {
			fmt.Fprintf(&c, "_Static_assert(offsetof(%s, %s) == offsetof(%s, %s), \"lib.go's %s.%s is not where arc_gpu.h puts it\");\n",
				copyName, f, name, f, name, f)
		}
	}
	file := filepath.Join(t.TempDir(), "layout.c")
	if err := os.WriteFile(file, []byte(c.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ctest.Build(t, "gcc", os.DevNull, "-std=c11", "-fsyntax-only", "-I", filepath.Join("..", ".."), "-I", "..", file)
}

// fieldNames are the names a C struct body declares ("float scale, eps;",
// "int (*kv_put)(...);", "const void *bias;").
func fieldNames(body string) []string {
	var out []string
	for _, decl := range strings.Split(body, ";") {
		decl = strings.TrimSpace(decl)
		if decl == "" {
			continue
		}
		if m := regexp.MustCompile(`\(\s*\*\s*(\w+)\s*\)`).FindStringSubmatch(decl); m != nil { // a function pointer
			out = append(out, m[1])
			continue
		}
		parts := strings.Split(decl, ",")
		for i, p := range parts {
			words := regexp.MustCompile(`\w+`).FindAllString(p, -1)
			if len(words) == 0 || i == 0 && len(words) < 2 {
				continue
			}
			out = append(out, words[len(words)-1])
		}
	}
	return out
}
