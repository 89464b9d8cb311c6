package passes

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/arcpass/arc/ir"
)

// The attributes select writes on each all-reduce it decides. An op with
// one operand carries plain values; an op whose operands were decided
// differently carries an array with one entry per operand (a plain value
// holds for every operand). Every decision carries the lowering, the
// reason and the estimates; one that runs arc's kernels also the codec, the
// kernel and its link; a TPU ring the ring.
const (
	AttrLowering    = "arc.lowering"
	AttrCodec       = "arc.codec"
	AttrAlgo        = "arc.algo"
	AttrLink        = "arc.link"
	AttrCast        = "arc.cast"
	AttrReason      = "arc.reason"
	AttrEstUS       = "arc.est_us"
	AttrNativeUS    = "arc.native_us"
	AttrRing        = "arc.ring"
	AttrRingMaxHops = "arc.ring_max_hops"
	// AttrTarget, on the module, names the target select decided for.
	AttrTarget = "arc.target"
)

// WriteDecisions records ds, one per operand of op, as arc.* attributes.
func WriteDecisions(ed *ir.Editor, op *ir.Op, ds []Decision) error {
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
		add(AttrCast, each(func(d Decision) string { return strconv.FormatBool(d.Cast) }))
	}
	add(AttrReason, each(func(d Decision) string { return ir.Quote(d.Reason) }))
	if estimated {
		add(AttrEstUS, each(func(d Decision) string { return USAttr(d.EstUS) }))
		add(AttrNativeUS, each(func(d Decision) string { return USAttr(d.NativeUS) }))
	}
	if ring := ds[0].Ring; ring != nil {
		add(AttrRing, []string{DenseGroups(ring)})
		add(AttrRingMaxHops, []string{fmt.Sprintf("%d : i64", ds[0].RingMaxHops)})
	}
	return ed.ReplaceAttrs(op, decisionAttrs, names, values)
}

// decisionAttrs are every attribute WriteDecisions may write.
var decisionAttrs = []string{AttrLowering, AttrCodec, AttrAlgo, AttrLink, AttrCast, AttrReason, AttrEstUS, AttrNativeUS, AttrRing, AttrRingMaxHops}

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

// Decisions reads the decisions a collective carries, one per operand: the
// attributes select wrote on an all-reduce, or what arc's custom call
// records. It returns nil for a collective arc has not decided.
func Decisions(m *ir.Module, c *ir.Collective) ([]Decision, error) {
	if c.Arc == nil {
		return nil, nil
	}
	n := len(c.OperandTypes)
	errAt := func(format string, args ...any) error {
		return m.Errorf(int(c.Op.Start), "%s: %s", c.Op.Name, fmt.Sprintf(format, args...))
	}
	if c.Op.Name != "stablehlo.all_reduce" && c.Op.Name != "mhlo.all_reduce" { // arc's custom call
		cfg := c.Arc.Config
		d := Decision{Lowering: c.Arc.Lowering, Codec: cfg["codec"], Algo: cfg["algo"], Link: cfg["link"],
			Cast: cfg["cast"] == "1", Reason: cfg["reason"]}
		d.Fuse, d.FuseReason = cfg[ir.NormKey], cfg["fuse_reason"]
		d.EstUS, _ = strconv.ParseFloat(cfg["est_us"], 64)
		d.NativeUS, _ = strconv.ParseFloat(cfg["native_us"], 64)
		out := make([]Decision, n)
		for i := range out {
			out[i] = d
		}
		return out, nil
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
		if elems, isArray := ir.SplitArray(v); isArray && name != AttrRing {
			if len(elems) != n {
				return "", errAt("%s has %d entries for %d operands", name, len(elems), n)
			}
			v = elems[k]
		}
		return ir.Unquote(ir.StripType(v)), nil
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
		d.Fuse, d.FuseReason = Fused(m, c.Op)
		cast, err := value(AttrCast, k)
		if err != nil {
			return nil, err
		}
		d.Cast = cast == "true"
		if v, ok := attrs[AttrRing]; ok {
			rows, err := ir.DenseInts(v)
			if err != nil {
				return nil, errAt("%s: %v", AttrRing, err)
			}
			for _, r := range rows {
				var g []int64
				for _, id := range r {
					if id >= 0 { // padding
						g = append(g, id)
					}
				}
				d.Ring = append(d.Ring, g)
			}
			hops, _ := value(AttrRingMaxHops, k)
			d.RingMaxHops, _ = strconv.Atoi(hops)
		}
	}
	return out, nil
}
