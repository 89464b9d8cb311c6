package passes

import (
	"fmt"
	"slices"
	"strings"

	"github.com/arcpass/arc/decision"
	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/spec"
)

// VerifyPass checks the module after lowering as the analyse pass checked
// the input (its structure, and every all-reduce against StableHLO's
// specification): a failure is a bug in a pass, caught before a broken
// program reaches the compiler.
var VerifyPass = Func("verify", nil, func(s *State) error {
	if err := Check(s.Module, s.Options.DeviceAssignment); err != nil {
		return fmt.Errorf("internal error: the lowered module is invalid: %w", err)
	}
	return nil
})

// Check is Verify, then StableHLO's rules for every all-reduce (package
// spec) under the device assignment da: what the analyse pass checks of an
// input, and the verify pass and VerifyEach of every module a pass writes.
// A module is checked once (ir.Module.Memo): the verify pass of a compile
// that changed nothing finds the analyse pass's checks done.
func Check(m *ir.Module, da spec.DeviceAssignment) error {
	cs, err := verify(m)
	if err != nil {
		return err
	}
	if specChecked(m, da) {
		return nil
	}
	checked, err := spec.CheckAll(m, cs, da)
	if err != nil {
		return err
	}
	if err := checkCallDevices(m, cs, checked, da); err != nil {
		return err
	}
	markSpecChecked(m, da)
	return nil
}

// checkCallDevices checks that each of arc's calls among cs runs its groups
// on the devices the device assignment da gives their processes (checked
// are package spec's results, one per collective, which expand them): a
// call lowered under another assignment, or written with other devices,
// would run its ranks on other processes than the module's, or on devices
// that run none.
func checkCallDevices(m *ir.Module, cs []*ir.Collective, checked []spec.Result, da spec.DeviceAssignment) error {
	for i, c := range cs {
		if !decision.IsCall(c) {
			continue
		}
		call, err := decision.ParseCall(m, c.Op)
		if err != nil {
			return err
		}
		got, want := call.DeviceGroups(), checked[i].Groups
		same := len(got) == len(want)
		for j := 0; same && j < len(got); j++ {
			same = slices.Equal(got[j], want[j])
		}
		if !same {
			under := "XLA's default device assignment"
			if da != nil {
				under = "the device assignment " + da.String()
			}
			return m.Errorf(int(c.Op.Start), "%s: devices %v are not the devices of the groups' processes %v under %s: %v", c.Op.Name, got, c.Groups, under, want)
		}
	}
	return nil
}

// specKey is the fact (ir.Module.Fact) that spec.CheckAll passed on a
// module under a device assignment.
type specKey struct{ da string }

func specChecked(m *ir.Module, da spec.DeviceAssignment) bool {
	_, done := m.Fact(specKey{fmt.Sprint(da)})
	return done
}

func markSpecChecked(m *ir.Module, da spec.DeviceAssignment) {
	m.SetFact(specKey{fmt.Sprint(da)}, true)
}

// structureKey is the fact of verifyStructure's result on a module.
type structureKey struct{}

type structureResult struct{ err error }

// verifyStructure is Verify's check of the values, once per module.
func verifyStructure(m *ir.Module) error {
	if r, ok := m.Fact(structureKey{}); ok {
		return r.(structureResult).err
	}
	err := checkStructure(m)
	m.SetFact(structureKey{}, structureResult{err})
	return err
}

func checkStructure(m *ir.Module) error {
	// One map of the names in scope, each scope's names undone when it
	// closes: a use is one lookup however deep it sits. A module defines
	// about one value per 100 bytes.
	v := &verifier{m: m, defs: make(map[string]def, len(m.Src)/100)}
	v.block(m.Body)
	return v.err
}

// Verify checks that every value is defined once in its scope before it is
// used, that "%x#k" stays within x's results, that generic ops declare as many
// result types as results and as many operand types as operands, and that
// arc's custom calls return exactly the types they take. An all-reduce's own
// rules are the specification's (Check).
func Verify(m *ir.Module) error {
	_, err := verify(m)
	return err
}

// verify is Verify, returning the module's collectives it read on the way.
func verify(m *ir.Module) ([]*ir.Collective, error) {
	if err := verifyStructure(m); err != nil {
		return nil, err
	}
	cs, err := decision.Collectives(m)
	if err != nil {
		return nil, err
	}
	return cs, checkCalls(m, cs)
}

// checkCalls checks that arc's calls among cs return exactly what they
// take. A StableHLO or MHLO all-reduce's types are the specification's to
// check (spec.CheckAll, in Check), with MLIR's words.
func checkCalls(m *ir.Module, cs []*ir.Collective) error {
	for _, c := range cs {
		if !decision.IsCall(c) {
			continue
		}
		if len(c.ResultTypes) != len(c.OperandTypes) {
			return m.Errorf(int(c.Op.Start), "%s has %d operands but %d results", c.Op.Name, len(c.OperandTypes), len(c.ResultTypes))
		}
		for i, in := range c.OperandTypes {
			if out := c.ResultTypes[i]; in.String() != out.String() {
				return m.Errorf(int(c.Op.Start), "%s: operand %d is %s but result %d is %s", c.Op.Name, i, in, i, out)
			}
		}
	}
	return nil
}

type verifier struct {
	m    *ir.Module
	defs map[string]def // the names in scope: an inner scope may not redefine one
	undo []string       // the names defined, in order; a closing scope removes its own
	err  error
}

type def struct {
	count int
	off   int
}

func (v *verifier) lookup(name string) (def, bool) {
	d, ok := v.defs[name]
	return d, ok
}

func (v *verifier) define(r ir.ValueRef) {
	if d, ok := v.lookup(r.Name); ok {
		v.fail(r.Off, "%s is defined twice (first at %s)", r.Name, v.m.Position(d.off))
		return
	}
	v.defs[r.Name] = def{r.Count, r.Off}
	v.undo = append(v.undo, r.Name)
}

// open starts a scope; close(mark) ends it, forgetting what it defined.
func (v *verifier) open() int { return len(v.undo) }

func (v *verifier) close(mark int) {
	for _, name := range v.undo[mark:] {
		delete(v.defs, name)
	}
	v.undo = v.undo[:mark]
}

func (v *verifier) fail(off int, format string, args ...any) {
	if v.err == nil {
		v.err = v.m.Errorf(off, format, args...)
	}
}

func (v *verifier) block(b *ir.Block) {
	defer v.close(v.open())
	for _, op := range b.Ops {
		v.op(op)
		if v.err != nil {
			return
		}
	}
}

func (v *verifier) op(op *ir.Op) {
	var results, args []ir.ValueRef
	nResults := 0
	v.m.Values(op, func(r ir.ValueRef) {
		switch r.Kind {
		case ir.Use:
			d, ok := v.lookup(r.Name)
			switch {
			case r.Name == "%":
				v.fail(r.Off, "expected a value name after '%%'")
			case !ok:
				v.fail(r.Off, "%s is used but not defined", r.Name)
			case r.Index >= d.count:
				v.fail(r.Off, "%s#%d: %s has %d result(s)", r.Name, r.Index, r.Name, d.count)
			}
		case ir.Result:
			results = append(results, r)
			nResults += r.Count
		case ir.Arg:
			args = append(args, r)
		}
	})
	if op.Generic && op.Name != "" {
		for i, operand := range v.m.Operands(op) {
			if !ir.IsValueRef(operand) {
				v.fail(int(op.Start), "%s: operand %d (%s) is not a value", op.Name, i, strings.Join(strings.Fields(operand), " "))
			}
		}
		if ins, outs, ok := v.m.FuncType(op); ok {
			typed := len(outs)
			if len(outs) == 1 && outs[0] == "()" {
				typed = 0
			}
			// Results may go unnamed (MLIR's parser allows an op whose
			// results nobody uses to bind none), but named ones must match.
			if nResults > 0 && typed != nResults {
				v.fail(int(op.Start), "%s defines %d result(s) but its type has %d", op.Name, nResults, typed)
			}
			if n := len(v.m.Operands(op)); !(len(ins) == 1 && ins[0] == "") && len(ins) != n {
				v.fail(int(op.Start), "%s takes %d operand(s) but its type has %d", op.Name, n, len(ins))
			}
		}
	}
	for _, r := range op.Regions {
		mark := v.open()
		if ir.HeaderArgsBind(op, r) {
			for _, a := range args {
				v.define(a)
			}
		}
		for _, b := range r.Blocks {
			v.m.LabelArgs(b, func(a ir.ValueRef) {
				if a.Kind == ir.Arg {
					v.define(a)
				}
			})
		}
		for _, b := range r.Blocks {
			v.block(b)
		}
		v.close(mark)
	}
	for _, r := range results {
		v.define(r)
	}
}
