package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gomlx/go-xla/pkg/pjrt"
	xladtypes "github.com/gomlx/go-xla/pkg/types/dtypes"
	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
	"github.com/gomlx/gomlx/pkg/core/graph"

	"github.com/arcpass/arc/bench"
	"github.com/arcpass/arc/bench/xlarun"
	"github.com/arcpass/arc/capture"
	"github.com/arcpass/arc/examples/internal/harness"
	"github.com/arcpass/arc/examples/internal/megatron"
	"github.com/arcpass/arc/lowering"
)

type runner struct {
	m        *llama
	o        options
	spec     harness.Spec
	steps    []step
	variants []variant
	target   string
	out, log io.Writer
}

func newRunner(m *llama, o options, out, log io.Writer) (*runner, error) {
	switch {
	case o.tp < 1:
		return nil, fmt.Errorf("--tp %d: want at least 1", o.tp)
	case o.steps < 1 || o.warmup < 0:
		return nil, fmt.Errorf("--steps %d --warmup %d: want at least one step and no negative warmup", o.steps, o.warmup)
	case o.jobs < 1:
		return nil, fmt.Errorf("--jobs %d: want at least 1", o.jobs)
	case o.memFraction <= 0 || o.memFraction > 1:
		return nil, fmt.Errorf("--memory-fraction %g: want a share in (0, 1]", o.memFraction)
	case o.dumpOnly && o.dump == "":
		return nil, fmt.Errorf("--dump-only needs --dump FILE")
	}
	dt, err := elemType(o.dtype)
	if err != nil {
		return nil, err
	}
	r := &runner{m: m, o: o, spec: harness.Spec{TP: o.tp, DType: dt}, out: out, log: log}
	if r.steps, err = parseSteps(o.shapes); err != nil {
		return nil, err
	}
	m.step = r.steps[0]
	if err := m.Check(r.spec); err != nil {
		return nil, err
	}
	if r.variants, err = parseVariants(o.variants); err != nil {
		return nil, err
	}
	r.target = o.target
	if r.target == "" {
		r.target = os.Getenv("ARC_TARGET")
	}
	if r.target == "" {
		r.target = "cuda:nvlink"
	}
	if _, err := lowering.Lookup(r.target); err != nil {
		return nil, fmt.Errorf("--target: %v", err)
	}
	return r, nil
}

func (r *runner) run() error {
	backend, err := capture.NewBackend(r.spec.TP)
	if err != nil {
		return err
	}
	defer backend.Finalize()
	if r.o.dumpOnly {
		text, err := r.capture(backend, r.steps[0], megatron.AllReduce)
		if err != nil {
			return err
		}
		return writeFile(r.o.dump, text, r.out)
	}
	return r.onDevices(backend)
}

// capture is the program gomlx hands to PJRT for one step, through the
// compile-only plugin: the same text on a CPU as on the GPUs.
func (r *runner) capture(b backends.Backend, s step, reduce megatron.Reduce) (string, error) {
	r.m.step = s
	name := r.m.Name()
	if reduce == nil {
		reduce, name = megatron.Skip, name+"_control"
	}
	g, outs, err := harness.Program(b, r.m, r.spec, name, reduce)
	if err != nil {
		return "", err
	}
	nodes := make([]*graph.Node, len(outs))
	for i, o := range outs {
		nodes[i] = o.Node
	}
	return capture.Compile(g, nodes...)
}

// onDevices draws the weights on the GPUs once, then measures each shape.
func (r *runner) onDevices(cb backends.Backend) error {
	var collective int64
	for _, v := range r.variants {
		if v.native.NeedsCollectiveMemory() {
			largest := 0
			for _, s := range r.steps {
				largest = max(largest, s.Tokens())
			}
			collective = max(4*int64(largest*r.m.hidden)*elemSize(r.spec.DType), 256<<20)
		}
	}
	started := time.Now()
	client, devices, err := xlarun.OpenClient(xlarun.XLAOptions{Plugin: r.o.plugin, GPULib: r.o.gpuLib,
		Lower: bench.LowerOptions{Target: r.target}, CollectiveMemory: collective,
		Client: pjrt.NamedValuesMap{"memory_fraction": float32(r.o.memFraction)}})
	if err != nil {
		return err
	}
	defer client.Destroy()
	if devices < r.spec.TP {
		return fmt.Errorf("--tp %d needs %d GPUs; the plugin sees %d", r.spec.TP, r.spec.TP, devices)
	}
	r.m.step = r.steps[0]
	fmt.Fprintf(r.out, "llama: %s\n", r.m.Describe(r.spec))
	fmt.Fprintf(r.log, "llama: PJRT client on %d GPU(s) started in %.1f s\n", devices, time.Since(started).Seconds())
	d := &device{client: client, capture: cb, tp: r.spec.TP, seed: r.o.seed, fills: map[string]*pjrt.LoadedExecutable{}, log: r.log}
	defer d.close()
	start := time.Now()
	ws := r.m.weights(r.spec.DType)
	weights, err := d.tensors(ws)
	if err != nil {
		return fmt.Errorf("drawing the weights: %w", err)
	}
	defer release(weights)
	var bytes int64
	for _, t := range ws {
		shape, _ := t.ShardShape(r.spec.TP)
		bytes += int64(product(shape)) * elemSize(t.DType)
	}
	fmt.Fprintf(r.out, "weights: %.1f GB per rank, drawn on the GPUs in %.1f s\n", float64(bytes)/1e9, time.Since(start).Seconds())
	var rows []row
	failed := false
	for _, s := range r.steps {
		got, err := r.measure(d, weights, s)
		if err != nil {
			fmt.Fprintf(r.out, "\n%s: %v\n", s, err)
			got = []row{{step: s, variant: "-", err: err.Error()}}
			failed = true
		}
		rows = append(rows, got...)
	}
	if r.o.csv != "" {
		if err := writeCSV(r.o.csv, rows); err != nil {
			return err
		}
	}
	writeSummary(r.out, r.steps, rows)
	for _, x := range rows {
		failed = failed || !x.pass()
	}
	if failed {
		return fmt.Errorf("some measurements failed, or an exact variant's logits left native's tolerance (see above)")
	}
	return nil
}

// row is one variant's result at one shape.
type row struct {
	step               step
	variant, chose     string
	ms                 float64 // median step time
	speedup, bestSpeed float64 // over native, over the best native variant
	best               string  // the best native variant
	relL2, maxAbs      float64 // logits against native's
	tolerance          float64 // how far exact variants' logits may be from native's (0: quantized, no bound)
	share              float64 // all-reduce share of the step, against the control
	err                string
}

// pass reports whether the variant ran and, unless its codec is lossy,
// stayed within tolerance of native.
func (x row) pass() bool { return x.err == "" && (x.tolerance == 0 || x.relL2 <= x.tolerance) }

// exact reports whether a variant's all-reduces sum exactly (native, arc
// without a lossy codec), so that its logits must match native's within
// the rounding of another summation order.
func (v variant) exact() bool {
	return v.isNative() || (v.force == "" && v.quant == "none") || v.force == "oneshot" || v.force == "twoshot:fp"
}

func (x row) tokensPerSecond() float64 {
	if x.ms <= 0 {
		return 0
	}
	return float64(x.step.Tokens()) / (x.ms / 1e3)
}

// program is one compiled variant of a shape.
type program struct {
	v      variant
	chose  string
	text   string // a program to compile as it is (the control); "" to lower the shape's
	exec   *pjrt.LoadedExecutable
	err    error
	times  []time.Duration
	logits []float32
}

// measure compiles every variant of one shape (and the control), runs each
// once for its logits, then times them taking turns.
func (r *runner) measure(d *device, weights [][]*pjrt.Buffer, s step) ([]row, error) {
	fmt.Fprintf(r.out, "\n%s: %d tokens per step", s, s.Tokens())
	if !s.Prefill {
		fmt.Fprintf(r.out, ", after a KV cache of %d tokens", r.m.context)
	}
	fmt.Fprintln(r.out)
	src, err := r.capture(d.capture, s, megatron.AllReduce)
	if err != nil {
		return nil, err
	}
	progs := make([]*program, len(r.variants))
	for i, v := range r.variants {
		progs[i] = &program{v: v}
	}
	var control *program
	if r.o.control && r.spec.TP > 1 {
		text, err := r.capture(d.capture, s, nil)
		if err != nil {
			return nil, err
		}
		control = &program{v: variant{name: "no all-reduce", native: bench.Native}, text: text, chose: "-"}
		progs = append(progs, control)
	}
	start := time.Now()
	r.compileAll(d, progs, src)
	fmt.Fprintf(r.out, "compiled %d programs in %.1f s\n", len(progs), time.Since(start).Seconds())
	defer func() {
		for _, p := range progs {
			if p.exec != nil {
				p.exec.Destroy()
			}
		}
	}()

	r.m.step = s
	inputs, err := d.inputs(r.m.inputs(r.spec.DType))
	if err != nil {
		return nil, fmt.Errorf("inputs: %w", err)
	}
	defer release(inputs)
	args := make([]*pjrt.Buffer, 0, r.spec.TP*(len(weights[0])+len(inputs[0])))
	for rank := range r.spec.TP {
		args = append(append(args, weights[rank]...), inputs[rank]...)
	}
	cols := r.m.vocab / r.spec.TP
	for _, p := range progs {
		if p.err == nil {
			p.logits, p.err = d.logits(p.exec, args, r.spec.DType, cols)
		}
	}
	for i := 0; i < r.o.warmup+r.o.steps; i++ {
		for _, p := range progs {
			if p.err != nil {
				continue
			}
			t, err := d.step(p.exec, args)
			if err != nil {
				p.err = err
			} else if i >= r.o.warmup {
				p.times = append(p.times, t)
			}
		}
	}
	return r.report(s, progs, control), nil
}

// compileAll lowers and compiles the programs, --jobs at a time.
func (r *runner) compileAll(d *device, progs []*program, src string) {
	work := make(chan *program)
	var wg sync.WaitGroup
	for range r.o.jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range work {
				text := p.text
				if text == "" {
					text, p.chose, p.err = p.v.lower(src, r.target)
				}
				if p.err == nil {
					start := time.Now()
					p.exec, p.err = xlarun.CompileSPMD(d.client, text, r.spec.TP, p.v.native.XLAFlags())
					fmt.Fprintf(r.log, "  compiled %s in %.1f s\n", p.v.name, time.Since(start).Seconds())
				}
			}
		}()
	}
	for _, p := range progs {
		work <- p
	}
	close(work)
	wg.Wait()
}

// report prints the shape's table and returns its rows.
func (r *runner) report(s step, progs []*program, control *program) []row {
	var native *program
	for _, p := range progs {
		if p.v.name == string(bench.Native) && p.err == nil {
			native = p
		}
	}
	var best *program
	for _, p := range progs {
		if p.v.isNative() && p != control && p.err == nil && (best == nil || harness.Median(p.times) < harness.Median(best.times)) {
			best = p
		}
	}
	ms := func(p *program) float64 { return float64(harness.Median(p.times)) / 1e6 }
	var rows []row
	fmt.Fprintf(r.out, "  %-16s %-26s %10s %11s %9s %9s %12s %11s %9s\n", "variant", "arc chose", "step ms", "tokens/s", "/native", "/best", "logits L2", "max |diff|", "tolerance")
	for _, p := range progs {
		if p == control {
			continue
		}
		x := row{step: s, variant: p.v.name, chose: p.chose}
		if p.err != nil {
			x.err = strings.Join(strings.Fields(p.err.Error()), " ")
			fmt.Fprintf(r.out, "  %-16s failed: %s\n", p.v.name, x.err)
			rows = append(rows, x)
			continue
		}
		x.ms = ms(p)
		if p.v.exact() {
			x.tolerance = harness.Tolerance(r.spec.DType, r.spec.TP, 2*r.m.layers)
		}
		if native != nil {
			x.speedup = ms(native) / x.ms
			diff := harness.Compare(p.logits, native.logits)
			x.relL2, x.maxAbs = diff.RelL2, diff.MaxAbs
		}
		if best != nil {
			x.bestSpeed, x.best = ms(best)/x.ms, best.v.name
		}
		if control != nil && control.err == nil {
			x.share = (x.ms - ms(control)) / x.ms
		}
		tol := "-"
		if x.tolerance > 0 {
			tol = fmt.Sprintf("%.3g", x.tolerance)
		}
		fmt.Fprintf(r.out, "  %-16s %-26s %10.3f %11.1f %8.2fx %8.2fx %12.3g %11.3g %9s\n", x.variant, x.chose, x.ms,
			x.tokensPerSecond(), x.speedup, x.bestSpeed, x.relL2, x.maxAbs, tol)
		rows = append(rows, x)
	}
	if control != nil {
		if control.err != nil {
			fmt.Fprintf(r.out, "  no all-reduce: failed: %v\n", control.err)
		} else {
			fmt.Fprintf(r.out, "  %-16s %-26s %10.3f   (the same step without its all-reduces: the all-reduce share's baseline)\n",
				"no all-reduce", "-", ms(control))
		}
	}
	if best != nil {
		fmt.Fprintf(r.out, "  best native: %s; logits error is against native's logits (same weights and inputs)\n", best.v.name)
	}
	for _, x := range rows {
		if x.err == "" {
			fmt.Fprintf(r.out, "RESULT llama shape=%s tp=%d layers=%d variant=%s ms=%.3f tokens_per_s=%.1f speedup=%.3f speedup_best=%.3f ar_share=%.3f rel_l2=%.4g max_abs=%.4g tol=%.3g pass=%s\n",
				s, r.spec.TP, r.m.layers, x.variant, x.ms, x.tokensPerSecond(), x.speedup, x.bestSpeed, x.share, x.relL2, x.maxAbs,
				x.tolerance, yesNo(x.pass()))
		}
	}
	return rows
}

// writeSummary prints tokens per second, a row per shape and a column per variant.
func writeSummary(w io.Writer, steps []step, rows []row) {
	var names []string
	for _, x := range rows {
		if x.variant != "-" && !contains(names, x.variant) {
			names = append(names, x.variant)
		}
	}
	fmt.Fprintf(w, "\ntokens per second (median step):\n  %-14s", "shape")
	for _, n := range names {
		fmt.Fprintf(w, " %15s", n)
	}
	fmt.Fprintln(w)
	for _, s := range steps {
		fmt.Fprintf(w, "  %-14s", s)
		for _, n := range names {
			cell := "-"
			for _, x := range rows {
				if x.step == s && x.variant == n {
					if x.err != "" {
						cell = "failed"
					} else {
						cell = fmt.Sprintf("%.1f", x.tokensPerSecond())
					}
				}
			}
			fmt.Fprintf(w, " %15s", cell)
		}
		fmt.Fprintln(w)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// writeCSV writes the rows, one per shape and variant.
func writeCSV(path string, rows []row) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	cw := csv.NewWriter(f)
	cw.Write([]string{"shape", "tokens", "variant", "chose", "ms", "tokens_per_s", "speedup_vs_native",
		"best_native", "speedup_vs_best_native", "ar_share", "logits_rel_l2", "logits_max_abs", "error"})
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
	for _, x := range rows {
		cw.Write([]string{x.step.String(), strconv.Itoa(x.step.Tokens()), x.variant, x.chose, g(x.ms), g(x.tokensPerSecond()),
			g(x.speedup), x.best, g(x.bestSpeed), g(x.share), g(x.relL2), g(x.maxAbs), x.err})
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// device holds the client and the programs that draw tensors on the GPUs.
type device struct {
	client  *pjrt.Client
	capture backends.Backend
	tp      int
	seed    uint64
	fills   map[string]*pjrt.LoadedExecutable // by element type and shape
	log     io.Writer                         // progress (nil: none)
}

func (d *device) close() {
	for _, e := range d.fills {
		e.Destroy()
	}
}

// tensors puts each rank's shard of every tensor on its GPU: [rank][tensor].
// Float tensors are drawn there (fillGraph); tokens come from the host.
// Progress goes to the log: each new fill program, and every tenth of the tensors.
func (d *device) tensors(ts []megatron.Tensor) ([][]*pjrt.Buffer, error) {
	out := make([][]*pjrt.Buffer, d.tp)
	start, next := time.Now(), len(ts)/10
	for i, t := range ts {
		if i == next && d.log != nil && len(ts) >= 20 {
			fmt.Fprintf(d.log, "  drawn %d of %d tensors in %.1f s\n", i, len(ts), time.Since(start).Seconds())
			next += len(ts) / 10
		}
		shape, err := t.ShardShape(d.tp)
		if err != nil {
			release(out)
			return nil, err
		}
		for rank := range d.tp {
			var b *pjrt.Buffer
			if t.DType == dtypes.Int32 {
				b, err = d.upload(t, shape, rank)
			} else {
				b, err = d.draw(t, shape, rank)
			}
			if err != nil {
				release(out)
				return nil, fmt.Errorf("%s on GPU %d: %w", t.Name, rank, err)
			}
			out[rank] = append(out[rank], b)
		}
	}
	return out, nil
}

// inputs is tensors for a step's own inputs.
func (d *device) inputs(ts []megatron.Tensor) ([][]*pjrt.Buffer, error) { return d.tensors(ts) }

// upload copies rank's shard of an integer tensor from the host.
func (d *device) upload(t megatron.Tensor, shape []int, rank int) (*pjrt.Buffer, error) {
	v, err := t.Shard(t.Values(d.seed), d.tp, rank)
	if err != nil {
		return nil, err
	}
	data, err := megatron.Encode(t.DType, v)
	if err != nil {
		return nil, err
	}
	return d.client.BufferFromHost().FromRawData(data, xladtypes.Int32, shape).ToDeviceNum(rank).Done()
}

// draw runs the fill program of the shard's shape on GPU rank.
func (d *device) draw(t megatron.Tensor, shape []int, rank int) (*pjrt.Buffer, error) {
	key := fmt.Sprint(t.DType, shape)
	exec, ok := d.fills[key]
	if !ok {
		var text string
		err := capture.Catch(func() {
			g := graph.NewGraph(d.capture, "llama_fill")
			out := fillGraph(g, t.DType, shape)
			var cerr error
			text, cerr = capture.Compile(g, out)
			if cerr != nil {
				panic(cerr)
			}
		})
		if err != nil {
			return nil, err
		}
		start := time.Now()
		if exec, err = d.client.Compile().WithStableHLO([]byte(text)).Done(); err != nil {
			return nil, err
		}
		d.fills[key] = exec
		if d.log != nil {
			fmt.Fprintf(d.log, "  fill program for %s %v compiled in %.2f s\n", t.DType, shape, time.Since(start).Seconds())
		}
	}
	seed, scale, offset := fillParams(t, d.seed, rank)
	var params []*pjrt.Buffer
	defer func() { release([][]*pjrt.Buffer{params}) }()
	for _, v := range []any{seed, scale, offset} {
		b, err := d.client.BufferFromHost().FromFlatDataWithDimensions(scalarSlice(v), []int{}).ToDeviceNum(rank).Done()
		if err != nil {
			return nil, err
		}
		params = append(params, b)
	}
	outs, err := exec.Execute(params...).OnDeviceByNum(rank).Done()
	if err != nil {
		return nil, err
	}
	if len(outs) != 1 {
		return nil, fmt.Errorf("the fill program returned %d buffers", len(outs))
	}
	return outs[0], nil
}

func scalarSlice(v any) any {
	switch x := v.(type) {
	case uint32:
		return []uint32{x}
	case float32:
		return []float32{x}
	}
	panic(fmt.Sprintf("scalarSlice(%T)", v))
}

// step runs a program once on every rank and waits for it; the outputs are freed untimed.
func (d *device) step(exec *pjrt.LoadedExecutable, args []*pjrt.Buffer) (time.Duration, error) {
	start := time.Now()
	outs, err := exec.Execute(args...).DonateNone().Done()
	t := time.Since(start)
	for _, o := range outs {
		o.Destroy()
	}
	return t, err
}

// logits runs a program once and returns the whole logits, the ranks'
// column blocks joined.
func (d *device) logits(exec *pjrt.LoadedExecutable, args []*pjrt.Buffer, dt dtypes.DType, cols int) ([]float32, error) {
	outs, err := exec.Execute(args...).DonateNone().Done()
	defer func() {
		for _, o := range outs {
			o.Destroy()
		}
	}()
	if err != nil {
		return nil, err
	}
	if len(outs) != d.tp {
		return nil, fmt.Errorf("%d outputs, want one per rank (%d)", len(outs), d.tp)
	}
	shards := make([][]float32, d.tp)
	for rank, o := range outs {
		n, err := o.Size()
		if err != nil {
			return nil, err
		}
		b := make([]byte, n)
		if err := o.ToHost(b); err != nil {
			return nil, err
		}
		if shards[rank], err = megatron.Decode(dt, b); err != nil {
			return nil, err
		}
	}
	v := harness.JoinColumns(shards, cols)
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return v, fmt.Errorf("the logits hold %v", x)
		}
	}
	return v, nil
}

func release(bufs [][]*pjrt.Buffer) {
	for _, rank := range bufs {
		for _, b := range rank {
			if b != nil {
				b.Destroy()
			}
		}
	}
}

func product(dims []int) int {
	n := 1
	for _, d := range dims {
		n *= d
	}
	return n
}

func elemSize(dt dtypes.DType) int64 {
	if dt == dtypes.Float32 || dt == dtypes.Int32 {
		return 4
	}
	return 2
}

// writeFile writes text to path, or to stdout for "-".
func writeFile(path, text string, stdout io.Writer) error {
	if path == "-" {
		_, err := io.WriteString(stdout, text)
		return err
	}
	return os.WriteFile(path, []byte(text), 0o644)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
