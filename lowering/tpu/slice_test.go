package tpu

import (
	"slices"
	"strings"
	"testing"
)

func TestParseTarget(t *testing.T) {
	for _, c := range []struct {
		target string
		dims   []int
		wrap   []bool
	}{
		{"tpu:v6e-1", []int{1, 1}, []bool{false, false}},
		{"tpu:v6e-4", []int{2, 2}, []bool{false, false}},
		{"tpu:v6e-8", []int{2, 4}, []bool{false, false}},
		{"tpu:v6e-16", []int{4, 4}, []bool{false, false}},
		{"tpu:v6e-32", []int{4, 8}, []bool{false, false}},
		{"tpu:v6e-64", []int{8, 8}, []bool{false, false}},
		{"tpu:v6e-128", []int{8, 16}, []bool{false, true}},
		{"tpu:v6e-256", []int{16, 16}, []bool{true, true}},
		{"tpu:v5e-8", []int{2, 4}, []bool{false, false}},
		{"tpu:v5e-256", []int{16, 16}, []bool{true, true}},
		{"tpu:v5p-8", []int{2, 2, 2}, []bool{false, false, false}},
	} {
		s, err := ParseTarget(c.target)
		if err != nil {
			t.Errorf("%s: %v", c.target, err)
			continue
		}
		if s.Target != c.target || !slices.Equal(s.Dims, c.dims) || !slices.Equal(s.Wrap, c.wrap) {
			t.Errorf("%s: got %+v", c.target, s)
		}
		if got := len(s.Topology.Devices); got != s.Chips() {
			t.Errorf("%s: topology has %d devices for %d chips", c.target, got, s.Chips())
		}
	}
}

func TestParseTargetRejects(t *testing.T) {
	for _, c := range []struct{ target, want string }{
		{"v6e-8", "want tpu:GEN-CHIPS"},
		{"tpu:v6e", "want tpu:GEN-CHIPS"},
		{"tpu:v6e-x", "want tpu:GEN-CHIPS"},
		{"tpu:v6e-2", "v6e slices have 1, 4, 8"},
		{"tpu:v5e-512", "v5e slices have 1, 4, 8"},
		{"tpu:v5p-16", "only tpu:v5p-8"},
		{"tpu:v4-8", "known: tpu:v6e-1"},
		{"cuda:nvlink", "want tpu:GEN-CHIPS"},
	} {
		_, err := ParseTarget(c.target)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseTarget(%q) error %v, want it to mention %q", c.target, err, c.want)
		}
	}
}

func TestTargetsAllParse(t *testing.T) {
	targets := Targets()
	if len(targets) != 17 {
		t.Errorf("%d targets, want 8 v6e + 8 v5e + v5p-8", len(targets))
	}
	for i, target := range targets {
		if target.Name() != targetNames()[i] {
			t.Errorf("target %d is %s, want %s", i, target.Name(), targetNames()[i])
		}
		if _, err := ParseTarget(target.Name()); err != nil {
			t.Errorf("listed target %s: %v", target.Name(), err)
		}
	}
}

func TestSliceNumberingAndHops(t *testing.T) {
	v6e8, _ := ParseTarget("tpu:v6e-8")
	if v6e8.Shape() != "2x4" {
		t.Errorf("v6e-8 shape %s", v6e8.Shape())
	}
	// x-minor: id = x + 2*y on the 2x4 mesh.
	for id, want := range [][]int{{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}, {1, 2}, {0, 3}, {1, 3}} {
		d, _ := v6e8.Topology.Device(int64(id))
		if !slices.Equal(d.Coords, want) {
			t.Errorf("v6e-8 chip %d at %v, want %v", id, d.Coords, want)
		}
	}
	v5p, _ := ParseTarget("tpu:v5p-8")
	if d, _ := v5p.Topology.Device(6); !slices.Equal(d.Coords, []int{0, 1, 1}) {
		t.Errorf("v5p-8 chip 6 at %v, want [0 1 1]", d.Coords)
	}
	v6e256, _ := ParseTarget("tpu:v6e-256")
	for _, c := range []struct {
		s    Slice
		a, b int64
		want int
	}{
		{v6e8, 0, 1, 1},
		{v6e8, 0, 2, 1},
		{v6e8, 1, 2, 2},
		{v6e8, 0, 6, 3},
		{v6e8, 7, 0, 4},
		{v5p, 0, 7, 3},
		{v6e256, 0, 15, 1},   // wraparound along x
		{v6e256, 0, 240, 1},  // wraparound along y
		{v6e256, 0, 136, 16}, // (8,8): farthest
	} {
		if got, err := c.s.Topology.Hops(c.a, c.b); err != nil || got != c.want {
			t.Errorf("%s: hops %d-%d = %d, %v; want %d", c.s.Target, c.a, c.b, got, err, c.want)
		}
	}
}

// TestPlacedRingsFollowTheCoordinates: the public sources number a v6e-8
// tray's chips two ways. torch_xla takes x = 2 chips (ids x + 2y: ring
// 0,2,4,6,7,5,3,1); JAX's mesh_utils sorts x-minor with x spanning 4 (ids
// x + 4y: ring 0,1,2,3,7,6,5,4). The devices' coordinates decide: each
// numbering gets its own one-hop ring.
func TestPlacedRingsFollowTheCoordinates(t *testing.T) {
	s, err := ParseTarget("tpu:v6e-8")
	if err != nil {
		t.Fatal(err)
	}
	all := []int64{0, 1, 2, 3, 4, 5, 6, 7}
	for _, c := range []struct {
		name   string
		coords func(id int) []int
		want   []int64
	}{
		{"torch_xla: x spans 2", func(id int) []int { return []int{id % 2, id / 2, 0} }, []int64{0, 2, 4, 6, 7, 5, 3, 1}},
		{"JAX: x spans 4", func(id int) []int { return []int{id % 4, id / 4, 0} }, []int64{0, 1, 2, 3, 7, 6, 5, 4}},
	} {
		coords := map[int64][]int{}
		for id := range 8 {
			coords[int64(id)] = c.coords(id)
		}
		topo, err := s.Placed(coords)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		order, hops, err := Ring(topo, all)
		if err != nil || hops != 1 {
			t.Fatalf("%s: ring %v with %d hops (%v)", c.name, order, hops, err)
		}
		if got, _ := RingMaxHops(topo, c.want); got != 1 {
			t.Errorf("%s: the source's ring %v has %d hops on these coordinates", c.name, c.want, got)
		}
	}
	for _, bad := range []map[int64][]int{
		{0: {0, 0}, 1: {1, 0}}, // too few devices
		{0: {0, 0}, 1: {0, 0}, 2: {0, 1}, 3: {1, 1}, 4: {0, 2}, 5: {1, 2}, 6: {0, 3}, 7: {1, 3}},    // two on one chip
		{0: {0, 0}, 1: {1, 0}, 2: {2, 0}, 3: {3, 0}, 4: {4, 0}, 5: {5, 0}, 6: {6, 0}, 7: {7, 0}},    // an 8 x 1 line
		{0: {0, 0, 1}, 1: {1, 0}, 2: {0, 1}, 3: {1, 1}, 4: {0, 2}, 5: {1, 2}, 6: {0, 3}, 7: {1, 3}}, // off the 2-D slice
	} {
		if _, err := s.Placed(bad); err == nil {
			t.Errorf("Placed(%v) took it", bad)
		}
	}
}
