package ir

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

const hloText = `HloModule jit_f, entry_computation_layout={(f32[8]{0})->f32[8]{0}}, num_partitions=2

region_0.1 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT add = f32[] add(a, b)
}

ENTRY main.5 {
  x = f32[8]{0} parameter(0)
  ROOT all-reduce = f32[8]{0} all-reduce(x), channel_id=1, replica_groups={{0,1}}, use_global_device_ids=true, to_apply=region_0.1
}
`

func TestDetect(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want Format
	}{
		{hloText, FormatHLO},
		{"\n\n  HloModule m\n", FormatHLO},
		{"HloModule", FormatHLO},
		{"HloModulex", FormatText},
		{BytecodeMagic + "\x01\x09MLIR19.0.0\x00", FormatBytecode},
		{"\x89PNG\r\n\x1a\n", FormatBinary},
		{"\x1f\x8b\x08\x00", FormatBinary},
		{"\n\x05jit_f\x12", FormatBinary}, // a protocol buffer: field 1, 5 bytes
		{"module {\n}\x00", FormatBinary},
		{"\xff\xfe", FormatBinary},
		{"module @m {\n}\n", FormatText},
		{"// é\nmodule {\n}\n", FormatText},
		{"é", FormatText},
		{bom + "module {\n}\n", FormatText},
		{bom + "HloModule m\n", FormatHLO},
		{"", FormatText},
	} {
		if got := Detect([]byte(tc.src)); got != tc.want {
			t.Errorf("Detect(%.20q) = %d, want %d", tc.src, got, tc.want)
		}
	}
}

// TestParseModuleRefuses: what is not a StableHLO module is refused at its
// first line with what it is; HLO text and bytecode with the hint.
func TestParseModuleRefuses(t *testing.T) {
	const hint = "arc reads StableHLO as MLIR text: get it from JAX with jax.jit(f).lower(*args).as_text() (XLA_FLAGS=--xla_dump_to dumps HLO, not StableHLO)"
	for _, tc := range []struct{ name, src, want string }{
		{"HLO text", hloText, "1:1: this is XLA HLO text (HloModule ...), not StableHLO: " + hint},
		{"bytecode", BytecodeMagic + "\x01\x09MLIR19.0.0\x00\x01\x02", "1:1: this is MLIR bytecode, not text: " + hint},
		{"binary", "\x89PNG\r\n\x1a\n\x00\x00", "1:1: not an MLIR module: the file holds binary data, not text"},
		{"byte order mark", bom + "module {\n}\n", "1:1: not an MLIR module: the file starts with a byte order mark (U+FEFF), which MLIR does not accept"},
		{"words", "hello world\n", `1:1: not an MLIR module: it starts with "hello world", where MLIR expects an operation (module, func.func, ...)`},
		{"JSON", `{"lowerings": {"oneshot": 1}}`, `1:1: not an MLIR module: it starts with "{\"lowerings\": {\"oneshot\": 1}}", where MLIR expects an operation (module, func.func, ...)`},
		{"JSON array", "\n[1, 2]", `2:1: not an MLIR module: it starts with "[1, 2]", where MLIR expects an operation (module, func.func, ...)`},
		{"number", "42", `1:1: not an MLIR module: it starts with "42", where MLIR expects an operation (module, func.func, ...)`},
		{"a long first line", strings.Repeat("x", 100), `1:1: not an MLIR module: it starts with "` + strings.Repeat("x", 40) + `...", where MLIR expects an operation (module, func.func, ...)`},
		{"an undotted op after the first", "module {\n}\nreturn\n", `3:1: not an MLIR module: "return" is no operation at the top level of a module (module, func.func, ...)`},
		{"words after a module", "module {\n}\nhello world\n", `3:1: not an MLIR module: "hello world" after the module's body`},
		{"words after a module's location", "module {\n} loc(#l) // c\n  hello world\n", `3:3: not an MLIR module: "hello world" after the module's body`},
		{"truncated", "module {\n  func.func @f() {\n", "2:18: region is not closed"},
		{"unclosed string", "module attributes {a = \"x} {\n}\n", "1:24: string is not closed"},
		{"a vertical tab in a string", "module attributes {a = \"x\vy\"} {\n}\n", "1:26: expected '\"' in string literal"},
		{"a form feed in a string", "module attributes {a = \"x\fy\"} {\n}\n", "1:26: expected '\"' in string literal"},
		{"a stray word in a module's body", "module{s{a = 1}} {\n}\n", "1:8: custom op 's' is unknown (a module's body holds dialect ops such as func.func)"},
		{"a stray result", "module {\n  %0 = cast %x\n}\n", "2:8: custom op 'cast' is unknown (a module's body holds dialect ops such as func.func)"},
		{"words in a module's header", "module @m a b attributes {} {\n}\n", "1:11: expected '{' to begin the module's body"},
		{"a module without a body", "module @m attributes {}\n", "1:1: a module has one region, not 0"},
		// Dictionary entries are "name" or "name = value", as MLIR reads them.
		{"two words in an entry", "module attributes {a.b c = 6 : i64} {\n}\n", "1:24: expected '=' or ',' after an attribute name"},
		{"an alias without a name", "#1(\"\")\nmodule @m {\n}\n", "1:1: expected an operation, found '#'"},
		{"an alias without '='", "#a 1\nmodule @m {\n}\n", "1:4: expected '=' after the alias name #a"},
		{"an alias inside the module", "module @m {\n  #a = 1\n}\n", "2:3: expected an operation, found '#'"},
		{"two words in a nested dictionary", "module attributes {a = {b = {c d}}} {\n}\n", "1:32: expected '=' or ',' after an attribute name"},
		{"an entry without a name", "module attributes {a, = 1} {\n}\n", "1:23: expected an attribute name, found '='"},
		{"a trailing comma", "module attributes {a = 1,} {\n}\n", "1:26: expected an attribute name"},
		{"no value", "\"x.y\"() {a = } : () -> ()\n", "1:13: expected an attribute value after '='"},
		{"properties", "\"x.y\"() <{a b}> : () -> ()\n", "1:13: expected '=' or ',' after an attribute name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := ParseModule("in.mlir", []byte(tc.src))
			var e *Error
			if !errors.As(err, &e) || m != nil {
				t.Fatalf("%v (%T), module %v: want an *ir.Error", err, err, m != nil)
			}
			if got := err.Error(); got != "in.mlir:"+tc.want {
				t.Errorf("\n got %s\nwant in.mlir:%s", got, tc.want)
			}
		})
	}
}

func TestParseModuleAccepts(t *testing.T) {
	for _, src := range []string{
		"module {\n}\n",
		"module @m attributes {mhlo.num_replicas = 2 : i32} {\n  func.func @main() {\n    return\n  }\n}\n",
		"// a leading comment line\nfunc.func @main(%x: tensor<f32>) -> tensor<f32> {\n  return %x : tensor<f32>\n}\n",
		"#loc = loc(unknown)\nbuiltin.module {\n} loc(#loc)\n",
		"\"builtin.module\"() ({\n}) : () -> ()\n",
		"\"func.func\"() <{function_type = () -> (), sym_name = \"f\"}> ({\n  \"func.return\"() : () -> ()\n}) : () -> ()\n",
		"module {\r\n}\r\n",
		"// é and ü in a comment\nmodule {\n}\n",
		strings.Repeat("// a long preamble of comments\n", 100) + "module {\n}\n",
		// Implicit modules of other ops: valid MLIR, round-tripped as they are.
		"sdy.mesh @m = <[\"x\"=2]>\n",
		"gpu.module @kernels {\n}\n",
		`"x.y"() : () -> ()`,
		"module attributes {a = 1} {}\n",
		"module @\"m n\" // c\n  attributes {a = 1} // d\n{\n} loc(#l)\n",
		"module attributes {\"quoted name\" = 1, unit, a = {b, c = {d = 1}}, // note\n d = 2} {\n}\n",
		`"x.y"() <{a = 1}> {b, c = [1, 2]} : () -> ()`,
	} {
		if _, err := ParseModule("ok.mlir", []byte(src)); err != nil {
			t.Errorf("%.40q: %v", src, err)
		}
	}
}

// TestUnexpectedCharacters: a control or non-ASCII character, or an '@'
// that starts no symbol name, outside strings and comments
// is refused at its position (MLIR's lexer refuses it); inside a string or
// a comment it is the text's business.
func TestUnexpectedCharacters(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"module @m attributes{x\x08} {\n}\n", "m.mlir:1:23: unexpected character 0x08"},
		{"module @m {\n  \x7f\n}\n", "m.mlir:2:3: unexpected character 0x7f"},
		{"module @m attributes {a = \"x\x08\"} {\n}\n", ""},
		{"// a \x01 comment\nmodule @m {\n}\n", ""},
		{"module @m {\r\n\t}\r\n", ""},
		{"module @m att\u00adributes {\n}\n", "m.mlir:1:14: unexpected character U+00AD outside a string or comment"},
		{"module @m {\n  \xff\n}\n", "m.mlir:2:3: unexpected byte 0xff (not UTF-8) outside a string or comment"},
		{"module @m attributes {a = \"é\"} { // ü\n}\n", ""},
		{"module@ attributes {} {\n}\n", "m.mlir:1:7: expected a symbol name after '@'"},
		{"module @\"quoted name\" {\n}\n", ""},
		{`module attributes {a = "\"\\\n\t\0a\FF"} {` + "\n}\n", ""},
		{`module attributes {a = "x\q"} {` + "\n}\n", "m.mlir:1:26: unknown escape in string literal"},
		{`module attributes {a = "\0"} {` + "\n}\n", "m.mlir:1:25: unknown escape in string literal"},
	} {
		_, err := ParseModule("m.mlir", []byte(c.src))
		if got := fmt.Sprint(err); c.want == "" && err != nil || c.want != "" && got != c.want {
			t.Errorf("%q: %v, want %q", c.src, err, c.want)
		}
	}
}

// TestEmptyModules: MLIR reads a file of blanks, comments or aliases alone
// as an empty module, and so does arc; it prints it back byte for byte.
func TestEmptyModules(t *testing.T) {
	for _, src := range []string{"", "\n  \r\n\t", "// only a comment\n// and another\n", "#loc = loc(unknown)\n"} {
		m, err := ParseModule("in.mlir", []byte(src))
		if err != nil {
			t.Errorf("%q: %v", src, err)
			continue
		}
		if m.Src != src {
			t.Errorf("%q printed back as %q", src, m.Src)
		}
	}
}
