// Package corpus checks arc against thousands of public StableHLO modules:
// the lit tests, interpreter tests, conversion tests and testdata of
// StableHLO, Shardy's tests, JAX's export back-compat data and MHLO's tests.
// Every valid module must come back byte for byte from `--target none` and
// compile for every target (each all-reduce lowered, or native with a
// reason); arc may refuse one only with FILE:LINE:COL, and then it counts as
// a failure unless the error states a rule of StableHLO's specification that
// MLIR's verifier does not check (spec.SpecOnly: ids beyond the stated grid,
// say), which the run lists apart. Pieces that carry
// expected-error or expected-warning diagnostics are kept apart as modules
// MLIR refuses: the run counts the ones arc accepts.
//
// The corpus holds other projects' files, so it lives outside the
// repository. Build it from bare git directories of openxla/stablehlo,
// openxla/shardy, jax-ml/jax and tensorflow/mlir-hlo, laid out as
// MIRROR/OWNER+NAME/repo (`git clone --bare URL MIRROR/OWNER+NAME/repo`):
//
//	go run ./internal/corpus/build -mirror /work/.mirror -out /work/corpus
//
// It splits lit files at `// -----` lines, extracts JAX's mlir_module_text
// strings, and writes each piece to OUT/valid/SOURCE/PATH/N.mlir or
// OUT/invalid/SOURCE/PATH/N.mlir, with OUT/manifest.jsonl saying where each
// came from (repository, commit, path, piece, line). Then compile every piece
// for every target (skipped unless ARC_CORPUS is set, so `make test` is
// unaffected; about a minute on two cores):
//
//	ARC_CORPUS=/work/corpus nice go test ./internal/corpus -run TestCorpus -v -timeout 0
//
// Each compile runs in a worker process, under a time bound
// (ARC_CORPUS_TIMEOUT, default 20s) and a bound on its live heap
// (ARC_CORPUS_MEMORY; by default 64 MiB plus 64 bytes per input byte);
// ARC_CORPUS_JOBS workers (default: one per CPU) share the work. The test
// prints the counts per source and per target and the distinct classes of
// failure, writes every failed compile of a valid module to
// ARC_CORPUS_FAILURES (default OUT/failures.tsv) and what arc does with each
// invalid module to OUT/invalid.tsv, and fails when a valid module fails.
package corpus

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Entry is one module of the corpus, as manifest.jsonl records it.
type Entry struct {
	File   string `json:"file"`   // path under the corpus root
	Source string `json:"source"` // Sources' name
	Valid  bool   `json:"valid"`  // no expected-error or expected-warning in it
	Repo   string `json:"repo"`   // owner/name
	Commit string `json:"commit"`
	Path   string `json:"path"`  // file in the repository
	Piece  int    `json:"piece"` // index of the piece (lit split) or string (.py) in the file
	Line   int    `json:"line"`  // line of the file where the piece starts
	// Expected are the diagnostics the piece says MLIR reports (invalid
	// pieces), and Passes the passes its file's -verify-diagnostics RUN line
	// runs: with none, they come from MLIR's parser and verifiers alone.
	Expected []Diagnostic `json:"expected,omitempty"`
	Passes   []string     `json:"passes,omitempty"`
}

// Diagnostic is one expected-KIND comment of a lit piece.
type Diagnostic struct {
	Kind string `json:"kind"` // error, warning, note, remark
	Line int    `json:"line"` // line of the piece it is about
	Op   string `json:"op"`   // the op the message starts with ('NAME' op ...), else the first dialect.name word on the line
	Msg  string `json:"msg"`
}

// Piece is a part of a lit file between `// -----` lines.
type Piece struct {
	Text string
	Line int // line of the file it starts on
}

// Split cuts a lit file where MLIR's -split-input-file does: at each line
// holding the marker `// -----` (the line itself belongs to neither piece).
// Pieces with nothing but blanks are dropped, as they hold no module.
func Split(text string) []Piece {
	var out []Piece
	var b strings.Builder
	start, line := 1, 1
	flush := func() {
		if strings.TrimSpace(b.String()) != "" {
			out = append(out, Piece{b.String(), start})
		}
		b.Reset()
	}
	for rest := text; rest != ""; line++ {
		l, tail, found := strings.Cut(rest, "\n")
		if found {
			l += "\n"
		}
		rest = tail
		if strings.Contains(l, "// -----") {
			flush()
			start = line + 1
			continue
		}
		b.WriteString(l)
	}
	flush()
	return out
}

var (
	diagRE  = regexp.MustCompile(`expected-(error|warning|note|remark)(?:-re)?\s*(?:@([+-]\d+|above|below|unknown))?\s*(?:\d+\s*)?\{\{(.*)\}\}`)
	opRE    = regexp.MustCompile(`\b[a-z][a-z0-9_]*\.[a-z][a-z0-9_.]*`)
	msgOpRE = regexp.MustCompile(`^(?:custom op )?'([a-z][a-z0-9_]*\.[a-z][a-z0-9_.]*)' `)
)

// Diagnostics lists the expected-KIND comments of a piece, each with the
// line it refers to (@+N, @-N, @above and @below as MLIR's verifier reads
// them; @unknown has line 0) and the op word on that line.
func Diagnostics(piece string) []Diagnostic {
	lines := strings.Split(piece, "\n")
	var out []Diagnostic
	for i, l := range lines {
		m := diagRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		at := i + 1
		switch off := m[2]; {
		case off == "unknown":
			at = 0
		case off == "above" || off == "below":
			at = neighbour(lines, i, map[string]int{"above": -1, "below": 1}[off])
		case off != "":
			n, _ := strconv.Atoi(off)
			at += n
		}
		d := Diagnostic{Kind: m[1], Line: at, Msg: strings.TrimSpace(m[3])}
		if n := msgOpRE.FindStringSubmatch(d.Msg); n != nil {
			d.Op = n[1]
		} else if at >= 1 && at <= len(lines) {
			d.Op = opRE.FindString(codeOf(lines[at-1]))
		}
		out = append(out, d)
	}
	return out
}

// neighbour is the nearest line in direction dir from i that is not a
// diagnostic comment, 1-based.
func neighbour(lines []string, i, dir int) int {
	for j := i + dir; j >= 0 && j < len(lines); j += dir {
		if !diagRE.MatchString(lines[j]) {
			return j + 1
		}
	}
	return 0
}

// codeOf drops a line's // comment (a diagnostic on the same line as its op).
func codeOf(l string) string {
	if i := strings.Index(l, "//"); i >= 0 {
		return l[:i]
	}
	return l
}

// Invalid reports whether the diagnostics say MLIR refuses the piece.
func Invalid(ds []Diagnostic) bool {
	for _, d := range ds {
		if d.Kind == "error" || d.Kind == "warning" {
			return true
		}
	}
	return false
}

// neutral are the flags of an opt tool that run no pass.
var neutral = []string{"split-input-file", "verify-diagnostics", "allow-unregistered-dialect", "o", "mlir-print-"}

// NoRun is RunPasses' answer for a file no RUN line of which checks
// diagnostics.
const NoRun = "(no RUN line checks diagnostics)"

// RunPasses reads a lit file's RUN lines and returns the passes of the one
// that checks diagnostics (-verify-diagnostics) with the fewest: the flags
// of its first command that are not neutral. It is [NoRun] when no RUN line
// checks diagnostics.
func RunPasses(file string) []string {
	var passes []string
	ok := false
	var runs []string
	cont := false
	for _, l := range strings.Split(file, "\n") {
		_, r, found := strings.Cut(l, "RUN:")
		if !found {
			cont = false
			continue
		}
		r = strings.TrimSpace(r)
		if cont {
			runs[len(runs)-1] += " " + r
		} else {
			runs = append(runs, r)
		}
		cont = strings.HasSuffix(r, "\\")
		if cont {
			runs[len(runs)-1] = strings.TrimSuffix(runs[len(runs)-1], "\\")
		}
	}
	for _, r := range runs {
		if !strings.Contains(r, "verify-diagnostics") {
			continue
		}
		cmd, _, _ := strings.Cut(r, "|")
		var ps []string
		for _, w := range strings.Fields(cmd) {
			flag := strings.TrimLeft(w, "-")
			if !strings.HasPrefix(w, "-") || w == "-" || slices.ContainsFunc(neutral, func(n string) bool {
				return flag == n || strings.HasSuffix(n, "-") && strings.HasPrefix(flag, n)
			}) {
				continue
			}
			ps = append(ps, w)
		}
		if !ok || len(ps) < len(passes) {
			passes, ok = ps, true
		}
	}
	if !ok {
		return []string{NoRun}
	}
	return passes
}

var jaxRE = regexp.MustCompile(`(?s)mlir_module_text\s*=\s*r?"""(.*?)"""`)

// JAXModules extracts the mlir_module_text strings of a JAX back-compat
// data file (raw triple-quoted StableHLO text) as pieces.
func JAXModules(py string) []Piece {
	var out []Piece
	for _, m := range jaxRE.FindAllStringSubmatchIndex(py, -1) {
		out = append(out, Piece{py[m[2]:m[3]], 1 + strings.Count(py[:m[2]], "\n")})
	}
	return out
}

// ReadManifest reads root/manifest.jsonl.
func ReadManifest(root string) ([]Entry, error) {
	f, err := os.Open(root + "/manifest.jsonl")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Entry
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		var e Entry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return nil, fmt.Errorf("%s/manifest.jsonl:%d: %v", root, n, err)
		}
		out = append(out, e)
	}
	return out, sc.Err()
}
