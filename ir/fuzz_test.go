package ir

import (
	"bytes"
	"os"
	"testing"
)

// FuzzParse checks that the parser never panics and that whatever it accepts
// prints back byte-for-byte, has a consistent tree, and can be read by every
// typed view without a panic. Errors from the views are fine: the input is
// arbitrary.
func FuzzParse(f *testing.F) {
	for _, path := range inputs(f) {
		src, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	for _, tc := range grammarCases {
		f.Add([]byte(tc.src))
	}
	for _, s := range []string{hloText, BytecodeMagic + "\x01\x09MLIR19", bom + "module {\n}\n", "hello world\n", `{"a": 1}`, ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if _, err := ParseModule("fuzz.mlir", src); err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("ParseModule: error of type %T: %v", err, err)
			}
		}
		m, err := Parse("fuzz.mlir", src)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		var out bytes.Buffer
		if err := m.Print(&out); err != nil || !bytes.Equal(out.Bytes(), src) {
			t.Fatalf("printed text differs from the input")
		}
		checkSpans(t, m)
		m.Info()
		m.Funcs()
		m.Collectives()
		ed := m.Edit()
		n := 0
		m.Walk(func(op *Op) bool {
			m.Values(op, func(ValueRef) {})
			for _, r := range op.Regions {
				for _, b := range r.Blocks {
					m.LabelArgs(b, func(ValueRef) {})
				}
			}
			m.Attrs(op)
			m.FuncType(op)
			m.Operands(op)
			m.Collective(op)
			if _, err := m.Layout(op); err == nil {
				m.AttrValueSpan(op, "replica_groups")
				m.GenericWith(op, []int{0}, nil)
			}
			if n < 8 && len(op.Regions) == 0 { // a few no-op edits of leaf ops: each replaced by its own text
				ed.Replace(op, m.Text(op))
				n++
			}
			return true
		})
		if n > 0 {
			m2, err := ed.Apply()
			if err != nil {
				t.Fatalf("re-parse of unchanged text: %v", err)
			}
			if m2.Src != m.Src {
				t.Fatalf("no-op edits changed the text")
			}
		}
	})
}
