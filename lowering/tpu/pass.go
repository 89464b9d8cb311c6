package tpu

import (
	"fmt"
	"strings"

	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/passes"
	"github.com/arcpass/arc/passes/topology"
)

// Pass is the TPU lowering: each all-reduce the select pass marked "ring"
// keeps its XLA implementation, but its groups are written out explicitly,
// each ordered as a ring of the fewest hops on the slice's ICI mesh, and the
// report asks libtpu for a 1-D ring through LIBTPU_INIT_ARGS.
var Pass = passes.Func("lower-tpu", func(s *passes.State) error {
	topo := s.Options.Topology
	if topo == nil {
		slice, err := ParseTarget(s.Target.Name)
		if err != nil {
			return err
		}
		topo = slice.Topology
	}
	m := s.Module
	ed := m.Edit()
	byOp := map[*ir.Op][]*passes.Row{}
	var order []*ir.Op
	rings := 0
	for i := range s.Report.Collectives {
		row := &s.Report.Collectives[i]
		c := row.Collective
		if c == nil || c.Kind != "all_reduce" {
			continue
		}
		if c.Arc != nil {
			if c.Arc.Lowering == "ring" {
				rings++
			}
			continue
		}
		if _, seen := byOp[c.Op]; !seen {
			order = append(order, c.Op)
		}
		byOp[c.Op] = append(byOp[c.Op], row)
	}
	for _, op := range order {
		rows := byOp[op]
		ring := false
		for _, r := range rows {
			ring = ring || r.Lowering == "ring"
		}
		if ring {
			if err := ringOp(m, ed, topo, s.Target.Name, op, rows); err != nil {
				return err
			}
			if rows[0].Lowering == "ring" {
				rings++
				continue
			}
		}
		if err := passes.MarkNative(ed, op, rows); err != nil {
			return err
		}
	}
	if rings > 0 {
		s.Report.Env["LIBTPU_INIT_ARGS"] = MergeLibtpuArgs(s.Options.LibtpuInitArgs, LibtpuRingFlag)
	}
	out, err := ed.Apply()
	if err != nil {
		return err
	}
	s.Module = out
	return nil
})

// ringOp orders each group of op as a ring and writes the groups back as an
// explicit dense attribute. When a group cannot be placed on the slice, the
// rows turn native with the reason.
func ringOp(m *ir.Module, ed *ir.Editor, topo *topology.Topology, target string, op *ir.Op, rows []*passes.Row) error {
	c := rows[0].Collective
	var ordered [][]int64
	worst := 0
	for _, g := range rows[0].Groups { // as the report reads them: implicit groups written out
		order, hops, err := Ring(topo, g)
		if err != nil {
			for _, r := range rows {
				r.Lowering, r.Codec = "native", "none"
				r.Reason = fmt.Sprintf("group %v does not fit %s: %v", g, target, err)
			}
			return nil
		}
		ordered = append(ordered, order)
		worst = max(worst, hops)
	}
	reason := "groups ordered as 1-hop rings on the ICI mesh; libtpu forced to a 1-D ring"
	if worst > 1 {
		reason = fmt.Sprintf("no 1-hop ring exists for these groups on %s: rings with at most %d hops per step; libtpu forced to a 1-D ring", target, worst)
	}
	// SetAttrs replaces replica_groups where the op has them and adds them
	// where it left them implicit.
	attrs := []string{"replica_groups", "arc.lowering", "arc.reason", "arc.ring_max_hops"}
	values := []string{denseGroups(ordered), ir.Quote("ring"), ir.Quote(reason), fmt.Sprintf("%d : i64", worst)}
	if c.GroupSpelling == "mesh_axes" && !c.UseGlobalDeviceIDs {
		attrs, values = append(attrs, "use_global_device_ids"), append(values, "true")
	}
	if err := ed.SetAttrs(op, attrs, values); err != nil {
		return err
	}
	for _, r := range rows {
		r.Lowering, r.Codec, r.Reason = "ring", "none", reason
		r.Ring, r.RingMaxHops = ordered, worst
	}
	return nil
}

// denseGroups prints groups as a dense i64 attribute.
func denseGroups(groups [][]int64) string {
	rows := make([]string, len(groups))
	width := 0
	for i, g := range groups {
		ids := make([]string, len(g))
		for j, id := range g {
			ids[j] = fmt.Sprint(id)
		}
		rows[i] = "[" + strings.Join(ids, ", ") + "]"
		width = max(width, len(g))
	}
	return fmt.Sprintf("dense<[%s]> : tensor<%dx%dxi64>", strings.Join(rows, ", "), len(groups), width)
}
