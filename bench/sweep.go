package bench

import (
	"fmt"
	"sort"
	"sync"
	"time"
)

// Machine runs benchmark programs on the local GPUs; xla.go has the real one.
type Machine interface {
	World() int
	// Open prepares one cell: the inputs all its programs share.
	Open(dtype string, bytes int64) (Cell, error)
}

// Cell compiles the programs of one (dtype, size) cell. Chain and Control
// may be called concurrently.
type Cell interface {
	// Control is the program doing the chain's work without its all-reduces.
	Control(steps int) (Program, error)
	// Chain is steps all-reduces in a row, lowered as l; chose is the profile
	// key (see Lowering.Key) of what they got.
	Chain(l Lowering, steps int) (p Program, chose string, err error)
	Close()
}

// Program is one compiled executable; Run executes it once and waits for it.
type Program interface {
	Run() (time.Duration, error)
	Close()
}

// Progress is told what the sweep does and how many measurements are done
// (a progress bar; see NopProgress).
type Progress interface {
	Describe(what string)
	Add(n int) error
}

// NopProgress shows nothing.
type NopProgress struct{}

func (NopProgress) Describe(string) {}
func (NopProgress) Add(int) error   { return nil }

// Sweep measures every lowering of the plan in every cell at the XLA level:
// per repetition the chained program runs, then the control, and the sample
// is their difference over the chain length. Failures are recorded in their
// Result and the sweep goes on. After each cell, saved (if not nil) gets
// every result so far, so that a sweep cut short keeps what it measured.
func Sweep(m Machine, plan Plan, link string, progress Progress, saved func([]Result)) []Result {
	var out []Result
	for _, dt := range plan.DTypes {
		for _, n := range plan.Sizes {
			base := Result{Level: "xla", Link: link, World: m.World(), DType: dt, Bytes: n}
			progress.Describe(fmt.Sprintf("%s %s: compiling", dt, FormatSize(n)))
			out = append(out, sweepCell(m, plan, base, progress)...)
			if saved != nil {
				saved(out)
			}
		}
	}
	return out
}

// compiled is one lowering's chained program, or why there is none.
type compiled struct {
	prog  Program
	chose string
	err   error
}

func sweepCell(m Machine, plan Plan, base Result, progress Progress) []Result {
	results := make([]Result, len(plan.Lowerings))
	for i, l := range plan.Lowerings {
		results[i] = base
		results[i].Lowering = l
	}
	fail := func(err error) []Result {
		for i := range results {
			results[i].Err = err.Error()
		}
		progress.Add(len(results))
		return results
	}
	cell, err := m.Open(base.DType, base.Bytes)
	if err != nil {
		return fail(err)
	}
	defer cell.Close()

	control, chains := compileCell(cell, plan)
	for _, c := range chains {
		if c.prog != nil {
			defer c.prog.Close()
		}
	}
	if control.err != nil {
		return fail(fmt.Errorf("control program: %w", control.err))
	}
	defer control.prog.Close()
	if err := warm(control.prog, plan.Warmup); err != nil {
		return fail(fmt.Errorf("control program: %w", err))
	}
	for i, l := range plan.Lowerings {
		progress.Describe(fmt.Sprintf("%s %s %s", base.DType, FormatSize(base.Bytes), l))
		r := &results[i]
		r.Chose = chains[i].chose
		if chains[i].err != nil {
			r.Err = chains[i].err.Error()
		} else if err := measure(r, chains[i].prog, control.prog, plan); err != nil {
			r.Err = err.Error()
		}
		progress.Add(1)
	}
	return results
}

// compileCell compiles the control and every lowering's chain, plan.Jobs at a time.
func compileCell(cell Cell, plan Plan) (control compiled, chains []compiled) {
	chains = make([]compiled, len(plan.Lowerings))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range plan.Jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				if i < 0 {
					control.prog, control.err = cell.Control(plan.Chain)
					continue
				}
				c := &chains[i]
				c.prog, c.chose, c.err = cell.Chain(plan.Lowerings[i], plan.Chain)
			}
		}()
	}
	jobs <- -1
	for i := range plan.Lowerings {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return control, chains
}

func warm(p Program, runs int) error {
	for range runs {
		if _, err := p.Run(); err != nil {
			return err
		}
	}
	return nil
}

// measure times one chain against the control, interleaved so that drift
// (clocks, temperature, other load) hits both alike.
func measure(r *Result, chain, control Program, plan Plan) error {
	if err := warm(chain, plan.Warmup); err != nil {
		return err
	}
	samples := make([]float64, plan.Reps)
	chainUS := make([]float64, plan.Reps)
	controlUS := make([]float64, plan.Reps)
	for i := range plan.Reps {
		c, err := chain.Run()
		if err != nil {
			return err
		}
		k, err := control.Run()
		if err != nil {
			return fmt.Errorf("control program: %w", err)
		}
		chainUS[i], controlUS[i] = us(c), us(k)
		samples[i] = (us(c) - us(k)) / float64(plan.Chain)
	}
	r.P25, r.US, r.P75 = quartiles(samples)
	_, r.ChainUS, _ = quartiles(chainUS)
	_, r.ControlUS, _ = quartiles(controlUS)
	return nil
}

// quartiles returns the lower quartile, the median and the upper quartile,
// interpolating between the sorted samples.
func quartiles(v []float64) (q1, median, q3 float64) {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	at := func(q float64) float64 {
		x := q * float64(len(s)-1)
		i := int(x)
		if i+1 >= len(s) {
			return s[len(s)-1]
		}
		return s[i] + (s[i+1]-s[i])*(x-float64(i))
	}
	return at(0.25), at(0.5), at(0.75)
}
