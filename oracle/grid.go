package oracle

import (
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/arcpass/arc/ir"
)

// Mode is a StableHLO process-grouping strategy (spec: "Collective ops").
type Mode int

const (
	CrossReplica Mode = iota
	CrossPartition
	CrossReplicaAndPartition
	FlattenedIDs
)

func (m Mode) String() string {
	return [...]string{"cross_replica", "cross_partition", "cross_replica_and_partition", "flattened_ids"}[m]
}

// AllReduceMode is the strategy all_reduce uses for a channel id (<= 0 when
// the op has no channel_handle) and use_global_device_ids. Global ids without
// a positive channel id break constraint C4.
func AllReduceMode(channel int64, global bool) (Mode, error) {
	switch {
	case global && channel <= 0:
		return 0, fmt.Errorf("use_global_device_ids needs a channel_handle with a positive handle (C4), not %d", channel)
	case global:
		return FlattenedIDs, nil
	case channel > 0:
		return CrossReplicaAndPartition, nil
	}
	return CrossReplica, nil
}

// Process is one process of the StableHLO grid.
type Process struct{ Replica, Partition int64 }

func (p Process) String() string { return fmt.Sprintf("(%d, %d)", p.Replica, p.Partition) }

// Grid is the process grid a module runs on, and the device each process
// runs on: XLA's device assignment, which the runtime receives in the compile
// options.
type Grid struct {
	Replicas, Partitions int64
	// Assignment maps a process to its global device id; nil is XLA's
	// default (ComputationPlacer::AssignDevices): partition*Replicas + replica.
	Assignment func(Process) int64
}

// Size is the number of processes.
func (g Grid) Size() int64 { return g.Replicas * g.Partitions }

// Process is the process with flattened index i (replica * Partitions + partition).
func (g Grid) Process(i int) Process {
	return Process{int64(i) / g.Partitions, int64(i) % g.Partitions}
}

func (g Grid) index(p Process) int { return int(p.Replica*g.Partitions + p.Partition) }

// Device is the global device id process p runs on.
func (g Grid) Device(p Process) int64 {
	if g.Assignment != nil {
		return g.Assignment(p)
	}
	return p.Partition*g.Replicas + p.Replica
}

// Expand turns the replica groups of a collective into process groups, as
// the spec's strategies define them, after checking constraints C1-C3: ids
// unique, in range, and covering every id of the strategy's domain (padding
// -1 already dropped). No groups at all means one group of every id, as XLA
// reads an empty replica_groups; flattened_ids must name its groups.
//
// This is the one place the oracle expands groups: package spec can take
// its place.
func (g Grid) Expand(mode Mode, groups [][]int64) ([][]Process, error) {
	size := g.Replicas
	switch mode {
	case CrossPartition:
		size = g.Partitions
	case FlattenedIDs:
		size = g.Size()
	}
	n := 0
	for _, grp := range groups {
		n += len(grp)
	}
	if n == 0 {
		if mode == FlattenedIDs {
			return nil, fmt.Errorf("flattened_ids needs replica groups (use_global_device_ids with none)")
		}
		all := make([]int64, size)
		for i := range all {
			all[i] = int64(i)
		}
		groups = [][]int64{all}
	}
	seen := make(map[int64]bool, size)
	for _, grp := range groups {
		for _, id := range grp {
			switch {
			case id < 0 || id >= size:
				return nil, fmt.Errorf("id %d is outside [0, %d) (%s of %d replicas x %d partitions)", id, size, mode, g.Replicas, g.Partitions)
			case seen[id]:
				return nil, fmt.Errorf("id %d appears twice in the replica groups", id)
			}
			seen[id] = true
		}
	}
	if int64(len(seen)) != size {
		for id := int64(0); ; id++ {
			if !seen[id] {
				return nil, fmt.Errorf("id %d is in no replica group (%s covers %d ids)", id, mode, size)
			}
		}
	}
	var out [][]Process
	for _, grp := range groups {
		if len(grp) == 0 {
			continue
		}
		switch mode {
		case CrossReplica:
			for p := range g.Partitions {
				pg := make([]Process, len(grp))
				for i, r := range grp {
					pg[i] = Process{r, p}
				}
				out = append(out, pg)
			}
		case CrossPartition:
			for r := range g.Replicas {
				pg := make([]Process, len(grp))
				for i, p := range grp {
					pg[i] = Process{r, p}
				}
				out = append(out, pg)
			}
		case CrossReplicaAndPartition:
			pg := make([]Process, 0, len(grp)*int(g.Partitions))
			for p := range g.Partitions {
				for _, r := range grp {
					pg = append(pg, Process{r, p})
				}
			}
			out = append(out, pg)
		case FlattenedIDs:
			pg := make([]Process, len(grp))
			for i, id := range grp {
				pg[i] = Process{id / g.Partitions, id % g.Partitions}
			}
			out = append(out, pg)
		}
	}
	return out, nil
}

// maxGroupIDs bounds the ids one replica_groups attribute may hold.
const maxGroupIDs = 1 << 22

// parseGroups reads a dense replica_groups attribute as MLIR does: a rank-2
// tensor of i64 whose nested literal has exactly the declared shape (or is a
// splat, or hex data), rows padded with -1 where groups are ragged. It
// returns the groups without their padding.
func parseGroups(v string) ([][]int64, error) {
	v = strings.TrimSpace(v)
	if !strings.HasPrefix(v, "dense<") {
		return nil, fmt.Errorf("replica_groups %q is not a dense attribute", v)
	}
	end := ir.Closing(v, len("dense"))
	if end < 0 {
		return nil, fmt.Errorf("replica_groups: dense<...> is not closed")
	}
	body := strings.TrimSpace(v[len("dense<"):end])
	rest := strings.TrimSpace(v[end+1:])
	typ, ok := strings.CutPrefix(rest, ":")
	if !ok {
		return nil, fmt.Errorf("replica_groups: dense elements without a type")
	}
	t, err := ir.ParseTensorType(typ)
	if err != nil {
		return nil, fmt.Errorf("replica_groups: %v", err)
	}
	if len(t.Shape) != 2 || t.Shape[0] < 0 || t.Shape[1] < 0 {
		return nil, fmt.Errorf("replica_groups must be a static rank-2 tensor, not %s", t)
	}
	if t.Elem != "i64" {
		return nil, fmt.Errorf("replica_groups must hold i64, not %s", t.Elem)
	}
	rows, cols := t.Shape[0], t.Shape[1]
	if cols > 0 && rows > maxGroupIDs/cols || rows > maxGroupIDs {
		return nil, fmt.Errorf("replica_groups %s holds too many ids", t)
	}
	n := int(rows * cols)
	var flat []int64
	switch {
	case body == "":
		if n != 0 {
			return nil, fmt.Errorf("replica_groups: no elements for %s", t)
		}
	case strings.HasPrefix(body, `"0x`) || strings.HasPrefix(body, `"0X`):
		raw, err := hex.DecodeString(strings.TrimSuffix(body[3:], `"`))
		if err != nil || !strings.HasSuffix(body, `"`) {
			return nil, fmt.Errorf("replica_groups: bad hex data %s", body)
		}
		if len(raw) != 8*n && len(raw) != 8 {
			return nil, fmt.Errorf("replica_groups: %d bytes of hex data for %s", len(raw), t)
		}
		for i := 0; i+8 <= len(raw); i += 8 {
			var x uint64
			for k := 7; k >= 0; k-- {
				x = x<<8 | uint64(raw[i+k])
			}
			flat = append(flat, int64(x))
		}
	default:
		p := &literal{s: body}
		shape, vals, err := p.parse()
		if err != nil {
			return nil, fmt.Errorf("replica_groups: %v", err)
		}
		flat = vals
		if len(shape) != 0 && !slices.Equal(shape, t.Shape) && !(n == 0 && len(vals) == 0) {
			return nil, fmt.Errorf("replica_groups: the literal's shape %v is not the type's %v", shape, t.Shape)
		}
	}
	if len(flat) == 1 && n != 1 { // splat
		flat = slices.Repeat(flat, n)
	}
	if len(flat) != n {
		return nil, fmt.Errorf("replica_groups: %d elements for %s", len(flat), t)
	}
	var groups [][]int64
	for r := 0; r < int(rows); r++ {
		var grp []int64
		for _, id := range flat[r*int(cols) : (r+1)*int(cols)] {
			switch {
			case id == -1:
			case id < 0:
				return nil, fmt.Errorf("replica_groups: negative id %d", id)
			default:
				grp = append(grp, id)
			}
		}
		groups = append(groups, grp)
	}
	return groups, nil
}

// literal parses an MLIR dense literal: a scalar or nested [..] lists that
// must be rectangular.
type literal struct {
	s string
	i int
}

func (p *literal) parse() (shape []int64, vals []int64, err error) {
	shape, err = p.value(&vals, 0)
	if err == nil {
		p.blank()
		if p.i != len(p.s) {
			err = fmt.Errorf("unexpected %q in the dense literal", p.s[p.i:])
		}
	}
	return shape, vals, err
}

func (p *literal) blank() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *literal) value(vals *[]int64, depth int) ([]int64, error) {
	if depth > 8 {
		return nil, fmt.Errorf("the dense literal nests too deep")
	}
	p.blank()
	if p.i < len(p.s) && p.s[p.i] == '[' {
		p.i++
		var elem []int64
		count := int64(0)
		for {
			p.blank()
			if p.i < len(p.s) && p.s[p.i] == ']' && count == 0 {
				p.i++
				return []int64{0}, nil
			}
			sub, err := p.value(vals, depth+1)
			if err != nil {
				return nil, err
			}
			if count > 0 && !slices.Equal(sub, elem) {
				return nil, fmt.Errorf("the dense literal is not rectangular")
			}
			elem, count = sub, count+1
			p.blank()
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.s) && p.s[p.i] == ']' {
				p.i++
				return append([]int64{count}, elem...), nil
			}
			return nil, fmt.Errorf("expected ',' or ']' in the dense literal")
		}
	}
	j := p.i
	for j < len(p.s) && strings.IndexByte("-+0123456789abcdefABCDEFx", p.s[j]) >= 0 {
		j++
	}
	x, err := int64Element(p.s[p.i:j])
	if err != nil {
		return nil, fmt.Errorf("bad integer %q in the dense literal", p.s[p.i:min(j+1, len(p.s))])
	}
	if len(*vals) >= maxGroupIDs {
		return nil, fmt.Errorf("the dense literal holds too many ids")
	}
	*vals = append(*vals, x)
	p.i = j
	return nil, nil
}

// int64Element reads an i64 element of a dense literal as MLIR does: decimal
// or 0x hex digits, maybe negated, taken as the value's 64 bits (so
// 0xFFFFFFFFFFFFFFFF is -1).
func int64Element(tok string) (int64, error) {
	digits, neg := strings.CutPrefix(tok, "-")
	base := 10
	if h, ok := strings.CutPrefix(digits, "0x"); ok {
		digits, base = h, 16
	}
	u, err := strconv.ParseUint(digits, base, 64)
	switch {
	case err != nil || neg && u > 1<<63:
		return 0, fmt.Errorf("bad integer %q", tok)
	case neg:
		return -int64(u), nil
	}
	return int64(u), nil
}
