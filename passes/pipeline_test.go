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
	return passes.Func(name, func(s *passes.State) error {
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
		fail := passes.Func("b", func(*passes.State) error { return c.err })
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

func TestSelectNeedsAnalyseAndChecksForceIndices(t *testing.T) {
	s := pipelineState(t)
	if err := passes.SelectPass.Run(s); err == nil || !strings.Contains(err.Error(), "needs the analyse pass") {
		t.Errorf("select without analyse: %v", err)
	}
	m, err := ir.ParseString("m.mlir", verifyModule)
	if err != nil {
		t.Fatal(err)
	}
	s = &passes.State{Module: m, Target: target(t, "cuda:nvlink"), Options: passes.Options{Force: map[int]passes.Force{3: {Lowering: "oneshot"}}}}
	p := passes.Pipeline{Passes: []passes.Pass{passes.AnalysePass, passes.SelectPass}}
	if err := p.Run(s); err == nil || err.Error() != "select: --force 3: the module has 3 collective operand(s)" {
		t.Errorf("force out of range: %v", err)
	}
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
