package tpu

import (
	"math"
	"math/bits"
	"slices"
)

// The search for groups the constructions do not settle: a bottleneck Hamiltonian cycle. For each hop threshold h
// from a lower bound upwards, it asks whether the graph of member pairs at most h hops apart has a Hamiltonian cycle:
// exactly (dynamic programming over subsets) up to exactDP members, by depth-first search with a step budget above.

const (
	exactDP    = 16      // members up to which the subset dynamic program decides each threshold exactly
	stepBudget = 1 << 15 // depth-first steps per threshold above that
)

// search returns a cycle whose largest step is smaller than worst, or nil when it finds none.
func (p *problem) search(worst int) []int {
	lower := p.lowerBound()
	if lower >= worst { // includes worst == 1: distinct devices are at least a hop apart
		return nil
	}
	occurs := make([]bool, worst) // hop counts in [lower, worst) that some pair has: the thresholds worth trying
	for i := range p.hops {
		for _, h := range p.hops[i] {
			if h >= lower && h < worst {
				occurs[h] = true
			}
		}
	}
	for h := lower; h < worst; h++ {
		if !occurs[h] {
			continue
		}
		adj := p.within(h)
		if !mayHaveCycle(adj) {
			continue
		}
		var cycle []int
		if len(adj) <= exactDP {
			cycle = cycleDP(adj)
		} else {
			cycle = cycleDFS(adj, stepBudget)
		}
		if cycle != nil {
			return cycle
		}
	}
	return nil
}

// lowerBound is a largest step no ring can avoid: each member has two ring neighbours, so one of its steps is at
// least its second-smallest distance to another member.
func (p *problem) lowerBound() int {
	bound := 0
	for i, row := range p.hops {
		first, second := math.MaxInt, math.MaxInt
		for j, h := range row {
			switch {
			case j == i:
			case h < first:
				first, second = h, first
			case h < second:
				second = h
			}
		}
		bound = max(bound, second)
	}
	return bound
}

// within returns, per member, the members at most h hops away, ascending.
func (p *problem) within(h int) [][]int {
	adj := make([][]int, len(p.hops))
	for i, row := range p.hops {
		for j, d := range row {
			if j != i && d <= h {
				adj[i] = append(adj[i], j)
			}
		}
	}
	return adj
}

// mayHaveCycle checks conditions every Hamiltonian cycle needs: each vertex has two neighbours, the graph is
// connected, and if it is bipartite its two sides are equal (a cycle alternates sides).
func mayHaveCycle(adj [][]int) bool {
	side := make([]int, len(adj))
	for i := range side {
		side[i] = -1
	}
	side[0] = 0
	queue, seen, bipartite, count := []int{0}, 1, true, [2]int{1, 0}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		if len(adj[u]) < 2 {
			return false
		}
		for _, v := range adj[u] {
			switch side[v] {
			case -1:
				side[v] = 1 - side[u]
				count[side[v]]++
				seen++
				queue = append(queue, v)
			case side[u]:
				bipartite = false
			}
		}
	}
	return seen == len(adj) && (!bipartite || count[0] == count[1])
}

// cycleDP decides exactly whether the graph has a Hamiltonian cycle and returns one (starting at 0) or nil.
// ends[mask] holds the last vertices of the paths that start at 0 and visit exactly the vertices in mask.
func cycleDP(adj [][]int) []int {
	n := len(adj)
	nb := make([]uint32, n)
	for i, vs := range adj {
		for _, v := range vs {
			nb[i] |= 1 << v
		}
	}
	full := uint32(1)<<n - 1
	ends := make([]uint32, 1<<n)
	ends[1] = 1
	for mask := uint32(1); mask < full; mask += 2 { // masks holding vertex 0
		for e := ends[mask]; e != 0; e &= e - 1 {
			v := bits.TrailingZeros32(e)
			for next := nb[v] &^ mask; next != 0; next &= next - 1 {
				w := bits.TrailingZeros32(next)
				ends[mask|1<<w] |= 1 << w
			}
		}
	}
	last := ends[full] & nb[0]
	if last == 0 {
		return nil
	}
	// Walk back from the lowest closing vertex, always to the lowest possible predecessor.
	cycle := make([]int, n)
	mask, v := full, bits.TrailingZeros32(last)
	for k := n - 1; k > 0; k-- {
		cycle[k] = v
		mask &^= 1 << v
		v = bits.TrailingZeros32(ends[mask] & nb[v])
	}
	return cycle // cycle[0] == 0
}

// cycleDFS looks for a Hamiltonian cycle from vertex 0 by depth-first search, trying first the neighbour with the
// fewest unvisited neighbours (Warnsdorff's rule) and pruning vertices left with too few ways in and out. It gives
// up after budget steps.
func cycleDFS(adj [][]int, budget int) []int {
	n := len(adj)
	s := &dfs{adj: adj, free: make([]int, n), visited: make([]bool, n), link0: make([]bool, n), budget: budget}
	for i := range adj {
		s.free[i] = len(adj[i])
	}
	for _, v := range adj[0] {
		s.link0[v] = true
	}
	s.visit(0)
	if !s.extend() {
		return nil
	}
	return s.path
}

type dfs struct {
	adj     [][]int
	free    []int  // unvisited neighbours per vertex
	visited []bool // on the path
	link0   []bool // neighbour of the start, so a possible last vertex
	path    []int
	budget  int
}

func (s *dfs) visit(v int) {
	s.visited[v] = true
	s.path = append(s.path, v)
	for _, w := range s.adj[v] {
		s.free[w]--
	}
}

func (s *dfs) leave(v int) {
	s.visited[v] = false
	s.path = s.path[:len(s.path)-1]
	for _, w := range s.adj[v] {
		s.free[w]++
	}
}

func (s *dfs) extend() bool {
	u := s.path[len(s.path)-1]
	if len(s.path) == len(s.adj) {
		return s.link0[u]
	}
	if s.budget--; s.budget < 0 {
		return false
	}
	var next []int
	for _, w := range s.adj[u] {
		if !s.visited[w] {
			next = append(next, w)
		}
	}
	slices.SortStableFunc(next, func(a, b int) int { return s.free[a] - s.free[b] })
	for _, w := range next {
		s.visit(w)
		if !s.stranded(u, w) && s.extend() {
			return true
		}
		s.leave(w)
		if s.budget < 0 {
			return false
		}
	}
	return false
}

// stranded reports whether stepping u -> w leaves the rest unfinishable: the start has no unvisited neighbour left
// to close the ring through, or an unvisited neighbour of u or w has fewer than two ways left to be entered and left
// (its unvisited neighbours, w as its predecessor, the start as its successor).
func (s *dfs) stranded(u, w int) bool {
	if len(s.path) < len(s.adj) && s.free[0] == 0 {
		return true
	}
	for _, v := range [2]int{u, w} {
		for _, x := range s.adj[v] {
			if s.visited[x] {
				continue
			}
			ways := s.free[x]
			if s.link0[x] {
				ways++
			}
			if _, adjacent := slices.BinarySearch(s.adj[x], w); adjacent {
				ways++
			}
			if ways < 2 {
				return true
			}
		}
	}
	return false
}
