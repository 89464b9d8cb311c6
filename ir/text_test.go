package ir

import (
	"reflect"
	"testing"
)

// TestScanner: the edge cases of the one scanner every package reads MLIR
// text with, each through Closing, SplitTop and IndexTop.
func TestScanner(t *testing.T) {
	for _, tc := range []struct {
		name, s string
		open    int      // where Closing starts
		close   int      // what it returns
		parts   []string // SplitTop(s, ',')
		colon   int      // IndexTop(s, ':')
	}{
		{"an arrow closes no angle bracket",
			"<(i32) -> i32>, x", 0, 13, []string{"<(i32) -> i32>", "x"}, -1},
		{"an arrow at the top level",
			"(a, b) -> (c, d): t", 0, 5, []string{"(a, b) -> (c, d): t"}, 16},
		{"a '>' after a blank is a closer",
			"tensor<4xf32 >, f32", 6, 13, []string{"tensor<4xf32 >", "f32"}, -1},
		{"brackets in a string",
			`{a = "}>)],:"}, b : i1`, 0, 13, []string{`{a = "}>)],:"}`, "b : i1"}, 18},
		{"an escaped quote in a string",
			`["a\"]", b]`, 0, 10, []string{`["a\"]", b]`}, -1},
		{"nested angle brackets",
			"dense<[[0, 1]]> : tensor<1x2xi64>, #a<b<c, d>, e>", 5, 14,
			[]string{"dense<[[0, 1]]> : tensor<1x2xi64>", "#a<b<c, d>, e>"}, 16},
		{"an arrow inside nested brackets",
			"#m<(d0) -> (d0), [x]>, y", 2, 20, []string{"#m<(d0) -> (d0), [x]>", "y"}, -1},
		{"a comment hides its brackets and separators",
			"(a, // ), : [\n b), c", 0, 16, []string{"(a, // ), : [\n b)", "c"}, -1},
		{"a comment at the top level",
			"a // b, c\n, d", 0, -1, []string{"a // b, c", "d"}, -1},
		{"a closer of another kind still closes",
			"(a]", 0, 2, []string{"(a]"}, -1},
		{"not closed",
			"[a, (b]", 0, -1, []string{"[a, (b]"}, -1},
		{"a string not closed on its line",
			"(\"a)\n\")", 0, -1, []string{"(\"a)\n\")"}, -1},
		{"no bracket to close",
			"a, b", 0, -1, []string{"a", "b"}, -1},
		{"blank", "  ", 0, -1, nil, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Closing(tc.s, tc.open); got != tc.close {
				t.Errorf("Closing(%q, %d) = %d, want %d", tc.s, tc.open, got, tc.close)
			}
			if got := SplitTop(tc.s, ','); !reflect.DeepEqual(got, tc.parts) {
				t.Errorf("SplitTop(%q) = %q, want %q", tc.s, got, tc.parts)
			}
			if got := IndexTop(tc.s, ':'); got != tc.colon {
				t.Errorf("IndexTop(%q, ':') = %d, want %d", tc.s, got, tc.colon)
			}
		})
	}
}

func TestSkipString(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want int
	}{
		{`"abc" x`, 5},
		{`"a\"b" x`, 6},
		{`"a\\" x`, 5},
		{`"a` + "\n" + `b"`, -1},
		{`"abc`, -1},
	} {
		if got := SkipString(tc.s, 0); got != tc.want {
			t.Errorf("SkipString(%q) = %d, want %d", tc.s, got, tc.want)
		}
	}
}

func TestStripLoc(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`tensor<f32> loc("a.py":1:2)`, "tensor<f32>"},
		{`tensor<f32> loc(#loc3)`, "tensor<f32>"},
		{`tensor<f32>`, "tensor<f32>"},
		{`!x.t<"loc(">`, `!x.t<"loc(">`},
		{`tensor<f32> loc(callsite("f"(#l) at #m))`, "tensor<f32>"},
		{`tensor<f32> loc("a" loc(1))x`, `tensor<f32> loc("a" loc(1))x`},
	} {
		if got := StripLoc(tc.in); got != tc.want {
			t.Errorf("StripLoc(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
