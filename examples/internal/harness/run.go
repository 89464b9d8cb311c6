package harness

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/gomlx/go-xla/pkg/pjrt"
	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/backends/xla"
	"github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/shapes"
	"github.com/gomlx/gomlx/pkg/core/tensors"

	"github.com/arcpass/arc"
	"github.com/arcpass/arc/arcgomlx"
	"github.com/arcpass/arc/capture"
	"github.com/arcpass/arc/examples/internal/megatron"
	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/passes"
)

type runner struct {
	flags    Flags
	model    Model
	spec     Spec
	out, log io.Writer
	passed   bool
	result   []string // key=value fields of the RESULT line
}

func (r *runner) run() error {
	if r.flags.DumpOnly {
		return r.dumpOnly()
	}
	return r.onDevices()
}

// dumpOnly writes the program gomlx hands to PJRT, captured on the CPU.
func (r *runner) dumpOnly() error {
	backend, err := capture.NewBackend(r.spec.TP)
	if err != nil {
		return err
	}
	defer backend.Finalize()
	g, outs, err := Program(backend, r.model, r.spec, r.model.Name(), megatron.AllReduce)
	if err != nil {
		return err
	}
	text, err := capture.Compile(g, nodes(outs)...)
	if err != nil {
		return err
	}
	if err := writeFile(r.flags.Dump, text, r.out); err != nil {
		return err
	}
	r.passed = true
	return nil
}

// program is one compiled program and its inputs on its backend's devices.
type program struct {
	name   string
	graph  *graph.Graph
	outs   []Output
	inputs []any // tensors on their devices, rank-major
	times  []time.Duration
}

func (r *runner) onDevices() error {
	// arc dumps each program before and after its pipeline: the report and
	// --dump read them. Keep them under $ARC_DUMP_DIR when set, else drop them.
	parent := os.Getenv("ARC_DUMP_DIR")
	if parent != "" {
		if err := os.MkdirAll(parent, 0o755); err != nil {
			return err
		}
	}
	dumpDir, err := os.MkdirTemp(parent, r.model.Name()+"-")
	if err != nil {
		return err
	}
	if parent == "" {
		defer os.RemoveAll(dumpDir)
	} else {
		fmt.Fprintf(r.out, "arc's dumps: %s\n", dumpDir)
	}
	plugin := r.flags.Plugin
	if plugin != "" {
		if plugin, err = filepath.Abs(plugin); err != nil {
			return err
		}
	}
	f := r.flags
	// The one line that opts into arc: a gomlx backend whose programs compile through arc's pipeline.
	arcBackend, err := arcgomlx.New("cuda", arcgomlx.Options{Compile: arc.Options{Target: f.Target, Quant: f.Quant}, Plugin: plugin, Dump: dumpDir})
	if err != nil {
		return err
	}
	defer arcBackend.Finalize()
	nativeBackend, err := r.native(plugin)
	if err != nil {
		return err
	}
	defer nativeBackend.Finalize()
	return r.measure(arcBackend, nativeBackend, dumpDir)
}

// measure compiles the model on both backends (and the control program on
// the native one), compares their outputs and times them. dumpDir is where
// the arc backend dumps each program before and after arc.
func (r *runner) measure(arcBackend, nativeBackend backends.Backend, dumpDir string) error {
	s, name := r.spec, r.model.Name()
	for _, b := range []backends.Backend{arcBackend, nativeBackend} {
		if b.NumDevices() < s.TP {
			return fmt.Errorf("--tp %d needs %d devices; the plugin has %d", s.TP, s.TP, b.NumDevices())
		}
	}
	fmt.Fprintf(r.out, "%s: %s\n", name, r.model.Describe(s))
	arc, err := r.compile("arc", arcBackend, name, megatron.AllReduce)
	if err != nil {
		return err
	}
	native, err := r.compile("native", nativeBackend, name, megatron.AllReduce)
	if err != nil {
		return err
	}
	control, err := r.compile("no all-reduce", nativeBackend, name+"_control", megatron.Skip)
	if err != nil {
		return err
	}
	if err := r.reportLowering(dumpDir); err != nil {
		return err
	}

	host, err := r.hostInputs()
	if err != nil {
		return err
	}
	ts := r.model.Tensors(s)
	if arc.inputs, err = upload(arcBackend, ts, host, s.TP); err != nil {
		return fmt.Errorf("arc inputs: %w", err)
	}
	if native.inputs, err = upload(nativeBackend, ts, host, s.TP); err != nil {
		return fmt.Errorf("native inputs: %w", err)
	}
	control.inputs = native.inputs // the same parameters on the same backend
	if err := r.compare(arc, native); err != nil {
		return err
	}
	return r.time(arc, native, control)
}

// native is the second backend: the same plugin (as arcgomlx finds it)
// through plain go-xla, with NCCL's all-reduces. It allocates on demand, so
// that it fits beside arc's client, which takes the plugin's default share
// of GPU memory up front.
func (r *runner) native(plugin string) (backends.Backend, error) {
	if plugin == "" {
		plugin = os.Getenv("ARC_PJRT_PLUGIN")
	}
	if plugin == "" {
		plugin = "cuda"
	}
	b, err := xla.NewWithOptions(plugin, pjrt.NamedValuesMap{"preallocate": false})
	if err != nil {
		fmt.Fprintf(r.log, "native backend with preallocate=false: %v; retrying with the plugin's defaults\n", err)
		b, err = xla.NewWithOptions(plugin, nil)
	}
	if err != nil {
		return nil, fmt.Errorf("native backend on %s: %w", plugin, err)
	}
	return b, nil
}

func (r *runner) compile(label string, b backends.Backend, name string, reduce megatron.Reduce) (*program, error) {
	start := time.Now()
	g, outs, err := Program(b, r.model, r.spec, name, reduce)
	if err == nil {
		err = capture.Catch(func() { g.Compile(nodes(outs)...) })
	}
	if err != nil {
		return nil, fmt.Errorf("compiling on the %s backend: %w", label, err)
	}
	fmt.Fprintf(r.out, "compiled %-13s in %.1f s\n", label, time.Since(start).Seconds())
	return &program{name: label, graph: g, outs: outs}, nil
}

// reportLowering prints what arc did to the program (its dump after the
// pipeline) and copies the program gomlx handed over (before) to --dump.
func (r *runner) reportLowering(dumpDir string) error {
	before, after, err := findDumps(dumpDir, r.model.Name())
	if err != nil {
		return err
	}
	if r.flags.Dump != "" {
		if err := writeFile(r.flags.Dump, before, r.out); err != nil {
			return err
		}
	}
	m, err := ir.Parse("after arc", []byte(after))
	if err != nil {
		return err
	}
	rep, err := passes.NewReport(m, r.flags.Target, nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(r.out, "\narc's lowering of the program (quant %s):\n", r.flags.Quant)
	if err := rep.WriteTable(r.out); err != nil {
		return err
	}
	fmt.Fprintln(r.out)
	return nil
}

// findDumps returns the newest before/after pair of arc's dump directory whose module is @name.
func findDumps(dir, name string) (before, after string, err error) {
	befores, _ := filepath.Glob(filepath.Join(dir, "arc-*-before.mlir"))
	sort.Sort(sort.Reverse(sort.StringSlice(befores)))
	for _, b := range befores {
		text, err := os.ReadFile(b)
		if err != nil || !strings.HasPrefix(string(text), "module @"+name+" ") {
			continue
		}
		a, err := os.ReadFile(strings.TrimSuffix(b, "before.mlir") + "after.mlir")
		if err != nil {
			return "", "", fmt.Errorf("arc dumped %s but not the program after it: %w", b, err)
		}
		return string(text), string(a), nil
	}
	return "", "", fmt.Errorf("arc's dump directory %s holds no program @%s", dir, name)
}

// hostInputs draws every tensor and splits it: [rank][tensor] little-endian bytes.
func (r *runner) hostInputs() ([][][]byte, error) {
	ts := r.model.Tensors(r.spec)
	host := make([][][]byte, r.spec.TP)
	for _, t := range ts {
		v := t.Values(r.flags.Seed)
		for rank := range host {
			shard, err := t.Shard(v, r.spec.TP, rank)
			if err != nil {
				return nil, err
			}
			b, err := megatron.Encode(t.DType, shard)
			if err != nil {
				return nil, err
			}
			host[rank] = append(host[rank], b)
		}
	}
	return host, nil
}

// upload puts each rank's shards on device rank of b.
func upload(b backends.Backend, ts []megatron.Tensor, host [][][]byte, tp int) ([]any, error) {
	var in []any
	for rank := range host {
		for i, t := range ts {
			shape, err := t.ShardShape(tp)
			if err != nil {
				return nil, err
			}
			x := tensors.FromShape(shapes.Make(t.DType, shape...))
			if err := x.MutableBytes(func(data []byte) { copy(data, host[rank][i]) }); err != nil {
				return nil, err
			}
			if err := x.MaterializeOnDevice(b, false, backends.DeviceNum(rank)); err != nil {
				return nil, err
			}
			in = append(in, x)
		}
	}
	return in, nil
}

// step runs p once; the call returns when every device has finished.
func (p *program) step() ([]*tensors.Tensor, error) {
	var outs []*tensors.Tensor
	err := capture.Catch(func() { outs = p.graph.RunOnDevice(0, p.inputs...) })
	if err != nil {
		return nil, fmt.Errorf("running on the %s backend: %w", p.name, err)
	}
	return outs, nil
}

func release(ts []*tensors.Tensor) {
	for _, t := range ts {
		t.FinalizeAll()
	}
}

// fetched is one run's outputs: [output][rank] bytes.
func (p *program) fetch(tp int) ([][][]byte, error) {
	outs, err := p.step()
	if err != nil {
		return nil, err
	}
	defer release(outs)
	n := len(p.outs)
	if len(outs) != n*tp {
		return nil, fmt.Errorf("%s: %d outputs, want %d x %d ranks", p.name, len(outs), n, tp)
	}
	got := make([][][]byte, n)
	for k := range got {
		for rank := 0; rank < tp; rank++ {
			var b []byte
			if err := outs[rank*n+k].ConstBytes(func(data []byte) { b = append([]byte(nil), data...) }); err != nil {
				return nil, err
			}
			got[k] = append(got[k], b)
		}
	}
	return got, nil
}

// value is an output's logical value: rank 0's copy, or the ranks' column blocks joined.
func value(o Output, perRank [][]byte) ([]float32, error) {
	dt := o.Node.DType()
	if o.Split != megatron.Columns {
		return megatron.Decode(dt, perRank[0])
	}
	shards := make([][]float32, len(perRank))
	for i, b := range perRank {
		v, err := megatron.Decode(dt, b)
		if err != nil {
			return nil, err
		}
		shards[i] = v
	}
	dims := o.Node.Shape().Dimensions
	return JoinColumns(shards, dims[len(dims)-1]), nil
}

// ranksAgree reports whether every rank holds the same bits of a whole (replicated) output.
func ranksAgree(o Output, perRank [][]byte) bool {
	if o.Split == megatron.Columns {
		return true
	}
	for _, b := range perRank[1:] {
		if string(b) != string(perRank[0]) {
			return false
		}
	}
	return true
}

// compare runs arc's and native's programs once and prints each output's
// error. Without quantization every output must be within Tolerance and the
// ranks must agree bit for bit; with it the error is only reported.
func (r *runner) compare(arc, native *program) error {
	tp, dt := r.spec.TP, r.spec.DType
	got, err := arc.fetch(tp)
	if err != nil {
		return err
	}
	want, err := native.fetch(tp)
	if err != nil {
		return err
	}
	exact := r.flags.Quant == "none"
	fmt.Fprintf(r.out, "output error, arc against native (same weights and inputs; %s, eps %.3g):\n", r.flags.DType, megatron.Epsilon(dt))
	fmt.Fprintf(r.out, "  %-8s %11s %11s %8s %11s %-7s %s\n", "output", "max |diff|", "rel L2", "differ", "tolerance", "within", "ranks agree (arc, native)")
	r.passed = true
	var final Diff
	var finalTol float64
	agree := true
	for k, o := range arc.outs {
		a, err := value(o, got[k])
		if err != nil {
			return err
		}
		n, err := value(native.outs[k], want[k])
		if err != nil {
			return err
		}
		d := Compare(a, n)
		tol := Tolerance(dt, tp, o.Reduces)
		within := "-"
		if exact {
			within = yesNo(d.RelL2 <= tol)
			r.passed = r.passed && d.RelL2 <= tol
		}
		if math.IsNaN(d.RelL2) || math.IsInf(d.MaxAbs, 0) {
			r.passed = false // a codec may lose precision, never values
		}
		arcAgree := ranksAgree(o, got[k])
		agree = agree && arcAgree
		fmt.Fprintf(r.out, "  %-8s %11.4g %11.4g %7.2f%% %11.3g %-7s %s, %s\n", o.Name, d.MaxAbs, d.RelL2,
			100*float64(d.Differ)/float64(d.N), tol, within, yesNo(arcAgree), yesNo(ranksAgree(o, want[k])))
		final, finalTol = d, tol
	}
	r.passed = r.passed && agree
	verdict := "n/a"
	if exact {
		verdict = yesNo(final.RelL2 <= finalTol)
		fmt.Fprintf(r.out, "  tolerance (quant none): %s\n", toleranceNote)
	} else {
		fmt.Fprintf(r.out, "  quant %s: this is the codec's error, measured; no tolerance applies\n", r.flags.Quant)
	}
	r.result = append(r.result, fmt.Sprintf("final_max_abs=%.4g final_rel_l2=%.4g final_tol=%.3g within_tol=%s ranks_agree=%s",
		final.MaxAbs, final.RelL2, finalTol, verdict, yesNo(agree)))
	return nil
}

const toleranceNote = "rel L2 <= reduces x (tp-1) x eps: summing the ranks' partial products in another " +
	"order moves each all-reduced value by at most tp-1 units in the last place, and each output counts the " +
	"all-reduces before it (with 2 ranks there is one order: any difference comes from XLA compiling around arc's call)"

// time runs the programs in turn, warmup then steps rounds, and prints the medians.
func (r *runner) time(arc, native, control *program) error {
	f := r.flags
	progs := []*program{native, arc, control}
	for i := 0; i < f.Warmup+f.Steps; i++ {
		for _, p := range progs {
			start := time.Now()
			outs, err := p.step()
			if err != nil {
				return err
			}
			d := time.Since(start)
			release(outs)
			if i >= f.Warmup {
				p.times = append(p.times, d)
			}
		}
	}
	tn, ta, tc := Median(native.times), Median(arc.times), Median(control.times)
	share := func(t time.Duration) float64 { return float64(t-tc) / float64(t) }
	ms := func(t time.Duration) float64 { return float64(t) / 1e6 }
	fmt.Fprintf(r.out, "\nstep time, median of %d steps after %d warmup (programs take turns):\n", f.Steps, f.Warmup)
	fmt.Fprintf(r.out, "  %-14s %9.3f ms   all-reduces %5.1f%% of the step\n", "native", ms(tn), 100*share(tn))
	fmt.Fprintf(r.out, "  %-14s %9.3f ms   all-reduces %5.1f%% of the step   %.2fx native\n", "arc", ms(ta), 100*share(ta), float64(tn)/float64(ta))
	fmt.Fprintf(r.out, "  %-14s %9.3f ms   the same program without its all-reduces (native backend): the share's baseline\n", "no all-reduce", ms(tc))
	r.result = append(r.result, fmt.Sprintf("native_ms=%.3f arc_ms=%.3f control_ms=%.3f speedup=%.3f native_ar_share=%.3f arc_ar_share=%.3f",
		ms(tn), ms(ta), ms(tc), float64(tn)/float64(ta), share(tn), share(ta)))
	fmt.Fprintf(r.out, "\nRESULT %s quant=%s tp=%d dtype=%s %s pass=%s\n", r.model.Name(), f.Quant, r.spec.TP, f.DType,
		strings.Join(r.result, " "), yesNo(r.passed))
	return nil
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// writeFile writes text to path, or to stdout for "-".
func writeFile(path, text string, stdout io.Writer) error {
	if path == "-" {
		_, err := io.WriteString(stdout, text)
		return err
	}
	return os.WriteFile(path, []byte(text), 0o644)
}
