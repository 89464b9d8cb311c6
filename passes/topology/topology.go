// Package topology models the machine a program runs on: its devices, the links between them, where each device sits
// (optional coordinates) and which node it belongs to (optional host or NUMA membership). One model serves every
// target: built-in machines (the meshes a target's package builds) are instances of it, and any other machine is
// described by a JSON file (see Parse). Distances are hop counts over links, so algorithms written against this model,
// such as a target's search for short cycles through a group, work unchanged on both.
package topology

import (
	"fmt"
	"slices"
	"strconv"
)

// Device is one accelerator.
type Device struct {
	ID     int64 // the device id the program's replica groups use
	Coords []int // position on a physical mesh; nil when unknown
	Node   string
}

// Link is a bidirectional connection between two devices. Kind is free text naming the interconnect, which hop
// distances ignore and a target may read (lowering/gpu takes "host" for no peer access). Repeated links (several
// lanes) are allowed.
type Link struct {
	A, B int64
	Kind string
}

// Topology is a validated machine description. Build one with New, Mesh or Parse; it is read-only afterwards and
// safe for concurrent use.
type Topology struct {
	Name    string
	Devices []Device // in the order given
	Links   []Link

	pos map[int64]int // device id -> index in Devices
	adj [][]int       // neighbour indices per device, ascending, without repeats
}

// Unreachable is the hop count between devices that no chain of links connects.
const Unreachable = -1

// FieldError names the input element that makes a description invalid: List is "devices" or "links", Index the
// element's position in it, Field the offending field ("" for the element as a whole). Parse turns it into a
// FILE:LINE:COL position.
type FieldError struct {
	List  string
	Index int
	Field string
	Msg   string
}

func (e *FieldError) Error() string {
	where := e.List + "[" + strconv.Itoa(e.Index) + "]"
	if e.Field != "" {
		where += "." + e.Field
	}
	return where + ": " + e.Msg
}

// New validates a description and builds its topology: device ids unique and non-negative, coordinates on all
// devices or on none, all of one length and unique, links between two distinct known devices. The slices are
// copied.
func New(name string, devices []Device, links []Link) (*Topology, error) {
	if len(devices) == 0 {
		return nil, fmt.Errorf("topology %q has no devices", name)
	}
	t := &Topology{
		Name:    name,
		Devices: make([]Device, len(devices)),
		Links:   slices.Clone(links),
		pos:     make(map[int64]int, len(devices)),
		adj:     make([][]int, len(devices)),
	}
	withCoords := devices[0].Coords != nil
	seenCoords := make(map[string]int, len(devices))
	for i, d := range devices {
		fail := func(field, format string, args ...any) error {
			return &FieldError{List: "devices", Index: i, Field: field, Msg: fmt.Sprintf(format, args...)}
		}
		if d.ID < 0 {
			return nil, fail("id", "device id %d is negative", d.ID)
		}
		if j, dup := t.pos[d.ID]; dup {
			return nil, fail("id", "device id %d repeats devices[%d]", d.ID, j)
		}
		t.pos[d.ID] = i
		switch {
		case (d.Coords != nil) != withCoords:
			return nil, fail("coords", "give coordinates for every device or for none")
		case withCoords && len(d.Coords) != len(devices[0].Coords):
			return nil, fail("coords", "%d coordinates where devices[0] has %d", len(d.Coords), len(devices[0].Coords))
		case withCoords && len(d.Coords) == 0:
			return nil, fail("coords", "coordinates are empty")
		}
		if withCoords {
			key := fmt.Sprint(d.Coords)
			if j, dup := seenCoords[key]; dup {
				return nil, fail("coords", "coordinates %v repeat devices[%d]", d.Coords, j)
			}
			seenCoords[key] = i
		}
		t.Devices[i] = Device{ID: d.ID, Coords: slices.Clone(d.Coords), Node: d.Node}
	}
	for i, l := range links {
		a, okA := t.pos[l.A]
		b, okB := t.pos[l.B]
		switch {
		case !okA:
			return nil, &FieldError{List: "links", Index: i, Field: "a", Msg: fmt.Sprintf("no device has id %d", l.A)}
		case !okB:
			return nil, &FieldError{List: "links", Index: i, Field: "b", Msg: fmt.Sprintf("no device has id %d", l.B)}
		case a == b:
			return nil, &FieldError{List: "links", Index: i, Msg: fmt.Sprintf("links device %d to itself", l.A)}
		}
		t.adj[a] = append(t.adj[a], b)
		t.adj[b] = append(t.adj[b], a)
	}
	for i := range t.adj {
		slices.Sort(t.adj[i])
		t.adj[i] = slices.Compact(t.adj[i])
	}
	return t, nil
}

// Mesh builds an N-dimensional mesh of devices with dims[d] devices along dimension d. Device ids are x-minor
// coordinates, id = c[0] + dims[0]*(c[1] + dims[1]*(c[2] + ...)), the numbering JAX and torch_xla use for a mesh's
// chips. Neighbours along each dimension are linked; wrap[d] adds the link that closes dimension d into a cycle (a torus
// dimension). Links carry kind.
func Mesh(name string, dims []int, wrap []bool, kind string) (*Topology, error) {
	if len(dims) == 0 || len(wrap) != len(dims) {
		return nil, fmt.Errorf("mesh %q: %d dimensions and %d wrap flags", name, len(dims), len(wrap))
	}
	n := 1
	for _, d := range dims {
		if d < 1 || d > 1<<16 || n*d > 1<<20 {
			return nil, fmt.Errorf("mesh %q: dimensions %v out of range", name, dims)
		}
		n *= d
	}
	devices := make([]Device, n)
	for id := range devices {
		c := make([]int, len(dims))
		rest := id
		for d, size := range dims {
			c[d], rest = rest%size, rest/size
		}
		devices[id] = Device{ID: int64(id), Coords: c}
	}
	var links []Link
	stride := 1
	for d, size := range dims {
		for id, dev := range devices {
			c := dev.Coords[d]
			switch {
			case c+1 < size:
				links = append(links, Link{A: int64(id), B: int64(id + stride), Kind: kind})
			case wrap[d] && size > 2: // size 2: the wrap link would repeat the neighbour link
				links = append(links, Link{A: int64(id), B: int64(id - c*stride), Kind: kind})
			}
		}
		stride *= size
	}
	return New(name, devices, links)
}

// Device returns the device with the given id.
func (t *Topology) Device(id int64) (Device, bool) {
	i, ok := t.pos[id]
	if !ok {
		return Device{}, false
	}
	return t.Devices[i], true
}

// HasCoords reports whether the devices carry mesh coordinates.
func (t *Topology) HasCoords() bool { return t.Devices[0].Coords != nil }

// Neighbours returns the ids of the devices linked to id, ascending.
func (t *Topology) Neighbours(id int64) []int64 {
	i, ok := t.pos[id]
	if !ok {
		return nil
	}
	out := make([]int64, len(t.adj[i]))
	for k, j := range t.adj[i] {
		out[k] = t.Devices[j].ID
	}
	slices.Sort(out)
	return out
}

// Hops returns the number of links on a shortest path from a to b (0 when a == b, Unreachable when no path exists).
func (t *Topology) Hops(a, b int64) (int, error) {
	d, err := t.HopsFrom(a)
	if err != nil {
		return 0, err
	}
	j, ok := t.pos[b]
	if !ok {
		return 0, fmt.Errorf("topology %s has no device %d", t.Name, b)
	}
	return d[j], nil
}

// HopsFrom returns the hop distance from device a to every device, indexed like Devices (breadth-first search over
// the links; Unreachable where no path exists).
func (t *Topology) HopsFrom(a int64) ([]int, error) {
	src, ok := t.pos[a]
	if !ok {
		return nil, fmt.Errorf("topology %s has no device %d", t.Name, a)
	}
	dist := make([]int, len(t.Devices))
	for i := range dist {
		dist[i] = Unreachable
	}
	dist[src] = 0
	queue := []int{src}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, v := range t.adj[u] {
			if dist[v] == Unreachable {
				dist[v] = dist[u] + 1
				queue = append(queue, v)
			}
		}
	}
	return dist, nil
}

// HopMatrix returns the hop distances between every pair of the given devices: m[i][j] is the hop count from ids[i]
// to ids[j] (Unreachable where no path exists).
func (t *Topology) HopMatrix(ids []int64) ([][]int, error) {
	at := make([]int, len(ids))
	for j, id := range ids {
		k, ok := t.pos[id]
		if !ok {
			return nil, fmt.Errorf("topology %s has no device %d", t.Name, id)
		}
		at[j] = k
	}
	m := make([][]int, len(ids))
	for i, a := range ids {
		from, _ := t.HopsFrom(a) // a is known
		m[i] = make([]int, len(ids))
		for j, k := range at {
			m[i][j] = from[k]
		}
	}
	return m, nil
}

// String describes the topology in one line, for messages.
func (t *Topology) String() string {
	return fmt.Sprintf("%s (%d devices, %d links)", t.Name, len(t.Devices), len(t.Links))
}
