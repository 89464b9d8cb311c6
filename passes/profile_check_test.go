package passes_test

import (
	"strings"
	"testing"

	"github.com/arcpass/arc/passes"
)

// TestProfileRefusals: what decoding JSON would pass silently, or place
// badly, is an error at the value's FILE:LINE:COL.
func TestProfileRefusals(t *testing.T) {
	good := `{"target": "cuda:nvlink", "costs": {"2": {"f16": {"native": {"gbps": 1}}}}}`
	if _, err := passes.ParseProfile("p.json", []byte(good)); err != nil {
		t.Fatalf("the good profile: %v", err)
	}
	for _, c := range []struct{ name, content, want string }{
		{"empty", "", "p.json:1:1: the profile is empty"},
		{"blank", " \n\t\r\n", "p.json:1:1: the profile is empty"},
		{"byte order mark", "\xef\xbb\xbf" + good, "p.json:1:1: the profile starts with a byte order mark"},
		{"a list", `[1, 2]`, "p.json:1:1: a profile is a JSON object, not a list"},
		{"a string", `"cuda:nvlink"`, "p.json:1:1: a profile is a JSON object, not a string"},
		{"null", "null", "p.json:1:1: a profile is a JSON object, not null"},
		{"top key repeats", `{"target": "a",` + "\n" + ` "target": "b", "costs": {}}`, `p.json:2:2: key "target" repeats`},
		{"world repeats", `{"costs": {"2": {"f16": {"native": {"gbps": 1}}}, "2": {}}}`, `p.json:1:51: key "2" repeats`},
		{"cost field repeats", `{"costs": {"2": {"f16": {"native": {"gbps": 1, "gbps": 2}}}}}`, `p.json:1:48: key "gbps" repeats`},
		{"negative bandwidth", `{"costs": {"2": {"f16": {"native": {"gbps": -1}}}}}`, "p.json:1:45: negative number -1"},
		{"negative point", `{"costs": {"2": {"f16": {"native": {"points": [[4096, -0.5]]}}}}}`, "p.json:1:55: negative number -0.5"},
		{"negative bound", `{"costs": {"2": {"f16": {"native": {"gbps": 1, "min_bytes": -4}}}}}`, "p.json:1:61: negative number -4"},
		{"out of range", `{"costs": {"2": {"f16": {"native": {"gbps": 1e999}}}}}`, "p.json:1:45: number 1e999 is out of range"},
		{"NaN", `{"costs": {"2": {"f16": {"native": {"gbps": NaN}}}}}`, "p.json:1:45: NaN is not a JSON number"},
		{"Infinity", `{"costs": {"2": {"f16": {"native": {"gbps": Infinity}}}}}`, "p.json:1:45: Infinity is not a JSON number"},
		{"-Infinity", `{"costs": {"2": {"f16": {"native": {"gbps": -Infinity}}}}}`, "p.json:1:45: -Infinity is not a JSON number"},
		{"unknown lowering", `{"costs": {"2": {"f16": {"native": {"gbps": 1}, "twoshot:int3": {"gbps": 2}}}}}`, `p.json:1:49: costs[2][f16]: unknown lowering "twoshot:int3"`},
		{"a report's word", `{"costs": {"2": {"f16": {"native": {"gbps": 1}, "lowprec:fp8": {"gbps": 2}}}}}`, `p.json:1:49: costs[2][f16]: unknown lowering "lowprec:fp8"`},
		{"unknown dtype", `{"costs": {"2": {"fp16": {"native": {"gbps": 1}}}}}`, `p.json:1:18: costs[2]: unknown dtype "fp16"`},
		{"unknown top key", `{"costs": {}, "targets": "x"}`, `p.json:1:15: unknown key "targets" (want target, source, costs)`},
		{"bounds crossed", `{"costs": {"2": {"f16": {"native": {"gbps": 1, "min_bytes": 9, "max_bytes": 4}}}}}`, "p.json:1:48: costs[2][f16][native]: min_bytes 9 is above max_bytes 4"},
		{"deep nesting", `{"costs": ` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + "}", "p.json:1:"},
		{"truncated", good[:40], "p.json:1:41: unexpected end of the profile"},
		{"CRLF lines", "{\r\n  \"costs\": {\r\n    \"2\": {\"f16\": {\"native\": {\"gbps\": -3}}}\r\n  }\r\n}\r\n", "p.json:3:38: negative number -3"},
	} {
		_, err := passes.ParseProfile("p.json", []byte(c.content))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: %v, want %s...", c.name, err, c.want)
		}
	}
}

// TestProfileTarget: a profile made for another target is refused, at its
// "target" key, unless the caller says to apply it anyway.
func TestProfileTarget(t *testing.T) {
	p, err := passes.ParseProfile("p.json", []byte("{\n  \"target\": \"cuda:pcie\",\n  \"costs\": {\"2\": {\"f16\": {\"native\": {\"gbps\": 1}}}}\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.CheckTarget("cuda:pcie", false); err != nil {
		t.Errorf("its own target: %v", err)
	}
	err = p.CheckTarget("cuda:nvlink", false)
	if want := "p.json:2:3: the profile is for target cuda:pcie, not cuda:nvlink (--profile-any-target applies it anyway)"; err == nil || err.Error() != want {
		t.Errorf("another target: %v, want %s", err, want)
	}
	if err := p.CheckTarget("cuda:nvlink", true); err != nil {
		t.Errorf("applied anyway: %v", err)
	}
	anyTarget, err := passes.ParseProfile("p.json", []byte(`{"costs": {"2": {"f16": {"native": {"gbps": 1}}}}}`))
	if err != nil || anyTarget.CheckTarget("rocm:mi300x", false) != nil {
		t.Errorf("a profile that names no target applies to any: %v", err)
	}
}
