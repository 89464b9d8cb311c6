package bench

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"time"
)

// fakeMachine times programs from a model instead of running them: a chain
// of K all-reduces takes K * model(l, dtype, bytes) plus the control's time,
// and every chain/control pair shares a per-pair overhead that drifts from
// pair to pair, as a real machine's launch and sync overhead does.
type fakeMachine struct {
	world int
	model func(l Lowering, dtype string, bytes int64) float64 // microseconds per all-reduce

	openErr  map[int64]string    // sizes whose inputs cannot be allocated
	chainErr map[Lowering]string // lowerings that do not compile
	runErr   map[Lowering]string // lowerings whose program fails when run
	ctrlErr  string              // the control program does not compile
	// jitter, when set, adds jitter(pair) microseconds to every all-reduce of
	// the chains of that pair, so repetitions differ as on a real machine.
	jitter func(pair int) float64

	mu     sync.Mutex
	pairs  int // control runs so far: the pair counter
	opened int
	closed int // cells and programs closed
	progs  int // programs compiled
}

func (m *fakeMachine) World() int { return m.world }

func (m *fakeMachine) Open(dtype string, bytes int64) (Cell, error) {
	if msg, ok := m.openErr[bytes]; ok {
		return nil, errors.New(msg)
	}
	m.mu.Lock()
	m.opened++
	m.mu.Unlock()
	return &fakeCell{m: m, dtype: dtype, bytes: bytes}, nil
}

type fakeCell struct {
	m     *fakeMachine
	dtype string
	bytes int64
}

func (c *fakeCell) Close() { c.m.count(&c.m.closed) }

func (c *fakeCell) Control(steps int) (Program, error) {
	if c.m.ctrlErr != "" {
		return nil, errors.New(c.m.ctrlErr)
	}
	c.m.count(&c.m.progs)
	return &fakeProgram{m: c.m, control: true, base: 50 + float64(c.bytes)/1e6}, nil
}

func (c *fakeCell) Chain(l Lowering, steps int) (Program, string, error) {
	if msg, ok := c.m.chainErr[l]; ok {
		return nil, "", errors.New(msg)
	}
	c.m.count(&c.m.progs)
	chose, timed := l.Key(), l
	if l.IsNative() { // XLA's switches change XLA's all-reduce, not arc's choice
		chose = "native"
	}
	if l == Auto { // the fastest lowering the policy may pick without --quant
		chose = "native"
		for _, k := range []string{"oneshot", "twoshot:fp"} {
			if c.m.model(LoweringForKey(k), c.dtype, c.bytes) < c.m.model(LoweringForKey(chose), c.dtype, c.bytes) {
				chose = k
			}
		}
	}
	if !l.IsNative() {
		timed = LoweringForKey(chose)
	}
	work := float64(steps) * c.m.model(timed, c.dtype, c.bytes)
	return &fakeProgram{m: c.m, base: 50 + float64(c.bytes)/1e6 + work, steps: steps, err: c.m.runErr[l]}, chose, nil
}

func (m *fakeMachine) count(n *int) {
	m.mu.Lock()
	*n++
	m.mu.Unlock()
}

type fakeProgram struct {
	m       *fakeMachine
	control bool
	base    float64 // microseconds before the pair's overhead
	steps   int     // all-reduces in a chain (0 for the control)
	err     string
}

func (p *fakeProgram) Run() (time.Duration, error) {
	if p.err != "" {
		return 0, errors.New(p.err)
	}
	p.m.mu.Lock()
	defer p.m.mu.Unlock()
	overhead := 100 + 37*float64(p.m.pairs%7)
	if p.m.jitter != nil {
		overhead += float64(p.steps) * p.m.jitter(p.m.pairs)
	}
	if p.control {
		p.m.pairs++
	}
	return time.Duration(math.Round((p.base + overhead) * 1e3)), nil // ns
}

func (p *fakeProgram) Close() { p.m.count(&p.m.closed) }

// recordingProgress keeps what a sweep reports.
type recordingProgress struct {
	done  int
	descs []string
}

func (r *recordingProgress) Describe(s string) { r.descs = append(r.descs, s) }
func (r *recordingProgress) Add(n int) error   { r.done += n; return nil }

// linearModel is latency + bytes / bandwidth per lowering, in microseconds.
func linearModel(lat, gbps map[Lowering]float64) func(Lowering, string, int64) float64 {
	return func(l Lowering, dtype string, n int64) float64 {
		g, ok := gbps[l]
		if !ok {
			panic(fmt.Sprintf("no model for %s", l))
		}
		return lat[l] + float64(n)/(g*1e3)
	}
}
