package oracle

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/arcpass/arc/decision"
	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/spec"
)

// slot is one operand of an all-reduce (a stablehlo.all_reduce or arc's
// custom call) and its result, as the oracle evaluated it.
type slot struct {
	key        string // the result's identity: "ar(OPERAND)#K"
	operandKey string
	op         *ir.Op
	pos        ir.Pos
	operand    int // position among the op's operands
	native     bool
	red        reducer // native ops
	call       *call   // arc's custom calls
	mode       Mode
	// groups are the process groups of the op; groupOf[p] is the group of
	// process p (flattened index).
	groups  [][]Process
	groupOf []int32
	in, out *value
	invalid error // why the op cannot be interpreted (Options.lenient)
	// unknown says why the op's groups are unknown (see opInfo); the
	// oracle then checks only that the lowering leaves the op as it is.
	unknown, groupsText string
	// bound and exact are, for arc's calls, the oracle's bound on each
	// element's error against the exact sum, and that sum (per process).
	bound, exact [][]float64
}

// trace is one module as the oracle interpreted it.
type trace struct {
	m      *ir.Module
	top    *ir.Op // m.ModuleOp()
	grid   Grid
	opt    Options
	slots  []*slot
	byKey  map[string]*slot
	plain  []*ir.Op   // the ops that are not all-reduces, in walk order
	uses   [][]string // the identities each plain op uses, in text order
	values map[string]*value
	seen   map[string]int // occurrences of each operand identity so far
	colls  map[*ir.Op]*ir.Collective
	ops    map[*ir.Op]*opInfo
	scopes []map[string][]string
	desc   map[string]string // identity -> words for messages
	// spec is package spec's reading of the module, which the oracle's own
	// expansion of every group is checked against (nil when spec rejects
	// the module's grid).
	spec         *spec.Checker
	crossChecked int // all-reduces whose groups spec expanded the same
	// input gives the value of an operand identity; nil is the module's own
	// values (leaves drawn at random).
	input func(key string, t ir.TensorType) (*value, error)
	// refs are the values each plain op uses as it spells them ("%x",
	// "%x#1"), in the order of uses; resKeys the identities of the results
	// of all-reduces and arc's calls.
	refs    [][]string
	resKeys map[*ir.Op][]string
	// hooks, for a lowered module with fused calls, is the original's
	// numbering and identities; fused its fused calls (fused.go).
	hooks *fusedHooks
	fused []*fusedCall
	// index numbers the plain ops (from 0), reads caches the oracle's
	// reading of them (fused.go), built on demand.
	index map[*ir.Op]int
	reads map[*ir.Op]readResult
}

func (t *trace) errAt(op *ir.Op, format string, args ...any) error {
	return t.m.Errorf(int(op.Start), format, args...)
}

// interpret walks a module: every op that is not an all-reduce is "plain"
// and keeps its position (the lowering rewrites only all-reduces); each
// value gets an identity, a leaf for what plain ops define ("rK.J": result J
// of plain op K; "aK.J", "bK.R.B.J": region arguments) and "ar(X)#N" for the
// result of the N-th all-reduce of identity X; all-reduces are evaluated on
// every process.
func interpret(m *ir.Module, grid Grid, opt Options, input func(string, ir.TensorType) (*value, error), hooks *fusedHooks) (*trace, error) {
	cs, err := decision.Collectives(m)
	if err != nil {
		return nil, err
	}
	t := &trace{m: m, grid: grid, opt: opt, byKey: map[string]*slot{}, values: map[string]*value{},
		seen: map[string]int{}, desc: map[string]string{}, colls: map[*ir.Op]*ir.Collective{}, ops: map[*ir.Op]*opInfo{}, input: input,
		resKeys: map[*ir.Op][]string{}, hooks: hooks}
	for _, c := range cs {
		if c.Kind == "all_reduce" {
			t.colls[c.Op] = c
		}
	}
	var da spec.DeviceAssignment
	if grid.Assignment != nil {
		da = make(spec.DeviceAssignment, grid.Replicas)
		for r := range da {
			da[r] = make([]int64, grid.Partitions)
			for p := range da[r] {
				da[r][p] = grid.Device(Process{int64(r), int64(p)})
			}
		}
	}
	t.spec, _ = spec.New(m, da)
	t.top = m.ModuleOp()
	if err := t.block(m.Body, nil); err != nil {
		return nil, err
	}
	return t, nil
}

func (t *trace) push()                       { t.scopes = append(t.scopes, map[string][]string{}) }
func (t *trace) pop()                        { t.scopes = t.scopes[:len(t.scopes)-1] }
func (t *trace) define(n string, k []string) { t.scopes[len(t.scopes)-1][n] = k }

// describe names an identity for messages.
func (t *trace) describe(key string) string {
	if d, ok := t.desc[key]; ok {
		return d
	}
	return key
}

// resolve finds the identity of a use of name#index (index -1: #0).
func (t *trace) resolve(op *ir.Op, name string, index int) (string, error) {
	for i := len(t.scopes) - 1; i >= 0; i-- {
		if keys, ok := t.scopes[i][name]; ok {
			if index < 0 {
				index = 0
			}
			if index >= len(keys) {
				return "", t.errAt(op, "%s#%d: %s has %d result(s)", name, index, name, len(keys))
			}
			return keys[index], nil
		}
	}
	return "", t.errAt(op, "%s is used but not defined", name)
}

// block interprets the ops of a block; labelArgs are defined first.
func (t *trace) block(b *ir.Block, define func()) error {
	t.push()
	defer t.pop()
	if define != nil {
		define()
	}
	for _, op := range b.Ops {
		if err := t.op(op); err != nil {
			return err
		}
	}
	return nil
}

func (t *trace) op(op *ir.Op) error {
	if c := t.colls[op]; c != nil {
		return t.allReduce(op, c)
	}
	switch {
	case op.Name == "":
		return nil // an alias definition or a resource section: no values
	case op == t.top:
		// The file's module, which an implicit one (a file of functions)
		// leaves unwritten: not an op of the program's, whichever way it
		// is spelt.
		for _, r := range op.Regions {
			for _, b := range r.Blocks {
				if err := t.block(b, nil); err != nil {
					return err
				}
			}
		}
		return nil
	}
	k := len(t.plain)
	if t.hooks != nil && k < len(t.hooks.index) {
		k = t.hooks.index[k] // the original's number for the same op
	}
	k++ // identities number the plain ops from 1: the file's module, written or implicit, is op 0
	t.plain = append(t.plain, op)
	var uses, refs []string
	var args, results []ir.ValueRef
	var err error
	t.m.Values(op, func(v ir.ValueRef) {
		switch v.Kind {
		case ir.Use:
			if err == nil {
				var key string
				key, err = t.resolve(op, v.Name, v.Index)
				uses = append(uses, key)
				ref := v.Name
				if v.Index >= 0 {
					ref += "#" + strconv.Itoa(v.Index)
				}
				refs = append(refs, ref)
			}
		case ir.Arg:
			args = append(args, v)
		case ir.Result:
			results = append(results, v)
		}
	})
	if err != nil {
		return err
	}
	t.uses = append(t.uses, uses)
	t.refs = append(t.refs, refs)
	for ri, r := range op.Regions {
		t.push()
		for j, a := range args {
			key := fmt.Sprintf("a%d.%d", k, j)
			t.define(a.Name, []string{key})
			t.desc[key] = fmt.Sprintf("%s (an argument of %s at %s)", a.Name, op.Name, t.m.Position(a.Off))
		}
		for bi, b := range r.Blocks {
			j := 0
			t.m.LabelArgs(b, func(a ir.ValueRef) {
				if a.Kind == ir.Arg {
					key := fmt.Sprintf("b%d.%d.%d.%d", k, ri, bi, j)
					t.define(a.Name, []string{key})
					t.desc[key] = fmt.Sprintf("%s (a block argument at %s)", a.Name, t.m.Position(a.Off))
					j++
				}
			})
		}
		for _, b := range r.Blocks {
			if err := t.block(b, nil); err != nil {
				t.pop()
				return err
			}
		}
		t.pop()
	}
	j := 0
	for _, r := range results {
		keys := make([]string, r.Count)
		for i := range keys {
			keys[i] = fmt.Sprintf("r%d.%d", k, j)
			t.desc[keys[i]] = fmt.Sprintf("%s#%d (a result of %s at %s)", r.Name, i, op.Name, t.m.Position(r.Off))
			j++
		}
		t.define(r.Name, keys)
	}
	return nil
}

// splitUse reads "%x" or "%x#3".
func splitUse(s string) (string, int) {
	name, idx, ok := strings.Cut(strings.TrimSpace(s), "#")
	if !ok {
		return name, -1
	}
	i, err := strconv.Atoi(idx)
	if err != nil {
		return name, -2
	}
	return name, i
}

// allReduce evaluates every operand of an all-reduce (or of arc's call) and
// defines its results.
func (t *trace) allReduce(op *ir.Op, c *ir.Collective) error {
	pos := t.m.Position(int(op.Start))
	var opKeys []string
	for _, o := range c.Operands {
		name, idx := splitUse(o)
		if idx == -2 {
			return t.errAt(op, "bad operand %q", o)
		}
		key, err := t.resolve(op, name, idx)
		if err != nil {
			return err
		}
		opKeys = append(opKeys, key)
	}
	var results []ir.ValueRef
	t.m.Values(op, func(v ir.ValueRef) {
		if v.Kind == ir.Result {
			results = append(results, v)
		}
	})
	n := 0
	for _, r := range results {
		n += r.Count
	}
	fused := decision.IsCall(c) && isFused(t.m, op)
	// Unnamed results (n == 0) are allowed: MLIR lets an op whose results
	// nobody uses bind none. They are still evaluated, so a lowering that
	// breaks them is still caught.
	if !fused && (n != 0 && n != len(c.Operands) || len(c.ResultTypes) != len(c.Operands)) {
		return t.errAt(op, "%s has %d operands but %d results (%d result types)", op.Name, len(c.Operands), n, len(c.ResultTypes))
	}
	var slots []*slot
	for i, key := range opKeys {
		k := t.seen[key]
		t.seen[key]++
		s := &slot{key: fmt.Sprintf("ar(%s)#%d", key, k), operandKey: key, op: op, pos: pos, operand: i}
		t.desc[s.key] = fmt.Sprintf("result %d of %s at %s:%s", i, op.Name, t.m.Name, pos)
		if err := t.eval(s, c, i); err != nil {
			var dis *DisagreementError
			if !t.opt.lenient || errors.As(err, &dis) {
				return err
			}
			s.invalid = err
			typ := c.ResultTypes[i]
			s.out = leafValue(t.opt.Seed, s.key, elemOf(typ.Elem), sampleLen(typ.Elems(), t.opt.maxElems()), int(t.grid.Size()))
		}
		t.slots = append(t.slots, s)
		t.byKey[s.key] = s
		t.values[s.key] = s.out
		slots = append(slots, s)
	}
	if fused {
		return t.evalFused(op, c, slots[0])
	}
	i := 0
	for _, r := range results {
		keys := make([]string, r.Count)
		for j := range keys {
			keys[j] = slots[i].key
			i++
		}
		t.define(r.Name, keys)
		t.resKeys[op] = append(t.resKeys[op], keys...)
	}
	return nil
}

// operandValue is the value of one operand, sampled and checked against the
// operand's declared type.
func (t *trace) operandValue(op *ir.Op, key string, typ ir.TensorType) (*value, error) {
	v := t.values[key]
	if t.input != nil {
		if w, err := t.input(key, typ); err != nil {
			return nil, err
		} else if w != nil {
			v = w
		}
	}
	if v != nil {
		if v.elem.name != typ.Elem || len(v.procs) > 0 && len(v.procs[0]) != sampleLen(typ.Elems(), t.opt.maxElems()) {
			return nil, t.errAt(op, "the operand is %s but its value (%s) holds %s", typ, t.describe(key), v.elem.name)
		}
		return v, nil
	}
	v = leafValue(t.opt.Seed, key, elemOf(typ.Elem), sampleLen(typ.Elems(), t.opt.maxElems()), int(t.grid.Size()))
	t.values[key] = v
	return v, nil
}

// eval evaluates operand i of c into s.
func (t *trace) eval(s *slot, c *ir.Collective, i int) error {
	op := c.Op
	in, err := t.operandValue(op, s.operandKey, c.OperandTypes[i])
	if err != nil {
		return err
	}
	s.in = in
	opType, resType := c.OperandTypes[i], c.ResultTypes[i]
	if !sameShape(opType, resType) {
		return t.errAt(op, "%s: operand %d is %s but result %d is %s (C6)", op.Name, i, opType, i, resType)
	}
	if c.Arc != nil && shortName(op.Name) == "custom_call" {
		return t.evalCall(s, c, i)
	}
	s.native = true
	info := t.nativeOp(c)
	if info.err != nil {
		return info.err
	}
	s.mode, s.groups, s.groupOf, s.red = info.mode, info.groups, info.groupOf, info.red
	s.unknown, s.groupsText = info.unknown, info.groupsText
	if s.red.bad != "" {
		return t.errAt(op, "%s: %s (C5)", op.Name, s.red.bad)
	}
	if s.unknown != "" { // an opaque result, the same in both modules
		s.out = leafValue(t.opt.Seed, "unknown "+s.key, elemOf(resType.Elem), len(in.procs[0]), len(in.procs))
		return nil
	}
	res := elemOf(resType.Elem)
	if s.red.elem.name != "" {
		if !promotable(in.elem, s.red.elem) {
			return t.errAt(op, "%s: the computation takes %s, to which operand %d's %s does not promote (C5)", op.Name, s.red.elem.name, i, in.elem.name)
		}
		if res.name != s.red.elem.name {
			return t.errAt(op, "%s: result %d is %s but the computation returns %s (C7)", op.Name, i, resType, s.red.elem.name)
		}
	}
	s.out = reduceGroups(t.grid, s, in, res)
	return nil
}

func sameShape(a, b ir.TensorType) bool {
	if len(a.Shape) != len(b.Shape) {
		return false
	}
	for i := range a.Shape {
		if a.Shape[i] != b.Shape[i] {
			return false
		}
	}
	return true
}

// groupIndex maps each process to its group.
func groupIndex(g Grid, groups [][]Process) []int32 {
	of := make([]int32, g.Size())
	for i := range of {
		of[i] = -1
	}
	for gi, grp := range groups {
		for _, p := range grp {
			of[g.index(p)] = int32(gi)
		}
	}
	return of
}

// reduceGroups applies a native all-reduce: within each process group, the
// operands converted to E and combined from the left in the group's order,
// ((x0 op x1) op x2) ..., the schedule the StableHLO interpreter uses (the
// spec leaves the tree implementation-defined). An opaque computation is a
// hash of its key and of the operands in group order: it tells apart
// computations and orders without interpreting them.
func reduceGroups(g Grid, s *slot, in *value, res elemType) *value {
	out := &value{elem: res, procs: make([][]uint64, len(in.procs))}
	n := 0
	if len(in.procs) > 0 {
		n = len(in.procs[0])
	}
	e := s.red.elem
	for _, grp := range s.groups {
		acc := make([]uint64, n)
		idx := make([]int, len(grp))
		for k, p := range grp {
			idx[k] = g.index(p)
		}
		for i := range n {
			if s.red.op == "" {
				h := s.red.key ^ 0xA0761D6478BD642F
				for _, p := range idx {
					h = mix(h ^ in.procs[p][i])
				}
				acc[i] = h & res.mask()
				continue
			}
			a := convert(in.elem, e, in.procs[idx[0]][i])
			for _, p := range idx[1:] {
				a = e.apply(s.red.op, a, convert(in.elem, e, in.procs[p][i]))
			}
			acc[i] = a
		}
		for _, p := range idx {
			out.procs[p] = acc
		}
	}
	return out
}

// opInfo is what a native all-reduce's operands share.
type opInfo struct {
	mode    Mode
	groups  [][]Process
	groupOf []int32
	red     reducer
	err     error
	// unknown says why the groups are unknown (mesh axes of a mesh package
	// ir does not resolve); groupsText is then the attribute as written.
	unknown, groupsText string
}

// nativeOp reads an all_reduce's mode, process groups and computation,
// once per op.
func (t *trace) nativeOp(c *ir.Collective) *opInfo {
	if info := t.ops[c.Op]; info != nil {
		return info
	}
	info := &opInfo{}
	t.ops[c.Op] = info
	op := c.Op
	var err error
	if info.mode, err = AllReduceMode(c.Channel, c.UseGlobalDeviceIDs); err != nil {
		info.err = t.errAt(op, "%s: %v", op.Name, err)
		return info
	}
	if c.Unresolved != "" {
		v, _ := t.m.Attr(op, "replica_groups")
		info.unknown, info.groupsText = c.Unresolved, strings.Join(strings.Fields(v), " ")
		info.red = readReducer(t.m, op)
		return info
	}
	ids, err := groupIDs(t.m, c)
	if err != nil {
		info.err = t.errAt(op, "%s: %v", op.Name, err)
		return info
	}
	if info.groups, err = t.grid.Expand(info.mode, ids); err != nil {
		info.err = &gridError{t.errAt(op, "%s: replica_groups: %v", op.Name, err)}
		return info
	}
	info.groupOf = groupIndex(t.grid, info.groups)
	info.err = t.crossCheck(c, info)
	info.red = readReducer(t.m, op)
	return info
}

// groupIDs are the ids an all_reduce's replica_groups name, as written
// (mesh axes expanded by package ir, padding kept).
func groupIDs(m *ir.Module, c *ir.Collective) ([][]int64, error) {
	if c.GroupSpelling == "mesh_axes" {
		return c.Groups, nil
	}
	if v, ok := m.Attr(c.Op, "replica_groups"); ok {
		return parseGroups(v)
	}
	return nil, nil
}

// gridError says that an all-reduce's groups do not fit the grid the
// module is interpreted on.
type gridError struct{ err error }

func (e *gridError) Error() string { return e.err.Error() }
func (e *gridError) Unwrap() error { return e.err }

// DisagreementError says that package spec expands an all-reduce's groups
// otherwise than the oracle: a bug in one of them.
type DisagreementError struct{ Err error }

func (e *DisagreementError) Error() string { return e.Err.Error() }
func (e *DisagreementError) Unwrap() error { return e.Err }

// crossCheck compares the oracle's process groups with package spec's, where
// spec accepts the op and expands it (it may reject more, and expands only
// grids it bounds).
func (t *trace) crossCheck(c *ir.Collective, s *opInfo) error {
	if t.spec == nil {
		return nil
	}
	res, err := t.spec.Check(c)
	if err != nil || res.Processes == nil || res.Replicas != t.grid.Replicas || res.Partitions != t.grid.Partitions {
		return nil // spec rejects, does not expand, or reads another grid (one the module does not state)
	}
	var theirs [][]Process
	for _, g := range res.Processes {
		if len(g) == 0 {
			continue
		}
		pg := make([]Process, len(g))
		for i, p := range g {
			pg[i] = Process{p.Replica, p.Partition}
		}
		theirs = append(theirs, pg)
	}
	if fmt.Sprint(theirs) != fmt.Sprint(s.groups) || res.Mode.String() != s.mode.String() {
		return &DisagreementError{t.errAt(c.Op, "package spec reads the groups of %s as %s %v, the oracle as %s %v", c.Op.Name, res.Mode, theirs, s.mode, s.groups)}
	}
	t.crossChecked++
	return nil
}
