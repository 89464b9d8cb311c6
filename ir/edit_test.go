package ir

import (
	"errors"
	"strings"
	"testing"
)

// apply applies the editor's changes and returns the new text.
func apply(t *testing.T, ed *Editor) string {
	t.Helper()
	out, err := ed.Apply()
	if err != nil {
		t.Fatal(err)
	}
	return out.Src
}

const editSrc = `func.func @main(%x: tensor<f32>) -> tensor<f32> {
  %0 = "x.a"(%x) : (tensor<f32>) -> tensor<f32>
  %1:2 = "x.pair"(%0) : (tensor<f32>) -> (tensor<f32>, tensor<f32>)
  %2 = "x.region"(%1#0) ({
  ^bb0(%a: tensor<f32>):
    %3 = "x.add"(%a, %1#1) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "x.ret"(%3, %1) : (tensor<f32>, tensor<f32>) -> ()
  }, {
  ^bb0(%a: tensor<f32>):
    %3 = "x.mul"(%a, %0) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "x.ret"(%3) : (tensor<f32>) -> ()
  }) : (tensor<f32>) -> tensor<f32>
  "x.ret"(%2, %1#1, %0) : (tensor<f32>, tensor<f32>, tensor<f32>) -> () // %1#1 in a comment
}
`

func TestEditorReplaceAndInsert(t *testing.T) {
	m := mustParse(t, editSrc)
	a, pair := opAt(t, m, 2), opAt(t, m, 3)
	ed := m.Edit()
	if ed.Changed() {
		t.Errorf("a new editor reports changes")
	}
	ed.Replace(a, `%0 = "x.b"(%x) : (tensor<f32>) -> tensor<f32>`)
	ed.InsertBefore(a, "%p = \"x.p\"() : () -> tensor<f32>\n%q = \"x.q\"() : () -> tensor<f32>")
	ed.InsertAfter(pair, `"x.after"() : () -> ()`)
	// A second insertion at the same place comes after the first.
	ed.InsertAfter(pair, `"x.after2"() : () -> ()`)
	// Insertions inside a region take the indentation of the op they follow.
	ed.InsertAfter(opAt(t, m, 6), `"x.inner"() : () -> ()`)
	if !ed.Changed() {
		t.Errorf("Changed() = false after edits")
	}
	got := apply(t, ed)
	want := strings.NewReplacer(
		`  %0 = "x.a"(%x)`, "  %p = \"x.p\"() : () -> tensor<f32>\n  %q = \"x.q\"() : () -> tensor<f32>\n  %0 = \"x.b\"(%x)",
		`(tensor<f32>) -> (tensor<f32>, tensor<f32>)`, "(tensor<f32>) -> (tensor<f32>, tensor<f32>)\n  \"x.after\"() : () -> ()\n  \"x.after2\"() : () -> ()",
		`(tensor<f32>, tensor<f32>) -> tensor<f32>
    "x.ret"(%3, %1)`, "(tensor<f32>, tensor<f32>) -> tensor<f32>\n    \"x.inner\"() : () -> ()\n    \"x.ret\"(%3, %1)",
	).Replace(editSrc)
	if got != want {
		t.Errorf("edited text:\n%s\nwant:\n%s", got, want)
	}
	// The old module is untouched and still valid.
	if m.Src != editSrc || m.Text(a) != `%0 = "x.a"(%x) : (tensor<f32>) -> tensor<f32>` {
		t.Errorf("Apply changed the original module")
	}
}

func TestEditorNoChange(t *testing.T) {
	m := mustParse(t, editSrc)
	out, err := m.Edit().Apply()
	if err != nil || out != m {
		t.Errorf("Apply without edits = %p, %v; want the same module", out, err)
	}
}

func TestEditorReplaceSpanAndIndent(t *testing.T) {
	m := mustParse(t, editSrc)
	op := opAt(t, m, 6)
	if ind := m.Indent(op); ind != "    " {
		t.Errorf("Indent = %q", ind)
	}
	ed := m.Edit()
	i := strings.Index(editSrc, `"x.add"`)
	ed.ReplaceSpan(i, i+len(`"x.add"`), `"x.sub"`)
	if got := apply(t, ed); got != strings.Replace(editSrc, "x.add", "x.sub", 1) {
		t.Errorf("ReplaceSpan:\n%s", got)
	}
}

func TestEditorOverlap(t *testing.T) {
	m := mustParse(t, editSrc)
	op := opAt(t, m, 2)
	ed := m.Edit()
	ed.Replace(op, "%0 = \"x.b\"(%x) : (tensor<f32>) -> tensor<f32>")
	ed.ReplaceSpan(int(op.Start)+2, int(op.Start)+4, "zz")
	if _, err := ed.Apply(); err == nil || !strings.Contains(err.Error(), "overlapping edits at 2:5") {
		t.Errorf("overlapping edits: %v", err)
	}
	// An insertion inside a replaced op overlaps too; one at either end does not.
	ed = m.Edit()
	ed.Replace(op, "%0 = \"x.b\"(%x) : (tensor<f32>) -> tensor<f32>")
	ed.ReplaceSpan(int(op.Start)+5, int(op.Start)+5, "x")
	if _, err := ed.Text(); err == nil {
		t.Errorf("insertion inside a replacement: no error")
	}
	ed = m.Edit()
	ed.Replace(op, `"x.c"() : () -> ()`)
	ed.InsertBefore(op, `"x.before"() : () -> ()`)
	ed.InsertAfter(op, `"x.after"() : () -> ()`)
	if got := apply(t, ed); !strings.Contains(got, "  \"x.before\"() : () -> ()\n  \"x.c\"() : () -> ()\n  \"x.after\"() : () -> ()\n") {
		t.Errorf("insertions around a replacement:\n%s", got)
	}
}

func TestEditorApplyReparses(t *testing.T) {
	m := mustParse(t, editSrc)
	ed := m.Edit()
	ed.Replace(opAt(t, m, 2), `%0 = "x.b"(%x)) : (tensor<f32>) -> tensor<f32>`)
	_, err := ed.Apply()
	var e *Error
	if !errors.As(err, &e) || !strings.Contains(err.Error(), "edited module does not parse") || e.Line != 2 || e.Col != 17 {
		t.Errorf("Apply of bad text: %v", err)
	}
	// A good edit gives a fresh tree that describes the new text.
	ed = m.Edit()
	ed.Replace(opAt(t, m, 2), "%0 = \"x.b\"(%x) ({\n  }) : (tensor<f32>) -> tensor<f32>")
	out, err := ed.Apply()
	if err != nil {
		t.Fatal(err)
	}
	op := opAt(t, out, 2)
	if op.Name != "x.b" || len(op.Regions) != 1 || opAt(t, out, 4).Name != "x.pair" {
		t.Errorf("tree after Apply: %s with %d regions", op.Name, len(op.Regions))
	}
}

func TestRenameUses(t *testing.T) {
	for _, tc := range []struct {
		name    string
		line    int // of the defining op
		value   string
		index   int
		newName string
		skip    int // line of an op to skip, 0 for none
		want    *strings.Replacer
	}{
		{"plain value, nested regions too", 2, "%0", -1, "%n", 0, strings.NewReplacer(
			`"x.pair"(%0)`, `"x.pair"(%n)`, `"x.mul"(%a, %0)`, `"x.mul"(%a, %n)`, `(%2, %1#1, %0)`, `(%2, %1#1, %n)`)},
		{"one result of a pack", 3, "%1", 1, "%r", 0, strings.NewReplacer(
			`"x.add"(%a, %1#1)`, `"x.add"(%a, %r)`, `(%2, %1#1, %0)`, `(%2, %r, %0)`)},
		{"result to result of a new pack", 3, "%1", 0, "%s#2", 0, strings.NewReplacer(
			`"x.region"(%1#0)`, `"x.region"(%s#2)`)},
		{"a pack keeps its indices", 3, "%1", -1, "%t", 0, strings.NewReplacer(
			`(%1#0)`, `(%t#0)`, `(%a, %1#1)`, `(%a, %t#1)`, `"x.ret"(%3, %1)`, `"x.ret"(%3, %t)`, `(%2, %1#1, %0)`, `(%2, %t#1, %0)`)},
		{"skip an op", 2, "%0", -1, "%n", 10, strings.NewReplacer(
			`"x.pair"(%0)`, `"x.pair"(%n)`, `(%2, %1#1, %0)`, `(%2, %1#1, %n)`)},
		// %3 of the first region: the sibling region's %3 stays.
		{"sibling scope", 6, "%3", -1, "%u", 0, strings.NewReplacer(
			`"x.ret"(%3, %1)`, `"x.ret"(%u, %1)`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := mustParse(t, editSrc)
			var skip func(*Op) bool
			if tc.skip > 0 {
				skipped := opAt(t, m, tc.skip)
				skip = func(op *Op) bool { return op == skipped }
			}
			ed := m.Edit()
			ed.RenameUses(opAt(t, m, tc.line), tc.value, tc.index, tc.newName, skip)
			got, err := ed.Text()
			if err != nil {
				t.Fatal(err)
			}
			if want := tc.want.Replace(editSrc); got != want {
				t.Errorf("renamed:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

func TestRenameUsesRefusals(t *testing.T) {
	for _, tc := range []struct {
		line           int
		value, newName string
		want           string
	}{
		{2, "%0", "%2", "rename %0: %2 is already used in its scope"},
		{2, "%0", "%a", "rename %0: %a is already used in its scope"}, // a block argument of a nested region
		{2, "%0", "%x", "rename %0: %x is already used in its scope"}, // an argument the scope uses
		{6, "%3", "%1", "rename %3: %1 is already used in its scope"},
		{2, "%0", "n", `rename %0: bad new name "n"`},
		{2, "%0", "%", `rename %0: bad new name "%"`},
	} {
		m := mustParse(t, editSrc)
		ed := m.Edit()
		ed.RenameUses(opAt(t, m, tc.line), tc.value, -1, tc.newName, nil)
		if _, err := ed.Apply(); err == nil || err.Error() != tc.want {
			t.Errorf("rename %s to %s: %v, want %s", tc.value, tc.newName, err, tc.want)
		}
	}
	// A name used only in a sibling scope is free.
	m := mustParse(t, editSrc)
	ed := m.Edit()
	ed.RenameUses(opAt(t, m, 10), "%3", -1, "%q", nil)
	if _, err := ed.Apply(); err != nil {
		t.Errorf("rename in the second region: %v", err)
	}
}

func TestFreshName(t *testing.T) {
	m := mustParse(t, "%arc0 = \"x.a\"() : () -> tensor<f32>\n\"x.b\"(%arc0, %arc2) {s = \"%arc1\"} : (tensor<f32>, tensor<f32>) -> () // %arc3\n")
	ed := m.Edit()
	var got []string
	for range 4 {
		got = append(got, ed.FreshName("arc"))
	}
	got = append(got, ed.FreshName("v"))
	// %arc1 occurs only in a string and %arc3 only in a comment: both are free.
	if want := "%arc1 %arc3 %arc4 %arc5 %v0"; strings.Join(got, " ") != want {
		t.Errorf("FreshName: %v, want %s", got, want)
	}
}

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{
		"plain":     `"plain"`,
		`a "b" \ c`: `"a \22b\22 \\ c"`,
		"tab\tnl\n": `"tab\09nl\0A"`,
		"\x7f\xff":  `"\7F\FF"`,
		"":          `""`,
	} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %s, want %s", in, got, want)
		}
		// Whatever Quote writes reads back as one string token.
		m := mustParse(t, `"x.y"() {s = `+Quote(in)+`} : () -> ()`)
		if v, _ := m.Attr(m.Body.Ops[0], "s"); v != Quote(in) {
			t.Errorf("attribute %s read back as %s", Quote(in), v)
		}
	}
}

func TestEditorTrailingCommentAndCRLF(t *testing.T) {
	m := parseFile(t, "testdata/comments.mlir")
	ed := m.Edit()
	ed.InsertAfter(opAt(t, m, 7), `"x.after"() : () -> ()`)
	got := apply(t, ed)
	want := strings.Replace(m.Src, "// uses %x (twice) ]\n", "// uses %x (twice) ]\n    \"x.after\"() : () -> ()\n", 1)
	if got != want {
		t.Errorf("insertion after an op with a trailing comment:\n%s", got)
	}

	m = parseFile(t, "testdata/crlf.mlir")
	ret := opAt(t, m, 11)
	ed = m.Edit()
	ed.InsertBefore(ret, "\"x.a\"() : () -> ()\n\"x.b\"() : () -> ()")
	ed.InsertAfter(ret, `"x.c"() : () -> ()`)
	// Replace writes its text as it is.
	ed.Replace(opAt(t, m, 6), "%1 = \"x.d\"(%a) : (tensor<f16>) -> tensor<f16>\r\n      %9 = \"x.e\"() : () -> ()")
	got = apply(t, ed)
	if strings.Count(got, "\n") != strings.Count(got, "\r\n") {
		t.Errorf("edits of a CRLF file left bare line feeds:\n%q", got)
	}
	for _, s := range []string{
		"\r\n    \"x.a\"() : () -> ()\r\n    \"x.b\"() : () -> ()\r\n    \"stablehlo.return\"(%0) : (tensor<2xf16>) -> ()\r\n    \"x.c\"() : () -> ()\r\n  }",
		"      %1 = \"x.d\"(%a) : (tensor<f16>) -> tensor<f16>\r\n      %9 = \"x.e\"() : () -> ()\r\n",
	} {
		if !strings.Contains(got, s) {
			t.Errorf("edited CRLF text lacks %q:\n%q", s, got)
		}
	}
}

// Counterparts finds each op at its place in a module whose text only
// gained attributes, and refuses a module whose tree moved.
func TestCounterparts(t *testing.T) {
	src := "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = stablehlo.add %a, %a : tensor<4xf32>\n  %1 = \"stablehlo.while\"(%0) ({\n  ^bb0(%x: tensor<4xf32>):\n    %2 = stablehlo.multiply %x, %x : tensor<4xf32>\n    stablehlo.return %2 : tensor<4xf32>\n  }) : (tensor<4xf32>) -> tensor<4xf32>\n  return %1 : tensor<4xf32>\n}\n"
	m, err := ParseString("a.mlir", src)
	if err != nil {
		t.Fatal(err)
	}
	var add, mul *Op
	m.Walk(func(op *Op) bool {
		switch op.Name {
		case "stablehlo.add":
			add = op
		case "stablehlo.multiply":
			mul = op
		}
		return true
	})
	edited := strings.Replace(strings.Replace(src, "%a, %a :", "%a, %a {x = 1} :", 1), "%x, %x :", "%x, %x {y = 2} :", 1)
	n, err := ParseString("b.mlir", edited)
	if err != nil {
		t.Fatal(err)
	}
	want := map[*Op]*Op{add: nil, mul: nil}
	if !m.Counterparts(n, want) {
		t.Fatal("Counterparts refused a module that only gained attributes")
	}
	if want[add] == nil || n.Src[want[add].Start:want[add].End] != "%0 = stablehlo.add %a, %a {x = 1} : tensor<4xf32>" {
		t.Errorf("the add's counterpart is %v", want[add])
	}
	if want[mul] == nil || want[mul].Name != "stablehlo.multiply" || want[mul].Parent == mul.Parent {
		t.Errorf("the multiply's counterpart is %v", want[mul])
	}
	moved, err := ParseString("c.mlir", strings.Replace(src, "    %2 = stablehlo.multiply %x, %x : tensor<4xf32>\n", "    %2 = stablehlo.multiply %x, %x : tensor<4xf32>\n    %3 = stablehlo.negate %x : tensor<4xf32>\n", 1))
	if err != nil {
		t.Fatal(err)
	}
	if m.Counterparts(moved, map[*Op]*Op{add: nil, mul: nil}) {
		t.Error("Counterparts took a block with another op for the same block")
	}
}
