package corpus

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"time"
)

// summary reads the results of a run: results[e*len(targets)+t] is entry
// e's compile for target t.
type summary struct {
	entries []Entry
	targets []string
	jobs    []job
	results []result
}

// failures are the outcomes that are wrong for a valid module.
var failures = []string{refusedAt, refused, panicked, overBound, changed, noReason}

func (s *summary) result(e, t int) result { return s.results[e*len(s.targets)+t] }

// none is the index of the identity target, whose pipeline checks a
// module the way every target's does.
func (s *summary) none() int { return slices.Index(s.targets, "none") }

func (s *summary) sources() []string {
	var out []string
	for _, e := range s.entries {
		if !slices.Contains(out, e.Source) {
			out = append(out, e.Source)
		}
	}
	return out
}

func (s *summary) print(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	row := func(cells ...any) {
		for _, c := range cells {
			fmt.Fprintf(tw, "%v\t", c)
		}
		fmt.Fprintln(tw)
	}
	flush := func(title string) {
		fmt.Fprintf(w, "\n%s\n", title)
		tw.Flush()
	}

	row("source", "valid", "invalid")
	nv, ni := 0, 0
	for _, src := range s.sources() {
		v, i := 0, 0
		for _, e := range s.entries {
			switch {
			case e.Source != src:
			case e.Valid:
				v++
			default:
				i++
			}
		}
		row(src, v, i)
		nv, ni = nv+v, ni+i
	}
	row("total", nv, ni)
	flush("== corpus: modules per source")

	row(append([]any{"source", "modules", "all-compile", refusedSpec}, anys(failures)...)...)
	for _, src := range s.sources() {
		mods, ok := 0, 0
		bad := map[string]int{}
		for ei, e := range s.entries {
			if e.Source != src || !e.Valid {
				continue
			}
			mods++
			seen := map[string]bool{}
			for ti := range s.targets {
				if o := s.result(ei, ti).Outcome; o != compiled {
					seen[o] = true
				}
			}
			if len(seen) == 0 {
				ok++
			}
			for o := range seen {
				bad[o]++
			}
		}
		cells := []any{src, mods, ok, bad[refusedSpec]}
		for _, o := range failures {
			cells = append(cells, bad[o])
		}
		row(cells...)
	}
	flush("== valid modules per source (a module counts under each outcome some target gave it)")

	row(append(append([]any{"target", compiled, refusedSpec}, anys(failures)...), "ar-lowered", "ar-native")...)
	for ti, tg := range s.targets {
		n := map[string]int{}
		lowered, native := 0, 0
		for ei, e := range s.entries {
			if e.Valid {
				r := s.result(ei, ti)
				n[r.Outcome]++
				lowered, native = lowered+r.Lowered, native+r.Native
			}
		}
		cells := []any{tg, n[compiled], n[refusedSpec]}
		for _, o := range failures {
			cells = append(cells, n[o])
		}
		row(append(cells, lowered, native)...)
	}
	flush("== valid modules per target (ar: all-reduce operands)")

	s.printClasses(w)

	row("target", "refused", "accepted", "other")
	for ti, tg := range s.targets {
		n := map[string]int{}
		for ei, e := range s.entries {
			if !e.Valid {
				n[s.result(ei, ti).Outcome]++
			}
		}
		refusedAll := n[refusedAt] + n[refusedSpec]
		row(tg, refusedAll, n[compiled], ni-refusedAll-n[compiled])
	}
	flush("== invalid modules (MLIR refuses them) per target")

	s.printInvalid(w)
	s.printCosts(w)
}

// A class is the failures of valid modules with one outcome and one message
// once positions, names and numbers are blotted out.
type class struct {
	outcome, msg string
	pairs        int
	modules      map[int]bool
	targets      map[string]bool
	example      int // the smallest module in the class
	exampleMsg   string
}

var (
	blotPos  = regexp.MustCompile(`\S+\.mlir:\d+(:\d+)?:? ?`)
	blotName = regexp.MustCompile(`[%@^#][\w$.-]+`)
	blotNum  = regexp.MustCompile(`\b\d+\b`)
)

func classKey(msg string) string {
	msg = blotPos.ReplaceAllString(msg, "")
	msg = blotName.ReplaceAllStringFunc(msg, func(n string) string { return n[:1] + "x" })
	return blotNum.ReplaceAllString(msg, "N")
}

func (s *summary) printClasses(w io.Writer) {
	classes := map[string]*class{}
	size := map[int]int64{}
	for ei, e := range s.entries {
		if !e.Valid {
			continue
		}
		for ti, tg := range s.targets {
			r := s.result(ei, ti)
			if r.Outcome == compiled {
				continue
			}
			k := r.Outcome + " " + classKey(r.Msg)
			c := classes[k]
			if c == nil {
				c = &class{outcome: r.Outcome, msg: classKey(r.Msg), modules: map[int]bool{}, targets: map[string]bool{}, example: -1}
				classes[k] = c
			}
			c.pairs++
			c.modules[ei] = true
			c.targets[tg] = true
			if _, ok := size[ei]; !ok {
				size[ei] = fileSize(s.jobs[ei*len(s.targets)].File)
			}
			if c.example < 0 || size[ei] < size[c.example] {
				c.example, c.exampleMsg = ei, r.Msg
			}
		}
	}
	list := make([]*class, 0, len(classes))
	for _, c := range classes {
		list = append(list, c)
	}
	sort.Slice(list, func(i, j int) bool {
		if len(list[i].modules) != len(list[j].modules) {
			return len(list[i].modules) > len(list[j].modules)
		}
		return list[i].outcome+list[i].msg < list[j].outcome+list[j].msg
	})
	var spec, fail []*class
	for _, c := range list {
		if c.outcome == refusedSpec {
			spec = append(spec, c)
		} else {
			fail = append(fail, c)
		}
	}
	s.printClassList(w, "failure classes of valid modules", fail)
	s.printClassList(w, "valid modules (MLIR accepts them) that the specification rejects, which arc refuses: not failures", spec)
}

func (s *summary) printClassList(w io.Writer, title string, list []*class) {
	fmt.Fprintf(w, "\n== %s: %d\n", title, len(list))
	for i, c := range list {
		targets := fmt.Sprintf("%d targets", len(c.targets))
		if len(c.targets) == len(s.targets) {
			targets = "every target"
		} else if len(c.targets) <= 3 {
			targets = strings.Join(sortedKeys(c.targets), ", ")
		}
		fmt.Fprintf(w, "%d. %s: %d modules, %d compiles, %s\n   example %s\n   %s\n",
			i+1, c.outcome, len(c.modules), c.pairs, targets, s.entries[c.example].File, c.exampleMsg)
	}
}

// What an invalid module's first expected error is about: an all-reduce
// arc reads (StableHLO's or MHLO's; Shardy's sdy.all_reduce is another op),
// the module's structure (builtin and func ops, and errors on no op, which
// are the parser's), or another op, which arc does not read.
const (
	aboutAllReduce = "all_reduce"
	aboutStructure = "structure"
	aboutOther     = "other ops"
)

func about(d Diagnostic) string {
	switch {
	case d.Op == "stablehlo.all_reduce" || d.Op == "mhlo.all_reduce":
		return aboutAllReduce
	case d.Op == "" || strings.HasPrefix(d.Op, "func.") || strings.HasPrefix(d.Op, "builtin."):
		return aboutStructure
	}
	return aboutOther
}

// by says who refuses an invalid module: MLIR's parser and verifiers, or
// (perhaps) a pass its lit file runs.
func by(e Entry) string {
	if len(e.Passes) == 0 {
		return "verifier"
	}
	return "pass"
}

// printInvalid counts the invalid modules arc accepts, by who refuses them
// and what the error is about, and lists those MLIR's verifier refuses for
// an all-reduce or the structure by the error it expects.
func (s *summary) printInvalid(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "refused by\tabout\tmodules\trefused (none)\taccepted (none)\taccepted (every target)\t")
	type group struct {
		n       int
		example string
	}
	groups := map[string]*group{}
	for _, b := range []string{"verifier", "pass"} {
		for _, a := range []string{aboutAllReduce, aboutStructure, aboutOther} {
			n, refusedNone, acceptedNone, acceptedAll := 0, 0, 0, 0
			for ei, e := range s.entries {
				d := firstError(e)
				if e.Valid || by(e) != b || about(d) != a {
					continue
				}
				n++
				switch s.result(ei, s.none()).Outcome {
				case compiled:
					acceptedNone++
					if a != aboutOther && b == "verifier" {
						k := fmt.Sprintf("%s: %s", orNone(d.Op), classKey(d.Msg))
						if groups[k] == nil {
							groups[k] = &group{example: e.File}
						}
						groups[k].n++
					}
				case refusedAt, refusedSpec:
					refusedNone++
				}
				if s.acceptedBy(ei) == len(s.targets) {
					acceptedAll++
				}
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t\n", b, a, n, refusedNone, acceptedNone, acceptedAll)
		}
	}
	fmt.Fprintf(w, "\n== invalid modules: who refuses them, what the error is about, what arc does\n")
	tw.Flush()
	keys := sortedKeys(groups)
	sort.SliceStable(keys, func(i, j int) bool { return groups[keys[i]].n > groups[keys[j]].n })
	fmt.Fprintf(w, "\n== invalid modules arc accepts (target none) that MLIR's verifier refuses for an all-reduce or the structure: %d groups\n", len(keys))
	for _, k := range keys {
		fmt.Fprintf(w, "%4d  %s\n      e.g. %s\n", groups[k].n, k, groups[k].example)
	}
}

func (s *summary) acceptedBy(ei int) int {
	n := 0
	for ti := range s.targets {
		if s.result(ei, ti).Outcome == compiled {
			n++
		}
	}
	return n
}

func firstError(e Entry) Diagnostic {
	for _, d := range e.Expected {
		if d.Kind == "error" || d.Kind == "warning" {
			return d
		}
	}
	return Diagnostic{}
}

// printCosts lists the slowest compiles and those that allocate most for
// their input.
func (s *summary) printCosts(w io.Writer) {
	idx := make([]int, len(s.results))
	for i := range idx {
		idx[i] = i
	}
	top := func(title string, key func(int) float64, show func(int) string) {
		sort.Slice(idx, func(a, b int) bool { return key(idx[a]) > key(idx[b]) })
		fmt.Fprintf(w, "\n== %s\n", title)
		for _, i := range idx[:min(5, len(idx))] {
			fmt.Fprintf(w, "%s  %s %s\n", show(i), s.jobs[i].Target, s.jobs[i].File)
		}
	}
	var total time.Duration
	for _, r := range s.results {
		total += r.Elapsed
	}
	fmt.Fprintf(w, "\n== cost: %v of compile time in all\n", total.Round(time.Second))
	top("slowest compiles", func(i int) float64 { return float64(s.results[i].Elapsed) },
		func(i int) string { return s.results[i].Elapsed.Round(time.Millisecond).String() })
	sizes := map[string]int64{}
	ratio := func(i int) float64 {
		f := s.jobs[i].File
		if _, ok := sizes[f]; !ok {
			sizes[f] = fileSize(f)
		}
		return float64(s.results[i].Alloc) / float64(max(sizes[f], 1))
	}
	top("most allocation", func(i int) float64 { return float64(s.results[i].Alloc) }, func(i int) string {
		return fmt.Sprintf("%.0fx (%d MiB for %d KiB)", ratio(i), s.results[i].Alloc>>20, sizes[s.jobs[i].File]>>10)
	})
}

// writeFailures writes one line per failed compile of a valid module:
// outcome, target, file, message. It returns their number.
func (s *summary) writeFailures(path string) (int, error) {
	n := 0
	err := writeTSV(path, func(w io.Writer) {
		fmt.Fprintln(w, "outcome\ttarget\tfile\tmessage")
		for ei, e := range s.entries {
			for ti, tg := range s.targets {
				if r := s.result(ei, ti); e.Valid && r.Outcome != compiled && r.Outcome != refusedSpec {
					fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", r.Outcome, tg, e.File, oneLine(r.Msg))
					n++
				}
			}
		}
	})
	return n, err
}

// writeInvalid writes one line per invalid module: how many targets accept
// it, who refuses it, what about, the file, the error MLIR expects and what
// arc says for target none.
func (s *summary) writeInvalid(path string) error {
	return writeTSV(path, func(w io.Writer) {
		fmt.Fprintln(w, "accepted-by\trefused-by\tabout\tfile\top\texpected\tarc")
		for ei, e := range s.entries {
			if !e.Valid {
				d := firstError(e)
				fmt.Fprintf(w, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", s.acceptedBy(ei), by(e), about(d), e.File, orNone(d.Op),
					oneLine(d.Msg), oneLine(s.result(ei, s.none()).Msg))
			}
		}
	})
}

func writeTSV(path string, write func(io.Writer)) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	b := bufio.NewWriter(f)
	write(b)
	if err := b.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// fileSize is a corpus file's size; the working directory of a test is its
// package, so paths are taken under $ARC_CORPUS.
func fileSize(file string) int64 {
	fi, err := os.Stat(os.Getenv("ARC_CORPUS") + "/" + file)
	if err != nil {
		return 0
	}
	return fi.Size()
}

func oneLine(s string) string { return strings.NewReplacer("\n", `\n`, "\t", " ").Replace(s) }

func orNone(op string) string {
	if op == "" {
		return "(no op)"
	}
	return op
}

func anys(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
