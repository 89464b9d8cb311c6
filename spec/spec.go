// Package spec is StableHLO's specification of all_reduce as arc applies it:
// the op's constraints (all_reduce C1-C7 of docs/spec.md in openxla/stablehlo,
// and the rules MLIR's verifier adds), the process groups its mode names, the
// devices those groups run on, and whether arc's lowerings compute exactly
// what the op does; and the rules on the groups of the other collectives,
// which arc does not lower but must not accept when invalid (collectives.go).
//
// Check sorts every all-reduce into one of three outcomes: an error (the
// specification rejects the program: a positioned *ir.Error worded as MLIR's
// verifier words it), valid but left native (Result.Reason says why), or
// lowerable onto Result.Groups, the global device ids of each process group.
//
// A program is an error only when it is invalid on every grid the module
// allows: what MLIR's verifier rejects from the op alone (ODS types and
// attributes, InferTensorType, verifyAllReduceOp), what the specification
// rejects from the op alone where it is stricter than the verifier, and ids
// that contradict the grid the module states (num_replicas, num_partitions:
// XLA takes them as its replica count and partition count). The
// specification is stricter than MLIR's verifier in four places, and arc
// follows it there:
//
//   - C5, floats: the computation is (tensor<E>, tensor<E>) -> tensor<E>,
//     so its second argument is of type E (the verifier takes any float),
//     and is_promotable(element_type(operand), E) compares bit widths (the
//     verifier ignores float precision: an f16 reducer on f32 operands
//     passes it, a narrowing the specification forbids);
//   - C5, booleans: is_promotable keeps booleans apart from integers (MLIR's
//     i1 is a 1-bit integer, so its verifier lets i1 promote to i8); arc
//     promotes i1 only to i1, which the specification's function leaves
//     undecided by an oversight (its own programs reduce booleans);
//   - C7: element_type(results...) = E exactly, where type inference lets a
//     quantized result differ from E in scales and zero points;
//   - the grid: groups that name no process, and ids out of the stated
//     grid's range or not covering it (the verifier does not see the grid).
//
// Whatever depends on facts the module does not state is valid and left
// native with its reason: a module without num_replicas has as many as its
// all-reduces name when they agree, and none of its all-reduces is lowerable
// when they do not; grid attributes that are not counts (MLIR does not check
// them: `mhlo.num_partitions = ""`) leave the grid unknown and every
// all-reduce native; flattened ids that fill whole replicas but more than
// the default single partition are valid for a num_partitions the module
// does not state, and stay native. Results need only be compatible with the operands'
// shapes (a dynamic result of a static operand), as the specification's
// section on dynamism and the verifier have it; arc lowers exact types only.
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
	"regexp"
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
	// nothing says: empty replica_groups in a module that gives no count,
	// all-reduces that name different counts, or a grid attribute that is
	// not a count (Partitions is 0 then too when it is num_partitions).
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
// It reads the module's process grid once, so that every op is read in the
// same one.
type Checker struct {
	m  *ir.Module
	da DeviceAssignment
	// replicas and partitions are the grid: stated by the module or the
	// device assignment, 0 while unknown. A module that states no
	// num_partitions has 1; one that states no num_replicas has as many as
	// its all-reduces name, when they agree (see infer).
	replicas, partitions int64
	replicasFrom         string // "" when stated; else how it was deduced
	replicasStated       bool   // by the module or the device assignment
	partitionsStated     bool   // by the module or the device assignment
	// gridWhy says why the module's grid is unknown although it states one
	// (an attribute that is not a count): no all-reduce is lowerable.
	gridWhy string
	// views are the ops read so far, by op.
	views map[*ir.Op]*view
	// scanned is true once scan has run. disagree is then why the
	// module's num_replicas is unknown ("" when it is known or nothing
	// names replicas), partitionsWhy why its num_partitions is uncertain
	// (see impliedPartitions).
	scanned       bool
	disagree      string
	partitionsWhy string
	// defs are the module's value definitions (see checkUses), and funcs
	// its functions by name, read at the first all-reduce that needs them.
	defs  *ir.Defs
	funcs map[string][]*ir.Op
	// async are the functions asynchronous ops run (see asyncFunctions),
	// read at the first all-reduce that sits in a function; wrapped holds
	// wrapperWhy's answers, so that ops deep in regions cost one look each.
	async   map[*ir.Op]string
	wrapped map[*ir.Op]string
}

// view is what an all-reduce says on its own, with the rules that need
// nothing else applied.
type view struct {
	err        error
	mode       Mode
	red        *reducer
	operands   []tensorType
	results    []tensorType
	g          idGroups
	unresolved bool // mesh axes of a mesh package ir did not find
	// untyped says, per operand, why its value's type is not known where
	// it is defined ("" when it is; see checkUses).
	untyped []string
}

// New reads the module's process grid (stablehlo./mhlo.num_replicas and
// num_partitions) and checks da against it. da nil means XLA's default
// assignment. An error is positioned at the module op. Grid attributes that
// are not counts (MLIR does not check them) are no error: the grid is then
// unknown and no all-reduce lowerable.
func New(m *ir.Module, da DeviceAssignment) (*Checker, error) {
	k := &Checker{m: m, da: da, views: map[*ir.Op]*view{}}
	var rStated, pStated bool
	at := 0
	if mod := m.ModuleOp(); mod != nil {
		at = int(mod.Start)
		for _, a := range m.Attrs(mod) {
			var dim *int64
			var stated *bool
			switch a.Name {
			case "stablehlo.num_replicas", "mhlo.num_replicas":
				dim, stated = &k.replicas, &rStated
			case "stablehlo.num_partitions", "mhlo.num_partitions":
				dim, stated = &k.partitions, &pStated
			default:
				continue
			}
			n, ok := gridCount(a.Value)
			switch {
			case !ok:
				k.unknownGrid(fmt.Sprintf("the module's %s = %s is not a count of processes (an integer from 1 to %d): its process grid is unknown", a.Name, a.Value, uint32(math.MaxUint32)))
				n = 0
			case *stated && *dim != n && *dim != 0:
				k.unknownGrid(fmt.Sprintf("the module states %s twice, %d and %d: its process grid is unknown", strings.TrimPrefix(strings.TrimPrefix(a.Name, "stablehlo."), "mhlo."), *dim, n))
				n = 0
			case *stated && *dim == 0:
				n = 0 // unknown already
			}
			*dim, *stated = n, true
		}
	}
	if da != nil {
		if err := da.Validate(); err != nil {
			return nil, m.Errorf(at, "device assignment %s: %v", da, err)
		}
		r, p := int64(len(da)), int64(len(da[0]))
		if rStated && k.replicas > 0 && r != k.replicas || pStated && k.partitions > 0 && p != k.partitions {
			return nil, m.Errorf(at, "the module runs on %s, but the device assignment is %d replica(s) by %d partition(s)", k.gridWords(rStated), r, p)
		}
		if !rStated {
			k.replicasFrom = "from the device assignment"
		}
		k.replicas, k.partitions = r, p
	}
	k.replicasStated = rStated || da != nil
	k.partitionsStated = pStated || da != nil
	if !k.partitionsStated {
		k.partitions = 1 // XLA's default num_partitions
	}
	return k, nil
}

func (k *Checker) unknownGrid(why string) {
	if k.gridWhy == "" {
		k.gridWhy = why
	}
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

// gridCount reads num_replicas or num_partitions, "4" or "4 : i32": the
// specification's process grid has ui32 dimensions, and at least one
// process. ok is false for anything else, "2 : hi32" included (ir.Info,
// which the oracle reads, takes no such value either: both must see one
// grid).
func gridCount(v string) (int64, bool) {
	v = strings.TrimSpace(v)
	if i := strings.IndexByte(v, ':'); i >= 0 {
		if !intType.MatchString(strings.TrimSpace(v[i+1:])) {
			return 0, false
		}
		v = strings.TrimSpace(v[:i])
	}
	var n int64
	var err error
	if h, ok := strings.CutPrefix(v, "0x"); ok { // MLIR's hexadecimal integers
		n, err = strconv.ParseInt(h, 16, 64)
	} else {
		n, err = strconv.ParseInt(v, 10, 64)
	}
	return n, err == nil && n >= 1 && n <= math.MaxUint32
}

// intType is an MLIR integer type: i32, si64, ui32.
var intType = regexp.MustCompile(`^[su]?i[1-9][0-9]*$`)

// specOnly marks the errors that the specification (or XLA) gives and MLIR's
// verifier does not: it cannot see the grid, and it is laxer with floats,
// booleans, quantized results and an all_gather's global ids without a
// channel.
var specOnly = []string{"(all_reduce_c3)", "(all_reduce_c5)", "(all_reduce_c7)", "(all_gather_c4)", "(all_gather_c5)",
	"(reduce_scatter_c5)", "(all_to_all_c7)", "(collective_broadcast_c2)", "(collective_permute_c4)",
	"should contain", "name no ", "process grid", "device assignment", "not a multiple"}

// SpecOnly reports whether msg, an error of Check's, states a rule of the
// specification's that MLIR's verifier does not check: MLIR accepts the
// module, and arc, which follows the specification, does not.
func SpecOnly(msg string) bool {
	for _, s := range specOnly {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
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

// lowered is true for arc's own custom calls (package decision lists them
// with the module's collectives), whose groups Check holds to the grid
// (checkCall).
func lowered(c *ir.Collective) bool {
	return c.Kind == "all_reduce" && !strings.HasSuffix(c.Op.Name, ".all_reduce")
}

// Check checks one collective. Collectives other than all_reduce come back
// with a reason once their groups are checked (see checkOther), and arc's
// own custom calls with a reason once their groups are held to the grid
// (checkCall). For an all_reduce
// the error is a positioned *ir.Error when the specification rejects it;
// otherwise Result describes it. In a module that does not state
// num_replicas, the first call reads every all-reduce of the module (see
// infer).
func (k *Checker) Check(c *ir.Collective) (Result, error) {
	if c.Kind != "all_reduce" {
		return k.checkOther(c)
	}
	if lowered(c) {
		if ins, _, ok := k.m.FuncType(c.Op); ok {
			if _, err := k.checkUses(c.Op, ins); err != nil {
				return Result{}, err
			}
		}
	} else if v := k.view(c); v.err != nil {
		return Result{}, v.err
	}
	if !k.scanned {
		cs, err := k.m.Collectives()
		if err != nil {
			return Result{}, err
		}
		k.scan(cs)
	}
	if lowered(c) {
		return k.checkCall(c)
	}
	return k.finish(c, k.view(c))
}

// checkCall checks the groups of one of arc's calls against the module's
// process grid, as a collective the call stands for must be: its groups
// (flattened process ids, replica * num_partitions + partition) name every
// process of the grid once, as an all-reduce in flattened_ids mode does.
// A process in no group would wait for its call forever, and one in two,
// or one the grid does not have, would make the runtime fail the call. The
// result holds the groups' processes and the devices the device assignment
// puts them on, which the call's devices must be (the caller compares).
func (k *Checker) checkCall(c *ir.Collective) (Result, error) {
	fail := func(format string, args ...any) error {
		return k.m.Errorf(int(c.Op.Start), "%s: %s", c.Op.Name, fmt.Sprintf(format, args...))
	}
	res := Result{Mode: FlattenedIDs, Reduction: c.Reduction, LogicalGroups: c.Groups, Replicas: k.replicas, Partitions: k.partitions,
		NotLowerable: "already lowered by arc"}
	seen := map[int64]bool{}
	for _, g := range c.Groups {
		for _, id := range g {
			switch {
			case id < 0:
				return res, fail("groups name process %d: a process is replica * num_partitions + partition, from 0", id)
			case seen[id]:
				return res, fail("process %d is in the groups twice", id)
			}
			seen[id] = true
		}
	}
	switch {
	case k.gridWhy != "":
		return res, fail("arc's call cannot be checked against the module's process grid: %s", k.gridWhy)
	case k.disagree != "":
		return res, fail("arc's call cannot be checked against the module's process grid: %s", k.disagree)
	case k.partitionsWhy != "":
		return res, fail("arc's call cannot be checked against the module's process grid: %s", k.partitionsWhy)
	case k.replicas == 0:
		return res, fail("arc's call cannot be checked against the module's process grid: the module does not state num_replicas")
	}
	_, size := k.space(FlattenedIDs)
	for _, g := range c.Groups {
		for _, id := range g {
			if id >= size {
				return res, fail("groups name process %d, but the module's grid has %d processes (%s)", id, size, k.spaceWords(FlattenedIDs))
			}
		}
	}
	if n := int64(len(seen)); n < size {
		return res, fail("groups hold %d of the module's %d processes (%s): a process in no group would wait for its call forever", n, size, k.spaceWords(FlattenedIDs))
	}
	res.Processes = make([][]Process, len(c.Groups))
	res.Groups = make([][]int64, len(c.Groups))
	for i, g := range c.Groups {
		res.Processes[i] = make([]Process, len(g))
		res.Groups[i] = make([]int64, len(g))
		for j, id := range g {
			p := Process{Replica: id / k.partitions, Partition: id % k.partitions}
			res.Processes[i][j], res.Groups[i][j] = p, k.device(p)
		}
	}
	return res, nil
}

// CheckAll checks every collective of cs (as Module.Collectives lists them)
// with one Checker, so that all of them are read in one grid; results[i] is
// cs[i]'s. It returns the first error in the order of cs.
func CheckAll(m *ir.Module, cs []*ir.Collective, da DeviceAssignment) ([]Result, error) {
	k, err := New(m, da)
	if err != nil {
		return nil, err
	}
	for _, c := range cs {
		if c.Kind == "all_reduce" && !lowered(c) {
			k.view(c)
		}
	}
	k.scan(cs)
	out := make([]Result, len(cs))
	for i, c := range cs {
		if out[i], err = k.Check(c); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// scan reads what the module's all-reduces say about its grid together:
// num_replicas where the module does not state it (infer), then
// num_partitions where it does not state that (impliedPartitions).
func (k *Checker) scan(cs []*ir.Collective) {
	k.scanned = true
	if k.needsInference() {
		k.infer(cs)
	}
	k.impliedPartitions(cs)
}

// impliedPartitions: in a module that does not state num_partitions (XLA's
// default is 1), flattened ids that fill several whole replicas are valid
// only on that many partitions. The grid is then uncertain for every
// all-reduce of the module, not just that one: a cross_replica group runs
// once per partition, so lowering it for one partition would leave the
// others' processes in no group.
func (k *Checker) impliedPartitions(cs []*ir.Collective) {
	if k.partitionsStated || k.replicas <= 0 || k.gridWhy != "" || k.disagree != "" {
		return
	}
	for _, c := range cs {
		if c.Kind != "all_reduce" || lowered(c) {
			continue
		}
		v := k.view(c)
		if v.err != nil || v.unresolved || v.mode != FlattenedIDs {
			continue
		}
		if n := v.g.n; n > k.replicas && n%k.replicas == 0 {
			k.partitionsWhy = fmt.Sprintf("the module does not state num_partitions, and the all-reduce at %s names %d flattened ids on num_replicas = %d: they imply %d partitions, not XLA's default of 1", c.Pos, n, k.replicas, n/k.replicas)
			return
		}
	}
}

// needsInference: the module states no num_replicas (nor does the device
// assignment) and its grid attributes are all readable.
func (k *Checker) needsInference() bool {
	return k.replicas == 0 && k.gridWhy == ""
}

// infer deduces num_replicas for a module that does not state it: a valid
// program's groups cover every replica (in flattened_ids mode, every
// process), so each all-reduce that names ids names all of them, and so
// does each of arc's calls (flattened ids). When they
// agree, that is the module's count; when they do not, the count is unknown
// (each op is valid on its own: MLIR does not check them against each
// other), and no all-reduce of the module is lowerable.
func (k *Checker) infer(cs []*ir.Collective) {
	type seen struct {
		n   int64
		pos ir.Pos
	}
	var counts []seen
	for _, c := range cs {
		if c.Kind != "all_reduce" {
			continue
		}
		var n int64
		flattened := true
		if lowered(c) {
			// arc's call names every process once, as flattened ids
			// (checkCall holds it to that).
			ids := map[int64]bool{}
			for _, g := range c.Groups {
				for _, id := range g {
					ids[id] = id >= 0
				}
			}
			for _, ok := range ids {
				if ok {
					n++
				}
			}
		} else {
			v := k.view(c)
			if v.err != nil || v.unresolved {
				continue
			}
			n, flattened = v.g.n, v.mode == FlattenedIDs
		}
		if n == 0 {
			continue
		}
		if flattened {
			if n%k.partitions != 0 {
				continue // an error of its own (checkSpace)
			}
			n /= k.partitions
		}
		known := false
		for _, s := range counts {
			known = known || s.n == n
		}
		if !known {
			counts = append(counts, seen{n, c.Pos})
		}
	}
	switch len(counts) {
	case 0:
	case 1:
		k.replicas = counts[0].n
		k.replicasFrom = fmt.Sprintf("which the module does not state: the all-reduce at %s implies it", counts[0].pos)
	default:
		k.disagree = fmt.Sprintf("the module does not state num_replicas and its all-reduces name different numbers of replicas (%d at %s, %d at %s)", counts[0].n, counts[0].pos, counts[1].n, counts[1].pos)
	}
}

// view reads an all-reduce on its own, once: the ODS constraints (types,
// attributes, the region), InferTensorType, verifyAllReduceOp and the
// specification's constraints that need no grid.
func (k *Checker) view(c *ir.Collective) *view {
	if v, ok := k.views[c.Op]; ok {
		return v
	}
	v := &view{}
	v.err = k.read(c, v)
	k.views[c.Op] = v
	return v
}

func (k *Checker) read(c *ir.Collective, v *view) error {
	m, op := k.m, c.Op
	at := int(op.Start)
	fail := func(format string, args ...any) error {
		return m.Errorf(at, "'%s' op %s", op.Name, fmt.Sprintf(format, args...))
	}
	mhlo := strings.HasPrefix(op.Name, "mhlo.")

	// ODS: types, attributes, the region.
	ins, outs, ok := m.FuncType(op)
	if !ok {
		return fail("has no type signature")
	}
	if ins == nil {
		ins = outs
	}
	elems := hloTensorElems
	if mhlo {
		elems += " or per-axis integer quantized"
	}
	for i, s := range ins {
		t, err := parseTensor(s)
		if err != nil || !t.e.hlo(mhlo) {
			return fail("operand #%d must be variadic of ranked tensor of %s values, but got '%s'", i, elems, ir.StripLoc(s))
		}
		v.operands = append(v.operands, t)
	}
	untyped, err := k.checkUses(op, ins)
	if err != nil {
		return err
	}
	v.untyped = untyped
	for i, s := range outs {
		t, err := parseTensor(s)
		if err != nil || !t.e.hlo(mhlo) {
			return fail("result #%d must be variadic of ranked tensor of %s values, but got '%s'", i, elems, ir.StripLoc(s))
		}
		v.results = append(v.results, t)
	}
	attrs := m.Attrs(op)
	attr := func(name string) (string, bool) { return ir.AttrValue(attrs, name) }
	groupsAttr, ok := attr("replica_groups")
	if !ok {
		return fail("requires attribute 'replica_groups'")
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
			return m.Errorf(off, "%v", err)
		}
		if lit.elem != "i64" {
			return fail("attribute 'replica_groups' failed to satisfy constraint: 64-bit signless integer elements attribute or replica group mesh axes, but it holds %s", lit.elem)
		}
	} else if c.GroupSpelling != "mesh_axes" || mhlo {
		if mhlo {
			return fail("attribute 'replica_groups' failed to satisfy constraint: 64-bit signless integer elements attribute")
		}
		return fail("attribute 'replica_groups' failed to satisfy constraint: 64-bit signless integer elements attribute or replica group mesh axes")
	}
	global := false
	if val, ok := attr("use_global_device_ids"); ok {
		if val != "" && val != "unit" {
			return fail("attribute 'use_global_device_ids' failed to satisfy constraint: unit attribute, but it is %s", val)
		}
		global = true
	}
	channelAttr, hasChannel := attr("channel_handle")
	dialect := strings.TrimSuffix(op.Name, ".all_reduce")
	channel, err := channelID(channelAttr, hasChannel, dialect, fail)
	if err != nil {
		return err
	}
	red, err := k.readReducer(c, fail)
	if err != nil {
		return err
	}
	v.red = red

	// InferTensorType: one result per operand, the operand's shape, the
	// computation's element type E, compatible as StableHLO's type
	// inference has it; then the specification's all_reduce_c6 and c7.
	E := red.resultT
	inferred := make([]tensorType, len(v.operands))
	match := len(v.results) == len(v.operands)
	for i, t := range v.operands {
		inferred[i] = t
		inferred[i].text, inferred[i].elem, inferred[i].e = t.withElem(E.elem), E.elem, E.e
		if match && !compatibleForInference(v.results[i], inferred[i]) {
			match = false
		}
	}
	if !match {
		want, got := make([]string, len(inferred)), make([]string, len(v.results))
		for i, t := range inferred {
			want[i] = t.text
		}
		for i, t := range v.results {
			got[i] = t.text
		}
		return fail("inferred type(s) %s are incompatible with return type(s) of operation %s", quoteList(want), quoteList(got))
	}
	for i, t := range v.results {
		if t.e.canon != E.e.canon {
			return fail("result #%d is '%s' but the computation returns '%s': element_type(results...) = E (all_reduce_c7)", i, t.text, E.text)
		}
	}

	// verifyAllReduceOp: replica groups (all_reduce_c1 and the [0, n) rule),
	// channel (all_reduce_c4), computation (all_reduce_c5).
	v.unresolved = lit == nil && c.Unresolved != ""
	if !v.unresolved {
		if v.g, err = k.readGroups(c, lit, global, fail); err != nil {
			return err
		}
	}
	if global && channel <= 0 {
		return fail("channel_id must be positive when useGlobalDeviceIds is set but got: %d", channel)
	}
	for _, t := range v.operands {
		if err := red.verifyShape(t, fail); err != nil {
			return err
		}
	}
	v.mode = CrossReplica
	if channel > 0 {
		v.mode = CrossReplicaAndPartition
		if global {
			v.mode = FlattenedIDs
		}
	}
	if !v.unresolved {
		return k.checkNamed(v.mode, v.g, fail)
	}
	return nil
}

// finish applies the rules that need the grid and decides what arc may do.
func (k *Checker) finish(c *ir.Collective, v *view) (Result, error) {
	fail := func(format string, args ...any) error {
		return k.m.Errorf(int(c.Op.Start), "'%s' op %s", c.Op.Name, fmt.Sprintf(format, args...))
	}
	res := Result{Mode: v.mode, Reduction: v.red.kind, Replicas: k.replicas, Partitions: k.partitions}
	switch {
	case v.unresolved:
		res.NotLowerable = "groups unknown: " + c.Unresolved
	default:
		why, err := k.checkSpace(v.mode, v.g, fail)
		if err != nil {
			return res, err
		}
		if why != "" {
			res.LogicalGroups, res.ImplicitGroups, res.NotLowerable = v.g.rows, v.g.emptyList, why
		} else {
			k.expand(&res, v.g)
		}
	}
	k.lowerability(&res, c, v.red, v.operands, v.results, v.untyped)
	return res, nil
}

// channelID is the handle of the op's channel_handle, 0 without one.
func channelID(v string, ok bool, dialect string, fail func(string, ...any) error) (int64, error) {
	if !ok {
		return 0, nil
	}
	open := strings.IndexByte(v, '<')
	if !strings.HasPrefix(v, "#"+dialect+".channel_handle<") || ir.Closing(v, open) != len(v)-1 {
		return 0, fail("attribute 'channel_handle' failed to satisfy constraint: two 64-bit integers 'handle' and 'type', but it is %s", v)
	}
	for _, f := range ir.SplitTop(v[open+1:len(v)-1], ',') {
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
func (k *Checker) lowerability(res *Result, c *ir.Collective, red *reducer, operands, results []tensorType, untyped []string) {
	why := func() string {
		if why := k.wrapperWhy(c.Op.ParentOp()); why != "" {
			return why
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
		case i < len(untyped) && untyped[i] != "":
			o.NotLowerable = untyped[i] // arc's call would state a type the value may not have
		case t.enc != "":
			o.NotLowerable = fmt.Sprintf("operand %d is %s: arc's custom call would drop its encoding", i, t.text)
		case !t.static():
			o.NotLowerable = fmt.Sprintf("operand %d has a dynamic shape (%s)", i, t.text)
		case t.e.canon != red.resultT.e.canon:
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
