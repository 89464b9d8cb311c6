package bench

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
)

// WriteTable prints one table per level, link, world and dtype: rows are
// sizes, columns the lowerings' median microseconds, then (when the series
// has several native lowerings: XLA's switches, NCCL in a graph) which
// native was fastest, auto's speedup over that best native (over native
// when it is the only one), what auto chose, and the fastest lowering with
// its speedup over the best native. A series with floors (the kernel
// level) gets a second table: each lowering's time over its floor. Failures
// print as "err" and are listed after the tables with their messages.
func WriteTable(w io.Writer, rs []Result) error {
	ix := indexResults(rs)
	for i, s := range seriesOf(rs) {
		if i > 0 {
			fmt.Fprintln(w)
		}
		writeSeries(w, s, ix[s], rs)
		writeFloors(w, s, ix[s], rs)
	}
	writeErrors(w, rs)
	return nil
}

// natives counts the native lowerings among lows.
func natives(lows []Lowering) int {
	n := 0
	for _, l := range lows {
		if l.IsNative() {
			n++
		}
	}
	return n
}

// baseName is what ratios are over: the best native when there are several.
func baseName(lows []Lowering) string {
	if natives(lows) > 1 {
		return "best"
	}
	return "native"
}

func writeSeries(w io.Writer, s series, cells map[int64]map[Lowering]Result, rs []Result) {
	lows := s.lowerings(rs)
	sizes := make([]int64, 0, len(cells))
	for n := range cells {
		sizes = append(sizes, n)
	}
	sort.Slice(sizes, func(i, j int) bool { return sizes[i] < sizes[j] })

	fmt.Fprintf(w, "%s: microseconds per all-reduce (median)\n", s.title())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := []string{"size"}
	for _, l := range lows {
		head = append(head, l.Label())
	}
	several := natives(lows) > 1
	if several {
		head = append(head, "best native")
	}
	hasAuto := slices.Contains(lows, Auto)
	if hasAuto {
		head = append(head, "auto/"+baseName(lows), "auto chose")
	}
	head = append(head, "fastest")
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	ix := index{s: cells}
	for _, n := range sizes {
		row := []string{FormatSize(n)}
		var some Result
		for _, l := range lows {
			r, ok := cells[n][l]
			switch {
			case !ok:
				row = append(row, "-")
			case !r.OK():
				row = append(row, "err")
			default:
				row = append(row, fmt.Sprintf("%.1f", r.US))
			}
			if ok {
				some = r
			}
		}
		if several {
			best, ok := ix.bestNative(some)
			row = append(row, map[bool]string{true: string(best.Lowering), false: "-"}[ok])
		}
		if hasAuto {
			auto := cells[n][Auto]
			speedup := "-"
			if sp := ix.speedupBest(auto); sp > 0 {
				speedup = fmt.Sprintf("%.2fx", sp)
			}
			row = append(row, speedup, orDash(auto.ChoseName()))
		}
		row = append(row, fastest(ix, cells[n], lows))
		fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	}
	tw.Flush()
}

// floorName names a link's floor: what bounds a call's time there.
func floorName(link string) string {
	if link == "host" {
		return "PCIe floor"
	}
	return "HBM floor"
}

// floorWhy says what the floor is, for the floor table's title.
func floorWhy(link string) string {
	if link == "host" {
		return "the bytes it moves over PCIe over the measured host-device bandwidths"
	}
	return "the bytes it must move through HBM over cudaMemcpy's bandwidth"
}

// floored lists the lowerings of series s that have a floor somewhere.
func (s series) floored(rs []Result) []Lowering {
	var out []Lowering
	for _, l := range s.lowerings(rs) {
		for _, r := range rs {
			if r.series() == s && r.Lowering == l && r.FloorUS > 0 {
				out = append(out, l)
				break
			}
		}
	}
	return out
}

// writeFloors prints, for a series with floors, each lowering's time over
// its floor: how far a kernel is from the least time it can take.
func writeFloors(w io.Writer, s series, cells map[int64]map[Lowering]Result, rs []Result) {
	lows := s.floored(rs)
	if len(lows) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s: x of the %s (time / floor: %s, docs/KERNELS.md)\n", s.title(), floorName(s.Link), floorWhy(s.Link))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := []string{"size"}
	for _, l := range lows {
		head = append(head, l.Label())
	}
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	for _, n := range slices.Sorted(maps.Keys(cells)) {
		row := []string{FormatSize(n)}
		for _, l := range lows {
			r, ok := cells[n][l]
			switch {
			case ok && !r.OK():
				row = append(row, "err")
			case r.XFloor() > 0:
				row = append(row, fmt.Sprintf("%.2f", r.XFloor()))
			default:
				row = append(row, "-")
			}
		}
		fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	}
	tw.Flush()
}

// fastest names the quickest lowering of a cell (auto aside) and its
// speedup over the best native.
func fastest(ix index, cell map[Lowering]Result, lows []Lowering) string {
	var best Result
	for _, l := range lows {
		r, ok := cell[l]
		if ok && l != Auto && r.OK() && r.US > 0 && (best.Lowering == "" || r.US < best.US) {
			best = r
		}
	}
	if best.Lowering == "" {
		return "-"
	}
	if sp := ix.speedupBest(best); sp > 0 {
		return fmt.Sprintf("%s %.2fx", best.Lowering, sp)
	}
	return string(best.Lowering)
}

// writeErrors lists each distinct failure once, with the lowerings and
// cells it hit.
func writeErrors(w io.Writer, rs []Result) {
	type failure struct{ level, link, err string }
	var order []failure
	hits := map[failure][]Lowering{}
	cells := map[failure]map[Lowering][]string{}
	for _, r := range rs {
		if r.OK() {
			continue
		}
		f := failure{r.Level, r.Link, r.Err}
		if cells[f] == nil {
			order = append(order, f)
			cells[f] = map[Lowering][]string{}
		}
		if !slices.Contains(hits[f], r.Lowering) {
			hits[f] = append(hits[f], r.Lowering)
		}
		cells[f][r.Lowering] = append(cells[f][r.Lowering], r.DType+" "+FormatSize(r.Bytes))
	}
	if len(order) == 0 {
		return
	}
	fmt.Fprintln(w, "\nfailures:")
	for _, f := range order {
		// Lowerings that failed at the same cells share one line.
		var where []string
		group := map[string][]string{}
		for _, l := range hits[f] {
			at := strings.Join(cells[f][l], ", ")
			if group[at] == nil {
				where = append(where, at)
			}
			group[at] = append(group[at], string(l))
		}
		for _, at := range where {
			fmt.Fprintf(w, "  %s level, %s link, %s at %s: %s\n", f.level, f.link, strings.Join(group[at], ", "), at, f.err)
		}
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
