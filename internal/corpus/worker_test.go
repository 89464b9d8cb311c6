package corpus

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arcpass/arc"
	"github.com/arcpass/arc/spec"
)

// workerEnv marks the test binary TestCorpus starts as a worker.
const workerEnv = "ARC_CORPUS_WORKER"

// The outcomes of a job. A valid module must be compiled, or refusedSpec;
// the others are failures (an invalid module should be refusedAt or
// refusedSpec).
const (
	compiled  = "compiled"
	refusedAt = "refused-pos" // FILE:LINE:COL: message
	// refusedSpec: FILE:LINE:COL: a rule of the specification's that MLIR's
	// verifier does not check (spec.SpecOnly). The corpus calls a module
	// valid when MLIR accepts it; arc follows the specification.
	refusedSpec = "refused-spec"
	refused     = "refused"    // an error without a position
	panicked    = "panic"      // a panic or a crash of the worker
	overBound   = "over-bound" // past the time or the memory bound
	changed     = "roundtrip"  // --target none did not give the text back byte for byte
	noReason    = "no-reason"  // an all-reduce left undecided, or native without a reason
)

// job is one compile: a corpus file for one target.
type job struct {
	File   string `json:"file"` // under the corpus root
	Target string `json:"target"`
}

// result is what a worker says of a job.
type result struct {
	Outcome string        `json:"outcome"`
	Msg     string        `json:"msg,omitempty"`
	Lowered int           `json:"lowered,omitempty"` // all-reduce operands lowered
	Native  int           `json:"native,omitempty"`  // all-reduce operands native, with a reason
	Alloc   uint64        `json:"alloc,omitempty"`   // bytes the compile allocated
	Elapsed time.Duration `json:"elapsed,omitempty"`
}

// memoryBound is the live heap a compile of n bytes may hold: a
// module's memory follows its input.
func memoryBound(n int) uint64 {
	if b, err := arc.ParseSize(os.Getenv("ARC_CORPUS_MEMORY")); err == nil && b > 0 {
		return uint64(b)
	}
	return 64<<20 + 64*uint64(n)
}

// TestCorpusWorker is the worker process TestCorpus runs: it reads jobs as
// JSON lines on stdin and writes a result for each on file descriptor 3.
// A compile whose live heap passes the bound ends the process after its
// result says so; the parent kills one that runs past the time bound.
func TestCorpusWorker(t *testing.T) {
	if os.Getenv(workerEnv) == "" {
		t.Skip("TestCorpus runs it")
	}
	root := os.Getenv("ARC_CORPUS")
	out := os.NewFile(3, "results")
	var mu sync.Mutex // one result at a time on out
	enc := json.NewEncoder(out)
	var bound atomic.Uint64
	bound.Store(memoryBound(0))
	go func() {
		live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		for range time.Tick(5 * time.Millisecond) {
			metrics.Read(live)
			if b := bound.Load(); live[0].Value.Uint64() > b {
				mu.Lock()
				enc.Encode(result{Outcome: overBound, Msg: fmt.Sprintf("live heap %d MiB over the bound of %d MiB", live[0].Value.Uint64()>>20, b>>20)})
				os.Exit(3)
			}
		}
	}()
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		var j job
		if err := json.Unmarshal(sc.Bytes(), &j); err != nil {
			t.Fatal(err)
		}
		src, err := os.ReadFile(filepath.Join(root, j.File))
		if err != nil {
			t.Fatal(err)
		}
		bound.Store(memoryBound(len(src)))
		r := measure(j.File, src, j.Target)
		mu.Lock()
		err = enc.Encode(r)
		mu.Unlock()
		if err != nil {
			t.Fatal(err)
		}
	}
}

// measure runs one compile and records its time and allocations.
func measure(name string, src []byte, target string) result {
	allocs := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(allocs)
	before, start := allocs[0].Value.Uint64(), time.Now()
	r := compile(name, src, target)
	r.Elapsed = time.Since(start)
	metrics.Read(allocs)
	r.Alloc = allocs[0].Value.Uint64() - before
	return r
}

// compile runs arc as `arc compile --target target` does and classifies
// the outcome.
func compile(name string, src []byte, target string) (r result) {
	defer func() {
		if p := recover(); p != nil {
			r = result{Outcome: panicked, Msg: fmt.Sprintf("%v (at %s)", p, arcFrame(debug.Stack()))}
		}
	}()
	out, rep, err := arc.Compile(name, src, arc.Options{Target: target})
	if err != nil {
		var usage *arc.UsageError
		switch {
		case errors.As(err, &usage):
			return result{Outcome: refused, Msg: "usage: " + err.Error()}
		case positioned(name, err.Error()) && spec.SpecOnly(err.Error()):
			return result{Outcome: refusedSpec, Msg: err.Error()}
		case positioned(name, err.Error()):
			return result{Outcome: refusedAt, Msg: err.Error()}
		}
		return result{Outcome: refused, Msg: err.Error()}
	}
	if target == "none" && !bytes.Equal(out, src) {
		return result{Outcome: changed, Msg: firstDiff(src, out)}
	}
	r.Outcome = compiled
	for _, row := range rep.Collectives {
		switch {
		case row.Op != "all_reduce" || target == "none": // none decides nothing
		case row.Lowering == "":
			return result{Outcome: noReason, Msg: fmt.Sprintf("%s:%d: all_reduce operand %d left undecided", name, row.Line, row.Operand)}
		case row.Lowering != "native":
			r.Lowered++
		case row.Reason == "":
			return result{Outcome: noReason, Msg: fmt.Sprintf("%s:%d: all_reduce operand %d native without a reason", name, row.Line, row.Operand)}
		default:
			r.Native++
		}
	}
	return r
}

// positioned reports whether msg starts with name:LINE:COL.
func positioned(name, msg string) bool {
	rest, ok := strings.CutPrefix(msg, name+":")
	return ok && positionRE.MatchString(rest)
}

var positionRE = regexp.MustCompile(`^\d+:\d+: `)

// arcFrame is the innermost function of arc's own in a stack trace.
func arcFrame(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "github.com/arcpass/arc/") && !strings.HasPrefix(l, "github.com/arcpass/arc/internal/corpus.") && i+1 < len(lines) {
			return strings.TrimSpace(lines[i+1])
		}
	}
	return "no frame of arc"
}

// firstDiff says where two texts part.
func firstDiff(want, got []byte) string {
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	return fmt.Sprintf("output differs from the input at byte %d (%d bytes in, %d out)", i, len(want), len(got))
}
