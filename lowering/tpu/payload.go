package tpu

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/arcpass/arc/decision"
	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/passes"
)

// Rings is what a ring decision records beyond the common part
// (decision.Payload): each group as flattened process ids in ring order,
// and the most hops one step of a ring takes on the mesh. The report shows
// them as ring and ring_max_hops.
type Rings struct {
	Groups  [][]int64 `json:"ring,omitempty"`
	MaxHops int       `json:"ring_max_hops,omitempty"`
}

// The attributes a ring decision records on its all-reduce.
const (
	AttrRing        = "arc.ring"
	AttrRingMaxHops = "arc.ring_max_hops"
)

// lowering is the word of the TPU targets' one lowering.
const lowering = "ring"

func init() {
	decision.RegisterPayload(decision.PayloadKind{
		Lowering: lowering, Attrs: []string{AttrRing, AttrRingMaxHops}, Read: readRing,
		// lowered: the op's groups are the ring
		Lowered: func(c *ir.Collective) decision.Payload { return &Rings{Groups: c.Groups} },
	})
}

// RingsOf returns a decision's rings, or nil.
func RingsOf(d decision.Decision) *Rings {
	r, _ := d.Payload.(*Rings)
	return r
}

// Attrs are the ring (a dense i64 attribute, padded with -1) and its hops.
func (r *Rings) Attrs() []ir.Attr {
	return []ir.Attr{
		{Name: AttrRing, Value: decision.DenseGroups(r.Groups)},
		{Name: AttrRingMaxHops, Value: fmt.Sprintf("%d : i64", r.MaxHops)},
	}
}

// Equal reports another ring of the same groups, in the same order, and hops.
func (r *Rings) Equal(p decision.Payload) bool {
	q, ok := p.(*Rings)
	return ok && r.MaxHops == q.MaxHops && slices.EqualFunc(r.Groups, q.Groups, slices.Equal)
}

// readRing reads a recorded ring back; nil when the op records none.
func readRing(attrs map[string]string, value func(string) (string, error)) (decision.Payload, error) {
	v, ok := attrs[AttrRing]
	if !ok {
		return nil, nil
	}
	rows, err := ir.DenseInts(v)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", AttrRing, err)
	}
	var groups [][]int64
	for _, r := range rows {
		var g []int64
		for _, id := range r {
			if id >= 0 { // padding
				g = append(g, id)
			}
		}
		groups = append(groups, g)
	}
	if groups == nil {
		return nil, nil
	}
	hops, _ := value(AttrRingMaxHops)
	n, _ := strconv.Atoi(hops)
	return &Rings{Groups: groups, MaxHops: n}, nil
}

// Check refuses a recorded ring that does not hold the op's own process
// groups: a module whose arc.ring a person or another tool wrote
// (passes.RowPayload).
func (r *Rings) Check(m *ir.Module, row *passes.Row) error {
	if row.Lowering != lowering || decision.IsCall(row.Collective) {
		return nil
	}
	if row.Flattened == nil && r.Groups != nil {
		// arc records a ring only where it knows the op's processes; the
		// lowering would write this one over groups it cannot check.
		return m.Errorf(int(row.Collective.Op.Start), "%s = %v cannot be checked against the op's process groups, which the module's grid does not give (unknown or too large)", AttrRing, r.Groups)
	}
	if row.Flattened == nil {
		return nil
	}
	if sets(r.Groups) != sets(row.Flattened) {
		return m.Errorf(int(row.Collective.Op.Start), "%s = %v does not hold the op's process groups %v", AttrRing, r.Groups, row.Flattened)
	}
	return nil
}

// Shown are the groups a table prints: in ring order.
func (r *Rings) Shown() [][]int64 { return r.Groups }

// sets prints groups as sorted sets in a sorted list, to compare them as such.
func sets(groups [][]int64) string {
	out := make([]string, len(groups))
	for i, g := range groups {
		s := slices.Clone(g)
		slices.Sort(s)
		out[i] = fmt.Sprint(s)
	}
	slices.Sort(out)
	return fmt.Sprint(out)
}
