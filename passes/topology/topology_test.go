package topology

import (
	"errors"
	"reflect"
	"slices"
	"testing"
)

func TestMeshNumberingIsXMinor(t *testing.T) {
	m, err := Mesh("m", []int{2, 4}, []bool{false, false}, "ici")
	if err != nil {
		t.Fatal(err)
	}
	for id := int64(0); id < 8; id++ {
		d, ok := m.Device(id)
		if !ok {
			t.Fatalf("device %d missing", id)
		}
		if want := []int{int(id % 2), int(id / 2)}; !slices.Equal(d.Coords, want) {
			t.Errorf("device %d at %v, want %v", id, d.Coords, want)
		}
	}
	// (X-1)*Y links along x plus X*(Y-1) along y.
	if got, want := len(m.Links), 1*4+2*3; got != want {
		t.Errorf("%d links, want %d", got, want)
	}
	for _, l := range m.Links {
		if l.Kind != "ici" {
			t.Errorf("link %v has kind %q", l, l.Kind)
		}
	}
	if got := m.Neighbours(3); !slices.Equal(got, []int64{1, 2, 5}) {
		t.Errorf("neighbours of 3 = %v, want [1 2 5]", got)
	}
}

func TestMeshWrapLinks(t *testing.T) {
	m, err := Mesh("m", []int{3, 16}, []bool{false, true}, "ici")
	if err != nil {
		t.Fatal(err)
	}
	// Device 0 is (0,0); its wrap neighbour along y is (0,15) = 0 + 3*15.
	if got := m.Neighbours(0); !slices.Equal(got, []int64{1, 3, 45}) {
		t.Errorf("neighbours of 0 = %v, want [1 3 45]", got)
	}
	if got := m.Neighbours(2); !slices.Equal(got, []int64{1, 5, 47}) {
		t.Errorf("neighbours of 2 = %v, want [1 5 47]", got)
	}
	// A wrapped dimension of 2 adds no second link between the same pair.
	two, err := Mesh("m", []int{2}, []bool{true}, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(two.Links) != 1 {
		t.Errorf("2-ring has %d links, want 1", len(two.Links))
	}
}

func TestMeshRejectsBadShapes(t *testing.T) {
	for _, c := range []struct {
		dims []int
		wrap []bool
	}{
		{nil, nil},
		{[]int{2, 0}, []bool{false, false}},
		{[]int{2, 2}, []bool{false}},
		{[]int{1 << 11, 1 << 11}, []bool{false, false}},
	} {
		if _, err := Mesh("m", c.dims, c.wrap, ""); err == nil {
			t.Errorf("Mesh(%v, %v) accepted", c.dims, c.wrap)
		}
	}
}

func TestHops(t *testing.T) {
	mesh, _ := Mesh("2x4", []int{2, 4}, []bool{false, false}, "")
	torus, _ := Mesh("16x16", []int{16, 16}, []bool{true, true}, "")
	split, _ := New("split", []Device{{ID: 10}, {ID: 11}, {ID: 20}}, []Link{{A: 10, B: 11}})
	for _, c := range []struct {
		top  *Topology
		a, b int64
		want int
	}{
		{mesh, 0, 0, 0},
		{mesh, 0, 1, 1},
		{mesh, 0, 2, 1},
		{mesh, 0, 7, 4}, // (0,0) to (1,3)
		{mesh, 1, 6, 4},
		{torus, 0, 15, 1},   // x wraps
		{torus, 0, 240, 1},  // y wraps
		{torus, 0, 255, 2},  // both wrap
		{torus, 0, 136, 16}, // (8,8): the farthest chip
		{split, 10, 11, 1},
		{split, 10, 20, Unreachable},
	} {
		got, err := c.top.Hops(c.a, c.b)
		if err != nil || got != c.want {
			t.Errorf("%s: Hops(%d, %d) = %d, %v; want %d", c.top.Name, c.a, c.b, got, err, c.want)
		}
	}
	if _, err := mesh.Hops(0, 8); err == nil {
		t.Error("Hops to an unknown device succeeded")
	}
}

func TestNewRejects(t *testing.T) {
	for _, c := range []struct {
		name    string
		devices []Device
		links   []Link
		want    FieldError
	}{
		{"negative id", []Device{{ID: -1}}, nil, FieldError{"devices", 0, "id", "device id -1 is negative"}},
		{"duplicate id", []Device{{ID: 1}, {ID: 1}}, nil, FieldError{"devices", 1, "id", "device id 1 repeats devices[0]"}},
		{"coords on some", []Device{{ID: 0, Coords: []int{0}}, {ID: 1}}, nil,
			FieldError{"devices", 1, "coords", "give coordinates for every device or for none"}},
		{"coords lengths", []Device{{ID: 0, Coords: []int{0}}, {ID: 1, Coords: []int{1, 0}}}, nil,
			FieldError{"devices", 1, "coords", "2 coordinates where devices[0] has 1"}},
		{"empty coords", []Device{{ID: 0, Coords: []int{}}}, nil, FieldError{"devices", 0, "coords", "coordinates are empty"}},
		{"duplicate coords", []Device{{ID: 0, Coords: []int{1, 2}}, {ID: 1, Coords: []int{1, 2}}}, nil,
			FieldError{"devices", 1, "coords", "coordinates [1 2] repeat devices[0]"}},
		{"unknown a", []Device{{ID: 0}}, []Link{{A: 5, B: 0}}, FieldError{"links", 0, "a", "no device has id 5"}},
		{"unknown b", []Device{{ID: 0}}, []Link{{A: 0, B: 5}}, FieldError{"links", 0, "b", "no device has id 5"}},
		{"self link", []Device{{ID: 0}, {ID: 1}}, []Link{{A: 0, B: 1}, {A: 1, B: 1}}, FieldError{"links", 1, "", "links device 1 to itself"}},
	} {
		_, err := New("t", c.devices, c.links)
		var fe *FieldError
		if !errors.As(err, &fe) || *fe != c.want {
			t.Errorf("%s: error %v, want %v", c.name, err, &c.want)
		}
	}
	if _, err := New("t", nil, nil); err == nil {
		t.Error("a topology without devices was accepted")
	}
}

func TestNewCopiesItsInput(t *testing.T) {
	devices := []Device{{ID: 0, Coords: []int{0}}, {ID: 1, Coords: []int{1}}}
	links := []Link{{A: 0, B: 1}}
	top, err := New("t", devices, links)
	if err != nil {
		t.Fatal(err)
	}
	devices[0].Coords[0] = 7
	links[0].B = 0
	want := []Device{{ID: 0, Coords: []int{0}}, {ID: 1, Coords: []int{1}}}
	if !reflect.DeepEqual(top.Devices, want) || top.Links[0].B != 1 {
		t.Errorf("topology changed with its input: %v %v", top.Devices, top.Links)
	}
}
