package main

import (
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/pflag"

	"github.com/arcpass/arc/bench"
	"github.com/arcpass/arc/passes"
)

func init() {
	register("tune", "measure this machine and write the cost profile arc's policy uses", runTune)
}

func runTune(args []string, io stdio) int {
	fs := newFlags("tune", io)
	var f sweepFlags
	f.add(fs, bench.Lowerings[:len(bench.Lowerings)-1]) // auto has no cost of its own
	var out, from, csvPath string
	var margin float64
	fs.StringVarP(&out, "output", "o", "-", "write the profile to `FILE.json` (- for stdout)")
	fs.StringVar(&from, "from", "", "fit the measurements in `FILE.csv` (written by arc bench --csv) instead of measuring")
	fs.StringVar(&csvPath, "csv", "", "also write the measurements to `FILE.csv`")
	fs.Float64Var(&margin, "margin", 0.05, "a lowering must beat native (and a two-shot one oneshot) by this fraction to be allowed at a size")
	fs.Usage = func() {
		fmt.Fprintln(io.out, "usage: arc tune [flags]")
		fmt.Fprint(io.out, `
Runs arc bench's sweep (or reads one with --from) and writes a cost profile:
per world, dtype and lowering, the measured points [bytes, us], a latency and
bandwidth fitted to them, and the sizes where the lowering beats native by
--margin (min_bytes/max_bytes; off where it never does); a two-shot lowering
must beat oneshot by the margin too. arc compile --profile and the
runtime proxy (ARC_PROFILE) read it; lowering/cuda/profiles/ holds the ones built in.
`)
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args, io); !ok {
		return code
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(io.err, "arc tune: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	if err := checkOutputs([]output{{flag: "-o", path: out}}); err != nil {
		fmt.Fprintf(io.err, "arc tune: %v\n", err)
		return exitUsage
	}
	if margin < 0 || margin >= 1 {
		fmt.Fprintf(io.err, "arc tune: --margin %g: want a fraction in [0, 1)\n", margin)
		return exitUsage
	}
	plan, err := f.plan()
	if err != nil {
		fmt.Fprintf(io.err, "arc tune: %v\n", err)
		return exitUsage
	}
	var rs []bench.Result
	var source string
	if from != "" {
		rs, err = readMeasurements(from, fs, &f)
		source = fmt.Sprintf("arc tune --from %s: %s level, %s link", filepath.Base(from), f.level, f.link)
	} else {
		saveCSV := csvSaver(csvPath)
		if rs, err = f.measure(plan, io, saveCSV); err == nil {
			err = saveCSV(rs)
		}
		host, _ := os.Hostname()
		source = fmt.Sprintf("arc tune on %s, %s: %s level, %s link, K=%d, median of %d", host,
			time.Now().UTC().Format("2006-01-02"), f.level, f.link, plan.Chain, plan.Reps)
	}
	if err != nil {
		failed(io, err)
		return exitInput
	}
	prof, err := bench.Fit(rs, f.targetName(), source, margin)
	if err != nil {
		failed(io, err)
		return exitInput
	}
	if out == "-" {
		if err := bench.WriteProfile(io.out, prof); err != nil {
			failed(io, err)
			return exitInput
		}
		return exitOK
	}
	if err := writeFileAtomic(out, func(w writer) error { return bench.WriteProfile(w, prof) }); err != nil {
		failed(io, err)
		return exitInput
	}
	writeProfileSummary(io.out, prof)
	return exitOK
}

// readMeasurements reads a bench CSV and keeps one level and link: the ones
// the flags name, or the only ones the file holds.
func readMeasurements(path string, fs *pflag.FlagSet, f *sweepFlags) ([]bench.Result, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	all, err := bench.ReadCSV(file)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	var rs []bench.Result
	kinds := map[string]bool{}
	for _, r := range all {
		if (fs.Changed("level") && r.Level != f.level) || (fs.Changed("link") && r.Link != f.link) {
			continue
		}
		rs = append(rs, r)
		kinds[r.Level+" level, "+r.Link+" link"] = true
	}
	switch {
	case len(rs) == 0:
		return nil, fmt.Errorf("%s has no measurements of the --level and --link asked for", path)
	case len(kinds) > 1:
		return nil, fmt.Errorf("%s holds several kinds of measurement (%s): pick one with --level and --link",
			path, strings.Join(slices.Sorted(maps.Keys(kinds)), "; "))
	}
	f.level, f.link = rs[0].Level, rs[0].Link
	return rs, nil
}

// writeProfileSummary prints, per world and dtype, the sizes where each
// lowering is allowed and its fitted latency and bandwidth.
func writeProfileSummary(w io.Writer, p *passes.Profile) {
	fmt.Fprintf(w, "profile for %s (%s)\n", p.Target, p.Source)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "world\tdtype\tlowering\tallowed at\tlatency us\tGB/s")
	for _, world := range slices.Sorted(maps.Keys(p.Costs)) {
		for _, dt := range slices.Sorted(maps.Keys(p.Costs[world])) {
			for _, key := range slices.Sorted(maps.Keys(p.Costs[world][dt])) {
				c := p.Costs[world][dt][key]
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.1f\t%.1f\n", world, dt, key, sizeRange(key, c), c.LatencyUS, c.GBps)
			}
		}
	}
	tw.Flush()
}

func sizeRange(key string, c passes.Cost) string {
	switch {
	case key == "native":
		return "-"
	case c.Off:
		return "never"
	case c.MinBytes == 0 && c.MaxBytes == 0:
		return "at every size measured"
	}
	return c.Sizes()
}
