package ir

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestUnquoteMLIR: strings are read with MLIR's escapes (\" \\ \n \t and
// \XX, one byte), not Go's: "\141" is 0x14 then '1' to MLIR and "a" to Go,
// and "\E9" (which Go refuses) is the byte 0xE9.
func TestUnquoteMLIR(t *testing.T) {
	for in, want := range map[string]string{
		`"plain"`:          "plain",
		`"\141rc"`:         "\x141rc",
		`"caf\C3\A9"`:      "café",
		`"\e9\0a"`:         "\xe9\n",
		`"a\"b\\c\n\t"`:    "a\"b\\c\n\t",
		`"\22q\22"`:        `"q"`,
		`""`:               "",
		`"\x41"`:           `"\x41"`, // an escape MLIR refuses: not a string MLIR reads
		`"\q"`:             `"\q"`,
		`"a" b`:            `"a" b`, // not one literal
		`plain`:            "plain",
		`"ends on \"`:      `"ends on \"`,
		"\"tab\vvt\"":      "\"tab\vvt\"", // a vertical tab ends a string with an error
		`"\u00e9"`:         `"\u00e9"`,
		`"\1"`:             `"\1"`,
		`"\12"`:            "\x12",
		`"x\0Dy"`:          "x\ry",
		`"\\41"`:           `\41`,
		`"\\\41"`:          `\A`,
		`"back\\"`:         `back\`,
		`"\"\"\"\"\"\""`:   `""""""`,
		`"\FF\ff\Ff\fF"`:   "\xff\xff\xff\xff",
		`"\00\00"`:         "\x00\x00",
		`"dot\2Ename"`:     "dot.name",
		`"\"\22"`:          `""`,
		`"\n\0A\t\09"`:     "\n\n\t\t",
		`"\7F\80"`:         "\x7f\x80",
		`"\7f\80x"`:        "\x7f\x80x",
		`"mixed\t\5C"`:     "mixed\t\\",
		`"trailing \5c\""`: `trailing \"`,
	} {
		if got := Unquote(in); got != want {
			t.Errorf("Unquote(%s) = %q, want %q", in, got, want)
		}
	}
}

// TestQuoteReadsBack: every byte string Quote prints is one string token that
// Unquote reads back as it was, and Quote prints as MLIR's printer does:
// printable ASCII but '"' and '\' as is, everything else as \XX.
func TestQuoteReadsBack(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	cases := []string{"", "\x00", "\"", `\`, "é", "\xff\xfe", "\n\t\r\v\f", `\22`, `\\n`}
	for range 2000 {
		b := make([]byte, r.IntN(12))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		cases = append(cases, string(b))
	}
	for _, s := range cases {
		q := Quote(s)
		if got := Unquote(q); got != s {
			t.Fatalf("Unquote(Quote(%q)) = %q (Quote wrote %s)", s, got, q)
		}
		for i := 1; i < len(q)-1; i++ {
			if c := q[i]; c < 0x20 || c >= 0x7f || c == '"' {
				t.Fatalf("Quote(%q) = %s holds byte 0x%02x as is", s, q, c)
			}
		}
		m := mustParse(t, `"x.y"() {s = `+q+`} : () -> ()`)
		if v, _ := m.Attr(m.Body.Ops[0], "s"); v != q {
			t.Fatalf("attribute %s read back as %s", q, v)
		}
	}
	if got, want := Quote("a\"b\\c\x01é"), `"a\22b\\c\01\C3\A9"`; got != want {
		t.Errorf("Quote = %s, want %s (MLIR's printer)", got, want)
	}
}

// TestQuotedNames: a quoted attribute name, symbol name or mesh axis name is
// read with MLIR's escapes.
func TestQuotedNames(t *testing.T) {
	m := mustParse(t, `module @"m\C3\A9" attributes {"arc\2Etarget" = "none"} {
  func.func @"f\22x\22"() {
    return
  }
}`)
	if got := m.Info().Name; got != "mé" {
		t.Errorf("module name %q, want %q", got, "mé")
	}
	if v, ok := m.Attr(m.ModuleOp(), "arc.target"); !ok || v != `"none"` {
		t.Errorf(`attribute "arc\2Etarget" read as %q, %v; want arc.target`, v, ok)
	}
	if fs := m.Funcs(); len(fs) != 1 || fs[0].Name != `f"x"` {
		t.Errorf("functions %+v, want one named f\"x\"", fs)
	}
	ms, err := parseMeshValue(`#sdy.mesh<["\78"=2, "y\C3\A9"=4]>`, budgetFor("mesh", 100))
	if err != nil {
		t.Fatal(err)
	}
	if ms.Axes[0].Name != "x" || ms.Axes[1].Name != "yé" {
		t.Errorf("mesh axes %+v, want x and yé", ms.Axes)
	}
	if got, want := ms.String(), `<["x"=2, "y\C3\A9"=4]>`; got != want {
		t.Errorf("mesh printed as %s, want %s", got, want)
	}
	if !strings.Contains(Quote("\x00"), `\00`) {
		t.Error("NUL not escaped")
	}
}
