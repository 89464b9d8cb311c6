package tpu

import (
	"fmt"
	"strings"

	"github.com/arcpass/arc/decision"
	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/passes"
)

// Target is a TPU slice as arc compiles for it: every all-reduce keeps its
// XLA implementation, but select orders its groups as rings of the fewest
// hops on the slice's ICI mesh, and the lowering writes them out and asks
// libtpu for a 1-D ring (LibtpuRingFlag) through the module's environment.
type Target struct{ Slice Slice }

// Name is the target's name, "tpu:v6e-8".
func (t *Target) Name() string { return t.Slice.Target }

// NoCodecs: a ring is XLA's own all-reduce in another order.
func (t *Target) NoCodecs() string {
	return "TPU targets keep XLA's all-reduce (its groups in ring order), which sends the values as they are"
}

// Lower is the pass that writes the rings select chose.
func (t *Target) Lower() passes.Pass { return lowerPass }

var lowerPass = passes.Func("lower-tpu", []passes.Need{{Pass: "select", Why: "it orders the groups of the rings select decided"}}, lower)

// Decide orders the row's groups as rings on the slice (or on --topology).
func (t *Target) Decide(row passes.Row, opts passes.Options) (passes.Decision, error) {
	force := opts.ForceOf(row.Index)
	if force.On && force.Lowering == "native" {
		return passes.Native("forced native by --force"), nil
	}
	if reason := passes.Ineligible(row, opts, nil); reason != "" {
		if force.On && !force.All {
			return force.Cannot("%s", reason)
		}
		return passes.Native(reason), nil
	}
	if force.On && force.Lowering != "ring" {
		return force.Cannot("TPU targets lower all-reduces to ring only")
	}
	if row.Collective != nil && row.Flattened == nil {
		// The module's grid is unknown (or too large to expand): its ids
		// name no known processes, and a ring of them would change the op.
		reason := row.Unlowerable
		if reason == "" {
			reason = "the op's groups are not expanded into processes"
		}
		if force.On && !force.All {
			return force.Cannot("%s", reason)
		}
		return passes.Native(reason), nil
	}
	if !commutative[row.Reduction] {
		// The ring's order is the order of the reduction.
		if force.On && !force.All {
			return force.Cannot("the reducer is not one arc knows to be commutative, so the ring's order could change the result")
		}
		return passes.Native("the reducer is not one arc knows to be commutative, so the ring's order could change the result"), nil
	}
	topo, numbering := opts.Topology, ""
	switch {
	case topo != nil:
	case opts.DeviceCoords != nil:
		placed, err := t.Slice.Placed(opts.DeviceCoords)
		if err != nil {
			return passes.Native(fmt.Sprintf("the devices' coordinates do not fit %s: %v", t.Name(), err)), nil
		}
		topo = placed
	default:
		topo = t.Slice.Topology
		numbering = " (device ids read as x-minor chip coordinates)"
	}
	flat := row.Flattened
	if flat == nil {
		flat = row.Groups // a row of no module (arc bench): ids are processes and devices alike
	}
	if len(flat) != len(row.Groups) {
		return passes.Native("the op's groups are not expanded into processes"), nil
	}
	// The ring is a cycle of devices on the mesh; the op names processes,
	// so each group is written as the flattened ids of its ring, in
	// flattened-id mode, which names exactly those processes whatever mode
	// the op used.
	var rings [][]int64
	worst := 0
	for i, g := range row.Groups {
		order, hops, err := Ring(topo, g)
		if err != nil {
			return passes.Native(fmt.Sprintf("group %v does not fit %s: %v", g, t.Name(), err)), nil
		}
		process := map[int64]int64{}
		for j, dev := range g {
			process[dev] = flat[i][j]
		}
		ring := make([]int64, len(order))
		for j, dev := range order {
			ring[j] = process[dev]
		}
		rings = append(rings, ring)
		worst = max(worst, hops)
	}
	reason := "groups ordered as 1-hop rings on the ICI mesh" + numbering + "; libtpu forced to a 1-D ring"
	if worst > 1 {
		reason = fmt.Sprintf("no 1-hop ring exists for these groups on %s%s: rings with at most %d hops per step; libtpu forced to a 1-D ring", t.Name(), numbering, worst)
	}
	return passes.Decision{Lowering: lowering, Codec: "none", Reason: reason, Payload: &Rings{Groups: rings, MaxHops: worst}}, nil
}

// Admit says why the slice would not run decision d for row under opts, or
// "" when it would (passes.Admitter): a TPU runs none of arc's kernels, and
// a ring must be one select could make of the op (its groups' membership
// is held to the op's by the analysis: a recorded ring that holds other
// processes is an error there).
func (t *Target) Admit(row passes.Row, d passes.Decision, opts passes.Options) string {
	switch {
	case d.RunsKernel():
		return "TPU targets run none of arc's kernels"
	case d.Lowering == "native":
		return ""
	case d.Lowering != "ring":
		return fmt.Sprintf("%s is not a TPU lowering (ring or native)", d.Lowering)
	}
	opts.MinBytes, opts.MaxBytes = 0, 0
	if why := passes.Ineligible(row, opts, nil); why != "" {
		return why
	}
	if !commutative[row.Reduction] {
		return "the reducer is not one arc knows to be commutative, so the ring's order could change the result"
	}
	return ""
}

// commutative are the reductions whose result no order of the group's
// members changes (up to floating-point rounding, which XLA's own ring
// order leaves free too).
var commutative = map[string]bool{"sum": true, "max": true, "min": true, "product": true, "and": true, "or": true, "xor": true}

// lower writes each ring select chose as the op's explicit groups, and the
// libtpu flag into the module's environment (decision.AttrEnv).
func lower(s *passes.State) error {
	if _, err := s.Decided(); err != nil { // the decisions a module without select's carries are checked
		return err
	}
	m := s.Module
	cs, err := m.Collectives()
	if err != nil {
		return err
	}
	ed := m.Edit()
	rings := 0
	// A new channel must be no id the module holds, on any op: XLA refuses
	// one id on channel instructions of different kinds (a send's and an
	// all-reduce's).
	var channels *ir.Channels
	for _, c := range cs {
		if c.Kind != "all_reduce" || c.Arc == nil || c.Arc.Lowering != "ring" {
			continue
		}
		ds, err := decision.Read(m, c)
		if err != nil {
			return err
		}
		rings++
		ring := RingsOf(ds[0])
		if ring == nil {
			continue // lowered by an arc that wrote the groups only
		}
		// The ring holds flattened ids: flattened-id mode, which StableHLO
		// spells with a channel and the unit attribute use_global_device_ids.
		names, values := []string{"replica_groups"}, []string{decision.DenseGroups(ring.Groups)}
		if !c.UseGlobalDeviceIDs {
			names, values = append(names, "use_global_device_ids"), append(values, "")
		}
		if c.Channel <= 0 {
			dialect := "stablehlo" // the op's own: mhlo.all_reduce takes #mhlo.channel_handle only
			if strings.HasPrefix(c.Op.Name, "mhlo.") {
				dialect = "mhlo"
			}
			if channels == nil {
				channels = m.NewChannels()
			}
			names = append(names, "channel_handle")
			values = append(values, fmt.Sprintf("#%s.channel_handle<handle = %d, type = 1>", dialect, channels.New()))
		}
		if err := ed.SetAttrs(c.Op, names, values); err != nil {
			return err
		}
	}
	if rings > 0 {
		env := MergeLibtpuArgs(s.Options.Env[InitArgsVar], LibtpuRingFlag)
		if err := decision.WriteEnv(ed, map[string]string{InitArgsVar: env}); err != nil {
			return err
		}
	}
	return s.Apply(ed)
}

// Generations are the TPU chip generations of the 2-D slices arc knows,
// with their chip counts; v5p is known as tpu:v5p-8 only.
var generations = []string{"v6e", "v5e"}

// Targets lists every TPU target arc knows.
func Targets() []passes.Target {
	var out []passes.Target
	for _, name := range targetNames() {
		s, err := ParseTarget(name)
		if err != nil {
			panic(err) // the names come from the tables ParseTarget reads
		}
		out = append(out, &Target{Slice: s})
	}
	return out
}

// targetNames lists the TPU targets: every 2-D slice of each generation,
// then tpu:v5p-8.
func targetNames() []string {
	var names []string
	for _, gen := range generations {
		for _, n := range sliceSizes {
			names = append(names, fmt.Sprintf("tpu:%s-%d", gen, n))
		}
	}
	return append(names, "tpu:v5p-8")
}
