package passes

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/arcpass/arc/abi"
	"github.com/arcpass/arc/decision"
	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/spec"
)

// Report is what arc tells the user about a module: one row per collective
// operand (a multi-operand all-reduce is decided operand by operand), and the
// environment the lowered program needs. `arc compile --report` and
// `arc inspect --json` share this schema. It is a view of an Analysis.
type Report struct {
	Target      string            `json:"target"`
	Module      string            `json:"module"`
	Collectives []Row             `json:"collectives"`
	Env         map[string]string `json:"env"`
	// Notes are what a person should know of the whole compile, such as a
	// --quant codec no row uses, and why.
	Notes []string `json:"notes,omitempty"`
	// Transfers counts the module's send and recv ops between devices (not
	// host transfers), which XLA runs on the platform's collective library
	// as it runs the native collectives (NativeLine).
	Transfers int `json:"-"`
}

// Row describes one collective operand and, once selected, its decision.
type Row struct {
	Index     int       `json:"index"`   // row number: what --force INDEX refers to
	Op        string    `json:"op"`      // all_reduce, reduce_scatter, ...
	Line      int       `json:"line"`    // where the op starts in the input
	Operand   int       `json:"operand"` // position among the op's operands
	DType     string    `json:"dtype"`
	Shape     []int64   `json:"shape"`
	Bytes     int64     `json:"bytes"`
	Reduction string    `json:"reduction"`
	Groups    [][]int64 `json:"groups"`
	GroupSize int       `json:"group_size"`
	// Decision is what the module records for the operand (none yet: the
	// zero Decision).
	decision.Decision
	// Mode is the all-reduce's process-group mode (spec.Mode).
	Mode string `json:"mode,omitempty"`

	// Flattened are the groups as flattened process ids (replica *
	// num_partitions + partition), in the order of Groups, which holds
	// their global device ids.
	Flattened [][]int64 `json:"-"`
	// Unlowerable says why arc's kernels would not compute exactly what
	// the op says (spec.Result.Reason), or why arc could not split the op
	// by operand, or "".
	Unlowerable string         `json:"-"`
	Collective  *ir.Collective `json:"-"`
	// Partitions is the module's num_partitions (0 when it does not say),
	// and Manual whether the op runs per device there (ir.Manual): XLA's
	// SPMD partitioner partitions every other op of a partitioned program.
	Partitions int64 `json:"-"`
	Manual     bool  `json:"-"`
	// Fusion is the residual add and norm the fuse pass fused with the
	// all-reduce, as it matched them, in the analysis's module: the
	// lowering carries it out without matching again (nil: not fused, or
	// fused by a compile before this one).
	Fusion *NormFusion `json:"-"`
	// Epilogue is the fuse pass's word on an FP8 epilogue after the norm's
	// y (matched but not fused, or why it is not one), for the table
	// (--explain) only: written into arc.fuse_reason it would change what
	// arc emits for every such program.
	Epilogue string `json:"-"`
}

// Analysis is what the analyse pass learns of a module, once per compile:
// its collectives (arc's calls among them), every all-reduce checked
// against StableHLO's rules (package spec), as rows of one operand each,
// with the decisions the module records. Select decides on its rows and
// writes the decisions into the module; the lowering reads the rows' facts
// (groups, devices) and the module's decisions; the report is a view of it.
type Analysis struct {
	// Module is the module whose ops the rows' collectives are: the one
	// analysed, then the one select wrote its decisions on (Rebind).
	Module *ir.Module
	Name   string // the module's name
	Rows   []Row
	// Target and Env are what the module records (decision.Target and
	// decision.Env).
	Target string
	Env    map[string]string

	collectives []*ir.Collective
	// checked are package spec's results, one per collective.
	checked []spec.Result
}

// Analyse lists the module's collectives, one row per operand, with the
// decisions the module carries (select's, or arc's lowered calls), and the
// target and environment it records. Every all-reduce is checked against
// StableHLO's rules (package spec), which expand its groups into devices
// through da (nil: XLA's default assignment): a program the specification
// rejects is an error at its position.
func Analyse(m *ir.Module, da spec.DeviceAssignment) (*Analysis, error) {
	cs, err := decision.Collectives(m)
	if err != nil {
		return nil, err
	}
	checked, err := spec.CheckAll(m, cs, da)
	if err != nil {
		return nil, err
	}
	markSpecChecked(m, da) // the verify pass of a module no pass changed finds it checked
	info := m.Info()
	a := &Analysis{Name: info.Name, Rows: []Row{}, checked: checked}
	var manual *ir.Manual
	if info.NumPartitions > 1 {
		manual = m.Manual()
	}
	for i, c := range cs {
		res := &checked[i]
		groups, flat, reduction, mode, err := groupsOf(m, info, c, res)
		if err != nil {
			return nil, err
		}
		split := ""
		if c.Kind == "all_reduce" && !decision.IsCall(c) {
			split = decision.Unsplittable(m, c.Op)
		}
		for k, t := range c.OperandTypes {
			row := Row{
				Index:      len(a.Rows),
				Op:         c.Kind,
				Line:       c.Pos.Line,
				Operand:    k,
				DType:      t.Elem,
				Shape:      append([]int64{}, t.Shape...),
				Bytes:      t.Bytes(),
				Reduction:  reduction,
				Groups:     groups,
				GroupSize:  groupSize(groups),
				Mode:       mode,
				Flattened:  flat,
				Collective: c,
				Partitions: info.NumPartitions,
				Manual:     manual != nil && manual.Of(c.Op),
			}
			if c.Kind == "all_reduce" {
				row.Unlowerable = cmp.Or(res.Reason(k), split)
			}
			if row.Groups == nil {
				row.Groups = [][]int64{}
			}
			a.Rows = append(a.Rows, row)
		}
	}
	return a, a.read(m, cs)
}

// Rebind points the analysis at m, a module whose collectives are those of
// the analysed one with other attributes (what select writes), and reads
// the decisions m records.
func (a *Analysis) Rebind(m *ir.Module) error {
	cs, err := decision.Collectives(m)
	if err != nil {
		return err
	}
	same := len(cs) == len(a.collectives)
	for i := 0; same && i < len(cs); i++ {
		was := a.collectives[i]
		same = cs[i].Op.Name == was.Op.Name && len(cs[i].OperandTypes) == len(was.OperandTypes)
	}
	if !same {
		return fmt.Errorf("internal error: the module's collectives changed under its analysis")
	}
	return a.read(m, cs)
}

// read fills the rows with the decisions of m, whose collectives are cs,
// and the analysis with the target and environment m records.
func (a *Analysis) read(m *ir.Module, cs []*ir.Collective) error {
	a.Module, a.collectives = m, cs
	env, err := decision.Env(m)
	if err != nil {
		return err
	}
	a.Env, a.Target = env, decision.Target(m)
	var ds []decision.Decision
	for i := range a.Rows {
		row := &a.Rows[i]
		c := cs[row.Collective.Index]
		if row.Operand == 0 {
			if ds, err = decision.Read(m, c); err != nil {
				return err
			}
		}
		row.Collective = c
		row.Decision = decision.Decision{}
		if ds != nil {
			row.apply(ds[row.Operand])
			if p, ok := row.Payload.(RowPayload); ok {
				if err := p.Check(m, row); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// Report is the analysis as the user reads it. target names the target in
// the report; "" takes the one the module records.
func (a *Analysis) Report(target string) *Report {
	return &Report{Target: cmp.Or(target, a.Target), Module: a.Name, Collectives: slices.Clone(a.Rows), Env: maps.Clone(a.Env),
		Transfers: transfers(a.Module)}
}

// transfers counts m's send and recv ops that are not host transfers.
func transfers(m *ir.Module) int {
	if m == nil || !strings.Contains(m.Src, ".send") && !strings.Contains(m.Src, ".recv") {
		return 0
	}
	n := 0
	m.Walk(func(op *ir.Op) bool {
		switch op.Name {
		case "stablehlo.send", "stablehlo.recv", "mhlo.send", "mhlo.recv":
			host := slices.ContainsFunc(m.OpAttrs(op), func(a ir.Attr) bool {
				return a.Name == "is_host_transfer" && strings.TrimSpace(a.Value) == "true"
			})
			if !host {
				n++
			}
		}
		return true
	})
	return n
}

// nativeLibrary names the library that runs a target's native collectives
// (abi.FamilyInfo.Native); "" where the platform's compiler runs them
// itself, and for none, whose collectives are what the module says.
func nativeLibrary(target string) string {
	f, _ := abi.FamilyOf(target)
	return f.Native
}

// NativeLine says, for a target whose native collectives run on a library
// of their own, which of the module's collectives stay with it and so
// whether the program needs a communicator of it (a library makes one per
// group of devices when a native collective first runs): none when every collective runs on arc's kernels
// and no send or recv crosses devices. A partitioned program may get
// collectives from XLA's SPMD partitioner that the module does not state.
// "" for other targets and a report no pass has decided.
func (r *Report) NativeLine() string {
	lib := nativeLibrary(r.Target)
	if lib == "" {
		return ""
	}
	native, allReduces, partitions := 0, 0, int64(0)
	for _, row := range r.Collectives {
		partitions = max(partitions, row.Partitions)
		if row.Lowering != "" && row.Lowering != "native" {
			continue
		}
		native++
		if row.Op == "all_reduce" {
			allReduces++
		}
	}
	if native > 0 || r.Transfers > 0 {
		what := fmt.Sprintf("%d of %d operand(s) (%d all-reduce)", native, len(r.Collectives), allReduces)
		if r.Transfers > 0 {
			what += fmt.Sprintf(", and %d send/recv between devices", r.Transfers)
		}
		return fmt.Sprintf("native collectives: %s: these run on %s, so the program still makes %s communicators", what, lib, lib)
	}
	if partitions > 1 {
		return fmt.Sprintf("native collectives: 0 (every collective the module states runs on arc's kernels); XLA's SPMD partitioner may add collectives of its own (num_partitions = %d), which would need %s", partitions, lib)
	}
	return fmt.Sprintf("native collectives: 0 (every collective runs on arc's kernels): the program needs no %s communicator", lib)
}

// NewReport analyses a module (Analyse) and reports it.
func NewReport(m *ir.Module, target string, da spec.DeviceAssignment) (*Report, error) {
	a, err := Analyse(m, da)
	if err != nil {
		return nil, err
	}
	return a.Report(target), nil
}

// groupsOf returns a collective's groups as devices and as flattened
// process ids, its reduction and its mode. An all-reduce's come from the
// specification's expansion; arc's call carries them (devices, groups);
// other collectives keep the ids they write.
func groupsOf(m *ir.Module, info ir.Info, c *ir.Collective, res *spec.Result) (groups, flat [][]int64, reduction, mode string, err error) {
	switch {
	case decision.IsCall(c):
		call, err := decision.ParseCall(m, c.Op)
		if err != nil {
			return nil, nil, "", "", err
		}
		return call.DeviceGroups(), c.Groups, "sum", spec.FlattenedIDs.String(), nil // the call's groups are flattened ids
	case c.Kind == "all_reduce":
		groups = res.Groups
		if groups == nil {
			groups = res.LogicalGroups
		}
		return groups, res.FlattenedIDs(), res.Reduction, res.Mode.String(), nil
	}
	return implicitGroups(info, c, m.GroupLimit()), nil, c.Reduction, "", nil
}

// A RowPayload is a target's payload (decision.Payload) that knows the row
// it is read on: it checks itself against the op's own facts, so that a
// module whose marks a person or another tool wrote fails at the op, and it
// may show the op's groups in the order it gives them.
type RowPayload interface {
	decision.Payload
	// Check says what is wrong with the payload on row, as an error at
	// the op, or nil.
	Check(m *ir.Module, row *Row) error
	// Shown are the groups a table prints for the row (nil: its own).
	Shown() [][]int64
}

// apply fills a row with a decision. A payload holds under its own
// lowering only; an op the target lowered already records none, and gets
// the one its kind gives the lowered op (decision.PayloadKind.Lowered).
func (row *Row) apply(d decision.Decision) {
	row.Decision = d
	kind, ok := decision.PayloadKindOf(d.Lowering)
	switch {
	case !ok:
		row.Payload = nil
	case row.Payload == nil && kind.Lowered != nil:
		row.Payload = kind.Lowered(row.Collective)
	}
}

// MarshalJSON writes the row's fields with its decision's payload among
// the decision's, before the fusion's, where the report shows a target's
// own fields.
func (row Row) MarshalJSON() ([]byte, error) {
	type plain Row // the fields, without this method
	b, err := json.Marshal(plain(row))
	if err != nil || row.Payload == nil {
		return b, err
	}
	p, err := json.Marshal(row.Payload)
	if err != nil {
		return nil, err
	}
	return insertMembers(b, p, "fuse", "fuse_reason", "mode")
}

// insertMembers adds the members of the JSON object add to the object obj,
// before the first of the keys before, or at its end.
func insertMembers(obj, add []byte, before ...string) ([]byte, error) {
	members := func(b []byte) ([]string, []json.RawMessage, error) {
		var keys []string
		var values []json.RawMessage
		dec := json.NewDecoder(bytes.NewReader(b))
		if _, err := dec.Token(); err != nil { // {
			return nil, nil, err
		}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, nil, err
			}
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				return nil, nil, err
			}
			keys, values = append(keys, k.(string)), append(values, v)
		}
		return keys, values, nil
	}
	keys, values, err := members(obj)
	if err != nil {
		return nil, err
	}
	addKeys, addValues, err := members(add)
	if err != nil {
		return nil, err
	}
	at := len(keys)
	if i := slices.IndexFunc(keys, func(k string) bool { return slices.Contains(before, k) }); i >= 0 {
		at = i
	}
	keys, values = slices.Insert(keys, at, addKeys...), slices.Insert(values, at, addValues...)
	var out bytes.Buffer
	out.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			out.WriteByte(',')
		}
		name, _ := json.Marshal(k)
		out.Write(name)
		out.WriteByte(':')
		out.Write(values[i])
	}
	out.WriteByte('}')
	return out.Bytes(), nil
}

// implicitGroups returns the op's groups, or, for an op that leaves them out
// and runs across replicas only (no channel), the one group of all replicas
// that XLA reads an empty list as, when the module says how many there are.
func implicitGroups(info ir.Info, c *ir.Collective, limit int64) [][]int64 {
	if len(c.Groups) > 0 || c.Unresolved != "" || c.Kind == "collective_permute" || c.Channel > 0 ||
		c.UseGlobalDeviceIDs || info.NumReplicas < 1 || info.NumPartitions > 1 || info.NumReplicas > limit {
		return c.Groups // groups beyond what the module's size allows stay unlisted
	}
	all := make([]int64, info.NumReplicas)
	for i := range all {
		all[i] = int64(i)
	}
	return [][]int64{all}
}

// groupSize is the size of the largest group.
func groupSize(groups [][]int64) int {
	n := 0
	for _, g := range groups {
		n = max(n, len(g))
	}
	return n
}

// WriteJSON writes the report as indented JSON, with lists of numbers (shapes,
// groups) kept on one line.
func (r *Report) WriteJSON(w io.Writer) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	data = append(compactNumberLists(data), '\n')
	_, err = w.Write(data)
	return err
}

// compactNumberLists writes each array of numbers of indented JSON on one
// line ("[0,1,2]"), leaving strings as they are (a reason may hold "[0 1]").
func compactNumberLists(data []byte) []byte {
	out := make([]byte, 0, len(data))
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '"':
			j := i + 1
			for ; j < len(data) && data[j] != '"'; j++ {
				if data[j] == '\\' {
					j++
				}
			}
			out = append(out, data[i:min(j+1, len(data))]...)
			i = j
			continue
		case '[':
			j := i + 1
			for j < len(data) && strings.IndexByte("-+.,0123456789eE \n\t\r", data[j]) >= 0 {
				j++
			}
			if j < len(data) && data[j] == ']' {
				for _, c := range data[i : j+1] {
					if c != ' ' && c != '\n' && c != '\t' && c != '\r' {
						out = append(out, c)
					}
				}
				i = j
				continue
			}
		}
		out = append(out, data[i])
	}
	return out
}

// WriteTable writes the report as a table a person can read. A module no
// pass has decided yet gets the shape columns only, and a hint.
func (r *Report) WriteTable(w io.Writer) error {
	name := r.Module
	if name == "" {
		name = "(unnamed)"
	}
	if r.Target == "" {
		fmt.Fprintf(w, "module %s: %d collective operand(s)\n", name, len(r.Collectives))
	} else {
		fmt.Fprintf(w, "module %s, target %s: %d collective operand(s)\n", name, r.Target, len(r.Collectives))
	}
	if len(r.Collectives) == 0 {
		if line := r.NativeLine(); line != "" && r.Transfers > 0 {
			fmt.Fprintf(w, "\n%s\n", line)
		}
		r.writeNotes(w)
		return nil
	}
	decided := false
	for _, row := range r.Collectives {
		decided = decided || row.Lowering != ""
	}
	header := []string{"#", "op", "line", "dtype", "shape", "bytes", "reduce", "ranks", "groups"}
	if decided {
		header = append(header, "lowering", "codec", "est us", "why")
	}
	tw := newTable(header...)
	var est, native float64
	for _, row := range r.Collectives {
		op := row.Op
		if row.Collective != nil && len(row.Collective.OperandTypes) > 1 {
			op = fmt.Sprintf("%s[%d]", op, row.Operand)
		}
		reduce := row.Reduction
		if reduce == "" {
			reduce = "-"
		}
		cells := []string{fmt.Sprint(row.Index), op, fmt.Sprint(row.Line), row.DType, ir.TensorType{Shape: row.Shape}.ShapeString(),
			HumanBytes(row.Bytes), reduce, fmt.Sprint(row.GroupSize), groupsString(shownGroups(row))}
		if decided {
			lowering, codec, e := row.Lowering, row.Codec, "-"
			if lowering == "" {
				lowering = "-"
			}
			if codec == "" {
				codec = "-"
			}
			if row.EstUS > 0 {
				e = fmt.Sprintf("%.1f", row.EstUS)
				if row.NativeUS > 0 && row.Lowering != "native" {
					e += fmt.Sprintf(" (native %.1f)", row.NativeUS)
				}
				if row.NativeUS > 0 {
					est, native = est+row.EstUS, native+row.NativeUS
				}
			}
			why := row.Reason
			if row.FuseReason != "" {
				why += "; " + row.FuseReason
			}
			if row.Epilogue != "" {
				why += "; " + row.Epilogue
			}
			if row.Fuse != "" {
				lowering += "+" + row.Fuse
			}
			cells = append(cells, lowering, codec, e, why)
		}
		tw.add(cells...)
	}
	tw.write(w)
	if !decided {
		r.writeNotes(w)
		fmt.Fprintln(w, "\nno lowering chosen yet: `arc compile --target TARGET --explain` shows what arc would do")
		return nil
	}
	if native > 0 {
		fmt.Fprintf(w, "\nall collectives with an estimate: %.1f us with arc, %.1f us native (%.2fx)\n", est, native, native/est)
	}
	if line := r.NativeLine(); line != "" {
		fmt.Fprintf(w, "\n%s\n", line)
	}
	r.writeNotes(w)
	writeLegend(w, "lowerings", r.Collectives, func(row Row) string { return row.Lowering }, loweringMeaning)
	writeLegend(w, "codecs", r.Collectives, func(row Row) string { return row.Codec }, codecMeaning)
	if len(r.Env) > 0 {
		keys := make([]string, 0, len(r.Env))
		for k := range r.Env {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		fmt.Fprintln(w, "\nenvironment the program needs:")
		for _, k := range keys {
			fmt.Fprintf(w, "  %s=%q\n", k, r.Env[k])
		}
	}
	return nil
}

func (r *Report) writeNotes(w io.Writer) {
	for _, n := range r.Notes {
		fmt.Fprintf(w, "\nnote: %s\n", n)
	}
}

// writeLegend explains, one line each, the words of one column that a table uses.
func writeLegend(w io.Writer, title string, rows []Row, word func(Row) string, meaning map[string]string) {
	var used []string
	for _, row := range rows {
		if _, ok := meaning[word(row)]; ok && !slices.Contains(used, word(row)) {
			used = append(used, word(row))
		}
	}
	if len(used) == 0 {
		return
	}
	sort.Strings(used)
	fmt.Fprintf(w, "\n%s:\n", title)
	for _, u := range used {
		fmt.Fprintf(w, "  %-11s %s\n", u, meaning[u])
	}
}

// groupsString prints groups compactly: "{0 1} {2 3}", or the first two and
// a count: "{0 4} {1 5} ... (4 groups)".
func groupsString(gs [][]int64) string {
	if len(gs) == 0 {
		return "all"
	}
	parts := make([]string, 0, 3)
	for i, g := range gs {
		if i == 2 && len(gs) > 3 {
			parts = append(parts, fmt.Sprintf("... (%d groups)", len(gs)))
			break
		}
		parts = append(parts, "{"+strings.Trim(fmt.Sprint(g), "[]")+"}")
	}
	return strings.Join(parts, " ")
}

// HumanBytes prints a byte count with a binary unit ("16 KiB").
func HumanBytes(n int64) string {
	switch {
	case n < 0:
		return "?"
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return trimUnit(float64(n)/(1<<10), "KiB")
	case n < 1<<30:
		return trimUnit(float64(n)/(1<<20), "MiB")
	default:
		return trimUnit(float64(n)/(1<<30), "GiB")
	}
}

func trimUnit(v float64, unit string) string {
	s := fmt.Sprintf("%.1f", v)
	s = strings.TrimSuffix(s, ".0")
	return s + " " + unit
}

// table aligns columns; the last column is left unpadded.
type table struct{ rows [][]string }

func newTable(header ...string) *table { return &table{rows: [][]string{header}} }

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) write(w io.Writer) {
	widths := make([]int, len(t.rows[0]))
	for _, r := range t.rows {
		for i, c := range r {
			widths[i] = max(widths[i], len(c))
		}
	}
	for _, r := range t.rows {
		var b strings.Builder
		for i, c := range r {
			if i == len(r)-1 {
				b.WriteString(c)
				break
			}
			b.WriteString(c)
			b.WriteString(strings.Repeat(" ", widths[i]-len(c)+2))
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

// codecMeaning explains each codec in one line, for tables (abi's table;
// none, which sends no codec, has no line).
var codecMeaning = meanings(abi.CodecTable, func(c abi.CodecInfo) (string, string) { return c.Name, c.Desc })

// loweringMeaning explains each lowering word in one line, for tables.
var loweringMeaning = meanings(abi.LoweringTable, func(l abi.LoweringInfo) (string, string) { return l.Name, l.Desc })

// meanings maps each word of a table to its description, where it has one.
func meanings[T any](table []T, word func(T) (string, string)) map[string]string {
	out := map[string]string{}
	for _, r := range table {
		if w, desc := word(r); desc != "" {
			out[w] = desc
		}
	}
	return out
}

// shownGroups are the groups a table prints: in the order a payload gives
// them, where one does.
func shownGroups(row Row) [][]int64 {
	if p, ok := row.Payload.(RowPayload); ok && len(p.Shown()) > 0 {
		return p.Shown()
	}
	return row.Groups
}
