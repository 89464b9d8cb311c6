package cuda_test

import (
	"encoding/csv"
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/arcpass/arc/lowering/cuda"
	"github.com/arcpass/arc/passes"
)

const (
	kib = int64(1) << 10
	mib = int64(1) << 20
)

// decide selects the lowering of row on the CUDA target name.
func decide(t *testing.T, name string, opts passes.Options, row passes.Row) passes.Decision {
	t.Helper()
	for _, tg := range cuda.Targets() {
		if tg.Name() == name {
			d, err := tg.Decide(row, opts)
			if err != nil {
				t.Fatal(err)
			}
			return d
		}
	}
	t.Fatalf("no CUDA target %s", name)
	return passes.Decision{}
}

// sum is an all-reduce row summing n bytes of dtype over one group.
func sum(dtype string, n int64, group []int64) passes.Row {
	return passes.Row{Op: "all_reduce", DType: dtype, Bytes: n, Reduction: "sum", Groups: [][]int64{group}, GroupSize: len(group)}
}

// sizes are 16-byte multiples from 16 B to 256 MiB in steps of 2^(1/8).
func sizes() []int64 {
	var out []int64
	for k := 32; k <= 8*28; k++ {
		n := int64(math.Pow(2, float64(k)/8)) / 16 * 16
		if len(out) == 0 || n != out[len(out)-1] {
			out = append(out, n)
		}
	}
	return out
}

// iota returns the group [from, from+1, ..., from+n-1].
func iota(from, n int64) []int64 {
	g := make([]int64, n)
	for i := range g {
		g[i] = from + int64(i)
	}
	return g
}

// cell is one measured all-reduce: dtype, bytes per rank and profile key.
type cell struct {
	dtype string
	bytes int64
	key   string
}

// spread is a cell's median time and quartiles over the repetitions.
type spread struct{ us, p25, p75 float64 }

// benchCSV is what an `arc bench --csv` file says: the times of each cell,
// the lowerings it timed, and the dtypes and sizes it covers.
type benchCSV struct {
	cells  map[cell]spread
	timed  map[string]bool
	dtypes []string
	sizes  []int64
}

// readBenchCSV reads the columns of an arc bench CSV the checks need. An
// auto row is a measurement of the lowering auto chose (the program is the
// one --force compiles) where that lowering was not timed itself.
func readBenchCSV(t *testing.T, path string) benchCSV {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil || len(rows) < 2 {
		t.Fatalf("%s: %v (%d rows)", path, err, len(rows))
	}
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	b := benchCSV{cells: map[cell]spread{}, timed: map[string]bool{}}
	seenType, seenSize := map[string]bool{}, map[int64]bool{}
	var auto []cell
	for _, r := range rows[1:] {
		if r[col["error"]] != "" {
			continue
		}
		n, err := strconv.ParseInt(r[col["bytes"]], 10, 64)
		var s spread
		for _, v := range []struct {
			name string
			to   *float64
		}{{"us", &s.us}, {"us_p25", &s.p25}, {"us_p75", &s.p75}} {
			if err == nil {
				*v.to, err = strconv.ParseFloat(r[col[v.name]], 64)
			}
		}
		if err != nil {
			t.Fatalf("%s: row %v: %v", path, r, err)
		}
		c := cell{r[col["dtype"]], n, r[col["lowering"]]}
		if c.key == "lowprec:fp8" {
			c.key = "twoshot:fp8" // the profile's key of the FP8 two-shot
		}
		if c.key == "auto" {
			c.key = r[col["chose"]]
			auto = append(auto, c)
			b.cells[cell{c.dtype, c.bytes, "auto:" + c.key}] = s
			continue
		}
		b.cells[c] = s
		b.timed[c.key] = true
		if !seenType[c.dtype] {
			seenType[c.dtype] = true
			b.dtypes = append(b.dtypes, c.dtype)
		}
		if !seenSize[n] {
			seenSize[n] = true
			b.sizes = append(b.sizes, n)
		}
	}
	for _, c := range auto {
		if _, timed := b.cells[c]; !timed {
			b.cells[c] = b.cells[cell{c.dtype, c.bytes, "auto:" + c.key}]
		}
	}
	return b
}

// decisionKey is the profile key of what Decide chose.
func decisionKey(d passes.Decision) string {
	if d.Lowering == "native" || d.Algo == "oneshot" {
		return d.Lowering
	}
	return d.Algo + ":" + d.Codec
}

// TestBuiltinProfilesFollowTheH200Run checks the built-in cuda:nvlink and
// cuda:pcie-nop2p profiles against the run they were fitted to
// (docs/bench/*.csv, docs/BENCHMARKS.md). At every measured size and dtype,
// two GPUs, and every --quant: what the policy picks was measured faster
// than native; no lowering the options allow (native included) was measured
// faster than it by more than arc tune's 5% margin and the spread of the
// repetitions (small sizes differ by less than their spread); small sizes
// take oneshot; int4r (0.2-0.8x native on NVLink, not measured host-staged)
// is never picked.
func TestBuiltinProfilesFollowTheH200Run(t *testing.T) {
	const margin = 1.05
	for _, run := range []struct {
		target, csv string
		oneshotTo   int64 // sizes up to this take oneshot whatever --quant says
	}{
		{"cuda:nvlink", "../../docs/bench/h200-xla-peer.csv", 1 * mib},
		{"cuda:pcie-nop2p", "../../docs/bench/h200-xla-host.csv", 512 << 10},
	} {
		b := readBenchCSV(t, run.csv)
		checked, unmeasured := 0, 0
		for _, dt := range b.dtypes {
			for _, n := range b.sizes {
				native, ok := b.cells[cell{dt, n, "native"}]
				if !ok {
					t.Fatalf("%s: no native at %s %d B", run.csv, dt, n)
				}
				for _, quant := range passes.Quants {
					d := decide(t, run.target, passes.Options{Quant: quant}, sum(dt, n, iota(0, 2)))
					key := decisionKey(d)
					where := func() string {
						return run.target + " --quant " + quant + ", " + dt + " " + strconv.FormatInt(n, 10) + " B"
					}
					if key == "twoshot:int4r" {
						t.Errorf("%s: picks int4r (%s)", where(), d.Reason)
					}
					if n <= run.oneshotTo && key != "oneshot" {
						t.Errorf("%s: %s (%s), want oneshot", where(), key, d.Reason)
					}
					got, ok := b.cells[cell{dt, n, key}]
					if !ok {
						if b.timed[key] {
							t.Errorf("%s: %s, which the run timed at other sizes only", where(), key)
						}
						unmeasured++ // a lowering the run did not time (host-staged int8 and int6)
						continue
					}
					checked++
					if key != "native" && got.us >= native.us {
						t.Errorf("%s: %s measured %.1f us, native %.1f us", where(), key, got.us, native.us)
					}
					allowed := []string{"native", "oneshot", "twoshot:fp"}
					if quant != "none" {
						allowed = append(allowed, "twoshot:"+quant)
					}
					for _, k := range allowed {
						other, ok := b.cells[cell{dt, n, k}]
						if ok && got.us > other.us*margin && got.p25 > other.p75 {
							t.Errorf("%s: %s measured %.1f us (quartiles %.1f-%.1f), %s %.1f us (%.1f-%.1f)",
								where(), key, got.us, got.p25, got.p75, k, other.us, other.p25, other.p75)
						}
					}
				}
			}
		}
		if checked < 2*unmeasured {
			t.Errorf("%s: %d decisions checked against %s, %d not measured", run.target, checked, run.csv, unmeasured)
		}
	}
}

// TestHostProfileBF16IsF16: the host-staged run measured f16 only; the
// built-in cuda:pcie-nop2p profile gives bf16 the same costs (its PCIe
// transfers do not depend on the dtype), so bf16 decides as f16 does.
func TestHostProfileBF16IsF16(t *testing.T) {
	for _, quant := range passes.Quants {
		for _, n := range sizes() {
			f16 := decide(t, "cuda:pcie-nop2p", passes.Options{Quant: quant}, sum("f16", n, iota(0, 2)))
			bf16 := decide(t, "cuda:pcie-nop2p", passes.Options{Quant: quant}, sum("bf16", n, iota(0, 2)))
			if decisionKey(f16) != decisionKey(bf16) || f16.EstUS != bf16.EstUS {
				t.Fatalf("--quant %s, %d B: f16 %s at %.2f us, bf16 %s at %.2f us", quant, n, decisionKey(f16), f16.EstUS, decisionKey(bf16), bf16.EstUS)
			}
		}
	}
}
