package ir

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// CollectiveKinds are the StableHLO collectives arc lists, by short name.
var CollectiveKinds = []string{"all_reduce", "reduce_scatter", "all_gather", "all_to_all", "collective_permute", "collective_broadcast"}

// ArcMark is the attribute by which arc marks a collective it has decided
// (package decision writes it, with the rest of its decisions): every view
// of the op then knows that arc has it (Collective.Arc).
const ArcMark = "arc.lowering"

// Collective is a typed view of one collective op.
type Collective struct {
	Index int    // position among the module's collectives, from 0
	Op    *Op    // the op itself
	Kind  string // "all_reduce", "reduce_scatter", ...
	Pos   Pos

	Operands     []string // value names, "%x" or "%0#1"
	OperandTypes []TensorType
	ResultTypes  []TensorType

	// Reduction is sum, max, min, product, and, or, other, or "" for
	// collectives that do not reduce.
	Reduction string
	// Groups are the device (or replica) groups, expanded; nil if the op has
	// none. Collectives that spell the same groups share them: read-only.
	Groups [][]int64
	// GroupSpelling is how the module wrote the groups: "dense",
	// "mesh_axes", "pairs" (collective_permute), or "".
	GroupSpelling string
	Mesh          string // mesh name, for mesh-axes groups
	// Unresolved says why the groups are unknown although the op has
	// some: mesh-axes groups that name a symbol no mesh of the module
	// defines, or that expand to more device ids than arc reads for a
	// module of its size. Groups is nil then.
	Unresolved         string
	Channel            int64 // channel_handle's handle, -1 when absent
	ChannelType        int64
	UseGlobalDeviceIDs bool

	// Arc is set when arc has decided or lowered the collective already: an
	// all-reduce that carries ArcMark, or arc's own call (which package
	// decision lists with the module's collectives).
	Arc *ArcLowering
}

// ArcLowering is arc's mark on a collective: the lowering it decided.
// What else arc recorded is package decision's to read.
type ArcLowering struct {
	Lowering string // native, oneshot, twoshot, quickreduce, lowprec, ring
}

// Bytes is the total size of the operands, or -1 if unknown.
func (c *Collective) Bytes() int64 {
	var n int64
	for _, t := range c.OperandTypes {
		b := t.Bytes()
		if b < 0 {
			return -1
		}
		n += b
	}
	return n
}

// GroupSize is the size of the largest group (0 without groups).
func (c *Collective) GroupSize() int {
	n := 0
	for _, g := range c.Groups {
		n = max(n, len(g))
	}
	return n
}

// collectiveKind returns the short kind of an op name, or "".
func collectiveKind(name string) string {
	short, ok := strings.CutPrefix(name, "stablehlo.")
	if !ok {
		short, ok = strings.CutPrefix(name, "mhlo.")
	}
	if !ok {
		return ""
	}
	for _, k := range CollectiveKinds {
		if short == k {
			return k
		}
	}
	return ""
}

// Collectives lists the module's StableHLO and MHLO collectives in source
// order. arc's own custom calls are not among them: their format is package
// decision's, whose Collectives adds them.
func (m *Module) Collectives() ([]*Collective, error) {
	r, err := m.newGroupReader()
	if err != nil {
		return nil, err
	}
	var out []*Collective
	m.Walk(func(op *Op) bool {
		var c *Collective
		c, err = m.collective(op, r)
		if err != nil {
			return false
		}
		if c != nil {
			c.Index = len(out)
			out = append(out, c)
		}
		return true
	})
	return out, err
}

// Collective returns the typed view of op, or nil if it is not a collective.
func (m *Module) Collective(op *Op) (*Collective, error) {
	r, err := m.newGroupReader()
	if err != nil {
		return nil, err
	}
	return m.collective(op, r)
}

// groupReader reads the groups of a module's collectives: its meshes, the
// budget of ids they may expand to, and the groups read so far by their
// spelling, since collectives over the same axes share them.
type groupReader struct {
	meshes map[string]*Mesh
	b      *budget
	read   map[string]readResult
}

type readResult struct {
	groups         [][]int64
	spelling, mesh string
	err            error
}

func (m *Module) newGroupReader() (*groupReader, error) {
	b := m.newBudget()
	meshes, err := m.meshes(b)
	if err != nil {
		return nil, err
	}
	return &groupReader{meshes: meshes, b: b, read: map[string]readResult{}}, nil
}

// groups is readGroups, once per spelling.
func (r *groupReader) groups(v string) ([][]int64, string, string, error) {
	res, ok := r.read[v]
	if !ok {
		res.groups, res.spelling, res.mesh, res.err = readGroups(v, r.meshes, r.b)
		r.read[v] = res
	}
	return res.groups, res.spelling, res.mesh, res.err
}

func (m *Module) collective(op *Op, r *groupReader) (*Collective, error) {
	kind := collectiveKind(op.Name)
	if kind == "" {
		return nil, nil
	}
	attrs := m.Attrs(op)
	c := &Collective{Op: op, Kind: kind, Pos: m.Position(int(op.Start)), Channel: -1}
	errAt := func(format string, args ...any) error {
		return m.Errorf(int(op.Start), "%s: %s", op.Name, fmt.Sprintf(format, args...))
	}
	c.Operands = m.Operands(op)
	ins, outs, ok := m.FuncType(op)
	if !ok {
		return nil, errAt("no type signature")
	}
	if ins == nil && !op.Generic { // pretty form: the types of the operands, or one for all
		ins = outs
		if len(outs) == 1 {
			for len(ins) < len(c.Operands) {
				ins = append(ins, outs[0])
			}
		}
	}
	for _, t := range ins {
		tt, err := ParseTensorType(t)
		if err != nil {
			return nil, errAt("operand type: %v", err)
		}
		c.OperandTypes = append(c.OperandTypes, tt)
	}
	for _, t := range outs {
		tt, err := ParseTensorType(t)
		if err != nil {
			return nil, errAt("result type: %v", err)
		}
		c.ResultTypes = append(c.ResultTypes, tt)
	}
	if len(c.OperandTypes) != len(c.Operands) {
		return nil, errAt("%d operands but %d operand types", len(c.Operands), len(c.OperandTypes))
	}
	if kind == "all_reduce" || kind == "reduce_scatter" {
		c.Reduction = m.reduction(op)
	}
	for _, a := range attrs {
		switch a.Name {
		case "replica_groups", "source_target_pairs":
			groups, spelling, mesh, err := r.groups(a.Value)
			var unresolved *unresolvedMesh
			var over *overBudget
			switch {
			case errors.As(err, &unresolved):
				c.Unresolved = fmt.Sprintf("%s: %v", a.Name, err)
				spelling, mesh, err = "mesh_axes", unresolved.symbol[1:], nil
			case errors.As(err, &over):
				c.Unresolved = fmt.Sprintf("%s: %v", a.Name, err)
				err = nil
			}
			if err != nil {
				return nil, errAt("%s: %v", a.Name, err)
			}
			c.Groups, c.GroupSpelling, c.Mesh = groups, spelling, mesh
			if a.Name == "source_target_pairs" {
				c.GroupSpelling = "pairs"
			}
		case "channel_handle":
			f := angleFields(a.Value, "#stablehlo.channel_handle<")
			if len(f) == 0 { // MHLO's spelling
				f = angleFields(a.Value, "#mhlo.channel_handle<")
			}
			h, err1 := strconv.ParseInt(f["handle"], 10, 64)
			t, err2 := strconv.ParseInt(f["type"], 10, 64)
			if err1 != nil || err2 != nil {
				return nil, errAt("bad channel_handle %q", a.Value)
			}
			c.Channel, c.ChannelType = h, t
		case "use_global_device_ids":
			c.UseGlobalDeviceIDs = a.Value == "" || a.Value == "true"
		case ArcMark:
			c.Arc = &ArcLowering{Lowering: unquote(a.Value)}
		}
	}
	return c, nil
}

// readGroups expands either spelling of replica groups.
func readGroups(v string, meshes map[string]*Mesh, b *budget) (groups [][]int64, spelling, mesh string, err error) {
	v = strings.TrimSpace(v)
	if strings.HasPrefix(v, "dense<") {
		rows, err := parseDenseInts(v, b)
		if err != nil {
			return nil, "dense", "", err
		}
		for _, r := range rows {
			g := make([]int64, 0, len(r))
			for _, id := range r {
				if id >= 0 { // ragged groups are padded with -1
					g = append(g, id)
				}
			}
			groups = append(groups, g)
		}
		return groups, "dense", "", nil
	}
	const prefix = "#stablehlo.replica_group_mesh_axes<"
	if strings.HasPrefix(v, prefix) && strings.HasSuffix(v, ">") {
		ms, refs, err := parseMeshAxes(v[len(prefix):len(v)-1], meshes, b)
		if err != nil {
			return nil, "", "", err
		}
		groups, err := expandMeshAxes(ms, refs, b)
		if err != nil {
			return nil, "mesh_axes", ms.Name, err
		}
		return groups, "mesh_axes", ms.Name, nil
	}
	return nil, "", "", fmt.Errorf("unknown spelling %q", v)
}

// reduction names the computation of a reducing collective's region: the
// element-wise op it applies when the region is exactly that op of its two
// arguments and its return (regionOp), else other. Package spec checks the
// region's types and says why a computation is other.
func (m *Module) reduction(op *Op) string {
	full := m.regionOp(op)
	dialect, name, _ := strings.Cut(full, ".")
	if dialect != "stablehlo" && dialect != "mhlo" {
		return "other"
	}
	switch name {
	case "add":
		return "sum"
	case "maximum":
		return "max"
	case "minimum":
		return "min"
	case "multiply":
		return "product"
	case "and", "or", "xor":
		return name
	}
	return "other"
}

// leadingSymbol splits "@name rest" into the symbol's name (a quoted name,
// @"...", unquoted) and the rest; ok is false when h does not start with '@'.
func leadingSymbol(h string) (name, rest string, ok bool) {
	if !strings.HasPrefix(h, "@") {
		return "", h, false
	}
	if strings.HasPrefix(h, `@"`) {
		for i := 2; i < len(h); i++ {
			if h[i] == '\\' {
				i++
			} else if h[i] == '"' {
				return unquote(h[1 : i+1]), h[i+1:], true
			}
		}
	}
	end := 1
	for end < len(h) && isIdentChar(h[end]) {
		end++
	}
	return h[1:end], h[end:], true
}

// stripType drops a trailing ": type" from an attribute value ("2 : i64").
func stripType(s string) string {
	if colon := indexTop(s, ':'); colon > 0 && !strings.HasPrefix(s, "array<") {
		return strings.TrimSpace(s[:colon])
	}
	return s
}
