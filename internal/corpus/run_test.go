package corpus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arcpass/arc"
)

// TestCorpus compiles every module of the corpus at $ARC_CORPUS for every
// target (see the package doc).
func TestCorpus(t *testing.T) {
	root := os.Getenv("ARC_CORPUS")
	if root == "" || os.Getenv(workerEnv) != "" {
		t.Skip("set ARC_CORPUS to a corpus directory (see the package doc)")
	}
	entries, err := ReadManifest(root)
	if err != nil {
		t.Fatal(err)
	}
	workers := runtime.NumCPU()
	if n, err := strconv.Atoi(os.Getenv("ARC_CORPUS_JOBS")); err == nil && n > 0 {
		workers = n
	}
	timeout := 20 * time.Second
	if d, err := time.ParseDuration(os.Getenv("ARC_CORPUS_TIMEOUT")); err == nil && d > 0 {
		timeout = d
	}
	targets := arc.Targets()
	var jobs []job
	for _, e := range entries {
		for _, tg := range targets {
			jobs = append(jobs, job{e.File, tg})
		}
	}
	start := time.Now()
	results := runAll(t, root, jobs, workers, timeout)
	t.Logf("%d modules, %d targets: %d compiles in %v on %d workers", len(entries), len(targets), len(jobs),
		time.Since(start).Round(time.Second), workers)

	s := summary{entries: entries, targets: targets, jobs: jobs, results: results}
	var out bytes.Buffer
	s.print(&out)
	fmt.Print(out.String())
	failures := os.Getenv("ARC_CORPUS_FAILURES")
	if failures == "" {
		failures = filepath.Join(root, "failures.tsv")
	}
	n, err := s.writeFailures(failures)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.writeInvalid(filepath.Join(root, "invalid.tsv")); err != nil {
		t.Fatal(err)
	}
	if n > 0 {
		t.Errorf("%d compiles of valid modules failed (listed in %s)", n, failures)
	}
}

// runAll runs the jobs on n worker processes; results[i] is jobs[i]'s.
func runAll(t *testing.T, root string, jobs []job, n int, timeout time.Duration) []result {
	results := make([]result, len(jobs))
	next := make(chan int)
	go func() {
		for i := range jobs {
			next <- i
		}
		close(next)
	}()
	var done atomic.Int64
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			var w *worker
			defer func() { w.stop() }()
			for i := range next {
				if w == nil {
					var err error
					if w, err = startWorker(root); err != nil {
						t.Error(err)
						return
					}
				}
				var ok bool
				results[i], ok = w.run(jobs[i], timeout)
				if !ok {
					w.stop()
					w = nil
				}
				if d := done.Add(1); d%20000 == 0 {
					t.Logf("%d of %d compiles", d, len(jobs))
				}
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	return results
}

// worker is a TestCorpusWorker process.
type worker struct {
	cmd     *exec.Cmd
	jobs    *json.Encoder
	stdin   io.Closer
	results chan result // closed when the process's results end
	stderr  bytes.Buffer
}

func startWorker(root string) (*worker, error) {
	r, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	w := &worker{results: make(chan result)}
	w.cmd = exec.Command(os.Args[0], "-test.run=^TestCorpusWorker$", "-test.timeout=0")
	w.cmd.Env = append(os.Environ(), workerEnv+"=1", "ARC_CORPUS="+root, "GOMAXPROCS=1")
	w.cmd.ExtraFiles = []*os.File{pw}
	w.cmd.Stderr = &w.stderr
	in, err := w.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	w.stdin, w.jobs = in, json.NewEncoder(in)
	err = w.cmd.Start()
	pw.Close()
	if err != nil {
		r.Close()
		return nil, err
	}
	go func() {
		dec := json.NewDecoder(r)
		for {
			var res result
			if dec.Decode(&res) != nil {
				break
			}
			w.results <- res
		}
		r.Close()
		close(w.results)
	}()
	return w, nil
}

// run gives the worker a job and waits for its result; !ok means the
// worker is gone or must go.
func (w *worker) run(j job, timeout time.Duration) (r result, ok bool) {
	if err := w.jobs.Encode(j); err != nil {
		return w.crashed(), false
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case r, ok := <-w.results:
		if !ok {
			return w.crashed(), false
		}
		return r, r.Outcome != overBound // a worker over the memory bound ends itself
	case <-timer.C:
		return result{Outcome: overBound, Msg: fmt.Sprintf("still running after %v", timeout), Elapsed: timeout}, false
	}
}

// crashed describes a worker that ended in the middle of a job.
func (w *worker) crashed() result {
	for range w.results {
	}
	err := w.cmd.Wait()
	msg := fmt.Sprintf("worker ended (%v)", err)
	for _, l := range bytes.Split(w.stderr.Bytes(), []byte("\n")) {
		if bytes.HasPrefix(l, []byte("panic: ")) || bytes.HasPrefix(l, []byte("fatal error: ")) {
			msg = string(l)
			break
		}
	}
	return result{Outcome: panicked, Msg: fmt.Sprintf("%s (at %s)", msg, arcFrame(w.stderr.Bytes()))}
}

func (w *worker) stop() {
	if w == nil {
		return
	}
	w.stdin.Close()
	w.cmd.Process.Kill()
	for range w.results {
	}
	w.cmd.Wait()
}
