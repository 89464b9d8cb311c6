package ir

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arcpass/arc/internal/golden"
)

var update = golden.Update // the one -update of every golden test

// inputs lists every MLIR file the tests read: the project's fixtures and the
// syntax samples under ir/testdata.
func inputs(t testing.TB) []string {
	t.Helper()
	var files []string
	for _, pat := range []string{"../testdata/fixtures/*.mlir", "testdata/*.mlir", "testdata/results/*.mlir"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 15 {
		t.Fatalf("found only %d input files", len(files))
	}
	return files
}

func parseFile(t testing.TB, path string) *Module {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Parse(path, src)
	if err != nil {
		t.Fatalf("parse %s: %v", path, err)
	}
	return m
}

func mustParse(t testing.TB, src string) *Module {
	t.Helper()
	m, err := ParseString("test.mlir", src)
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, src)
	}
	return m
}

func TestRoundTrip(t *testing.T) {
	for _, path := range inputs(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			m := parseFile(t, path)
			var out bytes.Buffer
			if err := m.Print(&out); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out.Bytes(), src) {
				t.Fatalf("printed text differs from the input")
			}
			checkSpans(t, m)
		})
	}
}

// checkSpans checks the tree's invariants: children lie inside their parents,
// siblings come in order without overlapping, every op starts with its
// results or its name and ends on a non-blank byte, and parent links point back.
func checkSpans(t *testing.T, m *Module) {
	t.Helper()
	var block func(b *Block, lo, hi int32)
	block = func(b *Block, lo, hi int32) {
		at := lo
		if b.LabelStart >= 0 {
			if b.LabelStart < at || b.LabelEnd > hi || m.Src[b.LabelStart] != '^' || m.Src[b.LabelEnd-1] != ':' {
				t.Errorf("label %q at %d..%d out of place", b.Label, b.LabelStart, b.LabelEnd)
			}
			at = b.LabelEnd
		}
		for _, op := range b.Ops {
			if op.Parent != b {
				t.Errorf("%s at %s: wrong parent block", op.Name, m.Position(int(op.Start)))
			}
			if op.Start < at || op.End > hi || op.Start >= op.End {
				t.Errorf("%s at %s: span %d..%d outside %d..%d", op.Name, m.Position(int(op.Start)), op.Start, op.End, at, hi)
				return
			}
			if c := m.Src[op.End-1]; c == ' ' || c == '\n' || c == '\r' || c == '\t' {
				t.Errorf("%s at %s: span ends on a blank", op.Name, m.Position(int(op.Start)))
			}
			rat := op.nameEnd
			for _, r := range op.Regions {
				if r.Parent != op || r.Start < rat || r.End > op.End || m.Src[r.Start] != '{' || m.Src[r.End-1] != '}' {
					t.Errorf("%s at %s: region %d..%d out of place", op.Name, m.Position(int(op.Start)), r.Start, r.End)
					return
				}
				for _, rb := range r.Blocks {
					if rb.Parent != r {
						t.Errorf("%s: block with a wrong parent", op.Name)
					}
					block(rb, r.Start+1, r.End-1)
				}
				rat = r.End
			}
			at = op.End
		}
	}
	block(m.Body, 0, int32(len(m.Src)))
}

// outline prints the op tree: one line per op (name, generic or not, span as
// line:col-line:col), region and block label, indented by nesting.
func outline(m *Module) string {
	var b strings.Builder
	var block func(bl *Block, ind string)
	block = func(bl *Block, ind string) {
		if bl.Label != "" {
			fmt.Fprintf(&b, "%s%s\n", ind, bl.Label)
		}
		for _, op := range bl.Ops {
			name := op.Name
			switch {
			case op.Generic:
				name = `"` + name + `"`
			case name == "":
				name = strings.TrimSpace(strings.SplitN(m.Text(op), "=", 2)[0])
				if strings.HasPrefix(name, "{-#") {
					name = "{-#...#-}"
				}
			}
			fmt.Fprintf(&b, "%s%s %s-%s\n", ind, name, m.Position(int(op.Start)), m.Position(int(op.End)))
			for _, r := range op.Regions {
				fmt.Fprintf(&b, "%s  region %s-%s\n", ind, m.Position(int(r.Start)), m.Position(int(r.End)))
				for _, rb := range r.Blocks {
					block(rb, ind+"    ")
				}
			}
		}
	}
	block(m.Body, "")
	return b.String()
}

// TestTreeGolden compares the op tree of every input with its golden outline
// (testdata/trees/NAME.tree; go test ./ir -run TreeGolden -update rewrites them).
func TestTreeGolden(t *testing.T) {
	for _, path := range inputs(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			got := outline(parseFile(t, path))
			golden := filepath.Join("testdata", "trees", strings.TrimSuffix(filepath.Base(path), ".mlir")+".tree")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("tree of %s differs from %s:\n%s", path, golden, got)
			}
		})
	}
}
