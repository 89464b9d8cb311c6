package tpu

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/arcpass/arc/passes/topology"
)

func target(t testing.TB, name string) Slice {
	t.Helper()
	s, err := ParseTarget(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mesh(t testing.TB, dims []int, wrap []bool) *topology.Topology {
	t.Helper()
	m, err := topology.Mesh(fmt.Sprint(dims, wrap), dims, wrap, "")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestRingKnownOrders(t *testing.T) {
	v6e8 := target(t, "tpu:v6e-8").Topology
	for _, c := range []struct {
		top   *topology.Topology
		group []int64
		want  []int64
		hops  int
	}{
		// The whole v6e-8 (2x4): the order torch_xla hard-codes and vLLM uses.
		{v6e8, []int64{0, 1, 2, 3, 4, 5, 6, 7}, []int64{0, 2, 4, 6, 7, 5, 3, 1}, 1},
		// tp=4 groups of a dp=2 x tp=4 mesh: 2x2 squares.
		{v6e8, []int64{0, 1, 2, 3}, []int64{0, 1, 3, 2}, 1},
		{v6e8, []int64{7, 6, 5, 4}, []int64{4, 5, 7, 6}, 1},
		// Its dp=2 groups: two chips two hops apart.
		{v6e8, []int64{4, 0}, []int64{0, 4}, 2},
		// A column of four chips is a path: no one-hop ring exists, the zigzag has two-hop steps.
		{v6e8, []int64{0, 2, 4, 6}, []int64{0, 4, 6, 2}, 2},
		{v6e8, []int64{5}, []int64{5}, 0},
		{v6e8, []int64{3, 1}, []int64{1, 3}, 1},
		// v5p-8 (2x2x2): torch_xla's order.
		{target(t, "tpu:v5p-8").Topology, []int64{0, 1, 2, 3, 4, 5, 6, 7}, []int64{0, 1, 3, 2, 6, 7, 5, 4}, 1},
		// jax's ring for the v5e 2x2 tray.
		{target(t, "tpu:v5e-4").Topology, []int64{0, 1, 2, 3}, []int64{0, 1, 3, 2}, 1},
		// A full column of the 16x16 torus closes through its wraparound link.
		{target(t, "tpu:v6e-256").Topology, seq(0, 16, 16), seq(0, 16, 16), 1},
		// A strided group: every fourth chip of a row of the torus, four hops apart all round.
		{target(t, "tpu:v6e-256").Topology, []int64{0, 4, 8, 12}, []int64{0, 4, 8, 12}, 4},
	} {
		order, hops, err := Ring(c.top, c.group)
		if err != nil || !slices.Equal(order, c.want) || hops != c.hops {
			t.Errorf("%s: Ring(%v) = %v, %d, %v; want %v, %d", c.top.Name, c.group, order, hops, err, c.want, c.hops)
		}
	}
}

// seq returns n ids from start, step apart.
func seq(start, n, step int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = int64(start + i*step)
	}
	return out
}

func TestRingMaxHops(t *testing.T) {
	v6e8 := target(t, "tpu:v6e-8").Topology
	for _, c := range []struct {
		order []int64
		want  int
	}{
		{[]int64{0, 1, 2, 3, 4, 5, 6, 7}, 4}, // XLA's default order: 2-hop steps and a 4-hop return
		{[]int64{0, 2, 4, 6, 7, 5, 3, 1}, 1},
		{[]int64{3}, 0},
		{[]int64{1, 6}, 4},
	} {
		if got, err := RingMaxHops(v6e8, c.order); err != nil || got != c.want {
			t.Errorf("RingMaxHops(%v) = %d, %v; want %d", c.order, got, err, c.want)
		}
	}
}

func TestRingRejects(t *testing.T) {
	v6e8 := target(t, "tpu:v6e-8").Topology
	split, _ := topology.New("split", []topology.Device{{ID: 0}, {ID: 1}, {ID: 2}}, []topology.Link{{A: 0, B: 1}})
	for _, c := range []struct {
		top   *topology.Topology
		group []int64
		want  string
	}{
		{v6e8, nil, "empty replica group"},
		{v6e8, []int64{0, 1, 0}, "device 0 appears twice"},
		{v6e8, []int64{0, 8}, "has no device 8"},
		{v6e8, seq(0, MaxRingGroup+1, 1), "more than 2048"},
		{split, []int64{0, 1, 2}, "devices 0 and 2 of the group are not connected"},
	} {
		_, _, err := Ring(c.top, c.group)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Ring(%s, %v) error %v, want %q", c.top.Name, c.group, err, c.want)
		}
		if _, err := RingMaxHops(c.top, c.group); err == nil {
			t.Errorf("RingMaxHops(%s, %v) accepted", c.top.Name, c.group)
		}
	}
}

// meshHops is the hop distance on a mesh computed from coordinates, independently of the topology's links.
func meshHops(a, b, dims []int, wrap []bool) int {
	h := 0
	for d := range dims {
		delta := max(a[d]-b[d], b[d]-a[d])
		if wrap[d] {
			delta = min(delta, dims[d]-delta)
		}
		h += delta
	}
	return h
}

// checkRing checks that order is a permutation of group and that maxHops is its largest step, measured on the
// mesh coordinates; it returns the steps.
func checkRing(t *testing.T, top *topology.Topology, dims []int, wrap []bool, group, order []int64, maxHops int) {
	t.Helper()
	a, b := slices.Clone(group), slices.Clone(order)
	slices.Sort(a)
	slices.Sort(b)
	if !slices.Equal(a, b) {
		t.Fatalf("%s: ring %v is not a permutation of group %v", top.Name, order, group)
	}
	worst := 0
	for k, id := range order {
		u, _ := top.Device(id)
		v, _ := top.Device(order[(k+1)%len(order)])
		worst = max(worst, meshHops(u.Coords, v.Coords, dims, wrap))
	}
	if worst != maxHops {
		t.Fatalf("%s: ring %v has largest step %d, Ring said %d", top.Name, order, worst, maxHops)
	}
}

// blocks splits a mesh into equal boxes of the given shape and returns each box's ids.
func blocks(dims, shape []int) [][]int64 {
	var out [][]int64
	var walk func(d int, origin []int)
	walk = func(d int, origin []int) {
		if d < 0 {
			var ids []int64
			var cell func(d, id, stride int)
			cell = func(k, id, stride int) {
				if k == len(dims) {
					ids = append(ids, int64(id))
					return
				}
				for i := range shape[k] {
					cell(k+1, id+(origin[k]+i)*stride, stride*dims[k])
				}
			}
			cell(0, 0, 1)
			out = append(out, ids)
			return
		}
		for o := 0; o < dims[d]; o += shape[d] {
			origin[d] = o
			walk(d-1, origin)
		}
	}
	walk(len(dims)-1, make([]int, len(dims)))
	return out
}

// divisorShapes lists every box shape whose sides divide the mesh's.
func divisorShapes(dims []int) [][]int {
	out := [][]int{{}}
	for _, n := range dims {
		var next [][]int
		for _, s := range out {
			for k := 1; k <= n; k++ {
				if n%k == 0 {
					next = append(next, append(slices.Clone(s), k))
				}
			}
		}
		out = next
	}
	return out
}

// TestRingEverySliceAndBlock is the property test of the issue: for every slice and every split of it into equal
// boxes, every box gets a ring made of its own chips whose largest step is the optimum: 1 when a one-hop ring
// exists (two chips; a box spanning two or more dimensions, which on these slices always has an even chip count;
// a line closed by wraparound), 2 for a line of three or more chips without wraparound (a path has no cycle).
func TestRingEverySliceAndBlock(t *testing.T) {
	for _, name := range targetNames() {
		s := target(t, name)
		for _, shape := range divisorShapes(s.Dims) {
			var spanned []int // the dimensions the box spans
			for d, side := range shape {
				if side > 1 {
					spanned = append(spanned, d)
				}
			}
			want := 1
			switch n := count(shape); {
			case n == 1:
				want = 0
			case len(spanned) == 1 && n > 2 && !(s.Wrap[spanned[0]] && n == s.Dims[spanned[0]]):
				want = 2 // a line of three or more chips that does not close
			case len(spanned) >= 2 && n%2 != 0:
				t.Fatalf("%s: box %v has an odd chip count", name, shape)
			}
			for _, group := range blocks(s.Dims, shape) {
				order, hops, err := Ring(s.Topology, group)
				if err != nil {
					t.Fatalf("%s %v %v: %v", name, shape, group, err)
				}
				checkRing(t, s.Topology, s.Dims, s.Wrap, group, order, hops)
				if hops != want {
					t.Fatalf("%s: box %v %v: ring %v has max hop %d, want %d", name, shape, group, order, hops, want)
				}
			}
		}
	}
}

func count(shape []int) int {
	n := 1
	for _, s := range shape {
		n *= s
	}
	return n
}

// bruteForce returns the smallest largest step over all rings of the group.
func bruteForce(t *testing.T, top *topology.Topology, group []int64) int {
	t.Helper()
	hops, err := top.HopMatrix(group)
	if err != nil {
		t.Fatal(err)
	}
	n := len(group)
	if n == 1 {
		return 0
	}
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	best := -1
	var permute func(k int)
	permute = func(k int) { // perm[0] stays: rotations change nothing
		if k == n {
			worst := 0
			for i := range n {
				worst = max(worst, hops[perm[i]][perm[(i+1)%n]])
			}
			if best < 0 || worst < best {
				best = worst
			}
			return
		}
		for i := k; i < n; i++ {
			perm[k], perm[i] = perm[i], perm[k]
			permute(k + 1)
			perm[k], perm[i] = perm[i], perm[k]
		}
	}
	permute(1)
	return best
}

func TestRingOddBoxesAreOptimal(t *testing.T) {
	for _, c := range []struct {
		dims []int
		wrap []bool
		want int
	}{
		{[]int{3}, []bool{false}, 2},
		{[]int{5}, []bool{false}, 2},
		{[]int{7}, []bool{true}, 1},
		{[]int{3, 3}, []bool{false, false}, 2},
		{[]int{3, 3}, []bool{true, true}, 1},
		{[]int{3, 3}, []bool{true, false}, 1},
		{[]int{1, 9}, []bool{false, false}, 2},
		{[]int{3, 1, 3}, []bool{false, false, false}, 2},
	} {
		top := mesh(t, c.dims, c.wrap)
		group := seq(0, len(top.Devices), 1)
		order, hops, err := Ring(top, group)
		if err != nil {
			t.Fatal(err)
		}
		checkRing(t, top, c.dims, c.wrap, group, order, hops)
		if brute := bruteForce(t, top, group); hops != c.want || brute != c.want {
			t.Errorf("%s: max hop %d (ring %v), brute force %d, want %d", top.Name, hops, order, brute, c.want)
		}
	}
	// Beyond brute force: the construction reaches the parity bound (an odd grid is bipartite with one colour more,
	// so every ring has a step of two hops) with a single two-hop step.
	for _, dims := range [][]int{{5, 5}, {3, 7}, {15, 15}, {3, 3, 3}, {5, 3, 3}} {
		wrap := make([]bool, len(dims))
		top := mesh(t, dims, wrap)
		group := seq(0, len(top.Devices), 1)
		order, hops, err := Ring(top, group)
		if err != nil {
			t.Fatal(err)
		}
		checkRing(t, top, dims, wrap, group, order, hops)
		long := 0
		for k, id := range order {
			if h, _ := top.Hops(id, order[(k+1)%len(order)]); h > 1 {
				long++
			}
		}
		if hops != 2 || long != 1 {
			t.Errorf("%v: max hop %d with %d long steps, want 2 with 1", dims, hops, long)
		}
	}
}

// TestRingIrregularGroupsAreOptimal compares the search against brute force on random groups that are not boxes.
func TestRingIrregularGroupsAreOptimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		dims []int
		wrap []bool
	}{
		{[]int{4, 4}, []bool{false, false}},
		{[]int{4, 4}, []bool{true, true}},
		{[]int{2, 2, 2}, []bool{false, false, false}},
		{[]int{16, 16}, []bool{true, true}},
	} {
		top := mesh(t, c.dims, c.wrap)
		for range 25 {
			n := min(3+rng.IntN(7), len(top.Devices)-1)
			group := make([]int64, n)
			for i, p := range rng.Perm(len(top.Devices))[:n] {
				group[i] = int64(p)
			}
			order, hops, err := Ring(top, group)
			if err != nil {
				t.Fatal(err)
			}
			checkRing(t, top, c.dims, c.wrap, group, order, hops)
			if brute := bruteForce(t, top, group); hops != brute {
				t.Errorf("%s: group %v: ring %v has max hop %d, brute force %d", top.Name, group, order, hops, brute)
			}
		}
	}
}

// TestRingLargeIrregularGroups exercises the bounded search on groups too big for the exact one.
func TestRingLargeIrregularGroups(t *testing.T) {
	dims, wrap := []int{16, 16}, []bool{false, false}
	top := mesh(t, dims, wrap)
	var holed, cornerless []int64
	for id := range int64(256) {
		x, y := id%16, id/16
		if !(x >= 6 && x < 10 && y >= 6 && y < 10) {
			holed = append(holed, id) // a 16x16 mesh with a 4x4 hole: even, one-hop rings exist
		}
		if id != 255 {
			cornerless = append(cornerless, id) // 255 chips: odd, bipartite, so two hops is optimal
		}
	}
	for _, c := range []struct {
		group []int64
		want  int
	}{{holed, 1}, {cornerless, 2}} {
		order, hops, err := Ring(top, c.group)
		if err != nil {
			t.Fatal(err)
		}
		checkRing(t, top, dims, wrap, c.group, order, hops)
		if hops != c.want {
			t.Errorf("%d-chip group: max hop %d, want %d", len(c.group), hops, c.want)
		}
	}
}

func TestRingDependsOnlyOnMembership(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	top := target(t, "tpu:v6e-256").Topology
	for _, group := range [][]int64{seq(0, 256, 1), seq(0, 16, 1), {0, 1, 16, 17, 32, 33}, {5, 77, 200, 13, 90}} {
		want, wantHops, err := Ring(top, group)
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			shuffled := slices.Clone(group)
			rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
			if got, hops, _ := Ring(top, shuffled); !slices.Equal(got, want) || hops != wantHops {
				t.Fatalf("Ring(%v) = %v, but Ring(%v) = %v", group, want, shuffled, got)
			}
		}
		// Lowering a lowered module again changes nothing.
		if again, _, _ := Ring(top, want); !slices.Equal(again, want) {
			t.Fatalf("Ring is not idempotent: %v then %v", want, again)
		}
	}
}

func BenchmarkRingV6e256(b *testing.B) {
	top := target(b, "tpu:v6e-256").Topology
	group := seq(0, 256, 1)
	for b.Loop() {
		if _, hops, err := Ring(top, group); err != nil || hops != 1 {
			b.Fatal(hops, err)
		}
	}
}

func BenchmarkRingIrregular240(b *testing.B) {
	top := target(b, "tpu:v6e-256").Topology
	var group []int64
	for id := range int64(256) {
		if x, y := id%16, id/16; !(x >= 6 && x < 10 && y >= 6 && y < 10) {
			group = append(group, id)
		}
	}
	for b.Loop() {
		if _, _, err := Ring(top, group); err != nil {
			b.Fatal(err)
		}
	}
}

// TestGridCycles checks the constructions on their own, in box coordinates: every candidate visits each cell once,
// and the preferred one has only unit steps when the box has an even side and two or more sides, and exactly one
// diagonal step when all its sides are odd.
func TestGridCycles(t *testing.T) {
	for _, side := range [][]int{
		{2, 2}, {2, 4}, {4, 2}, {4, 4}, {2, 3}, {3, 2}, {6, 5}, {2, 2, 2}, {2, 3, 5}, {5, 3, 4}, {16, 16},
		{3, 3}, {3, 5}, {7, 3}, {3, 3, 3}, {5, 3, 7},
	} {
		n := count(side)
		cycles := gridCycles(side)
		for k, cycle := range cycles {
			seen := make([]bool, n)
			for _, c := range cycle {
				if c < 0 || c >= n || seen[c] {
					t.Fatalf("%v: candidate %d %v does not visit each cell once", side, k, cycle)
				}
				seen[c] = true
			}
			if len(cycle) != n {
				t.Fatalf("%v: candidate %d has %d cells, want %d", side, k, len(cycle), n)
			}
		}
		steps := map[int]int{}
		for k, c := range cycles[0] {
			steps[cellDistance(side, c, cycles[0][(k+1)%n])]++
		}
		want := map[int]int{1: n}
		if n%2 != 0 {
			want = map[int]int{1: n - 1, 2: 1}
		}
		if fmt.Sprint(steps) != fmt.Sprint(want) {
			t.Errorf("%v: steps by length %v, want %v (cycle %v)", side, steps, want, cycles[0])
		}
	}
}

// cellDistance is the Manhattan distance between two cells of a box, x-minor.
func cellDistance(side []int, a, b int) int {
	d := 0
	for _, s := range side {
		d += max(a%s-b%s, b%s-a%s)
		a, b = a/s, b/s
	}
	return d
}
