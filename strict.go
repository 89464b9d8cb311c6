package arc

import (
	"fmt"
	"sort"
	"strings"

	"github.com/arcpass/arc/decision"
	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/passes"
)

// LoweredFor returns the target a module was lowered for before (the
// module attribute arc.target, decision.AttrTarget), or "".
func LoweredFor(m *ir.Module) string { return decision.Target(m) }

// quantNote says why a --quant codec that no row uses did not run: once
// for a target that sends no codec, else from each all-reduce's reason
// (the GPU targets say "--quant C not used: why", or why the row stays
// native). It is "" when there is nothing to say.
func quantNote(t passes.Target, quant string, rep *passes.Report) string {
	if quant == "" || quant == "none" {
		return ""
	}
	var rows []passes.Row
	for _, row := range rep.Collectives {
		if row.Codec == quant {
			return ""
		}
		if row.Op == "all_reduce" {
			rows = append(rows, row)
		}
	}
	head := fmt.Sprintf("--quant %s is used by no all-reduce: ", quant)
	if c, ok := t.(passes.Codecless); ok {
		return head + c.NoCodecs()
	}
	if len(rows) == 0 {
		return head + "the module has none"
	}
	unused := "--quant " + quant + " not used: "
	return head + reasonList(rows, func(row passes.Row) string {
		if _, why, ok := strings.Cut(row.Reason, unused); ok {
			return why
		}
		return row.Reason
	})
}

// checkStrict is --strict: input (the module as given) must not have been
// lowered for another target than target, the report must show at least
// one lowered all-reduce, and a --quant codec must be used by one, except
// for the identity target none. Errors are at the input's position: the
// module for its target, the first all-reduce for what was not done.
func checkStrict(input *ir.Module, t passes.Target, quant string, rep *passes.Report) error {
	target := t.Name()
	at := func(pos ir.Pos, format string, args ...any) error {
		return &ir.Error{File: input.Name, Line: pos.Line, Col: pos.Col, Msg: "--strict: " + fmt.Sprintf(format, args...)}
	}
	modulePos := ir.Pos{Line: 1, Col: 1}
	if mod := input.ModuleOp(); mod != nil {
		modulePos = input.Position(int(mod.Start))
	}
	if before := LoweredFor(input); before != "" && before != target {
		return at(modulePos, "the module was lowered for %s (arc.target), not %s: compile the program as it was before arc", before, target)
	}
	if target == "none" {
		return nil
	}
	var native []passes.Row
	lowered := 0
	for _, row := range rep.Collectives {
		switch {
		case row.Op != "all_reduce":
		case row.Lowering == "" || row.Lowering == "native":
			native = append(native, row)
		default:
			lowered++
		}
	}
	if lowered == 0 && len(native) == 0 {
		return at(modulePos, "nothing lowered for %s: the module has no all-reduce", target)
	}
	first := modulePos
	for _, row := range rep.Collectives {
		if row.Op == "all_reduce" && row.Collective != nil {
			first = row.Collective.Pos
			break
		}
	}
	if lowered == 0 {
		noun := "all-reduce operands stay"
		if len(native) == 1 {
			noun = "all-reduce operand stays"
		}
		return at(first, "nothing lowered for %s: %d %s native: %s", target, len(native), noun,
			reasonList(native, func(row passes.Row) string { return row.Reason }))
	}
	if note := quantNote(t, quant, rep); note != "" {
		return at(first, "%s", note)
	}
	return nil
}

// reasonList says why of rows: each distinct reason once, with its rows,
// the most frequent first.
func reasonList(rows []passes.Row, why func(passes.Row) string) string {
	byReason := map[string][]int{}
	var reasons []string
	for _, row := range rows {
		r := why(row)
		if r == "" {
			r = "no reason recorded"
		}
		if byReason[r] == nil {
			reasons = append(reasons, r)
		}
		byReason[r] = append(byReason[r], row.Index)
	}
	sort.SliceStable(reasons, func(i, j int) bool { return len(byReason[reasons[i]]) > len(byReason[reasons[j]]) })
	parts := make([]string, 0, 3)
	for i, r := range reasons {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d other reasons", len(reasons)-3))
			break
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", r, rowList(byReason[r])))
	}
	return strings.Join(parts, "; ")
}

// rowList names rows by index: "row 0", "rows 0-7", "rows 0, 2, 5 and 4 more".
func rowList(ix []int) string {
	if len(ix) == 1 {
		return fmt.Sprintf("row %d", ix[0])
	}
	contiguous := true
	for i := 1; i < len(ix); i++ {
		contiguous = contiguous && ix[i] == ix[i-1]+1
	}
	if contiguous {
		return fmt.Sprintf("rows %d-%d", ix[0], ix[len(ix)-1])
	}
	var s []string
	for i, x := range ix {
		if i == 3 {
			return fmt.Sprintf("rows %s and %d more", strings.Join(s, ", "), len(ix)-3)
		}
		s = append(s, fmt.Sprint(x))
	}
	return "rows " + strings.Join(s, ", ")
}
