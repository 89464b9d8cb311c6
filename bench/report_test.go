package bench

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fitModel is a machine where oneshot wins small messages, the two-shot
// kernels large ones, and int6 never.
// XLA's one-shot switch is faster than native below about 1 MB and slower
// above; the symmetric-buffer switch is a little faster everywhere.
var fitModel = linearModel(
	map[Lowering]float64{"native": 17, "native+oneshot": 8, "native+symm": 14, "oneshot": 3, "twoshot:fp": 16.5, "twoshot:int8": 11, "twoshot:int6": 40, "lowprec:fp8": 12},
	map[Lowering]float64{"native": 250, "native+oneshot": 100, "native+symm": 260, "oneshot": 120, "twoshot:fp": 420, "twoshot:int8": 900, "twoshot:int6": 200, "lowprec:fp8": 600},
)

// sampleResults is a sweep of the fit model at the XLA level, plus a
// host-link sweep where one lowering fails to compile and one size cannot
// be allocated.
func sampleResults() []Result {
	peer := Sweep(&fakeMachine{world: 2, model: fitModel}, Plan{
		Sizes: mustSizes("4K:64M"), DTypes: []string{"f16"}, Jobs: 2, Chain: 10, Reps: 3,
		Lowerings: []Lowering{"native", "native+oneshot", "native+symm", "oneshot", "twoshot:fp", "twoshot:int8", "twoshot:int6", Auto},
	}, "peer", NopProgress{}, nil)
	host := Sweep(&fakeMachine{world: 2, model: fitModel,
		openErr: map[int64]string{256 << 20: "out of memory"}, chainErr: map[Lowering]string{"twoshot:int8": "no such kernel"}},
		Plan{Sizes: mustSizes("16M,64M,256M"), DTypes: []string{"bf16"}, Jobs: 1, Chain: 10, Reps: 3,
			Lowerings: []Lowering{"native", "lowprec:fp8", "twoshot:int8"}}, "host", NopProgress{}, nil)
	return append(peer, host...)
}

func mustSizes(s string) []int64 {
	sizes, err := ParseSizes(s)
	if err != nil {
		panic(err)
	}
	return sizes
}

func TestCSVRoundTrip(t *testing.T) {
	rs := sampleResults()
	var buf bytes.Buffer
	if err := WriteCSV(&buf, rs); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "sample.csv", buf.String())
	back, err := ReadCSV(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != len(rs) {
		t.Fatalf("read %d results back, wrote %d", len(back), len(rs))
	}
	for i, r := range rs {
		b := back[i]
		near := func(x, y float64) bool { return math.Abs(x-y) <= 0.0005 } // the CSV keeps nanoseconds
		if b.Level != r.Level || b.Link != r.Link || b.World != r.World || b.DType != r.DType || b.Bytes != r.Bytes ||
			b.Lowering != r.Lowering || b.Chose != r.Chose || b.Err != r.Err || !near(b.US, r.US) || !near(b.P25, r.P25) ||
			!near(b.P75, r.P75) || !near(b.ChainUS, r.ChainUS) || !near(b.ControlUS, r.ControlUS) {
			t.Errorf("row %d: read %+v, wrote %+v", i, b, r)
		}
	}
	// The derived columns: 64M of f16 in 285.4 us is 235.1 GB/s of algorithm
	// bandwidth, and 2(W-1)/W = 1 times that on the bus.
	for _, line := range strings.Split(buf.String(), "\n") {
		if strings.HasPrefix(line, "xla,peer,2,0,f16,67108864,native,") {
			f := strings.Split(line, ",")
			if f[12] != "235.111" || f[13] != "235.111" || f[14] != "1.000" {
				t.Errorf("native at 64M: algbw %s busbw %s speedup %s", f[12], f[13], f[14])
			}
		}
	}

	// Floors go out and back; x_floor is derived. The sample has none: a
	// kernel-level sweep of logical ranks (kbench_logical.csv) has them.
	kern := logicalResults(t)
	buf.Reset()
	if err := WriteCSV(&buf, kern); err != nil {
		t.Fatal(err)
	}
	if back, err = ReadCSV(bytes.NewReader(buf.Bytes())); err != nil || len(back) != len(kern) {
		t.Fatalf("read %d kernel results back (%v), wrote %d", len(back), err, len(kern))
	}
	for i, r := range kern {
		if back[i].FloorUS != r.FloorUS || back[i].US != r.US || back[i].GPUs != 1 {
			t.Errorf("row %d: read %+v, wrote %+v", i, back[i], r)
		}
	}
	if !strings.Contains(buf.String(), ",speedup_vs_best_native,floor_us,x_floor,chose,") ||
		!strings.Contains(buf.String(), "kernel,peer,2,1,f16,67108864,twoshot:int8,169.400,") ||
		!strings.Contains(buf.String(), ",0.000,99.0000,1.711,,\n") {
		t.Errorf("kernel CSV lacks the floor columns or int8's floor at 64M:\n%s", buf.String())
	}
}

func TestReadCSVErrors(t *testing.T) {
	for in, want := range map[string]string{
		"":                   "empty CSV",
		"level,link,world\n": `no "dtype" column`,
		"level,link,world,dtype,bytes,lowering,us\nxla,peer,two,f16,4096,native,1\n":  "line 2: world",
		"level,link,world,dtype,bytes,lowering,us\nxla,peer,2,f16,4096,native,fast\n": `line 2: column us: "fast"`,
	} {
		if _, err := ReadCSV(strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ReadCSV(%q): %v, want an error containing %q", in, err, want)
		}
	}
}

func TestTable(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteTable(&buf, sampleResults()); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "sample_table.txt", buf.String())
}

func TestPlot(t *testing.T) {
	rs := sampleResults()
	var buf bytes.Buffer
	if err := WritePlot(&buf, rs); err != nil {
		t.Fatal(err)
	}
	svg := buf.String()
	// Two series (peer f16, host bf16): two rows of two panels and a
	// column for the one legend.
	if want := fmt.Sprintf(`width="%d" height="%d"`, 2*panelW+legendW, 2*panelH); !strings.Contains(svg, want) {
		t.Errorf("SVG does not start with %s:\n%.200s", want, svg)
	}
	if err := xml.Unmarshal(buf.Bytes(), new(struct{ XMLName xml.Name })); err != nil {
		t.Errorf("not well-formed XML: %v", err)
	}
	for _, want := range []string{"xla level, peer link, 2 GPUs, f16: time", "speedup over the best native", ">twoshot:int8<", ">auto<", ">lowprec:fp8<", ">native+oneshot<", ">64M<", ">1x<", "stroke-dasharray"} {
		if !strings.Contains(svg, want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	// Every lowering drawn has one legend entry.
	if got, want := strings.Count(svg, `x2="`+fmt.Sprint(2*panelW+64)+`.0"`), len(lineOrder(rs)); got != want {
		t.Errorf("%d legend entries, want %d", got, want)
	}
	if err := WritePlot(&buf, nil); err == nil {
		t.Error("an empty plot was drawn")
	}
	// Log axes cannot show zeros: failures, times lost in the noise and a
	// series without native (no speedups) must still draw, or say why not.
	failed := []Result{{Level: "xla", Link: "peer", World: 2, DType: "f16", Bytes: 4096, Lowering: "native", Err: "boom"}}
	if err := WritePlot(&buf, failed); err == nil || !strings.Contains(err.Error(), "nothing to plot") {
		t.Errorf("plot of failures only: %v", err)
	}
	noNative := []Result{
		{Level: "kernel", Link: "host", World: 2, DType: "f16", Bytes: 4096, Lowering: "oneshot", US: 3},
		{Level: "kernel", Link: "host", World: 2, DType: "f16", Bytes: 8192, Lowering: "oneshot", US: -0.2},
		failed[0],
	}
	buf.Reset()
	if err := WritePlot(&buf, noNative); err != nil || !strings.Contains(buf.String(), "kernel level, host link") ||
		!strings.Contains(buf.String(), "no native measured") || strings.Contains(buf.String(), "NaN") || strings.Contains(buf.String(), "Inf") {
		t.Errorf("plot of one point without native: %v\n%s", err, buf.String())
	}
	for name, ok := range map[string]bool{"a.SVG": true, "b.svg": true, "c.png": false, "d": false} {
		if err := PlotFormat(name); (err == nil) != ok {
			t.Errorf("PlotFormat(%q) = %v", name, err)
		}
	}
}

// TestFit: the profile fitted to the model's measurements bounds each
// lowering where the model says it beats native, and arc's policy reading
// that profile picks what the model says is fastest.
func TestFit(t *testing.T) {
	rs := sampleResults()
	var peer []Result
	for _, r := range rs {
		if r.Link == "peer" {
			peer = append(peer, r)
		}
	}
	p, err := Fit(peer, "cuda:nvlink", "test", 0.05)
	if err != nil {
		t.Fatal(err)
	}
	costs := p.Costs["2"]["f16"]
	if len(p.Costs) != 1 || len(p.Costs["2"]) != 1 || len(costs) != 5 {
		t.Fatalf("profile has %v", p.Costs)
	}
	// oneshot beats native by 5% up to (3 + n/120e3) * 1.05 = 17 + n/250e3: 2.92 MB.
	if c := costs["oneshot"]; c.MinBytes != 0 || c.MaxBytes < 2<<20 || c.MaxBytes > 4<<20 || c.Off {
		t.Errorf("oneshot allowed %d..%d (off %v), want up to the 2M..4M crossover", c.MinBytes, c.MaxBytes, c.Off)
	}
	// twoshot:fp beats native by 5% from 217 KB up (1.05 (16.5 + n/420e3) <
	// 17 + n/250e3), but starts where it beats oneshot by 5% too:
	// 1.05 (16.5 + n/420e3) < 3 + n/120e3 from 2.46 MB up.
	if c := costs["twoshot:fp"]; c.MinBytes < 2400e3 || c.MinBytes > 2550e3 || c.MaxBytes != 0 {
		t.Errorf("twoshot:fp allowed %d..%d, want from where it beats oneshot by 5%% (2.46 MB) to the end", c.MinBytes, c.MaxBytes)
	}
	if c := costs["twoshot:int6"]; !c.Off {
		t.Errorf("twoshot:int6 never beats native but is %+v", c)
	}
	if c := costs["native"]; len(c.Points) != 15 || c.LatencyUS < 17 || c.LatencyUS > 17.1 || math.Abs(c.GBps-250) > 2 {
		t.Errorf("native fit: %d points, latency %.2f us, %.1f GB/s; want 15, ~17, ~250", len(c.Points), c.LatencyUS, c.GBps)
	}
	if _, ok := costs[""]; ok {
		t.Error("auto got a cost of its own")
	}

	path := filepath.Join(t.TempDir(), "profile.json")
	var buf bytes.Buffer
	if err := WriteProfile(&buf, p); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "sample_profile.json", buf.String())
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		size        int64
		quant, want string
	}{
		{64 << 10, "none", "oneshot"}, {1 << 20, "none", "oneshot"}, {16 << 20, "none", "twoshot:fp"},
		{64 << 20, "int8", "twoshot:int8"}, {4 << 10, "int6", "oneshot"},
	} {
		_, chose, err := LowerChain(LowerOptions{Target: "cuda:nvlink", Quant: tc.quant, Profile: path}, Auto, "f16", tc.size/2, 2, 1)
		if err != nil || chose != tc.want {
			t.Errorf("auto at %s with --quant %s chose %q (%v), want %s", FormatSize(tc.size), tc.quant, chose, err, tc.want)
		}
	}
}

func TestFitNeedsNative(t *testing.T) {
	rs := []Result{{Level: "xla", Link: "peer", World: 2, DType: "f16", Bytes: 4096, Lowering: "oneshot", US: 3}}
	if _, err := Fit(rs, "cuda:nvlink", "test", 0.05); err == nil || !strings.Contains(err.Error(), "native") {
		t.Errorf("Fit without native: %v", err)
	}
}

// TestWriteSamplePlot writes the sample sweep's plot to $ARC_PLOT_OUT, for a
// person to look at (make the file with ARC_PLOT_OUT=/tmp/sample.svg go test
// -run TestWriteSamplePlot ./bench).
func TestWriteSamplePlot(t *testing.T) {
	out := os.Getenv("ARC_PLOT_OUT")
	if out == "" {
		t.Skip("ARC_PLOT_OUT not set")
	}
	var buf bytes.Buffer
	if err := WritePlot(&buf, sampleResults()); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestReadShippedCSVs: the sweeps in docs/bench, written before native's
// switches and the best-native columns existed, still read, with every
// lowering and auto's choices named as today.
func TestReadShippedCSVs(t *testing.T) {
	files, _ := filepath.Glob("../docs/bench/*.csv")
	if len(files) == 0 {
		t.Skip("no docs/bench/*.csv")
	}
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		rs, err := ReadCSV(f)
		f.Close()
		if err != nil || len(rs) == 0 {
			t.Errorf("%s: %d results, %v", name, len(rs), err)
			continue
		}
		for _, r := range rs {
			if _, err := readLowering(string(r.Lowering)); err != nil {
				t.Errorf("%s: %v", name, err)
			}
			if r.Chose == "lowprec:fp8" {
				t.Errorf("%s: chose read as %q, want the profile key twoshot:fp8", name, r.Chose)
			}
		}
	}
}

// logicalResults is a kernel-level sweep of two logical ranks on one GPU
// (kbench --devices 0,0: no NCCL, every arc row with its HBM floor), with
// auto as arc bench adds it.
func logicalResults(t *testing.T) []Result {
	rs := readKernelFile(t, "testdata/kbench_logical.csv")
	for i := range rs {
		rs[i].GPUs = 1 // as RunKernel marks them
	}
	return append(rs, PolicyAuto(rs, LowerOptions{Target: "cuda:nvlink"})...)
}

// TestFloorReport: a series with floors gets a table and a plot panel of
// each lowering's time over its floor, auto among them; its CSV is what
// arc bench --from reads.
func TestFloorReport(t *testing.T) {
	rs := logicalResults(t)
	var buf bytes.Buffer
	if err := WriteCSV(&buf, rs); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "logical.csv", buf.String())
	buf.Reset()
	if err := WriteTable(&buf, rs); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "logical_table.txt", buf.String())
	table := buf.String()
	// 64 MiB: twoshot:fp 142.9 us over its 129.3 us floor, int8 169.4 over 99.0.
	for _, want := range []string{
		"kernel level, peer link, 2 ranks on 1 GPU, f16: x of the HBM floor (time / floor: the bytes it must move through HBM over cudaMemcpy's bandwidth, docs/KERNELS.md)",
		"  size  oneshot  twoshot:fp  twoshot:int8  twoshot:int4  auto\n",
		"   64M     1.79        1.11          1.71          2.08  1.11\n",
	} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
	buf.Reset()
	if err := WritePlot(&buf, rs); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "logical.svg", buf.String())
	svg := buf.String()
	// One series of two panels (time and floor: logical ranks have no
	// native to draw a speedup over), the legend after the second.
	if want := fmt.Sprintf(`width="%d" height="%d"`, 2*panelW+legendW, panelH); !strings.Contains(svg, want) {
		t.Errorf("SVG does not start with %s:\n%.200s", want, svg)
	}
	if err := xml.Unmarshal(buf.Bytes(), new(struct{ XMLName xml.Name })); err != nil {
		t.Errorf("not well-formed XML: %v", err)
	}
	for _, want := range []string{"f16: x of the HBM floor", "time / HBM floor", ">1x<", ">2x<"} {
		if !strings.Contains(svg, want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	if strings.Contains(svg, "speedup over") {
		t.Errorf("SVG has a speedup panel with no native to draw")
	}
	if got, want := strings.Count(svg, `x2="`+fmt.Sprint(2*panelW+64)+`.0"`), len(lineOrder(rs)); got != want {
		t.Errorf("%d legend entries, want %d", got, want)
	}
}

// TestFloorTableCells: a host link's floor is PCIe's; a lowering without a
// floor has no column, a cell without one prints "-", a failure "err"; a
// series without floors prints no second table.
func TestFloorTableCells(t *testing.T) {
	r := func(l Lowering, n int64, us, floor float64, err string) Result {
		return Result{Level: "kernel", Link: "host", World: 2, DType: "bf16", Bytes: n, Lowering: l, US: us, FloorUS: floor, Err: err}
	}
	rs := []Result{
		r("native", 1<<20, 60, 0, ""), r("twoshot:fp", 1<<20, 50, 40, ""), r("twoshot:int8", 1<<20, 0, 30, "kbench reported no time"),
		r("native", 2<<20, 90, 0, ""), r("twoshot:fp", 2<<20, 80, 0, ""),
	}
	var buf bytes.Buffer
	WriteTable(&buf, rs)
	want := "\nkernel level, host link, 2 GPUs, bf16: x of the PCIe floor (time / floor: the bytes it moves over PCIe over the measured host-device bandwidths, docs/KERNELS.md)\n" +
		"  size  twoshot:fp  twoshot:int8\n" +
		"    1M        1.25           err\n" +
		"    2M           -             -\n"
	if !strings.Contains(buf.String(), want) {
		t.Errorf("table lacks\n%s\ngot:\n%s", want, buf.String())
	}
	buf.Reset()
	WritePlot(&buf, rs)
	if !strings.Contains(buf.String(), "bf16: x of the PCIe floor") {
		t.Errorf("plot lacks the PCIe floor's panel")
	}
	buf.Reset()
	WriteTable(&buf, rs[3:])
	if strings.Contains(buf.String(), "floor") {
		t.Errorf("a series without floors printed a floor table:\n%s", buf.String())
	}
}
