// Package passtest runs the per-pass golden tests, in the TinyGo style of
// internal/golden: testdata/PASS/NAME.mlir is compiled with the flags its
// first line gives ("// arc: --target cuda:nvlink --quant int8"), running
// only PASS of the target's pass table (its input carries what the passes
// before it would write), and compared with NAME.out.mlir. -update rewrites
// the outputs.
package passtest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arcpass/arc"
	"github.com/arcpass/arc/internal/golden"
)

// Header is what a case's first line starts with.
const Header = "// arc:"

// Run runs every case of testdata/<pass>/ (at least one must exist).
func Run(t *testing.T, pass string) {
	t.Helper()
	dir := filepath.Join("testdata", pass)
	ins, err := filepath.Glob(filepath.Join(dir, "*.mlir"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, in := range ins {
		if strings.HasSuffix(in, ".out.mlir") {
			continue
		}
		n++
		t.Run(strings.TrimSuffix(filepath.Base(in), ".mlir"), func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			opt, err := Options(string(src))
			if err != nil {
				t.Fatalf("%s: %v", in, err)
			}
			opt.Passes, opt.VerifyEach = []string{pass}, true
			out, _, err := arc.Compile(in, src, opt)
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, strings.TrimSuffix(in, ".mlir")+".out.mlir", out)
		})
	}
	if n == 0 {
		t.Fatalf("no cases in %s", dir)
	}
}

// Options reads a case's header line: arc compile's flags, as
// arc.Settings names them.
func Options(src string) (arc.Options, error) {
	line, _, _ := strings.Cut(src, "\n")
	rest, ok := strings.CutPrefix(line, Header)
	if !ok {
		return arc.Options{}, fmt.Errorf("the first line must be %q followed by flags", Header)
	}
	var opt arc.Options
	args := strings.Fields(rest)
	for i := 0; i < len(args); i++ {
		name, ok := strings.CutPrefix(args[i], "--")
		value, inline := "", false
		if name, value, inline = strings.Cut(name, "="); !ok {
			return opt, fmt.Errorf("%q is not a flag", args[i])
		}
		s, known := arc.Lookup(name)
		if !known {
			return opt, fmt.Errorf("unknown flag --%s", name)
		}
		if !inline {
			if s.Kind == arc.Bool {
				value = "true"
			} else if i+1 < len(args) {
				i++
				value = args[i]
			}
		}
		if err := s.Set(&opt, value); err != nil {
			return opt, fmt.Errorf("--%s: %v", name, err)
		}
	}
	return opt, nil
}
