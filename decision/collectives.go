package decision

import (
	"slices"

	"github.com/arcpass/arc/ir"
)

// Collectives lists the module's collectives in source order, as
// Module.Collectives does, with arc's own calls among them as all-reduces:
// their groups are backend_config's flattened process ids, their reduction
// is a sum and Arc marks them; a fused call is the view of its all-reduce.
// A call the handler would refuse is an error at the call.
func Collectives(m *ir.Module) ([]*ir.Collective, error) {
	cs, err := m.Collectives()
	if err != nil {
		return nil, err
	}
	var calls []*ir.Collective
	m.Walk(func(op *ir.Op) bool {
		var call *Call
		if call, err = ParseCall(m, op); call != nil {
			calls = append(calls, collective(m, op, call))
		}
		return err == nil
	})
	if err != nil {
		return nil, err
	}
	if len(calls) == 0 {
		return cs, nil
	}
	// Both lists are in source order, in which an op starts before the
	// ops of its regions.
	out := make([]*ir.Collective, 0, len(cs)+len(calls))
	for len(cs) > 0 || len(calls) > 0 {
		if len(calls) == 0 || len(cs) > 0 && cs[0].Op.Start < calls[0].Op.Start {
			out, cs = append(out, cs[0]), cs[1:]
		} else {
			out, calls = append(out, calls[0]), calls[1:]
		}
		out[len(out)-1].Index = len(out) - 1
	}
	return out, nil
}

// collective is the view of one of arc's calls as a collective: the
// all-reduce's operand and sum, which for the fused form are its first
// operand and its first result (h, whose type is the sum's).
func collective(m *ir.Module, op *ir.Op, call *Call) *ir.Collective {
	ins, outs := Arity(nil)
	return &ir.Collective{
		Op: op, Kind: "all_reduce", Pos: m.Position(int(op.Start)),
		Operands: call.Operands[:ins], OperandTypes: call.OperandTypes[:ins], ResultTypes: call.ResultTypes[:outs],
		Reduction: "sum", Groups: call.Split(slices.Clone(call.Groups)), GroupSpelling: "dense", Channel: -1,
		Arc: &ir.ArcLowering{Lowering: call.Lowering},
	}
}
