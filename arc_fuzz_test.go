package arc

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arcpass/arc/decision"
	"github.com/arcpass/arc/internal/normgen"
	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/oracle"
	"github.com/arcpass/arc/passes"
)

// fuzzSeeds are the modules FuzzCompile starts from: the fixtures and every
// testdata module.
var fuzzSeeds = []string{"testdata/fixtures/*.mlir", "testdata/exact/*/*.mlir", "lowering/testdata/*.mlir", "examples/*/model.mlir", "ir/testdata/*.mlir"}

// assignment draws a device assignment of the module's grid from seed: a
// permutation of XLA's default ids; "" (XLA's default) for seed 0 and for
// grids of more than 64 devices.
func assignment(src []byte, seed uint8) (string, func(oracle.Process) int64) {
	if seed == 0 {
		return "", nil
	}
	m, err := ir.Parse("in.mlir", src)
	if err != nil {
		return "", nil
	}
	g, err := oracle.GridOf(m, oracle.Options{})
	if err != nil || g.Size() > 64 {
		return "", nil
	}
	ids := make([]int64, g.Size())
	for i := range ids {
		ids[i] = int64(i)
	}
	x := uint32(seed)*2654435761 + 1
	for i := len(ids) - 1; i > 0; i-- {
		x = x*1664525 + 1013904223
		j := int(x>>8) % (i + 1)
		ids[i], ids[j] = ids[j], ids[i]
	}
	rows := make([]string, g.Replicas)
	for r := range rows {
		cols := make([]string, g.Partitions)
		for p := range cols {
			cols[p] = fmt.Sprint(ids[int64(r)*g.Partitions+int64(p)])
		}
		rows[r] = strings.Join(cols, ",")
	}
	return strings.Join(rows, ";"), func(p oracle.Process) int64 { return ids[p.Replica*g.Partitions+p.Partition] }
}

// FuzzCompile compiles each input for one target (the target byte, modulo
// their number), with options drawn from knob, and checks what arc
// promises: no panic; a rejection is a positioned error (FILE:LINE:COL),
// never an internal one; an accepted module's output parses, passes
// passes.Verify, compiles to itself again, and computes what the input
// computes (package oracle). The seeds are the fixtures and testdata modules
// for every target (one each, in turn, under -fuzz), each lowering golden
// for its own: `go test` runs them all, so every module of the repository
// is checked for verification, idempotence and semantics on every target
// here, once. (One target per input
// keeps every run well inside the fuzzing engine's 10 s per input, also
// with coverage instrumentation on a loaded machine.)
func FuzzCompile(f *testing.F) {
	names := Targets()
	seeds := 0
	for _, pat := range fuzzSeeds {
		files, err := filepath.Glob(pat)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range files {
			src, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			if i := slices.Index(names, goldenTarget(file)); i >= 0 {
				f.Add(src, uint8(i), goldenKnob(src))
				continue
			}
			seeds++
			for i := range names {
				// Fuzzing starts by running every seed: there, one target
				// per input (in turn) keeps a short run fuzzing.
				if !fuzzing() || i == seeds%len(names) {
					f.Add(src, uint8(i), uint8(0))
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte, target, knob uint8) {
		if len(src) > 1<<16 {
			return
		}
		name := names[int(target)%len(names)]
		opt := Options{Target: name, Quant: passes.Quants[int(knob&7)%len(passes.Quants)], CastBF16ToFP16: knob&8 != 0}
		if knob&16 != 0 && name != "none" { // none lowers nothing: --force is a usage error there
			opt.Force = []string{"all=twoshot"}
		}
		orig := original{}
		opt.DeviceAssignment, orig.assign = assignment(src, knob>>5)
		checkCompile(t, src, opt, &orig)
	})
}

// FuzzNorm compiles, for cuda:nvlink with fusion on, the module package
// normgen writes from its input: an all-reduce sum, the residual add and an
// RMSNorm, exactly as arc's fused kernels compute them or a near miss (a
// constant whose attribute dictionary holds another value, a location with
// op-like text, a maximum for the sum, names another function shadows,
// epsilon outside the sqrt, a weight along the rows, a second reader, a
// convert in an odd place, ...), in JAX's pretty form or go-xla's generic
// form. Each is checked as FuzzCompile checks its inputs: the oracle reads
// the program with its own eyes, so whatever the matcher misreads and fuses
// is a mismatch. knob&1 forces every all-reduce to two-shot. The seeds are
// normgen.Seeds, every exact one also forced.
func FuzzNorm(f *testing.F) {
	for _, c := range normgen.Seeds() {
		f.Add(c.Bytes(), uint8(0))
		if c.Exact() {
			f.Add(c.Bytes(), uint8(1))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, knob uint8) {
		c := normgen.Decode(data)
		opt := Options{Target: "cuda:nvlink"}
		if knob&1 != 0 {
			opt.Force = []string{"all=twoshot"}
		}
		t.Logf("normgen case %s", c)
		checkCompile(t, []byte(c.Module()), opt, &original{})
	})
}

// goldenKnob is the knob of FuzzCompile that compiles a lowering golden
// with the options its calls need: the --quant of a lossy codec they send,
// --cast-bf16-to-fp16 for a cast. (A call arc keeps must be one this
// compile allows: without them the golden is refused at its first call.)
func goldenKnob(src []byte) uint8 {
	m, err := ir.Parse("golden.mlir", src)
	if err != nil {
		return 0
	}
	cs, err := decision.Collectives(m)
	if err != nil {
		return 0
	}
	knob := uint8(0)
	for _, c := range cs {
		if !decision.IsCall(c) {
			continue
		}
		call, err := decision.ParseCall(m, c.Op)
		if err != nil {
			return 0
		}
		if i := slices.Index(passes.Quants, call.Codec); i > 1 { // none and fp need no --quant
			knob = knob&^7 | uint8(i)
		}
		if call.CastBF16ToFP16 {
			knob |= 8
		}
	}
	return knob
}

// fuzzing reports whether the test runs with -fuzz.
func fuzzing() bool {
	fl := flag.Lookup("test.fuzz")
	return fl != nil && fl.Value.String() != ""
}

// goldenTarget is the target of a lowering golden, NAME.TARGET[.VARIANT].out.mlir
// ("cuda-nvlink" is cuda:nvlink), or "".
func goldenTarget(file string) string {
	base := filepath.Base(file)
	if !strings.HasSuffix(base, ".out.mlir") {
		return ""
	}
	parts := strings.Split(base, ".")
	if len(parts) < 4 {
		return ""
	}
	return strings.Replace(parts[1], "-", ":", 1)
}

// original is the input as the oracle interprets it.
type original struct {
	o      *oracle.Original
	err    error
	done   bool
	assign func(oracle.Process) int64 // the device assignment given to arc, nil for XLA's default
}

// checkCompile checks one compilation (see FuzzCompile).
func checkCompile(t *testing.T, src []byte, opt Options, orig *original) {
	t.Helper()
	where := fmt.Sprintf("target %s, quant %s, cast-bf16-to-fp16 %v, force %v, device assignment %q", opt.Target, opt.Quant, opt.CastBF16ToFP16, opt.Force, opt.DeviceAssignment)
	out, _, err := Compile("in.mlir", src, opt)
	if err != nil {
		var pos *ir.Error
		if !errors.As(err, &pos) || strings.Contains(err.Error(), "internal error") {
			t.Fatalf("%s: rejected without a position (or with an internal error): %v", where, err)
		}
		return
	}
	low, err := ir.Parse("out.mlir", out)
	if err != nil {
		t.Fatalf("%s: the output does not parse: %v\n%s", where, err, out)
	}
	if err := passes.Verify(low); err != nil {
		t.Fatalf("%s: the output fails passes.Verify: %v\n%s", where, err, out)
	}
	again, _, err := Compile("out.mlir", out, opt)
	if err != nil {
		t.Fatalf("%s: compiling the output again: %v\n%s", where, err, out)
	}
	if !bytes.Equal(again, out) {
		t.Fatalf("%s: compiling the output again changes it:\n%s", where, firstLineDiff(out, again))
	}
	if !orig.done {
		orig.done = true
		m, err := ir.Parse("in.mlir", src)
		if err != nil {
			t.Fatalf("%s: arc compiled an input ir.Parse rejects: %v", where, err)
		}
		oopt := oracle.Options{MaxElems: 32, Quant: opt.Quant, Assignment: orig.assign}
		orig.o, orig.err = oracle.Prepare(m, oopt)
	}
	err = orig.err
	if err == nil {
		err = orig.o.Check(low)
	}
	var inv *oracle.InvalidError
	switch {
	case err == nil, errors.Is(err, oracle.ErrTooLarge):
	case errors.As(err, &inv) && strings.Contains(err.Error(), ": arc_allreduce: "):
		// arc checks the calls it keeps as it checks those it writes: one
		// no runtime can run (a device outside the grid, a world its
		// kernels lack) is an error at the call, not an output.
		t.Fatalf("%s: arc accepts an arc_allreduce call no runtime can run: %v", where, err)
	case errors.As(err, &inv):
		t.Fatalf("%s: arc accepts a module StableHLO's specification rejects: %v", where, err)
	default:
		t.Fatalf("%s: %v\noutput:\n%s", where, err, out)
	}
}

// firstLineDiff shows the first line where a and b differ.
func firstLineDiff(a, b []byte) string {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := range max(len(la), len(lb)) {
		var x, y string
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if x != y {
			return fmt.Sprintf("line %d:\n  first:  %s\n  second: %s", i+1, x, y)
		}
	}
	return "(same lines)"
}
