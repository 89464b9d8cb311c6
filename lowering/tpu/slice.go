// Package tpu is arc's TPU lowering core: the TPU slices arc targets, the ring embedding that orders each replica
// group into a cycle of one-hop ICI steps, and the libtpu flags that make XLA use that order.
//
// On TPU the all-reduce stays an XLA collective. XLA on v6e picks a 2-D ring algorithm that is slower there; forcing
// a 1-D ring (LibtpuRingFlag) makes the order of the replica group the order of the ring, so arc writes each group in
// an order whose consecutive devices, the last back to the first included, are neighbours on the chip mesh.
//
// Device numbering. A chip's device id is its x-minor coordinate, id = x + X*y (+ X*Y*z). Checked against public
// sources: jax's mesh_utils sorts TPU devices by reversed coords "to change z-minor to x-minor" before applying its
// physical ring orders (2x2: 0,1,3,2; 4x4: 0,1,2,3,7,6,5,9,10,11,15,14,13,12,8,4, one-hop rings only in that
// numbering), and the mock TPU devices of jax's mesh_utils tests compute id = x + X*(y + Y*z) even when hosts hold
// 2x2 blocks (hosts change the order of jax.devices(), not the ids). torch_xla's create_optimized_replica_groups
// (ported from that jax file) hard-codes v6e with bounds x=2, y=4 as 0,2,4,6,7,5,3,1 and v5p 2x2x2 as
// 0,1,3,2,6,7,5,4: both are one-hop rings exactly when id = x + X*y (+ X*Y*z), and they fix that a slice named AxB
// has A chips along x.
package tpu

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/arcpass/arc/passes/topology"
)

// Slice is a TPU slice: a chip generation and its physical mesh.
type Slice struct {
	Target string // as given to --target, e.g. "tpu:v6e-8"
	Gen    string // "v6e", "v5e" or "v5p"
	Dims   []int  // chips along x, y (and z)
	Wrap   []bool // wraparound (torus) links per dimension

	// Topology is the slice as a generic topology: chips numbered x-minor, ICI links between mesh neighbours and
	// along wraparound dimensions.
	Topology *topology.Topology
}

// The 2-D slice shapes of v6e and v5e by chip count, x first. A dimension of 16 spans the full pod and closes into a
// ring through wraparound links; shorter dimensions have none.
var shapes2D = map[int][2]int{
	1: {1, 1}, 4: {2, 2}, 8: {2, 4}, 16: {4, 4}, 32: {4, 8}, 64: {8, 8}, 128: {8, 16}, 256: {16, 16},
}

// sliceSizes are the chip counts of shapes2D, in order.
var sliceSizes = []int{1, 4, 8, 16, 32, 64, 128, 256}

// ParseTarget parses a TPU target such as "tpu:v6e-8".
func ParseTarget(target string) (Slice, error) {
	gen, count, ok := strings.Cut(strings.TrimPrefix(target, "tpu:"), "-")
	n, err := strconv.Atoi(count)
	if !strings.HasPrefix(target, "tpu:") || !ok || err != nil {
		return Slice{}, fmt.Errorf("unknown TPU target %q (want tpu:GEN-CHIPS, e.g. tpu:v6e-8)", target)
	}
	switch {
	case gen == "v6e" || gen == "v5e":
		shape, ok := shapes2D[n]
		if !ok {
			return Slice{}, fmt.Errorf("unknown TPU target %q: %s slices have %s chips", target, gen, chipCounts())
		}
		dims := []int{shape[0], shape[1]}
		return newSlice(target, gen, dims, []bool{dims[0] == 16, dims[1] == 16})
	case gen == "v5p" && n == 8:
		return newSlice(target, gen, []int{2, 2, 2}, []bool{false, false, false})
	case gen == "v5p":
		return Slice{}, fmt.Errorf("unknown TPU target %q: of v5p arc knows only tpu:v5p-8 (2x2x2)", target)
	}
	return Slice{}, fmt.Errorf("unknown TPU target %q (known: %s)", target, strings.Join(targetNames(), ", "))
}

// Chips returns the number of chips in the slice.
func (s Slice) Chips() int {
	n := 1
	for _, d := range s.Dims {
		n *= d
	}
	return n
}

// Shape returns the slice shape as TPU names it, e.g. "2x4".
func (s Slice) Shape() string {
	parts := make([]string, len(s.Dims))
	for i, d := range s.Dims {
		parts[i] = strconv.Itoa(d)
	}
	return strings.Join(parts, "x")
}

func newSlice(target, gen string, dims []int, wrap []bool) (Slice, error) {
	t, err := topology.Mesh(target, dims, wrap, "ici")
	return Slice{Target: target, Gen: gen, Dims: dims, Wrap: wrap, Topology: t}, err
}

// chipCounts prints sliceSizes as "1, 4, ... or 256".
func chipCounts() string {
	words := make([]string, len(sliceSizes))
	for i, n := range sliceSizes {
		words[i] = strconv.Itoa(n)
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// Placed returns the slice's topology with each device id on the chip its
// coordinates name (PJRT's coords attribute of each device), whatever
// numbering the ids follow: JAX's and torch_xla's public sources assume
// different ones (docs/LOWERINGS.md), so the devices' own coordinates
// decide. The coordinates give the mesh's orientation too (a 2x4 tray may
// read as 4 x 2): their extent must be the slice's dimensions in some
// order. Every chip must be named once; coordinates past the slice's
// dimensions (z on a 2-D slice, a core index) must be 0.
func (s Slice) Placed(coords map[int64][]int) (*topology.Topology, error) {
	if len(coords) != s.Chips() {
		return nil, fmt.Errorf("%d devices placed on the %d chips of %s", len(coords), s.Chips(), s.Target)
	}
	ids := make([]int64, 0, len(coords))
	for id := range coords {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	dims := make([]int, len(s.Dims)) // the extent of the coordinates
	for _, id := range ids {
		c := coords[id]
		if len(c) < len(dims) {
			return nil, fmt.Errorf("device %d has %d coordinates; %s has %d dimensions", id, len(c), s.Target, len(dims))
		}
		for d := range dims {
			dims[d] = max(dims[d], c[d]+1)
		}
		for _, extra := range c[len(dims):] {
			if extra != 0 {
				return nil, fmt.Errorf("device %d at %v is outside the %s mesh", id, c, s.Shape())
			}
		}
	}
	want, got := slices.Clone(s.Dims), slices.Clone(dims)
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(want, got) {
		return nil, fmt.Errorf("the coordinates span %v, not the %s mesh", dims, s.Shape())
	}
	wrap := make([]bool, len(dims))
	for d, size := range dims {
		wrap[d] = s.Wrap[slices.Index(s.Dims, size)] // dimensions of one size wrap alike
	}
	mesh, err := topology.Mesh(s.Target, dims, wrap, "ici")
	if err != nil {
		return nil, err
	}
	idOf := make(map[int64]int64, len(coords)) // chip (x-minor cell of dims) -> device id
	devices := make([]topology.Device, 0, len(coords))
	for _, id := range ids {
		c := coords[id][:len(dims)]
		cell, stride := int64(0), int64(1)
		for d, size := range dims {
			cell += int64(c[d]) * stride
			stride *= int64(size)
		}
		if other, taken := idOf[cell]; taken {
			return nil, fmt.Errorf("devices %d and %d are at the same chip %v", other, id, c)
		}
		idOf[cell] = id
		devices = append(devices, topology.Device{ID: id, Coords: slices.Clone(c)})
	}
	links := make([]topology.Link, len(mesh.Links))
	for i, l := range mesh.Links { // the mesh's ids are its x-minor cells
		links[i] = topology.Link{A: idOf[l.A], B: idOf[l.B], Kind: l.Kind}
	}
	return topology.New(s.Target+" placed by the devices' coordinates", devices, links)
}
