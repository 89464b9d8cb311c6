package main

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// childMemory is the address space each arc child may add to what it
// holds at its start: arc needs tens of megabytes for any input of this
// table, whose largest files are 16 MiB.
const childMemory = 1 << 30

// contract is one bad input or path, run as `arc compile --target
// cuda:nvlink -o OUT --report REP IN` unless args says otherwise. In args,
// IN, OUT, REP and DIR stand for the input, the two outputs and the
// case's directory; files holds further files of the directory (a
// profile, a topology).
type contract struct {
	name     string
	input    []byte
	args     []string
	files    map[string][]byte
	code     int // the exit code; 0 stands for exitInput unless succeeds
	succeeds bool
	// first is a regular expression the first line of stderr must match
	// ("" for a failure: "^arc: IN:LINE:COL: "). IN and DIR are replaced
	// by their paths, quoted.
	first string
}

// TestCLIContract runs arc as a child process, under a memory limit and a
// time limit, over bad inputs and output paths: the exit code;
// for bad input the first stderr line is `arc: FILE:LINE:COL: message`;
// never a panic or a runtime dump; when arc fails, the outputs that were
// there before are unchanged and nothing else is left in their directory.
func TestCLIContract(t *testing.T) {
	valid, err := os.ReadFile(filepath.Join("..", "..", "testdata", "fixtures", "goxla_allreduce_4rep.mlir"))
	if err != nil {
		t.Fatal(err)
	}
	cases := contractCases(valid)
	if len(cases) < 40 {
		t.Fatalf("the contract has %d cases, want at least 40", len(cases))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { checkContract(t, c) })
	}
}

func contractCases(valid []byte) []contract {
	mod := func(body string) []byte {
		return []byte("module @m attributes {stablehlo.num_replicas = 2 : i32} {\n" + body + "}\n")
	}
	crlf := bytes.ReplaceAll(valid, []byte("\n"), []byte("\r\n"))
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 4096)
	for i := range random {
		random[i] = byte(rng.UintN(256))
	}
	goodProfile := `{"target": "cuda:nvlink", "costs": {"2": {"f16": {"native": {"gbps": 1}}}}}`
	cases := []contract{
		// not a module at all
		// MLIR reads these as an empty module: arc compiles them, changing nothing
		{name: "empty", input: []byte{}, succeeds: true},
		{name: "blank lines", input: []byte("\n\n   \n\t\n"), succeeds: true},
		{name: "comments only", input: []byte("// a comment\n// another\n"), succeeds: true},
		{name: "hello world", input: []byte("hello world\n")},
		{name: "a JSON file", input: []byte(`{"costs": {}}` + "\n")},
		{name: "XLA HLO text", input: []byte("HloModule jit_f, entry_computation_layout={(f32[4]{0})->f32[4]{0}}\n\nENTRY main {\n  p = f32[4] parameter(0)\n  ROOT r = f32[4] all-reduce(p), to_apply=add\n}\n")},
		{name: "MLIR bytecode, no converter", input: append([]byte("ML\xefR\x00\x05\x00"), random[:200]...)},
		{name: "PNG", input: append([]byte("\x89PNG\r\n\x1a\n"), random[:100]...)},
		{name: "gzip", input: append([]byte("\x1f\x8b\x08\x00"), random[:100]...)},
		{name: "ELF", input: append([]byte("\x7fELF\x02\x01\x01"), random[:100]...)},
		{name: "random bytes", input: random},
		{name: "NUL inside text", input: append(append([]byte{}, valid[:40]...), append([]byte{0}, valid[40:]...)...)},
		{name: "byte order mark", input: append([]byte("\xef\xbb\xbf"), valid...)},
		{name: "invalid UTF-8 at the start", input: append([]byte("\xc3\x28"), valid...)},

		// broken modules
		{name: "a lone brace", input: []byte("}\n")},
		{name: "unterminated module", input: []byte("module @m {\n  func.func @f() {\n")},
		{name: "unterminated string", input: mod("  func.func @f() attributes {a = \"never closed} {\n")},
		{name: "undefined value", input: mod("  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n    return %y : tensor<4xf32>\n  }\n")},
		{name: "CRLF, error on line 3", input: []byte("module @m {\r\n  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\r\n    return %y : tensor<4xf32>\r\n  }\r\n}\r\n")},
		{name: "text after the module", input: append(append([]byte{}, valid...), "module @second {\n"...)},
		{name: "all-reduce without a body", input: mod("  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n    %0 = \"stablehlo.all_reduce\"(%x) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>\n    return %0 : tensor<4xf32>\n  }\n")},
		{name: "deep parentheses", input: mod("  func.func @f() {\n    %0 = \"a.b\"" + strings.Repeat("(", 100000) + "\n")},
		{name: "deep attribute dictionaries", input: mod("  func.func @f() attributes " + strings.Repeat("{a = ", 50000) + "1" + strings.Repeat("}", 50000) + " {\n    return\n  }\n")},
		{name: "deep tensor types", input: mod("  func.func @f(%x: " + strings.Repeat("tensor<", 50000) + "f32" + strings.Repeat(">", 50000) + ") {\n    return\n  }\n")},
		{name: "a huge line of garbage", input: append([]byte("module @m {\n"), bytes.Repeat([]byte("x"), 16<<20)...)},
		{name: "a huge unterminated string", input: append([]byte("module @m attributes {a = \""), bytes.Repeat([]byte("y"), 16<<20)...)},

		// valid inputs at the edges: they compile, within the memory limit
		{name: "CRLF lines", input: crlf, succeeds: true},
		{name: "a huge comment line", input: append(append([]byte("// "), bytes.Repeat([]byte("z"), 8<<20)...), append([]byte("\n"), valid...)...), succeeds: true},
		{name: "two billion replicas", succeeds: true, input: []byte("module @m attributes {mhlo.num_replicas = 2000000000 : i32} {\n  func.func @main(%x: tensor<1024xf32>) -> tensor<1024xf32> {\n    %0 = \"stablehlo.all_reduce\"(%x) ({\n    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n      %1 = stablehlo.add %a, %b : tensor<f32>\n      stablehlo.return %1 : tensor<f32>\n    }) {replica_groups = dense<> : tensor<0x0xi64>} : (tensor<1024xf32>) -> tensor<1024xf32>\n    return %0 : tensor<1024xf32>\n  }\n}\n")},

		// profiles and topologies
		{name: "profile: empty", input: valid, files: map[string][]byte{"p.json": {}}, first: `^arc: DIR/p\.json:1:1: the profile is empty`},
		{name: "profile: negative", input: valid, files: map[string][]byte{"p.json": []byte(strings.Replace(goodProfile, `"gbps": 1`, `"gbps": -1`, 1))}, first: `^arc: DIR/p\.json:1:\d+: negative number -1`},
		{name: "profile: NaN", input: valid, files: map[string][]byte{"p.json": []byte(strings.Replace(goodProfile, `"gbps": 1`, `"gbps": NaN`, 1))}, first: `^arc: DIR/p\.json:1:\d+: NaN is not a JSON number`},
		{name: "profile: out of range", input: valid, files: map[string][]byte{"p.json": []byte(strings.Replace(goodProfile, `"gbps": 1`, `"gbps": 1e999`, 1))}, first: `^arc: DIR/p\.json:1:\d+: number 1e999 is out of range`},
		{name: "profile: repeated key", input: valid, files: map[string][]byte{"p.json": []byte(strings.Replace(goodProfile, `"gbps": 1`, `"gbps": 1, "gbps": 2`, 1))}, first: `^arc: DIR/p\.json:1:\d+: key "gbps" repeats`},
		{name: "profile: unknown lowering", input: valid, files: map[string][]byte{"p.json": []byte(strings.Replace(goodProfile, `"native"`, `"native": {"gbps": 1}, "twoshot:int2"`, 1))}, first: `^arc: DIR/p\.json:1:\d+: costs\[2\]\[f16\]: unknown lowering "twoshot:int2"`},
		{name: "profile: another target", input: valid, files: map[string][]byte{"p.json": []byte(strings.Replace(goodProfile, "cuda:nvlink", "rocm:mi300x", 1))}, first: `^arc: DIR/p\.json:1:2: the profile is for target rocm:mi300x, not cuda:nvlink`},
		{name: "profile: another target, applied anyway", input: valid, files: map[string][]byte{"p.json": []byte(strings.Replace(goodProfile, "cuda:nvlink", "rocm:mi300x", 1))},
			args: []string{"compile", "--target", "cuda:nvlink", "--profile", "DIR/p.json", "--profile-any-target", "-o", "OUT", "--report", "REP", "IN"}, succeeds: true},
		{name: "profile: byte order mark", input: valid, files: map[string][]byte{"p.json": []byte("\xef\xbb\xbf" + goodProfile)}, first: `^arc: DIR/p\.json:1:1: the profile starts with a byte order mark`},
		{name: "profile: truncated", input: valid, files: map[string][]byte{"p.json": []byte(goodProfile[:50])}, first: `^arc: DIR/p\.json:1:51: unexpected end of the profile`},
		{name: "profile: deep nesting", input: valid, files: map[string][]byte{"p.json": []byte(`{"costs": ` + strings.Repeat("[", 100000))}, first: `^arc: DIR/p\.json:1:\d+: nesting deeper than`},
		{name: "profile: binary", input: valid, files: map[string][]byte{"p.json": random}, first: `^arc: DIR/p\.json:1:1: `},
		{name: "topology: empty", input: valid, files: map[string][]byte{"t.json": []byte("\n")}, first: `^arc: DIR/t\.json:1:1: the topology is empty`},
		{name: "topology: negative coordinate", input: valid, files: map[string][]byte{"t.json": []byte("{\"devices\": [\n  {\"id\": 0, \"coords\": [0, -1]}\n]}\n")}, first: `^arc: DIR/t\.json:2:23: devices\[0\]\.coords`},
		{name: "topology: repeated key", input: valid, files: map[string][]byte{"t.json": []byte(`{"devices": [{"id": 0, "id": 1}]}`)}, first: `^arc: DIR/t\.json:1:24: devices\[0\]: key "id" repeats`},
		{name: "topology: Infinity", input: valid, files: map[string][]byte{"t.json": []byte(`{"devices": [{"id": Infinity}]}`)}, first: `^arc: DIR/t\.json:1:21: Infinity is not a JSON number`},

		// paths
		{name: "-o empty", input: valid, args: []string{"compile", "--target", "cuda:nvlink", "-o", "", "IN"}, code: exitUsage, first: `^arc compile: -o "": want a file name`},
		{name: "--report empty", input: valid, args: []string{"compile", "--target", "cuda:nvlink", "-o", "OUT", "--report", "", "IN"}, code: exitUsage, first: `^arc compile: --report "": want a file name`},
		{name: "-o and --report on one file", input: valid, args: []string{"compile", "--target", "cuda:nvlink", "-o", "OUT", "--report", "OUT", "IN"}, code: exitUsage, first: `^arc compile: -o and --report both write`},
		{name: "-o and --report on one file, two spellings", input: valid, args: []string{"compile", "--target", "cuda:nvlink", "-o", "OUT", "--report", "DIR/./out.mlir", "IN"}, code: exitUsage, first: `^arc compile: -o and --report both write`},
		{name: "-o and --report both stdout", input: valid, args: []string{"compile", "--target", "cuda:nvlink", "-o", "-", "--report", "-", "IN"}, code: exitUsage, first: `^arc compile: -o and --report both write standard output`},
		{name: "-o a directory", input: valid, args: []string{"compile", "--target", "cuda:nvlink", "-o", "DIR", "--report", "REP", "IN"}, code: exitInput, first: `^arc: cannot write DIR: is a directory`},
		{name: "-o in a missing directory", input: valid, args: []string{"compile", "--target", "cuda:nvlink", "-o", "DIR/no/such/out.mlir", "--report", "REP", "IN"}, code: exitInput, first: `^arc: cannot write DIR/no/such/out\.mlir: `},
		{name: "--report in a missing directory", input: valid, args: []string{"compile", "--target", "cuda:nvlink", "-o", "OUT", "--report", "DIR/no/r.json", "IN"}, code: exitInput, first: `^arc: cannot write DIR/no/r\.json: `},
		{name: "a missing input", args: []string{"compile", "--target", "cuda:nvlink", "-o", "OUT", "DIR/missing.mlir"}, code: exitInput, first: `^arc: open DIR/missing\.mlir: no such file`},
		{name: "a directory as input", args: []string{"compile", "--target", "cuda:nvlink", "-o", "OUT", "DIR"}, code: exitInput, first: `^arc: DIR: is a directory`},
		{name: "an empty input name", args: []string{"compile", "--target", "cuda:nvlink", "-o", "OUT", ""}, code: exitUsage, first: `^arc compile: the input FILE is empty text`},
		{name: "two inputs", input: valid, args: []string{"compile", "--target", "cuda:nvlink", "-o", "OUT", "IN", "IN"}, code: exitUsage, first: `^arc compile: want exactly one input FILE`},
		{name: "a boolean word after a boolean flag", input: valid, args: []string{"compile", "--target", "rocm:mi300x", "--cast-bf16-to-fp16", "false", "-o", "OUT", "IN"}, code: exitUsage, first: `^arc compile: --cast-bf16-to-fp16 false: a boolean flag`},
		{name: "--strict, lowered for another target", input: nil, args: []string{"compile", "--target", "rocm:mi300x", "--strict", "-o", "OUT", "--report", "REP", "DIR/lowered.mlir"},
			files: map[string][]byte{"lowered.mlir": lowered(valid)}, code: exitInput, first: `^arc: DIR/lowered\.mlir:1:1: --strict: the module was lowered for cuda:nvlink`},
		// arc's marks on an input: decided afresh on an all-reduce, checked on a call
		{name: "marks on a max reducer", succeeds: true, input: mod(marks("maximum", `arc.lowering = "twoshot", arc.codec = "int4", arc.algo = "twoshot", arc.link = "peer", arc.cast = false`))},
		{name: "a call whose world is a string", input: mod(handCall(`"2"`, "0, 1")), first: `^arc: IN:3:5: stablehlo\.custom_call: backend_config: world = "2" is a string`},
		{name: "a call outside the replicas", input: mod(handCall("2 : i64", "0, 1, 2, 3")), first: `^arc: IN:3:5: stablehlo\.custom_call: groups name process 2, but the module's grid has 2 processes`},
		{name: "a call with a process twice", input: mod(handCall("2 : i64", "1, 1")), first: `^arc: IN:3:5: stablehlo\.custom_call: process 1 is in the groups twice`},
		{name: "--strict, nothing lowered", input: valid, args: []string{"compile", "--target", "tpu:v6e-1", "--strict", "-o", "OUT", "--report", "REP", "IN"}, code: exitInput,
			first: `^arc: IN:\d+:\d+: --strict: nothing lowered for tpu:v6e-1: `},
	}
	for _, permille := range []int{100, 200, 300, 500, 700, 900, 950, 990} { // truncations
		n := len(valid) * permille / 1000
		cases = append(cases, contract{name: fmt.Sprintf("truncated at byte %d of %d", n, len(valid)), input: valid[:n]})
	}
	// the lines of a valid module, each cut in half
	for i, line := range bytes.SplitAfter(valid, []byte("\n")) {
		if i%3 != 1 || len(line) < 8 {
			continue
		}
		cut := append(append([]byte{}, valid[:bytes.Index(valid, line)+len(line)/2]...), '\n')
		cases = append(cases, contract{name: fmt.Sprintf("cut in line %d", i+1), input: cut})
	}
	for i := range cases {
		if cases[i].code == 0 && !cases[i].succeeds {
			cases[i].code = exitInput
		}
		if cases[i].args == nil {
			cases[i].args = []string{"compile", "--target", "cuda:nvlink", "-o", "OUT", "--report", "REP", "IN"}
			if _, ok := cases[i].files["p.json"]; ok {
				cases[i].args = []string{"compile", "--target", "cuda:nvlink", "--profile", "DIR/p.json", "-o", "OUT", "--report", "REP", "IN"}
			}
			if _, ok := cases[i].files["t.json"]; ok {
				cases[i].args = []string{"compile", "--target", "cuda:nvlink", "--topology", "DIR/t.json", "-o", "OUT", "--report", "REP", "IN"}
			}
		}
	}
	return cases
}

// marks is a function of one all-reduce of 4096 f32 over both replicas
// whose reducer is red, carrying attrs (arc's marks).
func marks(red, attrs string) string {
	return "  func.func @f(%x: tensor<4096xf32>) -> tensor<4096xf32> {\n" +
		"    %0 = \"stablehlo.all_reduce\"(%x) ({\n    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n" +
		"      %1 = \"stablehlo." + red + "\"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n      \"stablehlo.return\"(%1) : (tensor<f32>) -> ()\n" +
		"    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, " + attrs + "} : (tensor<4096xf32>) -> tensor<4096xf32>\n" +
		"    return %0 : tensor<4096xf32>\n  }\n"
}

// handCall is a function of one hand-written arc_allreduce call of world
// over the processes ids (flattened ids and devices alike).
func handCall(world, ids string) string {
	return "  func.func @f(%x: tensor<4096xf32>) -> tensor<4096xf32> {\n" +
		"    %0 = \"stablehlo.custom_call\"(%x) {api_version = 4 : i32, backend_config = {algo = \"oneshot\", cast = 0 : i64, codec = \"none\", devices = array<i64: " + ids +
		">, groups = array<i64: " + ids + ">, link = \"peer\", world = " + world + "}, call_target_name = \"arc_allreduce\", has_side_effect = true} : (tensor<4096xf32>) -> tensor<4096xf32>\n" +
		"    return %0 : tensor<4096xf32>\n  }\n"
}

// lowered is valid lowered for cuda:nvlink, in-process.
func lowered(valid []byte) []byte {
	var out, errs bytes.Buffer
	if run([]string{"compile", "--target", "cuda:nvlink", "-"}, stdio{bytes.NewReader(valid), &out, &errs}) != exitOK {
		panic(errs.String())
	}
	return out.Bytes()
}

var runtimeDump = regexp.MustCompile(`(?m)^(panic: |fatal error: |goroutine \d+ \[|runtime: |SIGSEGV|\[signal )`)

func checkContract(t *testing.T, c contract) {
	dir := t.TempDir()
	in, out, rep := filepath.Join(dir, "in.mlir"), filepath.Join(dir, "out.mlir"), filepath.Join(dir, "report.json")
	before := map[string][]byte{}
	if c.input != nil {
		before[in] = c.input
	}
	for name, data := range c.files {
		before[filepath.Join(dir, name)] = data
	}
	for _, p := range []string{out, rep} { // outputs from an earlier run, which a failure must leave alone
		before[p] = []byte("keep me\n")
	}
	for p, data := range before {
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	args := make([]string, len(c.args))
	for i, a := range c.args {
		a = strings.NewReplacer("IN", in, "OUT", out, "REP", rep).Replace(a)
		args[i] = strings.ReplaceAll(a, "DIR", dir)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "ARC_") }),
		"ARC_TEST_AS_ARC=1", fmt.Sprintf("ARC_TEST_RLIMIT_AS=%d", childMemory), "GOMEMLIMIT=256MiB")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := cmd.ProcessState.ExitCode()
	if ctx.Err() != nil {
		t.Fatalf("arc %s ran past its time limit", strings.Join(args, " "))
	}
	if err != nil && code < 0 {
		t.Fatalf("arc did not exit: %v", err)
	}
	errs := stderr.String()
	if runtimeDump.MatchString(errs) {
		t.Fatalf("a panic or runtime dump (exit %d):\n%s", code, clip(errs))
	}
	if code != c.code {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, c.code, clip(errs))
	}
	firstLine, _, _ := strings.Cut(errs, "\n")
	want := c.first
	if want == "" && c.code != exitOK {
		want = `^arc: IN:\d+:\d+: \S`
	}
	if want != "" {
		re := strings.NewReplacer("IN", regexp.QuoteMeta(in), "DIR", regexp.QuoteMeta(dir)).Replace(want)
		if !regexp.MustCompile(re).MatchString(firstLine) {
			t.Errorf("first stderr line %q, want %s", clip(firstLine), want)
		}
	}
	if c.code != exitOK && stdout.Len() > 0 {
		t.Errorf("a failure wrote to stdout: %q", clip(stdout.String()))
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		old, known := before[p]
		switch {
		case !known:
			t.Errorf("%s was left in the output directory", e.Name())
		case c.code != exitOK:
			if now, err := os.ReadFile(p); err != nil || !bytes.Equal(now, old) {
				t.Errorf("a failure changed %s", e.Name())
			}
		}
	}
	if c.code == exitOK && slices.Contains(c.args, "OUT") {
		if now, err := os.ReadFile(out); err != nil || bytes.Equal(now, before[out]) {
			t.Errorf("a success left -o %s unwritten (%v)", out, err)
		}
	}
}

// TestOutputThroughSymlink: -o through a symbolic link writes the file the
// link names, which may not exist yet, and keeps the link.
func TestOutputThroughSymlink(t *testing.T) {
	in, _ := testdata(t, "goxla_allreduce_4rep.mlir")
	_, want := testdata(t, "goxla_allreduce_4rep.cuda-nvlink.out.mlir")
	dir := t.TempDir()
	for _, existing := range []bool{false, true} {
		target, link := filepath.Join(dir, fmt.Sprintf("target-%v.mlir", existing)), filepath.Join(dir, fmt.Sprintf("link-%v.mlir", existing))
		if existing {
			if err := os.WriteFile(target, []byte("old\n"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Symlink(filepath.Base(target), link); err != nil {
			t.Fatal(err)
		}
		if code, _, errs := runArc(t, "", "compile", "--target", "cuda:nvlink", "-o", link, in); code != exitOK {
			t.Fatalf("exit %d: %s", code, errs)
		}
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("existing target %v: the link is gone (%v)", existing, err)
		}
		if got, err := os.ReadFile(target); err != nil || !bytes.Equal(got, want) {
			t.Errorf("existing target %v: the link's target holds %q (%v)", existing, clip(string(got)), err)
		}
		if fi, err := os.Stat(target); existing && (err != nil || fi.Mode().Perm() != 0o600) {
			t.Errorf("the target's mode %v, want it kept (-rw-------)", fi.Mode())
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 4 {
		t.Errorf("left in the directory: %d entries, want the 2 links and 2 targets", len(entries))
	}
}
