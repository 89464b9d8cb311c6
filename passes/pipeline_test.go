package passes_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/passes"
)

// appendPass appends a comment line to the module, so that each pass leaves
// a visible trace.
func appendPass(name string, ran *[]string) passes.Pass {
	return passes.Func(name, nil, func(s *passes.State) error {
		*ran = append(*ran, name)
		m, err := ir.ParseString(s.Module.Name, s.Module.Src+"// "+name+"\n")
		s.Module = m
		return err
	})
}

func pipelineState(t *testing.T) *passes.State {
	t.Helper()
	m, err := ir.ParseString("m.mlir", "module @m {\n}\n")
	if err != nil {
		t.Fatal(err)
	}
	return &passes.State{Module: m}
}

func TestPipelineRunsPassesInOrderAndPrints(t *testing.T) {
	var ran []string
	var printed bytes.Buffer
	p := passes.Pipeline{Passes: []passes.Pass{appendPass("a", &ran), appendPass("b", &ran)}, PrintAfter: []string{"a"}, PrintTo: &printed}
	s := pipelineState(t)
	if err := p.Run(s); err != nil {
		t.Fatal(err)
	}
	if strings.Join(ran, " ") != "a b" || s.Module.Src != "module @m {\n}\n// a\n// b\n" {
		t.Errorf("ran %v, module %q", ran, s.Module.Src)
	}
	if want := "// ----- after a -----\nmodule @m {\n}\n// a\n"; printed.String() != want {
		t.Errorf("printed %q, want %q", printed.String(), want)
	}
	printed.Reset()
	p.PrintAfter = []string{"all"}
	if err := p.Run(pipelineState(t)); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(printed.String(), "// ----- after "); got != 2 {
		t.Errorf("--print-after all printed %d modules:\n%s", got, printed.String())
	}
	p.PrintAfter = []string{"c"}
	if err := p.Run(pipelineState(t)); err == nil || err.Error() != "--print-after c: no such pass (passes: a, b)" {
		t.Errorf("unknown pass: %v", err)
	}
}

func TestPipelineDumpsEveryStep(t *testing.T) {
	var ran []string
	dir := filepath.Join(t.TempDir(), "dump", "here")
	p := passes.Pipeline{Passes: []passes.Pass{appendPass("a", &ran), appendPass("b", &ran)}, DumpDir: dir}
	if err := p.Run(pipelineState(t)); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"00-input.mlir": "module @m {\n}\n",
		"01-a.mlir":     "module @m {\n}\n// a\n",
		"02-b.mlir":     "module @m {\n}\n// a\n// b\n",
	} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || string(got) != want {
			t.Errorf("%s: %q, %v; want %q", name, got, err, want)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 {
		t.Errorf("dump dir holds %d files, want 3", len(entries))
	}
}

// TestPipelineErrors: a pass's error names the pass, except a problem of
// the input, which keeps its FILE:LINE:COL form; nothing runs after it.
func TestPipelineErrors(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{errors.New("boom"), "b: boom"},
		{&ir.Error{File: "m.mlir", Line: 3, Col: 7, Msg: "bad input"}, "m.mlir:3:7: bad input"},
	} {
		var ran []string
		fail := passes.Func("b", nil, func(*passes.State) error { return c.err })
		p := passes.Pipeline{Passes: []passes.Pass{appendPass("a", &ran), fail, appendPass("c", &ran)}}
		err := p.Run(pipelineState(t))
		if err == nil || err.Error() != c.want || !errors.Is(err, c.err) {
			t.Errorf("got %v, want %s", err, c.want)
		}
		if strings.Join(ran, " ") != "a" {
			t.Errorf("ran %v after a failure", ran)
		}
	}
}

// TestPipelineChecksRequirements: a pass whose required passes do not run
// before it makes the pipeline fail before anything runs, as does a name
// used twice; select checks --force indices against the module.
func TestPipelineChecksRequirements(t *testing.T) {
	var ran []string
	needs := passes.Func("b", []passes.Need{{Pass: "a", Why: "it reads what a writes"}}, func(*passes.State) error { ran = append(ran, "b"); return nil })
	for _, c := range []struct {
		passes []passes.Pass
		want   string
	}{
		{[]passes.Pass{needs, appendPass("a", &ran)}, "pass b needs a to run before it: it reads what a writes (pipeline: b, a)"},
		{[]passes.Pass{appendPass("a", &ran), appendPass("a", &ran)}, "pass a appears twice"},
		{[]passes.Pass{passes.SelectPass}, "pass select needs analyse to run before it: it decides on the rows analyse checked against StableHLO's rules (pipeline: select)"},
	} {
		p := passes.Pipeline{Passes: c.passes}
		if err := p.Run(pipelineState(t)); err == nil || err.Error() != c.want {
			t.Errorf("got %v, want %s", err, c.want)
		}
	}
	if len(ran) != 0 {
		t.Errorf("ran %v in pipelines that cannot run", ran)
	}
	m, err := ir.ParseString("m.mlir", verifyModule)
	if err != nil {
		t.Fatal(err)
	}
	s := &passes.State{Module: m, Target: fakeTarget{}, Options: passes.Options{Force: map[int]passes.Force{3: {Lowering: "oneshot"}}}}
	p := passes.Pipeline{Passes: []passes.Pass{passes.AnalysePass, passes.SelectPass}}
	if err := p.Run(s); err == nil || err.Error() != "--force 3: the module has 3 collective operand(s) (arc inspect lists them)" {
		t.Errorf("force out of range: %v", err)
	}
	s = &passes.State{Module: m, Target: fakeTarget{}, Options: passes.Options{Force: map[int]passes.Force{2: {Lowering: "oneshot"}}}}
	if err := p.Run(s); err == nil || err.Error() != "--force 2: operand 2 is arc's call already, which a compile keeps as written" {
		t.Errorf("force on arc's call: %v", err)
	}
}

// TestVerifyEachNamesThePassThatBrokeTheModule: with VerifyEach, a pass
// that leaves an invalid module is caught right after it.
func TestVerifyEachNamesThePassThatBrokeTheModule(t *testing.T) {
	breaks := passes.Func("breaks", nil, func(s *passes.State) error {
		m, err := ir.ParseString(s.Module.Name, strings.Replace(s.Module.Src, "%0#0, %0#1", "%0#0, %7", 1))
		s.Module = m
		return err
	})
	m, err := ir.ParseString("m.mlir", verifyModule)
	if err != nil {
		t.Fatal(err)
	}
	var ran []string
	p := passes.Pipeline{Passes: []passes.Pass{breaks, appendPass("after", &ran)}, VerifyEach: true}
	err = p.Run(&passes.State{Module: m})
	if err == nil || !strings.HasPrefix(err.Error(), "internal error: pass breaks left an invalid module: m.mlir:") || len(ran) != 0 {
		t.Errorf("got %v, ran %v", err, ran)
	}
	p.VerifyEach = false
	if err := p.Run(&passes.State{Module: m}); err != nil {
		t.Errorf("without VerifyEach: %v", err)
	}
}

// fakeTarget decides every row native and lowers nothing itself.
type fakeTarget struct{}

func (fakeTarget) Name() string       { return "fake" }
func (fakeTarget) Lower() passes.Pass { return nil }
func (fakeTarget) Decide(row passes.Row, _ passes.Options) (passes.Decision, error) {
	return passes.Native("fake"), nil
}

// TestAnalyseVerifiesTheInput: a broken input is reported at its own
// position before any pass rewrites it.
func TestAnalyseVerifiesTheInput(t *testing.T) {
	m, err := ir.ParseString("m.mlir", strings.Replace(verifyModule, "%0#0, %0#1", "%0#0, %7", 1))
	if err != nil {
		t.Fatal(err)
	}
	err = passes.AnalysePass.Run(&passes.State{Module: m})
	if err == nil || err.Error() != "m.mlir:8:30: %7 is used but not defined" {
		t.Errorf("got %v", err)
	}
}
