package ir_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/arcpass/arc"
	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/passes"
)

// TestFixturesCompileAndInspect: every syntax fixture is a module that arc
// compile --target none gives back byte for byte, that arc's verifier
// accepts (each value defined once, before its uses: a check of the tree),
// and that arc inspect lists, one row per collective operand.
func TestFixturesCompileAndInspect(t *testing.T) {
	files, err := filepath.Glob("testdata/*.mlir")
	more, _ := filepath.Glob("testdata/results/*.mlir")
	files = append(files, more...)
	if err != nil || len(files) < 15 {
		t.Fatalf("fixtures: %v, %v", files, err)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			out, _, err := arc.Compile(path, src, arc.Options{Target: "none"})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out, src) {
				t.Errorf("compile --target none changed the text")
			}
			m, err := ir.ParseModule(path, src)
			if err != nil {
				t.Fatal(err)
			}
			if err := passes.Verify(m); err != nil {
				t.Error(err)
			}
			rep, err := passes.NewReport(m, "", nil)
			if err != nil {
				t.Fatal(err)
			}
			cs, err := m.Collectives()
			if err != nil {
				t.Fatal(err)
			}
			operands := 0
			for _, c := range cs {
				operands += len(c.OperandTypes)
			}
			if len(rep.Collectives) != operands {
				t.Errorf("inspect lists %d rows for %d collective operands", len(rep.Collectives), operands)
			}
		})
	}
}
