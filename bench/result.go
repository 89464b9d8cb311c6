package bench

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// Result is one measurement: the time of one all-reduce of Bytes per rank
// lowered as Lowering.
type Result struct {
	Level    string // "xla" (inside XLA programs) or "kernel" (arc's C API and NCCL called directly)
	Link     string // "peer" or "host" (peer access off, NCCL_P2P_DISABLE=1)
	World    int
	DType    string
	Bytes    int64
	Lowering Lowering
	US       float64 // median over the repetitions, microseconds
	P25, P75 float64 // quartiles over the repetitions: the spread
	// ChainUS and ControlUS are the medians of the whole chained and control
	// programs (XLA level only).
	ChainUS, ControlUS float64
	// FloorUS is the least time the call can take (kernel level: kbench's
	// floor_us, the bytes it must move over the bandwidth measured in the
	// same run; 0: none, as for NCCL).
	FloorUS float64
	// GPUs is how many GPUs the World ranks ran on when that is fewer
	// (logical ranks, kernel level: the kernels' own cost on one GPU, not a
	// link's); 0 when each rank had its own.
	GPUs  int
	Chose string // what auto chose (a profile key)
	Err   string // why there is no time
}

// OK reports whether the result holds a time.
func (r Result) OK() bool { return r.Err == "" }

// AlgBW is the algorithm bandwidth in GB/s: bytes per rank over time, as
// nccl-tests reports it.
func (r Result) AlgBW() float64 {
	if !r.OK() || r.US <= 0 {
		return 0
	}
	return float64(r.Bytes) / r.US / 1e3
}

// XFloor is the time over the floor, how far the call is from the least
// time it can take; 0 without a floor or a time.
func (r Result) XFloor() float64 {
	if !r.OK() || r.US <= 0 || r.FloorUS <= 0 {
		return 0
	}
	return r.US / r.FloorUS
}

// BusBW is nccl-tests' bus bandwidth of an all-reduce: AlgBW * 2(W-1)/W,
// comparable with the link's peak whatever the world size.
func (r Result) BusBW() float64 {
	return r.AlgBW() * 2 * float64(r.World-1) / float64(r.World)
}

// series identifies results that belong to one table.
type series struct {
	Level, Link string
	World, GPUs int
	DType       string
}

func (r Result) series() series { return series{r.Level, r.Link, r.World, r.GPUs, r.DType} }

// title names a series in tables and plots.
func (s series) title() string {
	return fmt.Sprintf("%s level, %s link, %s, %s", s.Level, s.Link, s.ranks(), s.DType)
}

// ranks is "2 GPUs", or "2 ranks on 1 GPU" for logical ranks.
func (s series) ranks() string {
	switch {
	case s.GPUs <= 0 || s.GPUs >= s.World:
		return fmt.Sprintf("%d GPUs", s.World)
	case s.GPUs == 1:
		return fmt.Sprintf("%d ranks on 1 GPU", s.World)
	}
	return fmt.Sprintf("%d ranks on %d GPUs", s.World, s.GPUs)
}

// seriesOf lists the series of rs in the order they first appear.
func seriesOf(rs []Result) []series {
	var out []series
	for _, r := range rs {
		if s := r.series(); !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// lowerings lists the lowerings measured in series s, in the order they
// first appear in rs.
func (s series) lowerings(rs []Result) []Lowering {
	var out []Lowering
	for _, r := range rs {
		if r.series() == s && !slices.Contains(out, r.Lowering) {
			out = append(out, r.Lowering)
		}
	}
	return out
}

// index finds results by series, size and lowering.
type index map[series]map[int64]map[Lowering]Result

func indexResults(rs []Result) index {
	ix := index{}
	for _, r := range rs {
		s := r.series()
		if ix[s] == nil {
			ix[s] = map[int64]map[Lowering]Result{}
		}
		if ix[s][r.Bytes] == nil {
			ix[s][r.Bytes] = map[Lowering]Result{}
		}
		ix[s][r.Bytes][r.Lowering] = r
	}
	return ix
}

// speedup is native's time over r's at the same cell, 0 when either is missing.
func (ix index) speedup(r Result) float64 {
	return ratio(ix[r.series()][r.Bytes][Native], r)
}

// bestNative is the fastest native lowering measured at r's cell: native
// with or without XLA's switches, or NCCL captured in a graph at the kernel
// level. ok is false when none has a time.
func (ix index) bestNative(r Result) (best Result, ok bool) {
	for _, c := range ix[r.series()][r.Bytes] {
		if c.Lowering.IsNative() && c.OK() && c.US > 0 && (!ok || c.US < best.US || (c.US == best.US && c.Lowering < best.Lowering)) {
			best, ok = c, true
		}
	}
	return best, ok
}

// speedupBest is the best native's time over r's at the same cell, 0 when
// either is missing.
func (ix index) speedupBest(r Result) float64 {
	best, ok := ix.bestNative(r)
	if !ok {
		return 0
	}
	return ratio(best, r)
}

// ratio is base's time over r's, 0 unless both have one.
func ratio(base, r Result) float64 {
	if base.Lowering == "" || !base.OK() || !r.OK() || r.US <= 0 || base.US <= 0 {
		return 0
	}
	return base.US / r.US
}

// ChoseName is what auto chose, named as the lowerings are.
func (r Result) ChoseName() string {
	if r.Chose == "" {
		return ""
	}
	return string(LoweringForKey(r.Chose))
}

var csvHeader = []string{
	"level", "link", "world", "gpus", "dtype", "bytes", "lowering", "us", "us_p25", "us_p75", "chain_us", "control_us",
	"algbw_gbps", "busbw_gbps", "speedup_vs_native", "best_native", "speedup_vs_best_native", "floor_us", "x_floor", "chose", "error",
}

// WriteCSV writes results with a header row. Bandwidths, the speedups over
// native and over the best native in the same cell, which native that is,
// and the time over the floor are derived columns that ReadCSV ignores.
func WriteCSV(w io.Writer, rs []Result) error {
	ix := indexResults(rs)
	cw := csv.NewWriter(w)
	cw.Write(csvHeader)
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) }
	for _, r := range rs {
		best, _ := ix.bestNative(r)
		cw.Write([]string{
			r.Level, r.Link, strconv.Itoa(r.World), strconv.Itoa(r.GPUs), r.DType, strconv.FormatInt(r.Bytes, 10), string(r.Lowering),
			f(r.US), f(r.P25), f(r.P75), f(r.ChainUS), f(r.ControlUS), f(r.AlgBW()), f(r.BusBW()), f(ix.speedup(r)),
			string(best.Lowering), f(ix.speedupBest(r)), strconv.FormatFloat(r.FloorUS, 'f', 4, 64), f(r.XFloor()), r.ChoseName(), r.Err,
		})
	}
	cw.Flush()
	return cw.Error()
}

// ReadCSV reads what WriteCSV wrote; columns are found by their header.
func ReadCSV(r io.Reader) ([]Result, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	rows, err := cr.ReadAll()
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("empty CSV: want a header row (%s)", csvHeader)
	}
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	for _, name := range []string{"level", "link", "world", "dtype", "bytes", "lowering", "us"} {
		if _, ok := col[name]; !ok {
			return nil, fmt.Errorf("line 1: no %q column", name)
		}
	}
	var out []Result
	for n, row := range rows[1:] {
		line := n + 2
		get := func(name string) string {
			if i, ok := col[name]; ok && i < len(row) {
				return row[i]
			}
			return ""
		}
		var bad error
		num := func(name string) float64 {
			s := get(name)
			if s == "" {
				return 0
			}
			v, err := strconv.ParseFloat(s, 64)
			if err != nil && bad == nil {
				bad = fmt.Errorf("line %d: column %s: %q is not a number", line, name, s)
			}
			return v
		}
		world, err1 := strconv.Atoi(get("world"))
		bytes, err2 := strconv.ParseInt(get("bytes"), 10, 64)
		if err1 != nil || err2 != nil || world < 1 || bytes < 1 {
			return nil, fmt.Errorf("line %d: world %q and bytes %q must be positive integers", line, get("world"), get("bytes"))
		}
		l, err := readLowering(get("lowering"))
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", line, err)
		}
		gpus, err := strconv.Atoi(get("gpus"))
		if get("gpus") == "" { // written before logical ranks
			gpus, err = 0, nil
		}
		if err != nil || gpus < 0 {
			return nil, fmt.Errorf("line %d: gpus %q must be a count", line, get("gpus"))
		}
		r := Result{
			Level: get("level"), Link: get("link"), World: world, GPUs: gpus, DType: get("dtype"), Bytes: bytes,
			Lowering: l, US: num("us"), P25: num("us_p25"), P75: num("us_p75"),
			ChainUS: num("chain_us"), ControlUS: num("control_us"), FloorUS: num("floor_us"),
			Chose: chosenKey(get("chose")), Err: get("error"),
		}
		if bad != nil {
			return nil, bad
		}
		out = append(out, r)
	}
	return out, nil
}

// readLowering reads a CSV's lowering: a name ParseLowering reads (older
// files wrote the same names; the profile key twoshot:fp8 reads as
// lowprec:fp8), or NCCL captured in a graph at the kernel level.
func readLowering(s string) (Lowering, error) {
	if l := Lowering(strings.ToLower(s)); l.IsNative() && strings.HasPrefix(s, "nccl-") {
		return l, nil
	}
	return ParseLowering(s)
}

// chosenKey is the profile key of a CSV's chose column, which older files
// wrote as a key (twoshot:fp8) and newer ones as a lowering (lowprec:fp8).
func chosenKey(s string) string {
	if s == "" {
		return ""
	}
	return Lowering(strings.ToLower(s)).Key()
}
