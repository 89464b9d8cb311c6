// Package spec is StableHLO's specification of all_reduce as arc applies it:
// the op's constraints (all_reduce C1-C7 of docs/spec.md in openxla/stablehlo,
// and the rules MLIR's verifier adds), the process groups its mode names, the
// devices those groups run on, and whether arc's lowerings compute exactly
// what the op does.
//
// Check sorts every all-reduce into one of three outcomes: an error (the
// specification rejects the program: a positioned *ir.Error worded as MLIR's
// verifier words it), valid but left native (Result.Reason says why), or
// lowerable onto Result.Groups, the global device ids of each process group.
//
// Memory and time are bounded by the input: ids are checked on the literal
// the module writes (unique, in range, covering the id space) without
// expanding anything; only the expansion to processes and devices grows with
// num_replicas and num_partitions, and it is done only when the grid has at
// most max(MaxDevices, ids written) processes. A 500-byte module that claims
// 2,000,000,000 replicas therefore gets an error (its groups cannot cover
// them) or a native reason, in microseconds and a few kilobytes.
package spec

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/arcpass/arc/ir"
)

// MaxDevices bounds the process grid Check expands into devices, beyond the
// ids the module itself writes: 65,536 processes (1.5 MiB of groups) is more
// than any machine arc's kernels run on, and a module that claims more
// without writing them out stays native.
const MaxDevices = 1 << 16

// Mode is how an op's replica_groups name processes (StableHLO's "Collective
// ops" section).
type Mode int

const (
	// CrossReplica: groups of replica ids, run in every partition
	// (no channel_id, or channel_id <= 0).
	CrossReplica Mode = iota + 1
	// CrossPartition: groups of partition ids, run in every replica. The
	// specification uses it for collective_permute and all_to_all with a
	// channel; all_reduce never selects it.
	CrossPartition
	// CrossReplicaAndPartition: groups of replica ids, each group taking
	// those replicas in every partition (channel_id > 0 without
	// use_global_device_ids).
	CrossReplicaAndPartition
	// FlattenedIDs: groups of flattened ids, replica_id * num_partitions +
	// partition_id (channel_id > 0 and use_global_device_ids).
	FlattenedIDs
)

func (m Mode) String() string {
	switch m {
	case CrossReplica:
		return "cross_replica"
	case CrossPartition:
		return "cross_partition"
	case CrossReplicaAndPartition:
		return "cross_replica_and_partition"
	case FlattenedIDs:
		return "flattened_ids"
	}
	return "mode(" + strconv.Itoa(int(m)) + ")"
}

// Process is a position in StableHLO's process grid.
type Process struct{ Replica, Partition int64 }

// Operand is one operand of an all-reduce, as the lowering needs it.
type Operand struct {
	Type     ir.TensorType // shape and element type
	Text     string        // the type as written, encoding included
	Encoding string        // the encoding after the comma, or ""
	Bytes    int64         // size of the data, -1 when dynamic or unknown
	// NotLowerable says why arc cannot replace this operand's reduction by
	// its custom call, or "".
	NotLowerable string
}

// Result is what Check found out about one valid all-reduce.
type Result struct {
	Mode Mode
	// Replicas and Partitions are the process grid the groups were read in:
	// the module's num_replicas and num_partitions, else the device
	// assignment's shape, else 1 partition and as many replicas as the
	// groups name (a valid program covers them all). Replicas is 0 when
	// nothing says (empty replica_groups in a module that gives no count).
	Replicas, Partitions int64
	// LogicalGroups are the ids the op's groups hold, in the op's order,
	// -1 padding dropped, mesh axes expanded; empty replica_groups are
	// XLA's one group of every id (ImplicitGroups). Nil when too large.
	LogicalGroups  [][]int64
	ImplicitGroups bool
	// Processes are the process groups the mode makes of LogicalGroups,
	// in the specification's order; Groups the same with each process
	// replaced by its global device id. Nil when not expanded (see
	// NotLowerable).
	Processes [][]Process
	Groups    [][]int64
	// Reduction is sum, max, min, product, and, or, xor when the
	// computation is exactly `return OP(arg0, arg1)` (either order) on
	// tensor<E>, and other for anything else.
	Reduction string
	Operands  []Operand
	// NotLowerable says why arc cannot replace this op by its custom call,
	// for reasons that hold for every operand; "" when nothing does.
	NotLowerable string
}

// Reason is why operand k cannot be lowered to arc's custom call: the op's
// reason, else the operand's, else "".
func (r *Result) Reason(k int) string {
	if r.NotLowerable != "" {
		return r.NotLowerable
	}
	if k >= 0 && k < len(r.Operands) {
		return r.Operands[k].NotLowerable
	}
	return ""
}

// GroupSize is the size of the first group, or 0 without groups; lowerable
// ops have groups of one size.
func (r *Result) GroupSize() int {
	if len(r.Groups) == 0 {
		return 0
	}
	return len(r.Groups[0])
}

// Checker checks the all-reduces of one module against one device assignment.
// It remembers the grid it read (or deduced from a first op), so that every op
// is held to the same one.
type Checker struct {
	m  *ir.Module
	da DeviceAssignment
	// replicas is 0 until known; partitions is always known (default 1).
	replicas, partitions int64
	replicasFrom         string // "" when stated; else how it was deduced
}

// New reads the module's process grid (stablehlo./mhlo.num_replicas and
// num_partitions) and checks da against it. da nil means XLA's default
// assignment. An error is positioned at the module op.
func New(m *ir.Module, da DeviceAssignment) (*Checker, error) {
	k := &Checker{m: m, da: da}
	var rStated, pStated bool
	var err error
	if mod := m.ModuleOp(); mod != nil {
		at := int(mod.Start)
		for _, a := range m.Attrs(mod) {
			switch a.Name {
			case "stablehlo.num_replicas", "mhlo.num_replicas":
				k.replicas, err = gridCount(m, at, a)
				rStated = true
			case "stablehlo.num_partitions", "mhlo.num_partitions":
				k.partitions, err = gridCount(m, at, a)
				pStated = true
			}
			if err != nil {
				return nil, err
			}
		}
	}
	if da != nil {
		at := 0
		if mod := m.ModuleOp(); mod != nil {
			at = int(mod.Start)
		}
		if err := da.Validate(); err != nil {
			return nil, m.Errorf(at, "device assignment %s: %v", da, err)
		}
		r, p := int64(len(da)), int64(len(da[0]))
		if rStated && r != k.replicas || pStated && p != k.partitions {
			return nil, m.Errorf(at, "the module runs on %s, but the device assignment is %d replica(s) by %d partition(s)", k.gridWords(rStated), r, p)
		}
		k.replicas, k.partitions = r, p
		if !rStated {
			k.replicasFrom = "from the device assignment"
		}
	}
	if k.partitions == 0 {
		k.partitions = 1 // XLA's default num_partitions
	}
	return k, nil
}

func (k *Checker) gridWords(rStated bool) string {
	r := "an unstated number of replicas"
	if rStated {
		r = fmt.Sprintf("num_replicas = %d", k.replicas)
	}
	p := int64(1)
	if k.partitions > 0 {
		p = k.partitions
	}
	return fmt.Sprintf("%s, num_partitions = %d", r, p)
}

// gridCount reads num_replicas or num_partitions: the specification's
// process grid has ui32 dimensions, and at least one process.
func gridCount(m *ir.Module, at int, a ir.Attr) (int64, error) {
	v := strings.TrimSpace(a.Value)
	if i := strings.IndexByte(v, ':'); i >= 0 {
		v = strings.TrimSpace(v[:i])
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 1 || n > math.MaxUint32 {
		return 0, m.Errorf(at, "%s = %s: the process grid's dimensions are integers from 1 to %d (ui32)", a.Name, a.Value, uint32(math.MaxUint32))
	}
	return n, nil
}

// Check checks one all-reduce of the module. See Checker.Check.
func Check(m *ir.Module, c *ir.Collective, da DeviceAssignment) (Result, error) {
	k, err := New(m, da)
	if err != nil {
		return Result{}, err
	}
	return k.Check(c)
}

// allowedParents are the ops an all-reduce may sit in and still be rewritten:
// functions, modules, control flow and Shardy's computations. Anything else
// (stablehlo.async_start, whose region must hold exactly a collective, a
// reducer's body, ...) keeps the op native so that the rewrite never breaks
// its wrapper.
var allowedParents = map[string]bool{
	"module": true, "builtin.module": true, "func.func": true,
	"stablehlo.while": true, "stablehlo.case": true, "stablehlo.if": true,
	"mhlo.while": true, "mhlo.case": true, "mhlo.if": true,
	"sdy.manual_computation": true, "sdy.named_computation": true,
}

// Check checks one collective. Collectives other than all_reduce, and arc's
// own custom calls, come back with a reason and unchecked. For an all_reduce
// the error is a positioned *ir.Error when the specification rejects it;
// otherwise Result describes it.
func (k *Checker) Check(c *ir.Collective) (Result, error) {
	if c.Kind != "all_reduce" {
		return Result{NotLowerable: "arc lowers all-reduces only"}, nil
	}
	if !strings.HasSuffix(c.Op.Name, ".all_reduce") { // arc's custom call
		return Result{Reduction: c.Reduction, Groups: c.Groups, NotLowerable: "already lowered by arc"}, nil
	}
	m, op := k.m, c.Op
	at := int(op.Start)
	fail := func(format string, args ...any) error {
		return m.Errorf(at, "'%s' op %s", op.Name, fmt.Sprintf(format, args...))
	}
	var res Result

	// ODS: types, attributes, the region.
	ins, outs, ok := m.FuncType(op)
	if !ok {
		return res, fail("has no type signature")
	}
	if ins == nil {
		ins = outs
	}
	var operands, results []tensorType
	for i, s := range ins {
		t, err := parseTensor(s)
		if err != nil {
			return res, fail("operand #%d must be variadic of ranked tensor of float, integer, complex or quantized values, but got '%s'", i, stripLoc(s))
		}
		operands = append(operands, t)
	}
	for i, s := range outs {
		t, err := parseTensor(s)
		if err != nil {
			return res, fail("result #%d must be variadic of ranked tensor of float, integer, complex or quantized values, but got '%s'", i, stripLoc(s))
		}
		results = append(results, t)
	}
	attrs := m.Attrs(op)
	attr := func(name string) (string, bool) {
		for _, a := range attrs {
			if a.Name == name {
				return a.Value, true
			}
		}
		return "", false
	}
	groupsAttr, ok := attr("replica_groups")
	if !ok {
		return res, fail("requires attribute 'replica_groups'")
	}
	var lit *dense
	if strings.HasPrefix(strings.TrimSpace(groupsAttr), "dense<") {
		var err error
		if lit, err = parseDense(strings.TrimSpace(groupsAttr)); err != nil {
			off := at
			if start, _, ok := m.AttrValueSpan(op, "replica_groups"); ok {
				off = start
			}
			if de, ok := err.(*denseError); ok {
				off += de.off
			}
			return res, m.Errorf(off, "%v", err)
		}
		if lit.elem != "i64" {
			return res, fail("attribute 'replica_groups' failed to satisfy constraint: 64-bit signless integer elements attribute or replica group mesh axes, but it holds %s", lit.elem)
		}
	} else if c.GroupSpelling != "mesh_axes" {
		return res, fail("attribute 'replica_groups' failed to satisfy constraint: 64-bit signless integer elements attribute or replica group mesh axes")
	}
	global := false
	if v, ok := attr("use_global_device_ids"); ok {
		if v != "" && v != "unit" {
			return res, fail("attribute 'use_global_device_ids' failed to satisfy constraint: unit attribute, but it is %s", v)
		}
		global = true
	}
	channelAttr, hasChannel := attr("channel_handle")
	channel, err := channelID(channelAttr, hasChannel, fail)
	if err != nil {
		return res, err
	}
	red, err := k.readReducer(c, fail)
	if err != nil {
		return res, err
	}

	// InferTensorType: one result per operand, the operand's shape, the
	// computation's element type E (all_reduce_c6, all_reduce_c7).
	E := red.resultT.elem
	inferred := make([]string, len(operands))
	match := len(results) == len(operands)
	for i, t := range operands {
		inferred[i] = t.withElem(E)
		if match && !compatible(results[i], tensorType{shape: t.shape, elem: E}) {
			match = false
		}
	}
	if !match {
		got := make([]string, len(results))
		for i, t := range results {
			got[i] = t.text
		}
		return res, fail("inferred type(s) %s are incompatible with return type(s) of operation %s", quoteList(inferred), quoteList(got))
	}

	// verifyAllReduceOp: replica groups (all_reduce_c1 and the [0, n) rule),
	// channel (all_reduce_c4), computation (all_reduce_c5).
	unresolved := lit == nil && c.Unresolved != "" // mesh axes of a mesh package ir did not find
	var g idGroups
	if !unresolved {
		if g, err = k.readGroups(c, lit, global, fail); err != nil {
			return res, err
		}
	}
	if global && channel <= 0 {
		return res, fail("channel_id must be positive when useGlobalDeviceIds is set but got: %d", channel)
	}
	for _, t := range operands {
		if err := red.verifyShape(t, fail); err != nil {
			return res, err
		}
	}

	// The specification's grid: ids in range (all_reduce_c2, c3) and every
	// process in one group.
	res.Mode = CrossReplica
	if channel > 0 {
		res.Mode = CrossReplicaAndPartition
		if global {
			res.Mode = FlattenedIDs
		}
	}
	res.Reduction = red.kind
	if unresolved {
		res.Replicas, res.Partitions = k.replicas, k.partitions
		res.NotLowerable = "groups unknown: " + c.Unresolved
	} else {
		if err := k.checkSpace(c, res.Mode, g, fail); err != nil {
			return res, err
		}
		res.Replicas, res.Partitions = k.replicas, k.partitions
		k.expand(&res, g)
	}
	k.lowerability(&res, c, red, operands, results)
	return res, nil
}

// channelID is the handle of the op's channel_handle, 0 without one.
func channelID(v string, ok bool, fail func(string, ...any) error) (int64, error) {
	if !ok {
		return 0, nil
	}
	open := strings.IndexByte(v, '<')
	if !strings.HasPrefix(v, "#stablehlo.channel_handle<") && !strings.HasPrefix(v, "#mhlo.channel_handle<") || closing(v, open) != len(v)-1 {
		return 0, fail("attribute 'channel_handle' failed to satisfy constraint: two 64-bit integers 'handle' and 'type', but it is %s", v)
	}
	for _, f := range splitTop(v[open+1:len(v)-1], ',') {
		if k, val, ok := strings.Cut(f, "="); ok && strings.TrimSpace(k) == "handle" {
			if n, err := strconv.ParseInt(strings.TrimSpace(val), 10, 64); err == nil {
				return n, nil
			}
		}
	}
	return 0, fail("attribute 'channel_handle' has no integer handle: %s", v)
}

func quoteList(ts []string) string {
	q := make([]string, len(ts))
	for i, t := range ts {
		q[i] = "'" + t + "'"
	}
	return strings.Join(q, ", ")
}

// lowerability fills in why arc's custom call would not compute exactly what
// the op does.
func (k *Checker) lowerability(res *Result, c *ir.Collective, red *reducer, operands, results []tensorType) {
	why := func() string {
		if c.Arc != nil {
			return "already lowered by arc"
		}
		for p := c.Op.ParentOp(); p != nil; p = p.ParentOp() {
			if !allowedParents[p.Name] {
				return fmt.Sprintf("inside %s, whose region arc leaves as it is", p.Name)
			}
		}
		switch {
		case len(operands) == 0:
			return "no operands"
		case red.kind == "other":
			return "reducer is not exactly return add(arg0, arg1): " + red.why
		case red.kind != "sum":
			return fmt.Sprintf("reducer is %s, arc's kernels sum", red.kind)
		}
		if res.NotLowerable != "" { // set by expand
			return res.NotLowerable
		}
		for i, grp := range res.Groups {
			if len(grp) == 0 {
				return fmt.Sprintf("replica group %d is empty", i)
			}
			if len(grp) != len(res.Groups[0]) {
				return fmt.Sprintf("groups of different sizes (%d and %d devices)", len(res.Groups[0]), len(grp))
			}
		}
		return ""
	}
	res.NotLowerable = why()
	E := red.resultT.elem
	for i, t := range operands {
		o := Operand{Type: t.ir(), Text: t.text, Encoding: t.enc, Bytes: t.bytes()}
		switch {
		case t.enc != "":
			o.NotLowerable = fmt.Sprintf("operand %d is %s: arc's custom call would drop its encoding", i, t.text)
		case !t.static():
			o.NotLowerable = fmt.Sprintf("operand %d has a dynamic shape (%s)", i, t.text)
		case compact(t.elem) != compact(E):
			o.NotLowerable = fmt.Sprintf("operand %d is %s but the reducer computes in %s (promotion): arc's kernels sum in the operand's type", i, t.elem, E)
		case results[i].key != t.key:
			o.NotLowerable = fmt.Sprintf("result %d is %s, not the operand's %s", i, results[i].text, t.text)
		}
		res.Operands = append(res.Operands, o)
	}
}

// Bytes is the size of all operands, or -1 when one is unknown.
func (r *Result) Bytes() int64 {
	var n int64
	for _, o := range r.Operands {
		if o.Bytes < 0 || n > math.MaxInt64-o.Bytes {
			return -1
		}
		n += o.Bytes
	}
	return n
}

// FlattenedIDs are the process groups as flattened ids, replica *
// num_partitions + partition, in the order of Processes: the groups to write
// when rewriting the op in flattened_ids mode (channel_handle and
// use_global_device_ids), which names the same processes whatever its mode
// was. Nil when the groups were not expanded.
func (r *Result) FlattenedIDs() [][]int64 {
	if r.Processes == nil {
		return nil
	}
	out := make([][]int64, len(r.Processes))
	for i, pg := range r.Processes {
		out[i] = make([]int64, len(pg))
		for j, p := range pg {
			out[i][j] = p.Replica*r.Partitions + p.Partition
		}
	}
	return out
}

// CheckAll checks every collective of cs (as Module.Collectives lists them)
// with one Checker, so that all of them are read in one grid; results[i] is
// cs[i]'s. It stops at the first error.
func CheckAll(m *ir.Module, cs []*ir.Collective, da DeviceAssignment) ([]Result, error) {
	k, err := New(m, da)
	if err != nil {
		return nil, err
	}
	out := make([]Result, len(cs))
	for i, c := range cs {
		if out[i], err = k.Check(c); err != nil {
			return nil, err
		}
	}
	return out, nil
}
