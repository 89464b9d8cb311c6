// Package decision owns everything arc writes on a module, and is the one
// place that reads it back: the decisions select records on each all-reduce
// (arc.* attributes), the module's target and environment, Call, the
// custom call the GPU lowering writes in an all-reduce's place, whose
// backend_config is the contract with the runtime's handler
// (gpu/arc_ffi.cc), and what a call keeps of the op it replaces
// (KeptAttrs). The lowering, the report, the oracle and the targets all go
// through it; its tests check the handler's side.
//
// ir cannot import this package (it reads through ir), so ir keeps only the
// mark that an op is arc's (ir.ArcMark, which this package writes as
// AttrLowering) and lists StableHLO's collectives; Collectives adds arc's
// calls, whose format only this package knows.
package decision

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/arcpass/arc/ir"
)

// Decision is the selection for one all-reduce operand: what select writes
// into the module and the lowering and the report read back. Its JSON keys
// are the report's (arc compile --report, arc inspect --json).
type Decision struct {
	Lowering string  `json:"lowering"` // a word of abi.LoweringTable
	Codec    string  `json:"codec"`    // a codec of abi.CodecTable
	Reason   string  `json:"reason"`
	EstUS    float64 `json:"est_us"`
	// Algo, Link and CastBF16ToFP16 say how arc's kernel runs (custom-call
	// lowerings): oneshot, twoshot or hier; peer or host; bf16 sent as
	// scaled f16 (--cast-bf16-to-fp16).
	Algo           string `json:"algo,omitempty"`
	Link           string `json:"link,omitempty"`
	CastBF16ToFP16 bool   `json:"cast_bf16_to_fp16,omitempty"`
	// NativeUS is the cost model's estimate for the native collective.
	NativeUS float64 `json:"native_us,omitempty"`
	// Payload is the target's own part of the decision (nil: none); the
	// report shows its fields here, among the decision's (passes.Row).
	Payload Payload `json:"-"`
	// Fuse is the norm arc's kernel also runs (NormRMS, the fuse pass's
	// decision), or ""; FuseReason says why it does or does not, where a
	// residual add follows the all-reduce.
	Fuse       string `json:"fuse,omitempty"`
	FuseReason string `json:"fuse_reason,omitempty"`
}

// Native is the decision to keep the platform's all-reduce, for a reason.
func Native(reason string) Decision {
	return Decision{Lowering: "native", Codec: "none", Reason: reason}
}

// Speedup is native time over arc's time (1 when native).
func (d Decision) Speedup() float64 {
	if d.EstUS <= 0 || math.IsInf(d.EstUS, 0) {
		return 1
	}
	return d.NativeUS / d.EstUS
}

// RunsKernel reports a decision that names one of arc's kernels: the
// lowering replaces its operand with a Call. Other decisions (native, or a
// target's reordering of the platform's own) keep their all-reduce.
func (d Decision) RunsKernel() bool { return d.Lowering != "native" && d.Algo != "" }

// The attributes select writes on each all-reduce it decides. An op with
// one operand carries plain values; an op whose operands were decided
// differently carries an array with one entry per operand (a plain value
// holds for every operand). Every decision carries the lowering, the
// reason and the estimates; one that runs arc's kernels also the codec, the
// kernel and its link; one with a payload the payload's own attributes.
const (
	AttrLowering = ir.ArcMark
	AttrCodec    = "arc.codec"
	AttrAlgo     = "arc.algo"
	AttrLink     = "arc.link"
	AttrCast     = "arc.cast"
	AttrReason   = "arc.reason"
	AttrEstUS    = "arc.est_us"
	AttrNativeUS = "arc.native_us"
	// AttrFuse and AttrFuseReason are the fuse pass's decision, on an
	// all-reduce that runs one of arc's kernels and whose sum a residual
	// add reads: NormRMS when the kernel also runs the add and the norm,
	// else "none"; and why (WriteFuse). The fused call carries them too.
	AttrFuse       = "arc.fuse"
	AttrFuseReason = "arc.fuse_reason"
	// AttrTarget, on the module, names the target select decided for.
	AttrTarget = "arc.target"
	// AttrEnv, on the module, holds the environment the lowered program
	// needs (variables a target's runtime reads): it travels with the module.
	AttrEnv = "arc.env"
)

// attrs are every attribute Write may write, the payloads' included, and
// the fuse pass's decision, which a new decision makes stale (fuse writes
// it again where it decides).
func attrs() []string {
	out := []string{AttrLowering, AttrCodec, AttrAlgo, AttrLink, AttrCast, AttrReason, AttrEstUS, AttrNativeUS, AttrFuse, AttrFuseReason}
	for _, k := range payloads {
		out = append(out, k.Attrs...)
	}
	return out
}

// Write records ds, one per operand of op, as arc.* attributes, in place of
// every decision it carried (a fusion's too); also are other attributes to
// set with them (what an op split off another keeps of its shardings,
// KeptAttrs).
func Write(ed *ir.Editor, op *ir.Op, ds []Decision, also ...ir.Attr) error {
	var names, values []string
	add := func(name string, vals []string) {
		names, values = append(names, name), append(values, plainOrArray(vals))
	}
	each := func(f func(Decision) string) []string {
		out := make([]string, len(ds))
		for i, d := range ds {
			out[i] = f(d)
		}
		return out
	}
	kernel, estimated := false, false // whether an operand runs one of arc's kernels
	for _, d := range ds {
		kernel = kernel || d.Algo != ""
		estimated = estimated || d.EstUS > 0 || d.NativeUS > 0
	}
	add(AttrLowering, each(func(d Decision) string { return ir.Quote(d.Lowering) }))
	if kernel {
		add(AttrCodec, each(func(d Decision) string { return ir.Quote(d.Codec) }))
		add(AttrAlgo, each(func(d Decision) string { return ir.Quote(d.Algo) }))
		add(AttrLink, each(func(d Decision) string { return ir.Quote(d.Link) }))
		add(AttrCast, each(func(d Decision) string { return strconv.FormatBool(d.CastBF16ToFP16) }))
	}
	add(AttrReason, each(func(d Decision) string { return ir.Quote(d.Reason) }))
	if estimated {
		add(AttrEstUS, each(func(d Decision) string { return USAttr(d.EstUS) }))
		add(AttrNativeUS, each(func(d Decision) string { return USAttr(d.NativeUS) }))
	}
	if p := ds[0].Payload; p != nil { // one payload holds for every operand
		for _, a := range p.Attrs() {
			add(a.Name, []string{a.Value})
		}
	}
	for _, a := range also {
		names, values = append(names, a.Name), append(values, a.Value)
	}
	return ed.ReplaceAttrs(op, attrs(), names, values)
}

// WriteFuse records the fuse pass's decision on an all-reduce: the norm
// its kernel also runs ("" is none) and why.
func WriteFuse(ed *ir.Editor, op *ir.Op, fuse, reason string) error {
	return ed.SetAttrs(op, []string{AttrFuse, AttrFuseReason}, []string{ir.Quote(cmp.Or(fuse, "none")), ir.Quote(reason)})
}

func plainOrArray(vals []string) string {
	for _, v := range vals[1:] {
		if v != vals[0] {
			return "[" + strings.Join(vals, ", ") + "]"
		}
	}
	return vals[0]
}

// USAttr prints a time estimate as an f64 attribute. MLIR reads "7" as an
// integer, so a whole number keeps its ".0"; a time the model cannot give
// (infinite, not a number) prints as 0.0, which reads as "no estimate":
// MLIR has no spelling for them.
func USAttr(us float64) string {
	if math.IsInf(us, 0) || math.IsNaN(us) || us < 0 {
		us = 0
	}
	s := strconv.FormatFloat(math.Round(us*100)/100, 'f', -1, 64)
	if !strings.ContainsAny(s, ".eE") {
		s += ".0"
	}
	return s + " : f64"
}

// DenseGroups prints groups as a dense i64 attribute (rows padded with -1,
// as StableHLO pads groups of different sizes).
func DenseGroups(groups [][]int64) string {
	width := 0
	for _, g := range groups {
		width = max(width, len(g))
	}
	rows := make([]string, len(groups))
	for i, g := range groups {
		ids := make([]string, width)
		for j := range ids {
			ids[j] = "-1"
			if j < len(g) {
				ids[j] = strconv.FormatInt(g[j], 10)
			}
		}
		rows[i] = "[" + strings.Join(ids, ", ") + "]"
	}
	return fmt.Sprintf("dense<[%s]> : tensor<%dx%dxi64>", strings.Join(rows, ", "), len(groups), width)
}

// Read returns the decisions a collective carries, one per operand: the
// attributes select wrote on an all-reduce, or what arc's call records. It
// returns nil for a collective arc has not decided.
func Read(m *ir.Module, c *ir.Collective) ([]Decision, error) {
	if c.Arc == nil {
		return nil, nil
	}
	if IsCall(c) {
		call, err := ParseCall(m, c.Op)
		if err != nil {
			return nil, err
		}
		out := make([]Decision, len(c.OperandTypes))
		for i := range out {
			out[i] = call.Decision
		}
		return out, nil
	}
	n := len(c.OperandTypes)
	errAt := func(format string, args ...any) error {
		return m.Errorf(int(c.Op.Start), "%s: %s", c.Op.Name, fmt.Sprintf(format, args...))
	}
	attrs := map[string]string{}
	for _, a := range m.Attrs(c.Op) {
		attrs[a.Name] = a.Value
	}
	// value returns operand k's entry of an attribute: the plain value, or
	// entry k of an array of one per operand.
	value := func(name string, k int) (string, error) {
		v, ok := attrs[name]
		if !ok {
			return "", nil
		}
		if elems, isArray := ir.SplitArray(v); isArray {
			if len(elems) != n {
				return "", errAt("%s has %d entries for %d operands", name, len(elems), n)
			}
			v = elems[k]
		}
		return ir.Unquote(ir.StripType(v)), nil
	}
	var fuse, fuseReason string
	if v, ok := attrs[AttrFuse]; ok && ir.Unquote(v) != "none" {
		fuse = ir.Unquote(v)
	}
	if v, ok := attrs[AttrFuseReason]; ok {
		fuseReason = ir.Unquote(v)
	}
	out := make([]Decision, n)
	for k := range out {
		d := &out[k]
		for _, f := range []struct {
			name string
			to   *string
		}{{AttrLowering, &d.Lowering}, {AttrCodec, &d.Codec}, {AttrAlgo, &d.Algo}, {AttrLink, &d.Link}, {AttrReason, &d.Reason}} {
			v, err := value(f.name, k)
			if err != nil {
				return nil, err
			}
			*f.to = v
		}
		if d.Codec == "" {
			d.Codec = "none"
		}
		for _, f := range []struct {
			name string
			to   *float64
		}{{AttrEstUS, &d.EstUS}, {AttrNativeUS, &d.NativeUS}} {
			v, err := value(f.name, k)
			if err != nil {
				return nil, err
			}
			if v != "" {
				if *f.to, err = strconv.ParseFloat(v, 64); err != nil {
					return nil, errAt("%s: %q is not a number", f.name, v)
				}
			}
		}
		cast, err := value(AttrCast, k)
		if err != nil {
			return nil, err
		}
		d.CastBF16ToFP16 = cast == "true"
		d.Fuse, d.FuseReason = fuse, fuseReason
		for _, kind := range payloads {
			p, err := kind.Read(attrs, func(name string) (string, error) { return value(name, k) })
			if err != nil {
				return nil, errAt("%v", err)
			}
			if p != nil {
				d.Payload = p
				break
			}
		}
	}
	return out, nil
}

// Target returns the target the module records (AttrTarget), or "".
func Target(m *ir.Module) string {
	if mod := m.ModuleOp(); mod != nil {
		if v, ok := m.Attr(mod, AttrTarget); ok {
			return ir.Unquote(v)
		}
	}
	return ""
}

// WriteTarget records on the module the target select decided for (an
// implicit module, a file of functions, is then written out).
func WriteTarget(ed *ir.Editor, target string) error {
	return ed.SetModuleAttrs([]string{AttrTarget}, []string{ir.Quote(target)})
}

// Env returns the environment the module records (AttrEnv); an empty map
// when it records none.
func Env(m *ir.Module) (map[string]string, error) {
	env := map[string]string{}
	mod := m.ModuleOp()
	if mod == nil {
		return env, nil
	}
	v, ok := m.Attr(mod, AttrEnv)
	if !ok {
		return env, nil
	}
	entries, isDict := ir.SplitDict(v)
	if !isDict {
		return nil, m.Errorf(int(mod.Start), "%s is not a dictionary: %s", AttrEnv, v)
	}
	for _, e := range entries {
		env[e.Name] = ir.Unquote(e.Value)
	}
	return env, nil
}

// WriteEnv records on the module the environment the lowered program
// needs, in place of what it recorded.
func WriteEnv(ed *ir.Editor, env map[string]string) error {
	keys := slices.Sorted(maps.Keys(env))
	entries := make([]string, len(keys))
	for i, k := range keys {
		entries[i] = k + " = " + ir.Quote(env[k])
	}
	return ed.SetModuleAttrs([]string{AttrEnv}, []string{"{" + strings.Join(entries, ", ") + "}"})
}
