package tpu

import (
	"slices"

	"github.com/arcpass/arc/passes/topology"
)

// Direct ring constructions for groups whose coordinates fill a box: for each dimension the group takes a set of
// values, and it holds every combination of them. The box is indexed by ranks: side[d] values along dimension d,
// cell = r[0] + side[0]*(r[1] + ...), x-minor like device ids. The constructions assume only that neighbouring ranks
// are neighbouring chips; Ring measures every candidate with real hops, so strided or wrapped boxes are safe.

// boxCycles returns candidate rings for the group, as member indices, preferred first; none when the group is not a
// box.
func boxCycles(t *topology.Topology, ids []int64) [][]int {
	side, member, ok := box(t, ids)
	if !ok {
		return nil
	}
	var out [][]int
	for _, cells := range gridCycles(side) {
		cycle := make([]int, len(cells))
		for k, c := range cells {
			cycle[k] = member[c]
		}
		out = append(out, cycle)
	}
	return out
}

// box finds the box a group fills: its sides over the dimensions where it takes more than one value (minor first),
// and for each cell the index of the member there.
func box(t *topology.Topology, ids []int64) (side []int, member []int, ok bool) {
	if !t.HasCoords() {
		return nil, nil, false
	}
	coords := make([][]int, len(ids))
	for i, id := range ids {
		d, _ := t.Device(id) // Ring checked membership
		coords[i] = d.Coords
	}
	var dims []int     // dimensions the box spans
	var values [][]int // per spanned dimension, its sorted distinct values
	cells := 1
	for d := range coords[0] {
		var vs []int
		for _, c := range coords {
			vs = append(vs, c[d])
		}
		slices.Sort(vs)
		vs = slices.Compact(vs)
		if len(vs) > 1 {
			dims, values = append(dims, d), append(values, vs)
			side = append(side, len(vs))
			cells *= len(vs)
		}
		if cells > len(ids) {
			return nil, nil, false
		}
	}
	if cells != len(ids) {
		return nil, nil, false
	}
	// Coordinates are unique, so n members on n cells fill the box.
	member = make([]int, cells)
	for i, c := range coords {
		cell, stride := 0, 1
		for k, d := range dims {
			r, _ := slices.BinarySearch(values[k], c[d])
			cell += r * stride
			stride *= side[k]
		}
		member[cell] = i
	}
	return side, member, true
}

// gridCycles returns candidate rings over the cells of a box with the given sides (each at least 2).
//
// One side: the natural order, a ring when the dimension wraps around, and the zigzag 0,2,4,...,5,3,1 whose steps are
// at most two (a path has no cycle, so two is optimal without wraparound).
//
// Several sides: the box is seen as a grid of R rows, one per value of a chosen dimension, and C columns, the cells
// of the other dimensions in boustrophedon (snake) order, in which consecutive columns are neighbours. With R even:
// row 0 left to right, then rows 1..R-1 snaking over columns 1..C-1, then back up column 0: every step is one hop.
// With R and C odd no one-hop ring exists (the grid is bipartite with one colour more) and oddGrid has exactly one
// two-hop step. R is the shortest even side (ties: the most major), so rows run along the longer sides; every other
// even side follows as a further candidate.
func gridCycles(side []int) [][]int {
	if len(side) == 1 {
		n := side[0]
		natural := make([]int, n)
		for i := range natural {
			natural[i] = i
		}
		var zigzag []int
		for i := 0; i < n; i += 2 {
			zigzag = append(zigzag, i)
		}
		for i := n - 1 - n%2; i > 0; i -= 2 {
			zigzag = append(zigzag, i)
		}
		return [][]int{natural, zigzag}
	}
	rowDims := make([]int, len(side))
	for d := range rowDims {
		rowDims[d] = d
	}
	// Prefer even sides, then shorter ones, then more major ones.
	slices.SortStableFunc(rowDims, func(a, b int) int {
		if ea, eb := side[a]%2 == 0, side[b]%2 == 0; ea != eb {
			if ea {
				return -1
			}
			return 1
		}
		if side[a] != side[b] {
			return side[a] - side[b]
		}
		return b - a
	})
	var out [][]int
	for _, r := range rowDims {
		if side[r]%2 != 0 {
			if len(out) == 0 { // all sides odd
				out = append(out, oddGrid(side, r))
			}
			break
		}
		out = append(out, evenGrid(side, r))
	}
	return out
}

// grid maps (column, row) of the grid with rows along dimension row to cells of the box.
type grid struct {
	columns [][]int // per column, the box coordinates (rank per dimension), row dimension left 0
	row     int
	side    []int
}

func newGrid(side []int, row int) grid {
	var others []int
	for d := range side {
		if d != row {
			others = append(others, d)
		}
	}
	return grid{columns: snake(side, others), row: row, side: side}
}

func (g grid) rows() int { return g.side[g.row] }

func (g grid) cell(column, row int) int {
	cell, stride := 0, 1
	for d, s := range g.side {
		r := g.columns[column][d]
		if d == g.row {
			r = row
		}
		cell += r * stride
		stride *= s
	}
	return cell
}

// snake lists the coordinates of the sub-box over dims (minor first) in boustrophedon order: the most major of dims
// steps once per sweep of the others, which alternate direction, so consecutive entries differ by one in one
// dimension.
func snake(side []int, dims []int) [][]int {
	if len(dims) == 0 {
		return [][]int{make([]int, len(side))}
	}
	major := dims[len(dims)-1]
	inner := snake(side, dims[:len(dims)-1])
	var out [][]int
	for v := range side[major] {
		for k := range inner {
			src := inner[k]
			if v%2 == 1 {
				src = inner[len(inner)-1-k]
			}
			c := slices.Clone(src)
			c[major] = v
			out = append(out, c)
		}
	}
	return out
}

// evenGrid is the one-hop ring of a grid with an even number of rows and at least two columns.
func evenGrid(side []int, row int) []int {
	g := newGrid(side, row)
	cols, rows := len(g.columns), g.rows()
	var out []int
	for c := range cols {
		out = append(out, g.cell(c, 0))
	}
	for r := 1; r < rows; r++ {
		for k := range cols - 1 {
			c := cols - 1 - k // odd rows run right to left
			if r%2 == 0 {
				c = 1 + k
			}
			out = append(out, g.cell(c, r))
		}
	}
	for r := rows - 1; r > 0; r-- {
		out = append(out, g.cell(0, r))
	}
	return out
}

// oddGrid is a ring of an odd grid (at least 3x3) whose only long step is the closing diagonal (1,1) -> (0,0), two
// hops: row 0 left to right; columns C-1 down to 2 snaking over rows 1..R-1 (an odd count, so it ends at the
// bottom); then columns 1 and 0 as a ladder from the bottom row up to row 1, ending in column 1.
func oddGrid(side []int, row int) []int {
	g := newGrid(side, row)
	cols, rows := len(g.columns), g.rows()
	var out []int
	for c := range cols {
		out = append(out, g.cell(c, 0))
	}
	for k, c := 0, cols-1; c >= 2; k, c = k+1, c-1 {
		for j := range rows - 1 {
			r := 1 + j // even k runs down
			if k%2 == 1 {
				r = rows - 1 - j
			}
			out = append(out, g.cell(c, r))
		}
	}
	for r := rows - 1; r >= 1; r-- {
		if (rows-1-r)%2 == 0 {
			out = append(out, g.cell(1, r), g.cell(0, r))
		} else {
			out = append(out, g.cell(0, r), g.cell(1, r))
		}
	}
	return out
}
