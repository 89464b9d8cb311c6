package tpu

import (
	"fmt"
	"slices"

	"github.com/arcpass/arc/passes/topology"
)

// MaxRingGroup bounds the group size Ring accepts (it keeps a hop matrix of the group).
const MaxRingGroup = 2048

// Ring orders the devices of a replica group into a ring on topology t: every step between consecutive devices,
// the last back to the first included, is one hop whenever the group has such a cycle; otherwise the order has the
// smallest largest step that Ring finds, and maxHops is that largest step in hops, for the caller to report.
//
// The result depends only on the group's membership, never on the order it is given in (so lowering an
// already-lowered module changes nothing), and it is deterministic. It starts at the smallest id. A group of one
// device gives maxHops 0 (no step). A group of two gives its only order, smallest id first, and maxHops the hop
// distance between the two (the ring goes there and back).
//
// Groups that fill a box of the mesh coordinates (a slice, or a rectangular sub-block of it, or a strided one) get a
// ring built directly, which is optimal; other groups get a search that is exact up to 16 devices and bounded above
// that, where a ring with a larger maxHops than the optimum is possible (see docs/lowering-tpu.md).
func Ring(t *topology.Topology, group []int64) (order []int64, maxHops int, err error) {
	ids, err := members(group)
	if err != nil {
		return nil, 0, err
	}
	hops, err := t.HopMatrix(ids)
	if err != nil {
		return nil, 0, err
	}
	for i := range hops {
		for j, h := range hops[i] {
			if h == topology.Unreachable {
				return nil, 0, fmt.Errorf("devices %d and %d of the group are not connected in %s", ids[i], ids[j], t.Name)
			}
		}
	}
	if len(ids) <= 2 {
		return ids, hops[0][len(ids)-1], nil
	}
	p := &problem{hops: hops}
	best := p.bestOf(append(boxCycles(t, ids), p.heuristicCycles()...))
	if s := p.search(best.max); s != nil {
		best = p.score(s)
	}
	order = make([]int64, len(ids))
	start := slices.Index(best.cycle, 0)
	for k := range order {
		order[k] = ids[best.cycle[(start+k)%len(ids)]]
	}
	return order, best.max, nil
}

// RingMaxHops returns the largest hop count between consecutive devices of order, the last back to the first
// included: the maxHops of a ring given explicitly (0 for one device).
func RingMaxHops(t *topology.Topology, order []int64) (int, error) {
	if _, err := members(order); err != nil {
		return 0, err
	}
	worst := 0
	for k, a := range order {
		h, err := t.Hops(a, order[(k+1)%len(order)])
		if err != nil {
			return 0, err
		}
		if h == topology.Unreachable {
			return 0, fmt.Errorf("devices %d and %d are not connected in %s", a, order[(k+1)%len(order)], t.Name)
		}
		worst = max(worst, h)
	}
	return worst, nil
}

// members returns the group's ids sorted, rejecting empty, oversized and repeating groups.
func members(group []int64) ([]int64, error) {
	if len(group) == 0 {
		return nil, fmt.Errorf("empty replica group")
	}
	if len(group) > MaxRingGroup {
		return nil, fmt.Errorf("replica group of %d devices: more than %d", len(group), MaxRingGroup)
	}
	ids := slices.Clone(group)
	slices.Sort(ids)
	for k := 1; k < len(ids); k++ {
		if ids[k] == ids[k-1] {
			return nil, fmt.Errorf("device %d appears twice in replica group %v", ids[k], group)
		}
	}
	return ids, nil
}

// problem is one ring embedding: hops[i][j] between the group's members, indexed by their rank in the sorted group.
type problem struct {
	hops [][]int
}

// scored is a cycle over member indices and its quality: the largest step first, then how many steps are that
// large, then the total hops.
type scored struct {
	cycle            []int
	max, atMax, hops int
}

func (a scored) better(b scored) bool {
	if a.max != b.max {
		return a.max < b.max
	}
	if a.atMax != b.atMax {
		return a.atMax < b.atMax
	}
	return a.hops < b.hops
}

func (p *problem) score(cycle []int) scored {
	s := scored{cycle: cycle}
	for k, i := range cycle {
		h := p.hops[i][cycle[(k+1)%len(cycle)]]
		switch {
		case h > s.max:
			s.max, s.atMax = h, 1
		case h == s.max:
			s.atMax++
		}
		s.hops += h
	}
	return s
}

// bestOf returns the best of the candidate cycles, the earliest among equals.
func (p *problem) bestOf(cycles [][]int) scored {
	var best scored
	for k, c := range cycles {
		if s := p.score(c); k == 0 || s.better(best) {
			best = s
		}
	}
	return best
}

// heuristicCycles gives rings for any group: the sorted order and the nearest-neighbour tour from the first member
// (nearest by hops, then by rank).
func (p *problem) heuristicCycles() [][]int {
	n := len(p.hops)
	sorted := make([]int, n)
	for i := range sorted {
		sorted[i] = i
	}
	tour := []int{0}
	used := make([]bool, n)
	used[0] = true
	for len(tour) < n {
		from, next := tour[len(tour)-1], -1
		for j := range n {
			if !used[j] && (next < 0 || p.hops[from][j] < p.hops[from][next]) {
				next = j
			}
		}
		used[next] = true
		tour = append(tour, next)
	}
	return [][]int{sorted, tour}
}
