package bench

import (
	"fmt"
	"io"
	"sort"
)

// Formats are the forms WriteReport prints results in: arc's table, or
// nccl-tests' (all_reduce_perf's columns, which GPU users compare with).
var Formats = []string{"table", "nccl"}

// WriteReport prints results in one of Formats.
func WriteReport(w io.Writer, rs []Result, format string) error {
	switch format {
	case "table":
		return WriteTable(w, rs)
	case "nccl":
		return WriteNCCL(w, rs)
	}
	return fmt.Errorf("format %q: want table or nccl", format)
}

// ncclTypes are nccl-tests' names of the element types.
var ncclTypes = map[string]string{"f16": "half", "bf16": "bfloat16", "f32": "float"}

// WriteNCCL prints the measurements in nccl-tests' layout (all_reduce_perf's
// out-of-place columns, its widths and units): one block per level, link,
// world, dtype and lowering, a row per size with size (bytes per rank),
// count (elements), type, redop, time (us, the median per all-reduce),
// algbw and busbw (GB/s: bytes / time and algbw * 2(W-1)/W, as nccl-tests
// computes them) and #wrong, N/A because arc bench does not check the sums
// (the kernel tests do, bit for bit). Each block ends, as nccl-tests does,
// with the average bus bandwidth of its rows; failures follow as comments.
func WriteNCCL(w io.Writer, rs []Result) error {
	ix := indexResults(rs)
	fmt.Fprintln(w, "# arc bench: nccl-tests' all_reduce_perf columns (out of place); time is the median per all-reduce,")
	fmt.Fprintln(w, "# #wrong is not checked here (N/A)")
	for _, s := range seriesOf(rs) {
		cells := ix[s]
		sizes := make([]int64, 0, len(cells))
		for n := range cells {
			sizes = append(sizes, n)
		}
		sort.Slice(sizes, func(i, j int) bool { return sizes[i] < sizes[j] })
		typ, ok := ncclTypes[s.DType]
		if !ok {
			typ = s.DType
		}
		for _, l := range s.lowerings(rs) {
			fmt.Fprintf(w, "#\n# %s, lowering %s\n#\n", s.title(), l)
			fmt.Fprintf(w, "# %10s  %12s  %8s  %6s  %7s  %6s  %6s %6s\n", "size", "count", "type", "redop", "time", "algbw", "busbw", "#wrong")
			fmt.Fprintf(w, "# %10s  %12s  %8s  %6s  %7s  %6s  %6s  %5s\n", "(B)", "(elements)", "", "", "(us)", "(GB/s)", "(GB/s)", "")
			var busbw []float64
			var failed []Result
			for _, n := range sizes {
				r, ok := cells[n][l]
				switch {
				case !ok:
					continue
				case !r.OK() || r.US <= 0:
					failed = append(failed, r)
					continue
				}
				fmt.Fprintf(w, "%12d  %12d  %8s  %6s  %7s  %6.2f  %6.2f  %5s\n",
					r.Bytes, r.Bytes/ElemSize(r.DType), typ, "sum", ncclTime(r.US), r.AlgBW(), r.BusBW(), "N/A")
				busbw = append(busbw, r.BusBW())
			}
			for _, r := range failed {
				why := r.Err
				if why == "" {
					why = "no time (the difference to the control was not positive)"
				}
				fmt.Fprintf(w, "# %10d  not measured: %s\n", r.Bytes, why)
			}
			if len(busbw) > 0 {
				fmt.Fprintf(w, "# Avg bus bandwidth    : %.6g \n", mean(busbw))
			}
		}
	}
	return nil
}

// ncclTime prints microseconds as nccl-tests does: fewer decimals as the time grows.
func ncclTime(us float64) string {
	switch {
	case us >= 10000:
		return fmt.Sprintf("%7.0f", us)
	case us >= 100:
		return fmt.Sprintf("%7.1f", us)
	}
	return fmt.Sprintf("%7.2f", us)
}

func mean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}
