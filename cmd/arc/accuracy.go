package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/arcpass/arc/reference/accuracy"
	"github.com/arcpass/arc/reference/codec"
	"github.com/arcpass/arc/reference/collective"
	"github.com/arcpass/arc/reference/num"
)

func init() {
	register("accuracy", "measure what each codec costs in accuracy (Go reference, CPU)", runAccuracy)
}

// maxAccuracyElems bounds --elems: the simulation holds every rank's
// buffers several times over.
const maxAccuracyElems = 1 << 24

func runAccuracy(args []string, io stdio) int {
	fs := newFlags("accuracy", io)
	codecName := fs.String("codec", "", "only this `CODEC`: "+strings.Join(codec.Names(), ", ")+", as --quant names them, or none (oneshot, which sends no codec), fp+cast (bf16 under --cast-bf16-to-fp16); any case")
	algo := fs.String("algo", "", "only this `ALGO`rithm: "+strings.Join(collective.Algos(), ", ")+
		", or a lowering as reports name it: quickreduce (twoshot), lowprec (fp8 on twoshot and hier)")
	world := fs.Int("world", 0, "only this world size (`N` ranks)")
	dtype := fs.String("dtype", "", "only this I/O `TYPE`: f16, bf16 or f32 (default f16 and bf16)")
	elems := sizeFlag(fs, "elems", accuracy.DefaultElems, "values per rank (`N`; 4096, 64K, 1M)")
	dist := fs.String("dist", "", "only these inputs (`DIST`): "+strings.Join(allDists(), ", ")+" (the last two beyond f16's range: bf16 and f32 only)")
	seed := fs.Uint64("seed", accuracy.DefaultSeed, "input generator `SEED`")
	cast := fs.Bool("cast-bf16-to-fp16", false, "only bf16 under fp with the cast, as arc compile --cast-bf16-to-fp16 sends it (the fp+cast rows)")
	asJSON := fs.Bool("json", false, "print every measurement as JSON")
	quiet := fs.BoolP("quiet", "q", false, "no progress bar")
	fs.Usage = func() {
		fmt.Fprintln(io.out, "usage: arc accuracy [--codec C] [--algo A] [--world N] [--dtype f16|bf16|f32] [--elems N] [--dist gaussian|outliers|llm|large|tiny] [--seed S] [--cast-bf16-to-fp16] [--json] [-q]")
		fmt.Fprintln(io.out, "\nRuns arc's all-reduce algorithms and codecs (the Go reference of the kernels) on generated inputs and")
		fmt.Fprintln(io.out, "compares every rank's output with the exact sum. Without flags: the table of docs/ACCURACY.md.")
		fmt.Fprintln(io.out, "\nflags:")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args, io); !ok {
		return code
	}
	if fs.NArg() != 0 {
		fmt.Fprintln(io.err, "arc accuracy: takes no arguments")
		return exitUsage
	}
	configs, err := accuracyConfigs(*algo, *codecName, *world, *dtype, *dist, int(*elems), *seed, *cast)
	if err != nil {
		fmt.Fprintf(io.err, "arc accuracy: %v\n", err)
		return exitUsage
	}
	bar := progress(io.err, len(configs), *quiet)
	results, err := accuracy.MeasureAll(configs, bar)
	bar(-1)
	if err != nil {
		fmt.Fprintf(io.err, "arc: %v\n", err)
		return exitInput
	}
	switch {
	case *asJSON:
		err = writeAccuracyJSON(io.out, configs, results)
	case len(configs) == 1:
		err = writeAccuracyDetail(io.out, configs[0], results[0])
	default:
		err = writeAccuracyTables(io.out, configs, results)
	}
	if err != nil {
		fmt.Fprintf(io.err, "arc: %v\n", err)
		return exitInput
	}
	return exitOK
}

// allDists are the inputs the table shows: RangeDists for bf16 and f32 only.
func allDists() []string { return append(accuracy.Dists(), accuracy.RangeDists()...) }

// accuracyConfigs is the cross product of algorithms and their codecs (fp
// on bf16 with and without the cast), world sizes, types and distributions,
// each restricted by its flag; castOnly keeps the cast's.
func accuracyConfigs(algo, codecName string, world int, dtype, dist string, elems int, seed uint64, castOnly bool) ([]accuracy.Config, error) {
	algos := collective.Algos()
	algo, codecName = strings.ToLower(strings.TrimSpace(algo)), strings.ToLower(strings.TrimSpace(codecName))
	switch algo {
	case "":
	case "quickreduce": // ROCm's word for the two-shot kernel
		algos = []string{"twoshot"}
	case "lowprec": // the word of reports for fp8 through the two-shot kernels, flat and hierarchical
		algos = []string{"twoshot", "hier"}
		if codecName != "" && codecName != "fp8" {
			return nil, fmt.Errorf("--algo lowprec is the fp8 codec, not --codec %s", codecName)
		}
		codecName = "fp8"
	default:
		if !slices.Contains(algos, algo) {
			return nil, fmt.Errorf("unknown --algo %q (want %s, or a lowering: quickreduce, lowprec)", algo, strings.Join(algos, ", "))
		}
		algos = []string{algo}
	}
	if codecName == "none" {
		codecName = "-" // oneshot's codec, spelled as the table does
	}
	if codecName != "" && codecName != "-" && codecName != castLabel && !slices.Contains(codec.Names(), codecName) {
		return nil, fmt.Errorf("unknown --codec %q (want %s, none or %s)", codecName, strings.Join(codec.Names(), ", "), castLabel)
	}
	dtypes := []num.DType{num.F16, num.BF16}
	if dtype != "" {
		d, err := num.ParseDType(dtype)
		if err != nil {
			return nil, err
		}
		dtypes = []num.DType{d}
	}
	dists := allDists()
	if dist != "" {
		if !slices.Contains(dists, dist) {
			return nil, fmt.Errorf("unknown --dist %q (want %s)", dist, strings.Join(dists, ", "))
		}
		if dtype == "f16" && slices.Contains(accuracy.RangeDists(), dist) {
			return nil, fmt.Errorf("--dist %s is beyond f16's range: want --dtype bf16 or f32", dist)
		}
		dists = []string{dist}
	}
	if castOnly && !slices.Contains(dtypes, num.BF16) {
		return nil, errors.New("--cast-bf16-to-fp16 casts bf16 only: want --dtype bf16 (or none)")
	}
	if elems < 1 || elems > maxAccuracyElems {
		return nil, fmt.Errorf("--elems must be in 1..%d, not %d", maxAccuracyElems, elems)
	}
	var configs []accuracy.Config
	for _, dt := range dtypes {
		for _, d := range dists {
			if dt == num.F16 && slices.Contains(accuracy.RangeDists(), d) {
				continue
			}
			for _, a := range algos {
				for _, c := range collective.Codecs(a) {
					for _, cast := range []bool{false, true} {
						s := collective.Spec{Algo: a, Codec: c, DType: dt, Cast: cast}
						label := specLabel(s)
						switch {
						case cast && (c != "fp" || dt != num.BF16), castOnly && !cast:
							continue
						case codecName != "" && label != codecName && !(codecName == "fp" && c == "fp"):
							continue
						}
						for _, w := range collective.Worlds(a) {
							if world != 0 && w != world {
								continue
							}
							s.World = w
							configs = append(configs, accuracy.Config{Spec: s, Dist: d, Elems: elems, Seed: seed})
						}
					}
				}
			}
		}
	}
	if len(configs) == 0 {
		return nil, errors.New(noConfigReason(algos))
	}
	return configs, nil
}

// noConfigReason explains why the flags select nothing.
func noConfigReason(algos []string) string {
	var parts []string
	for _, a := range algos {
		var codecs []string
		for _, c := range collective.Codecs(a) {
			codecs = append(codecs, codecLabel(c))
		}
		parts = append(parts, fmt.Sprintf("%s runs codecs %s at worlds %v", a, strings.Join(codecs, ","), collective.Worlds(a)))
	}
	return "no configuration matches --algo, --codec and --world: " + strings.Join(parts, "; ")
}

func codecLabel(c string) string {
	if c == "" {
		return "-"
	}
	return c
}

// castLabel names the fp codec of bf16 under the cast, as the profile does
// ("twoshot:fp+cast").
const castLabel = "fp+cast"

// specLabel is a spec's codec column: its codec, or fp+cast.
func specLabel(s collective.Spec) string {
	if s.Cast && s.Codec == "fp" && s.DType == num.BF16 {
		return castLabel
	}
	return codecLabel(s.Codec)
}

// progress draws a bar on w once a run takes more than a second (quiet:
// never). Call it with -1 at the end.
func progress(w io.Writer, total int, quiet bool) func(int) {
	if quiet {
		return func(int) {}
	}
	bar := newProgressBar(w, "arc accuracy", total)
	bar.delay = time.Second
	return func(done int) {
		if done < 0 {
			bar.Finish("")
			return
		}
		bar.Set(done)
	}
}

func writeAccuracyDetail(w io.Writer, c accuracy.Config, m accuracy.Metrics) error {
	s := c.Spec
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s %s %v world %d, %s inputs, %d values per rank, seed %d\n",
		s.Algo, specLabel(s), s.DType, s.World, c.Dist, c.Elems, c.Seed)
	fmt.Fprintf(tw, "relative L2 error\t%.4g\n", m.RelL2)
	fmt.Fprintf(tw, "max absolute error\t%.4g\n", m.MaxAbs)
	fmt.Fprintf(tw, "SNR\t%.1f dB\n", m.SNRdB)
	fmt.Fprintf(tw, "cosine similarity\t%.6f\n", m.Cosine)
	fmt.Fprintf(tw, "bits per value\t%g (%v: %d)\n", m.BitsPerValue, s.DType, 8*s.DType.Size())
	fmt.Fprintf(tw, "ranks agree\t%s\n", yesNo(m.RanksAgree))
	return tw.Flush()
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "NO"
}

// writeAccuracyTables prints one table per type and distribution: a row
// per algorithm and codec, a column per world size, the relative L2 error
// in each cell ("!" marks ranks that disagree, "-" an unsupported world).
func writeAccuracyTables(w io.Writer, configs []accuracy.Config, results []accuracy.Metrics) error {
	type row struct{ algo, codec string } // codec as specLabel spells it
	type table struct {
		dt   num.DType
		dist string
	}
	var tables []table
	var rows []row
	var worlds []int
	cells := map[table]map[row]map[int]accuracy.Metrics{}
	bits := map[table]map[row]float64{}
	for i, c := range configs {
		t, r := table{c.Spec.DType, c.Dist}, row{c.Spec.Algo, specLabel(c.Spec)}
		if cells[t] == nil {
			tables = append(tables, t)
			cells[t] = map[row]map[int]accuracy.Metrics{}
			bits[t] = map[row]float64{}
		}
		if !slices.Contains(rows, r) {
			rows = append(rows, r)
		}
		if !slices.Contains(worlds, c.Spec.World) {
			worlds = append(worlds, c.Spec.World)
		}
		if cells[t][r] == nil {
			cells[t][r] = map[int]accuracy.Metrics{}
		}
		cells[t][r][c.Spec.World] = results[i]
		bits[t][r] = results[i].BitsPerValue
	}
	slices.Sort(worlds)
	order := func(r row) int { // algorithms, then codecs, in the C API's order; fp+cast after fp
		c := slices.Index(codec.Names(), strings.TrimSuffix(r.codec, "+cast"))
		if r.codec == castLabel {
			c = c*2 + 1
		} else {
			c *= 2
		}
		return slices.Index(collective.Algos(), r.algo)*100 + c
	}
	slices.SortStableFunc(rows, func(a, b row) int { return order(a) - order(b) })
	c0 := configs[0]
	fmt.Fprintf(w, "Relative L2 error of every rank's output against the exact sum (float64);\n%d values per rank, seed %d", c0.Elems, c0.Seed)
	fmt.Fprintln(w, ". \"!\": ranks disagree; \"-\": world size not supported;\nfp+cast: bf16 under fp with --cast-bf16-to-fp16 (docs/FORMATS.md).")
	for _, t := range tables {
		fmt.Fprintf(w, "\n%v, %s inputs\n", t.dt, t.dist)
		fmt.Fprintf(w, "%-8s %-7s %5s", "algo", "codec", "bits")
		for _, wd := range worlds {
			fmt.Fprintf(w, " %9s", fmt.Sprintf("w=%d", wd))
		}
		fmt.Fprintln(w)
		for _, r := range rows {
			if cells[t][r] == nil {
				continue
			}
			fmt.Fprintf(w, "%-8s %-7s %5g", r.algo, r.codec, bits[t][r])
			for _, wd := range worlds {
				cell := "-"
				if m, ok := cells[t][r][wd]; ok {
					cell = fmt.Sprintf("%.3g", m.RelL2)
					if !m.RanksAgree {
						cell += "!"
					}
				}
				fmt.Fprintf(w, " %9s", cell)
			}
			fmt.Fprintln(w)
		}
	}
	return nil
}

// accuracyJSON is one measurement in --json output.
type accuracyJSON struct {
	Algo         string    `json:"algo"`
	Codec        string    `json:"codec"`
	DType        string    `json:"dtype"`
	World        int       `json:"world"`
	Cast         bool      `json:"cast_bf16_to_fp16"`
	Dist         string    `json:"dist"`
	Elems        int       `json:"elems"`
	Seed         uint64    `json:"seed"`
	RelL2        jsonFloat `json:"rel_l2"`
	MaxAbs       jsonFloat `json:"max_abs_error"`
	SNRdB        jsonFloat `json:"snr_db"`
	Cosine       jsonFloat `json:"cosine"`
	BitsPerValue float64   `json:"bits_per_value"`
	RanksAgree   bool      `json:"ranks_agree"`
}

// jsonFloat writes NaN and ±Inf (an exact result's SNR) as null.
type jsonFloat float64

func (f jsonFloat) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(f))
}

func writeAccuracyJSON(w io.Writer, configs []accuracy.Config, results []accuracy.Metrics) error {
	out := make([]accuracyJSON, len(configs))
	for i, c := range configs {
		m := results[i]
		out[i] = accuracyJSON{c.Spec.Algo, codecLabel(c.Spec.Codec), c.Spec.DType.String(), c.Spec.World, c.Spec.Cast && c.Spec.Codec == "fp" && c.Spec.DType == num.BF16,
			c.Dist, c.Elems, c.Seed, jsonFloat(m.RelL2), jsonFloat(m.MaxAbs), jsonFloat(m.SNRdB), jsonFloat(m.Cosine),
			m.BitsPerValue, m.RanksAgree}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
