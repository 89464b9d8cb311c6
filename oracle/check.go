package oracle

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/arcpass/arc/decision"
	"github.com/arcpass/arc/ir"
)

// Options configure the oracle.
type Options struct {
	// MaxElems bounds the elements of each tensor the oracle interprets
	// (see sampleLen); 0 means 256. It is rounded down to whole blocks of 32.
	MaxElems int
	// MaxProcesses bounds the process grid (num_replicas x num_partitions);
	// 0 means 4096. Larger grids are not interpreted (ErrTooLarge).
	MaxProcesses int
	// Seed varies the random operands.
	Seed uint64
	// Assignment is the device assignment (process to global device id) of
	// the module's grid (GridOf); nil is XLA's default.
	Assignment func(Process) int64
	// Quant is the quantized codec the lowered module may use (arc's
	// --quant): "" or "none" allows only the exact ones (oneshot, fp).
	Quant string
	// lenient keeps interpreting past an all-reduce that cannot be
	// interpreted (the lowered module's, each then reported on its own).
	lenient bool
}

func (o Options) maxElems() int {
	if o.MaxElems <= 0 {
		return 256
	}
	return max(32, o.MaxElems/32*32)
}

func (o Options) maxProcesses() int64 {
	if o.MaxProcesses <= 0 {
		return 4096
	}
	return int64(o.MaxProcesses)
}

// ErrTooLarge is returned for modules whose process grid exceeds
// Options.MaxProcesses.
var ErrTooLarge = errors.New("oracle: the process grid is too large to interpret")

// InvalidError says that a module breaks a rule of StableHLO's
// specification that the oracle needs to interpret it.
type InvalidError struct{ Err error }

func (e *InvalidError) Error() string { return "invalid module: " + e.Err.Error() }
func (e *InvalidError) Unwrap() error { return e.Err }

// invalid wraps an interpretation error as an InvalidError, but for a
// disagreement with package spec.
func invalid(err error) error {
	var dis *DisagreementError
	if errors.As(err, &dis) {
		return err
	}
	return &InvalidError{err}
}

// NoCommonGridError says that each all-reduce of a module that does not
// state its grid fits some grid, but no one grid fits them all. MLIR accepts
// such a module, and package spec too: each op is valid on its own, none is
// lowerable (the module's count is unknown). There is nothing to interpret:
// Check accepts a lowering that leaves every all-reduce as it is, and Run
// returns this error.
type NoCommonGridError struct{ Err error }

func (e *NoCommonGridError) Error() string {
	return "no process grid fits every all-reduce of the module: " + e.Err.Error()
}
func (e *NoCommonGridError) Unwrap() error { return e.Err }

// MismatchError lists where the lowered module computes something else than
// the original.
type MismatchError struct{ Problems []string }

func (e *MismatchError) Error() string {
	const show = 5
	msg := strings.Join(e.Problems[:min(show, len(e.Problems))], "\n  ")
	if len(e.Problems) > show {
		msg += fmt.Sprintf("\n  (%d more)", len(e.Problems)-show)
	}
	return "the lowered module computes something else:\n  " + msg
}

// GridOf is the process grid of a module: its num_replicas and
// num_partitions. XLA takes both from the compile options, where they are
// absent from the module; the oracle then takes one partition and, as
// package spec does, as many replicas as the first all-reduce that names
// ids covers (a valid program covers them all).
func GridOf(m *ir.Module, opt Options) (Grid, error) {
	info := m.Info()
	g := Grid{Replicas: info.NumReplicas, Partitions: info.NumPartitions, Assignment: opt.Assignment}
	if g.Partitions <= 0 {
		g.Partitions = 1
	}
	if g.Replicas <= 0 {
		g.Replicas = inferReplicas(m, g.Partitions)
	}
	if g.Replicas > opt.maxProcesses() || g.Partitions > opt.maxProcesses() || g.Size() > opt.maxProcesses() {
		return g, fmt.Errorf("%w: %d replicas x %d partitions", ErrTooLarge, g.Replicas, g.Partitions)
	}
	return g, nil
}

// inferReplicas is the number of replicas of a module without num_replicas:
// the ids the first all_reduce with groups names (flattened ids divided by
// the partitions), else one more than the largest device arc's calls name,
// else 1.
func inferReplicas(m *ir.Module, partitions int64) int64 {
	cs, err := decision.Collectives(m)
	if err != nil {
		return 1
	}
	calls := int64(0)
	for _, c := range cs {
		if c.Kind != "all_reduce" {
			continue
		}
		if c.Arc != nil && shortName(c.Op.Name) == "custom_call" {
			for _, g := range c.Groups {
				for _, id := range g {
					if id >= 0 && id < math.MaxInt32 {
						calls = max(calls, id/partitions+1)
					}
				}
			}
			continue
		}
		ids := c.Groups
		if v, ok := m.Attr(c.Op, "replica_groups"); ok && c.GroupSpelling != "mesh_axes" {
			if ids, err = parseGroups(v); err != nil {
				continue
			}
		}
		seen := map[int64]bool{}
		for _, g := range ids {
			for _, id := range g {
				seen[id] = true
			}
		}
		if n := int64(len(seen)); n > 0 {
			if c.UseGlobalDeviceIDs {
				return max(1, n/partitions)
			}
			return n
		}
	}
	return max(1, calls)
}

// Run interprets the all-reduces of one module, to check that it is valid as
// the oracle reads it. It returns the number of all-reduce operands.
func Run(m *ir.Module, opt Options) (int, error) {
	o, err := Prepare(m, opt)
	if err != nil {
		return 0, err
	}
	if o.noGrid != nil {
		return 0, o.noGrid
	}
	return len(o.t.slots), nil
}

// Check interprets the original module and the lowered one on the same
// process grid and the same random operands, and reports where they differ:
// the values each op outside the all-reduces reads, the process groups of
// every all-reduce operand, and its results on every process, compared
//
//   - bit for bit where the lowered module computes the same thing in the
//     same order (ops left alone);
//   - for arc's calls of the exact kernels (oneshot, codec fp), against the
//     reference in the call's rank order (bit for bit with docs/FORMATS.md's
//     formula) and against the original's sum within the rounding bound of
//     the reordered sum;
//   - for the quantized codecs, within the bound their definition gives;
//   - for groups only reordered (TPU rings), bit for bit for max, min,
//     and, or, xor and integers, within the reordering bound for float sums
//     and products.
//
// An InvalidError says that the original (or the lowered) module is not one
// the oracle can interpret; a MismatchError lists the differences. An
// original valid op by op on no one grid (see NoCommonGridError) has
// nothing to interpret: its lowering must keep every all-reduce as written.
func Check(orig, lowered *ir.Module, opt Options) error {
	o, err := Prepare(orig, opt)
	if err != nil {
		return err
	}
	return o.Check(lowered)
}

// Original is an original module, interpreted once, to check several
// lowerings of it against.
type Original struct {
	grid Grid
	opt  Options
	t    *trace
	// noGrid is set, and t nil, for a module no one grid fits (m).
	noGrid *NoCommonGridError
	m      *ir.Module
}

// module is the original module.
func (o *Original) module() *ir.Module {
	if o.noGrid != nil {
		return o.m
	}
	return o.t.m
}

// Prepare interprets the original module (see Check).
func Prepare(orig *ir.Module, opt Options) (*Original, error) {
	grids, err := gridsOf(orig, opt)
	if err != nil {
		return nil, err
	}
	var first error
	onlyGroups := true // every grid failed on an all-reduce's groups
	for _, g := range grids {
		a, err := interpret(orig, g, opt, nil, nil)
		var dis *DisagreementError
		if err == nil || errors.As(err, &dis) {
			if err != nil {
				return nil, err
			}
			return &Original{grid: g, opt: opt, t: a}, nil
		}
		if first == nil {
			first = err
		}
		var ge *gridError
		onlyGroups = onlyGroups && errors.As(err, &ge)
	}
	if onlyGroups && len(grids) > 1 && eachFitsSome(orig, grids) {
		return &Original{opt: opt, noGrid: &NoCommonGridError{first}, m: orig}, nil
	}
	return nil, invalid(first)
}

// nativeAllReduce: an all_reduce op, not arc's call of one.
func nativeAllReduce(c *ir.Collective) bool {
	return c.Kind == "all_reduce" && strings.HasSuffix(c.Op.Name, ".all_reduce")
}

// nativeAllReduces lists the native all-reduces of m (nil when m has no
// readable collectives): name, channel, use_global_device_ids and groups as
// written.
func nativeAllReduces(m *ir.Module) []string {
	cs, _ := m.Collectives()
	var out []string
	for _, c := range cs {
		if nativeAllReduce(c) {
			v, _ := m.Attr(c.Op, "replica_groups")
			out = append(out, fmt.Sprintf("%s channel %d global %v %s", c.Op.Name, c.Channel, c.UseGlobalDeviceIDs, v))
		}
	}
	return out
}

// eachFitsSome reports whether every native all-reduce of m expands on at
// least one of grids.
func eachFitsSome(m *ir.Module, grids []Grid) bool {
	cs, err := m.Collectives()
	if err != nil {
		return false
	}
	for _, c := range cs {
		if !nativeAllReduce(c) || c.Unresolved != "" {
			continue
		}
		mode, err := AllReduceMode(c.Channel, c.UseGlobalDeviceIDs)
		if err != nil {
			return false
		}
		ids, err := groupIDs(m, c)
		if err != nil {
			return false
		}
		fits := false
		for _, g := range grids {
			if _, err := g.Expand(mode, ids); err == nil {
				fits = true
				break
			}
		}
		if !fits {
			return false
		}
	}
	return true
}

// gridsOf lists the grids to interpret a module on: GridOf's, and where the
// module does not state num_replicas or num_partitions, the others its
// all-reduces' ids suggest. As package spec has it, a program is invalid
// only when it is invalid on every grid the module allows; the oracle takes
// the first grid on which it is valid.
func gridsOf(m *ir.Module, opt Options) ([]Grid, error) {
	g, err := GridOf(m, opt)
	if err != nil {
		return nil, err
	}
	info := m.Info()
	if info.NumReplicas > 0 && info.NumPartitions > 0 || opt.Assignment != nil { // an assignment is of GridOf's grid
		return []Grid{g}, nil
	}
	counts := []int64{1}
	if cs, err := decision.Collectives(m); err == nil {
		for _, c := range cs {
			ids := c.Groups
			if v, ok := m.Attr(c.Op, "replica_groups"); ok && c.Kind == "all_reduce" && c.Arc == nil && c.GroupSpelling != "mesh_axes" {
				ids, _ = parseGroups(v)
			}
			seen := map[int64]bool{}
			for _, grp := range ids {
				for _, id := range grp {
					seen[id] = true
				}
			}
			// An op's id count is replicas, partitions or their product:
			// its divisors are the candidate counts.
			for n, d := int64(len(seen)), int64(2); d <= n && len(counts) < 12; d++ {
				if n%d == 0 && !slices.Contains(counts, d) {
					counts = append(counts, d)
				}
			}
		}
	}
	rs, ps := []int64{info.NumReplicas}, []int64{info.NumPartitions}
	if info.NumReplicas <= 0 {
		rs = counts
	}
	if info.NumPartitions <= 0 {
		ps = counts
	}
	out := []Grid{g}
	for _, r := range rs {
		for _, p := range ps {
			c := Grid{Replicas: r, Partitions: p, Assignment: opt.Assignment}
			if c.Size() <= opt.maxProcesses() && (c.Replicas != g.Replicas || c.Partitions != g.Partitions) {
				out = append(out, c)
			}
		}
	}
	return out, nil
}

// Check checks a lowering of the original module (see Check).
func (o *Original) Check(lowered *ir.Module) error {
	if problems := channelProblems(o.module(), lowered); len(problems) > 0 {
		return &MismatchError{problems}
	}
	if o.noGrid != nil {
		a, b := nativeAllReduces(o.m), nativeAllReduces(lowered)
		if !slices.Equal(a, b) {
			return &MismatchError{[]string{fmt.Sprintf("%v; yet the lowering changes its all-reduces: %q became %q", o.noGrid, a, b)}}
		}
		return nil
	}
	g, opt, a, orig := o.grid, o.opt, o.t, o.t.m
	var problems []string
	add := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	oi, li := orig.Info(), lowered.Info()
	if oi.NumReplicas != li.NumReplicas || oi.NumPartitions != li.NumPartitions {
		add("the lowered module runs on %d replicas x %d partitions, the original on %d x %d", li.NumReplicas, li.NumPartitions, oi.NumReplicas, oi.NumPartitions)
	}
	lopt := opt
	lopt.lenient = true
	hooks, removed, why := alignFused(a, lowered)
	if why != "" {
		return &MismatchError{[]string{why}}
	}
	b, err := interpret(lowered, g, lopt, func(key string, typ ir.TensorType) (*value, error) {
		if v := a.values[key]; v != nil {
			return v, nil
		}
		return nil, nil
	}, hooks)
	if err != nil {
		if errors.Is(err, ErrTooLarge) {
			return err
		}
		var dis *DisagreementError
		if errors.As(err, &dis) {
			return err
		}
		return &MismatchError{[]string{fmt.Sprintf("the lowered module cannot be interpreted: %v", err)}}
	}
	// The ops outside all-reduces read the same values (those a fused call
	// replaced aside).
	index := make([]int, len(a.plain))
	for k := range index {
		index[k] = k
	}
	if hooks != nil {
		index = hooks.index
	}
	if len(index) != len(b.plain) {
		add("the lowered module has %d ops besides its all-reduces, the original %d", len(b.plain), len(a.plain))
	} else {
		for i, k := range index {
			if !slices.Equal(a.uses[k], b.uses[i]) {
				add("%s at %s:%s reads %s where the original (%s) reads %s", b.plain[i].Name, lowered.Name, lowered.Position(int(b.plain[i].Start)),
					describeAll(b, b.uses[i]), orig.Position(int(a.plain[k].Start)), describeAll(a, a.uses[k]))
			}
		}
	}
	problems = append(problems, checkFused(g, opt, a, b, removed)...)
	// Every all-reduce operand once, computing the same.
	for _, s := range b.slots {
		if a.byKey[s.key] == nil {
			add("%s at %s:%s (operand %d) reduces %s, which the original never reduces (or not as often)", s.op.Name, lowered.Name, s.pos, s.operand, b.describe(s.operandKey))
		}
	}
	for _, s := range a.slots {
		l := b.byKey[s.key]
		if l == nil {
			add("operand %d of %s at %s:%s is reduced nowhere in the lowered module", s.operand, s.op.Name, orig.Name, s.pos)
			continue
		}
		if l.invalid != nil {
			add("operand %d of %s at %s:%s: the lowered module's %s at %s:%s is invalid: %v", s.operand, s.op.Name, orig.Name, s.pos, l.op.Name, lowered.Name, l.pos, l.invalid)
			continue
		}
		if msg := compare(g, opt, s, l); msg != "" {
			add("operand %d of %s at %s:%s, lowered at %s:%s: %s", s.operand, s.op.Name, orig.Name, s.pos, lowered.Name, l.pos, msg)
		}
	}
	if len(problems) > 0 {
		return &MismatchError{problems}
	}
	return nil
}

func describeAll(t *trace, keys []string) string {
	d := make([]string, len(keys))
	for i, k := range keys {
		d[i] = t.describe(k)
	}
	return "[" + strings.Join(d, ", ") + "]"
}

// compare checks one all-reduce operand of the lowered module against the
// original's; "" when they agree.
func compare(g Grid, opt Options, a, b *slot) string {
	if a.out.elem.name != b.out.elem.name {
		return fmt.Sprintf("the result holds %s, the original's %s", b.out.elem.name, a.out.elem.name)
	}
	if a.unknown != "" || b.unknown != "" {
		if a.unknown == "" || b.unknown == "" || a.groupsText != b.groupsText || a.mode != b.mode ||
			a.red.op != b.red.op || a.red.key != b.red.key {
			return fmt.Sprintf("the original's groups are unknown (%s): the lowering must leave the op as it is", a.unknown)
		}
		return ""
	}
	// The same process groups, as sets.
	reordered := false
	for p := range a.groupOf {
		ga, gb := a.groups[a.groupOf[p]], b.groups[b.groupOf[p]]
		if !slices.Equal(ga, gb) {
			reordered = true
			sa, sb := slices.Clone(ga), slices.Clone(gb)
			cmp := func(x, y Process) int { return int(g.index(x) - g.index(y)) }
			slices.SortFunc(sa, cmp)
			slices.SortFunc(sb, cmp)
			if !slices.Equal(sa, sb) {
				return fmt.Sprintf("process %v reduces with %v (devices %v), not %v (devices %v) as the original's %s groups say",
					g.Process(p), gb, devices(g, gb), ga, devices(g, ga), a.mode)
			}
		}
	}
	if b.call != nil {
		return compareCall(g, opt, a, b)
	}
	if b.red.op != a.red.op || b.red.elem.name != a.red.elem.name || a.red.op == "" && a.red.key != b.red.key {
		return fmt.Sprintf("the computation is %s, the original's %s", b.red.describe(), a.red.describe())
	}
	e := a.red.elem
	exact := !reordered || a.red.op == "" || e.class != 'f' || a.red.op == "max" || a.red.op == "min"
	if exact {
		for p := range a.out.procs {
			if i := firstDiff(a.out.elem, a.out.procs[p], b.out.procs[p]); i >= 0 {
				why := ""
				if reordered {
					why = " (the groups were reordered"
					if a.red.op == "" {
						why += ", and the computation is not one the oracle knows to be commutative"
					}
					why += ")"
				}
				return fmt.Sprintf("process %v, element %d: %s, the original %s%s", g.Process(p), i,
					show(a.out.elem, b.out.procs[p][i]), show(a.out.elem, a.out.procs[p][i]), why)
			}
		}
		return ""
	}
	// Float sums and products in another order.
	for p := range a.out.procs {
		grpA, grpB := a.groups[a.groupOf[p]], b.groups[b.groupOf[p]]
		for i := range a.out.procs[p] {
			xa := make([]float64, len(grpA))
			xb := make([]float64, len(grpB))
			for k := range grpA {
				xa[k] = e.toFloat(convert(a.in.elem, e, a.in.procs[g.index(grpA[k])][i]))
				xb[k] = e.toFloat(convert(b.in.elem, e, b.in.procs[g.index(grpB[k])][i]))
			}
			va, vb := e.toFloat(a.out.procs[p][i]), e.toFloat(b.out.procs[p][i])
			bound, ok := reorderBound(e, a.red.op, xa, xb)
			if ok && !(math.Abs(va-vb) <= bound) {
				return fmt.Sprintf("process %v, element %d: %s, the original %s: more apart than reordering the %s explains (%.3g)",
					g.Process(p), i, show(e, b.out.procs[p][i]), show(e, a.out.procs[p][i]), a.red.op, bound)
			}
		}
	}
	return ""
}

// compareCall checks arc's custom call against the original all-reduce.
func compareCall(g Grid, opt Options, a, b *slot) string {
	c := b.call
	if a.call == nil && (a.red.op != "sum" || a.red.elem.name != a.in.elem.name || a.in.elem.name != c.io.name) {
		return fmt.Sprintf("%s sums %s, but the original computes %s over %s", c, c.io.name, a.red.describe(), a.in.elem.name)
	}
	// A lossy codec only where the options allow it, in a call arc wrote
	// or one it kept: the input's marks are no one's permission.
	if codec := c.spec.Codec; codec != "" && codec != "none" && codec != "fp" && codec != opt.Quant {
		return fmt.Sprintf("%s quantizes with %s, which the options do not allow (--quant %q)", c, codec, opt.Quant)
	}
	if a.call != nil && a.call.spec == c.spec && sameOrder(a, b) { // a call kept as it was
		for p := range a.out.procs {
			if i := firstDiff(a.out.elem, a.out.procs[p], b.out.procs[p]); i >= 0 {
				return fmt.Sprintf("process %v, element %d: %s, the original's call %s", g.Process(p), i, show(c.io, b.out.procs[p][i]), show(c.io, a.out.procs[p][i]))
			}
		}
		return ""
	}
	e := c.io
	for p := range b.out.procs {
		grp := a.groups[a.groupOf[p]]
		for i := range b.out.procs[p] {
			vb := e.toFloat(b.out.procs[p][i])
			va := e.toFloat(a.out.procs[p][i])
			xs := make([]float64, len(grp))
			sum := 0.0
			for k, q := range grp {
				xs[k] = e.toFloat(a.in.procs[g.index(q)][i])
				sum += math.Abs(xs[k])
			}
			// The original's own error against the exact sum: the fold in
			// E of the interpreter, or the reference's bound for a call.
			var bo float64
			if a.call != nil {
				bo = a.bound[p][i]
			} else {
				bo = foldBound(e, len(xs), sum)
			}
			if math.IsNaN(sum) {
				// A NaN input: the exact kernels (and the original) give NaN;
				// a quantizing codec's NaN handling has no bound to hold.
				if exact := c.spec.Codec == "" || c.spec.Codec == "none" || c.spec.Codec == "fp"; exact && !math.IsNaN(vb) {
					return fmt.Sprintf("process %v, element %d: %s, where an input is NaN and the original gives %s", g.Process(p), i, show(e, b.out.procs[p][i]), show(e, a.out.procs[p][i]))
				}
				continue
			}
			bound := b.bound[p][i] + bo
			if math.IsInf(bound, 1) || 2*sum >= e.max {
				continue // a range the codec or the type saturates: not checked
			}
			if !(math.Abs(va-vb) <= bound) {
				return fmt.Sprintf("process %v, element %d: %s, the original %s (exact sum %.9g): more apart than %s's bound %.3g",
					g.Process(p), i, show(e, b.out.procs[p][i]), show(e, a.out.procs[p][i]), b.exact[p][i], c, bound)
			}
		}
	}
	return ""
}

// sameOrder reports whether two slots have the same groups in the same order.
func sameOrder(a, b *slot) bool {
	if len(a.groups) != len(b.groups) {
		return false
	}
	for p := range a.groupOf {
		if !slices.Equal(a.groups[a.groupOf[p]], b.groups[b.groupOf[p]]) {
			return false
		}
	}
	return true
}

func devices(g Grid, ps []Process) []int64 {
	out := make([]int64, len(ps))
	for i, p := range ps {
		out[i] = g.Device(p)
	}
	return out
}

func (r reducer) describe() string {
	if r.op == "" {
		return "a computation the oracle does not interpret"
	}
	return r.op + " over " + r.elem.name
}

// firstDiff is the first element whose bits differ, any NaN equal to any
// NaN; -1 when none does.
func firstDiff(e elemType, a, b []uint64) int {
	for i := range a {
		if a[i] != b[i] && !(e.isNaN(a[i]) && e.isNaN(b[i])) {
			return i
		}
	}
	return -1
}

func show(e elemType, b uint64) string {
	if e.class == 'f' {
		return fmt.Sprintf("%.9g", e.toFloat(b))
	}
	return fmt.Sprintf("%#x", b)
}

// foldBound bounds how far a left fold of n terms in e, each addition
// rounded once, can be from the exact sum of terms whose magnitudes add up
// to a: each partial sum is at most a (1+u)^n, and each rounding errs by at
// most u times it plus half the smallest subnormal.
func foldBound(e elemType, n int, a float64) float64 {
	if n <= 1 {
		return 0
	}
	u := e.unit()
	return float64(n-1)*(u*a*math.Pow(1+u, float64(n))+e.eta())*(1+0x1p-10) + 0x1p-50*a
}

// reorderBound bounds the difference between two left folds in e of the
// same terms in the orders xa and xb; ok is false where the terms come too
// close to the type's range for the bound to hold (not checked).
func reorderBound(e elemType, op string, xa, xb []float64) (float64, bool) {
	n := len(xa)
	switch op {
	case "sum":
		a := 0.0
		for _, x := range xa {
			a += math.Abs(x)
		}
		if !(2*a < e.max) { // a NaN or infinite input has no bound either
			return 0, false
		}
		return 2 * foldBound(e, n, a), true
	case "product":
		// Each partial product, in either order, stays in the normal
		// range: each multiplication errs by u relative.
		tiny := math.Ldexp(1, e.minExp+e.mant)
		for _, xs := range [][]float64{xa, xb} {
			p := 1.0
			for _, x := range xs {
				p *= x
				if p == 0 {
					break
				}
				if !(math.Abs(p) < e.max/2) || math.Abs(p) < 2*tiny { // NaN too
					return 0, false
				}
			}
		}
		p := 1.0
		for _, x := range xa {
			p *= x
		}
		u := e.unit()
		return 2 * (math.Pow(1+u, float64(n)) - 1) * math.Abs(p) * (1 + 0x1p-10), true
	}
	return 0, false
}
