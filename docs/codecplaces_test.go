package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/arcpass/arc/abi"
)

// A codecPlace is a source that names codecs itself instead of reading
// abi's table. step names what adding a codec takes there ("": the file
// names codecs for another reason, why).
type codecPlace struct{ path, step, why string }

// codecPlaces are every non-test source that may name a codec. The steps
// are what ARCHITECTURE.md's "A codec" counts; every other source reads
// abi.CodecTable (the handler, the report, the options' help, the cost
// model, bench plans, kbench, the oracle, the host codec tests, ...).
var codecPlaces = []codecPlace{
	{"abi/vocab.go", "the table", "its record"},
	{"reference/codec/", "the Go reference", "its encode and decode, as docs/FORMATS.md defines them"},
	{"gpu/arc_codec.h", "the device code", "its arithmetic, per lane"},
	{"gpu/arc_kernels.cuh", "the device code", "its tile layout and its case of the kernels' dispatch"},
	{"docs/bench/genprofiles.go", "the profiles", "what stands in for a codec the shipped measurements lack"},

	{"gpu/arc_vocab.h", "", "generated from the table (go generate ./abi)"},
	{"gpu/arc_comm.cc", "", "an example of a failure message, in a comment"},
	{"gpu/arc_fused.cu", "", "a comment on one codec's decode"},
	{"gpu/kbench/kbench.cu", "", "comments on one codec's data-dependent work"},
	{"gpu/gputest/hostcodec.go", "", "the kernel tests name the codecs they call by number"},
	{"lowering/rocm/rocm.go", "", "QuickReduce's published times of one codec"},
	{"lowering/gpu/decide.go", "", "an example of a reason, in a comment"},
	{"oracle/doc.go", "", "the bounds, in the package's documentation"},
	{"options.go", "", "examples of --quant and --force values, in comments"},
	{"passes/profile.go", "", "an example of a profile key, in a comment"},
	{"internal/passtest/passtest.go", "", "an example of a golden's flags, in a comment"},
	{"bench/kernel.go", "", "examples of kbench's lowering names, in comments"},
	{"bench/plan.go", "", "lowprec:fp8, the lowering word's codec, in comments"},
	{"bench/result.go", "", "lowprec:fp8, in comments on older CSV files"},
	{"cmd/arc/accuracy.go", "", "--algo lowprec, the accuracy table's word for fp8"},
	{"cmd/arc/bench.go", "", "lowprec:fp8 in --lowerings' help"},
	{"devtest/main.go", "", "the GPU machine's lowprec configs"},
	{"examples/", "", "the examples' usage and flags: values a person types"},
	{"oracle/fused.go", "", "Go's int8 type, not the codec"},
	{"reference/accuracy/inputs.go", "", "LLM.int8(), a paper's name"},
}

// placeOf returns the entry that covers path.
func placeOf(path string) (codecPlace, bool) {
	for _, p := range codecPlaces {
		if path == p.path || strings.HasSuffix(p.path, "/") && strings.HasPrefix(path, p.path) {
			return p, true
		}
	}
	return codecPlace{}, false
}

// TestEveryPlaceACodecIsNamed lists every non-test source (Go, C, C++,
// CUDA) that names a lossy codec as a word, and fails for one that
// codecPlaces does not list (read abi.CodecTable there instead, or list it
// and say why) and for an entry that names none any more. ARCHITECTURE.md's
// "A codec" must name each step's places and their count.
func TestEveryPlaceACodecIsNamed(t *testing.T) {
	files := trackedFiles(t, "*.go", "*.h", "*.c", "*.cc", "*.cu", "*.cuh")
	words := make([]string, len(abi.Quantized))
	for i, c := range abi.Quantized {
		words[i] = regexp.QuoteMeta(c)
	}
	codecWord := regexp.MustCompile(`\b(` + strings.Join(words, "|") + `)\b`)
	used := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || strings.Contains(f, "testdata/") {
			continue
		}
		src, err := os.ReadFile(filepath.Join("..", f))
		if err != nil {
			continue // deleted in the work tree
		}
		m := codecWord.Find(src)
		if m == nil {
			continue
		}
		p, ok := placeOf(f)
		if !ok {
			t.Errorf("%s names the codec %s: read abi.CodecTable there, or add it to codecPlaces with why", f, m)
			continue
		}
		used[p.path] = true
	}
	steps := map[string][]string{}
	for _, p := range codecPlaces {
		if !used[p.path] {
			t.Errorf("codecPlaces lists %s (%s), which names no codec any more: remove it", p.path, p.why)
		}
		if p.step != "" {
			steps[p.step] = append(steps[p.step], p.path)
		}
	}

	page, err := os.ReadFile("../ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	_, bullet, _ := strings.Cut(string(page), "- **A codec**")
	bullet, _, _ = strings.Cut(bullet, "\n- **")
	count := []string{"zero", "one", "two", "three", "four", "five", "six", "seven"}[len(steps)]
	if !strings.Contains(bullet, "takes "+count+" places") {
		t.Errorf(`ARCHITECTURE.md's "A codec" does not say it takes %s places (%v)`, count, steps)
	}
	for step, paths := range steps {
		for _, path := range paths {
			if !strings.Contains(bullet, "`"+strings.TrimSuffix(path, "/")+"`") {
				t.Errorf(`ARCHITECTURE.md's "A codec" does not name %s (%s)`, path, step)
			}
		}
	}
}
