package passes

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/arcpass/arc/passes/topology"
)

// Options are the user's choices that shape selection.
type Options struct {
	// Quant is the one quantized codec arc may use: none (default: results
	// are exact apart from the order of the additions), fp8, int8, int6,
	// int4 or int4r.
	Quant string
	// CastBF16 sends bf16 data as fp16 where the kernel's codec works in fp16
	// (ROCm's QuickReduce path), as QuickReduce does by default.
	CastBF16 bool
	// MinBytes and MaxBytes keep all-reduces outside [MinBytes, MaxBytes]
	// native (0: no bound).
	MinBytes, MaxBytes int64
	// Force maps a row index to the lowering it must get; ForceAll's entry
	// applies to every all-reduce row without an entry of its own.
	Force map[int]Force
	// Profile replaces the target's built-in cost model.
	Profile *Profile
	// Topology, from --topology, describes the machine; nil means the
	// target's own (every device of a node reaches every other).
	Topology *topology.Topology
	// LibtpuInitArgs is the user's LIBTPU_INIT_ARGS, which TPU lowerings extend.
	LibtpuInitArgs string
}

// Quants lists the values --quant accepts.
var Quants = []string{"none", "fp8", "int8", "int6", "int4", "int4r"}

// lowerings are the words reports and --force name lowerings with.
var lowerings = []string{"native", "oneshot", "twoshot", "quickreduce", "lowprec", "ring"}

// Force is a per-row override: --force INDEX=LOWERING[:CODEC].
type Force struct{ Lowering, Codec string }

// ForceAll is the index of --force all=LOWERING[:CODEC]: every all-reduce
// gets that lowering where it applies, and keeps native, with the reason,
// where it does not (a max reduction, a world the kernel lacks). An INDEX
// entry wins over it for its row.
const ForceAll = -1

// ParseForce reads "3=twoshot:int8" or "all=twoshot:int8" (index ForceAll).
func ParseForce(s string) (int, Force, error) {
	idx, rest, ok := strings.Cut(s, "=")
	i, err := strconv.Atoi(idx)
	if idx == "all" {
		i, err = ForceAll, nil
	}
	if !ok || err != nil || (i < 0 && i != ForceAll) || (i == ForceAll && idx != "all") {
		return 0, Force{}, fmt.Errorf("--force %q: want INDEX=LOWERING[:CODEC] or all=LOWERING[:CODEC]", s)
	}
	low, codec, _ := strings.Cut(rest, ":")
	if !slices.Contains(lowerings, low) {
		return 0, Force{}, fmt.Errorf("--force %q: unknown lowering %q (%s)", s, low, strings.Join(lowerings, ", "))
	}
	if codec != "" && !slices.Contains(allCodecs, codec) {
		return 0, Force{}, fmt.Errorf("--force %q: unknown codec %q (%s)", s, codec, strings.Join(allCodecs, ", "))
	}
	return i, Force{low, codec}, nil
}

// Decision is the selection for one row.
type Decision struct {
	Lowering string // native, oneshot, twoshot, quickreduce, lowprec, ring
	Codec    string // none, fp, fp8, int8, int6, int4, int4r
	Algo     string // oneshot, twoshot, hier: the kernel that runs
	Link     string // peer, host
	Cast     bool
	Reason   string
	EstUS    float64
	NativeUS float64
}

// candidate is one way arc's kernels could run an all-reduce.
type candidate struct {
	algo, codec string
	est         float64
}

func (c candidate) key() string {
	if c.algo == "oneshot" {
		return "oneshot"
	}
	return c.algo + ":" + c.codec
}

// Decide selects the lowering of one all-reduce row.
func Decide(t Target, opts Options, row Row) (Decision, error) {
	native := Decision{Lowering: "native", Codec: "none"}
	force, forced := opts.Force[row.Index]
	forcedAll := false
	if !forced {
		force, forced = opts.Force[ForceAll]
		forcedAll = forced
	}
	// cannot reports a forced lowering that does not apply: an error for an
	// INDEX entry, native with the reason for all=.
	cannot := func(format string, args ...any) (Decision, error) {
		who := strconv.Itoa(row.Index)
		if forcedAll {
			who = "all"
		}
		msg := fmt.Sprintf("--force %s=%s: ", who, forceString(force)) + fmt.Sprintf(format, args...)
		if forcedAll {
			native.Reason = msg
			return native, nil
		}
		return native, errors.New(msg)
	}
	if forced && force.Lowering == "native" {
		native.Reason = "forced native by --force"
		return native, nil
	}
	if reason := ineligible(t, opts, row); reason != "" {
		if forced && !forcedAll {
			return cannot("%s", reason)
		}
		native.Reason = reason
		return native, nil
	}
	if t.Platform == "tpu" {
		if forced && force.Lowering != "ring" {
			return cannot("TPU targets lower all-reduces to ring only")
		}
		return Decision{Lowering: "ring", Codec: "none", Reason: "XLA all-reduce over groups ordered as a 1-hop ring; libtpu forced to a 1-D ring"}, nil
	}
	if forced && force.Lowering == "ring" {
		return cannot("ring is a TPU lowering")
	}
	prof := opts.Profile
	if prof == nil {
		prof = BuiltinProfile(t)
	}
	if prof == nil {
		native.Reason = fmt.Sprintf("no cost profile for %s", t.Name)
		return native, nil
	}
	world := row.GroupSize
	nativeCost, ok := prof.Lookup(world, row.DType, "native")
	if !ok {
		native.Reason = fmt.Sprintf("profile has no native cost for world %d", world)
		return native, nil
	}
	nativeUS := nativeCost.At(row.Bytes)
	native.EstUS, native.NativeUS = nativeUS, nativeUS

	var cands []candidate
	var skipped []string
	extra := ""
	if forced {
		extra = force.Codec
		if force.Lowering == "lowprec" && extra == "" {
			extra = "fp8"
		}
	}
	for _, cand := range candidates(t, opts, world, extra) {
		if forced && !forcedMatches(t, force, cand) {
			continue
		}
		cost, ok := prof.Lookup(world, row.DType, cand.key())
		if !ok {
			continue
		}
		if !cost.allows(row.Bytes) && !forced {
			skipped = append(skipped, fmt.Sprintf("%s needs %s", cand.key(), sizeRange(cost)))
			continue
		}
		cand.est = cost.At(row.Bytes)
		cands = append(cands, cand)
	}
	if len(cands) == 0 {
		if forced {
			return cannot("no such kernel for %s at world %d (check --quant)", t.Name, world)
		}
		native.Reason = "no arc kernel fits this size"
		if len(skipped) > 0 {
			native.Reason += ": " + strings.Join(skipped, ", ")
		}
		return native, nil
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].est < cands[j].est })
	best := cands[0]
	if best.est >= nativeUS && !forced {
		native.Reason = fmt.Sprintf("native is faster: %.1f us vs %.1f us for arc's best (%s)", nativeUS, best.est, describe(t, best))
		return native, nil
	}
	d := Decision{
		Lowering: loweringWord(t, best), Codec: best.codec, Algo: best.algo, Link: t.Link,
		Cast:  opts.CastBF16 && t.Platform == "rocm" && row.DType == "bf16" && best.codec == "fp",
		EstUS: best.est, NativeUS: nativeUS,
	}
	if forced {
		d.Reason = fmt.Sprintf("forced by --force; est %.1f us vs native %.1f us", best.est, nativeUS)
	} else {
		d.Reason = fmt.Sprintf("%s: est %.1f us vs native %.1f us (%.1fx)", describe(t, best), best.est, nativeUS, nativeUS/best.est)
	}
	return d, nil
}

// ineligible returns why arc's kernels cannot run this row, or "".
func ineligible(t Target, opts Options, row Row) string {
	switch {
	case t.Platform == "none":
		return "target none: the identity pipeline lowers nothing"
	case row.Op != "all_reduce":
		return "arc lowers all-reduces only"
	case row.Collective != nil && row.Collective.Arc != nil:
		return "already lowered by arc"
	case row.Collective != nil && !row.Collective.TypesMirror():
		return "its result types are not its operand types (a promoted element type or dynamic sizes): arc's lowerings keep the operand's type"
	case row.Collective != nil && row.Collective.Unresolved != "":
		return "groups unknown: " + row.Collective.Unresolved
	case t.Platform != "tpu" && row.Reduction != "sum":
		return fmt.Sprintf("reduction is %s: arc's kernels only sum", row.Reduction)
	case t.Platform != "tpu" && !slices.Contains([]string{"f16", "bf16", "f32"}, row.DType):
		return fmt.Sprintf("dtype %s: arc's kernels take f16, bf16 and f32", row.DType)
	case row.Bytes < 0:
		return "dynamic shape"
	case row.Bytes == 0:
		return "empty tensor"
	case t.Platform != "tpu" && row.Bytes%16 != 0:
		return fmt.Sprintf("%d bytes is not a multiple of 16", row.Bytes)
	case opts.MinBytes > 0 && row.Bytes < opts.MinBytes:
		return fmt.Sprintf("below --min-bytes %d", opts.MinBytes)
	case opts.MaxBytes > 0 && row.Bytes > opts.MaxBytes:
		return fmt.Sprintf("above --max-bytes %d", opts.MaxBytes)
	}
	if len(row.Groups) == 0 {
		return "no replica groups, and the module does not say how many replicas the op spans"
	}
	sizes := map[int]bool{}
	for _, g := range row.Groups {
		sizes[len(g)] = true
	}
	if len(sizes) > 1 {
		return "groups of different sizes"
	}
	g := row.GroupSize
	if g < 2 {
		return "groups of one device: nothing to exchange"
	}
	if t.Platform == "tpu" {
		return ""
	}
	if g != 2 && g != 4 && g != 6 && g != 8 {
		return fmt.Sprintf("group size %d: arc's kernels run on 2, 4 or 8 devices (6 for one-shot)", g)
	}
	for _, grp := range row.Groups {
		if why := outsideNode(t, opts.Topology, grp); why != "" {
			return why
		}
	}
	return ""
}

// outsideNode says why a group cannot run arc's kernels on this machine: it
// spans hosts, or (on a peer link) two of its devices cannot reach each
// other's memory.
func outsideNode(t Target, topo *topology.Topology, grp []int64) string {
	if topo == nil {
		for _, id := range grp {
			if t.NodeSize > 0 && id/int64(t.NodeSize) != grp[0]/int64(t.NodeSize) {
				return fmt.Sprintf("group %v spans hosts of %d devices", grp, t.NodeSize)
			}
		}
		return ""
	}
	first, ok := topo.Device(grp[0])
	for _, id := range grp {
		d, found := topo.Device(id)
		if !found || !ok {
			return fmt.Sprintf("device %d is not in the topology %s", id, topo.Name)
		}
		if t.Variant != "pcie-2numa" && d.Node != first.Node {
			return fmt.Sprintf("group %v spans nodes %q and %q", grp, first.Node, d.Node)
		}
	}
	if t.Link != "peer" {
		return ""
	}
	for i, a := range grp {
		for _, b := range grp[i+1:] {
			if !peers(topo, a, b) {
				return fmt.Sprintf("group %v is not fully peer-connected: %d cannot reach %d's memory", grp, a, b)
			}
		}
	}
	return ""
}

// peers reports whether a direct link other than through the host joins a and b.
func peers(topo *topology.Topology, a, b int64) bool {
	for _, l := range topo.Links {
		if ((l.A == a && l.B == b) || (l.A == b && l.B == a)) && l.Kind != "host" {
			return true
		}
	}
	return false
}

// candidates lists the kernels a target offers at a world size.
// extra is a codec --force asks for even when --quant does not.
func candidates(t Target, opts Options, world int, extra string) []candidate {
	out := []candidate{{algo: "oneshot", codec: "none"}}
	if world == 6 {
		return out
	}
	codecs := []string{"fp"}
	for _, q := range []string{opts.Quant, extra} {
		if q != "" && q != "none" && !slices.Contains(codecs, q) {
			codecs = append(codecs, q)
		}
	}
	for _, c := range codecs {
		out = append(out, candidate{algo: "twoshot", codec: c})
		if t.Variant == "pcie-2numa" && (world == 4 || world == 8) {
			out = append(out, candidate{algo: "hier", codec: c})
		}
	}
	return out
}

// describe names a candidate for a person: the lowering word, its codec, and
// the kernel when the word does not say it ("lowprec fp8 (hier)").
func describe(t Target, c candidate) string {
	s := loweringWord(t, c)
	if c.algo != "oneshot" {
		s += " " + c.codec
	}
	if c.algo == "hier" {
		s += " (hier)"
	}
	return s
}

// loweringWord names a kernel choice the way reports and --force do.
func loweringWord(t Target, c candidate) string {
	switch {
	case c.algo == "oneshot":
		return "oneshot"
	case t.Platform == "rocm":
		return "quickreduce"
	case c.codec == "fp8":
		return "lowprec"
	}
	return "twoshot"
}

func forcedMatches(t Target, f Force, c candidate) bool {
	twoshot := (f.Lowering == "twoshot" || f.Lowering == "quickreduce") && c.algo != "oneshot"
	if loweringWord(t, c) != f.Lowering && !twoshot {
		return false
	}
	if f.Codec != "" {
		return c.codec == f.Codec
	}
	return c.codec == "none" || c.codec == "fp" || f.Lowering == "lowprec"
}

func forceString(f Force) string {
	if f.Codec == "" {
		return f.Lowering
	}
	return f.Lowering + ":" + f.Codec
}

func sizeRange(c Cost) string {
	if c.Off {
		return "a profile that enables it"
	}
	lo, hi := "0", "any size"
	if c.MinBytes > 0 {
		lo = HumanBytes(c.MinBytes)
	}
	if c.MaxBytes > 0 {
		hi = HumanBytes(c.MaxBytes)
	}
	return lo + " to " + hi
}

// Speedup is native time over arc's time (1 when native).
func (d Decision) Speedup() float64 {
	if d.EstUS <= 0 || math.IsInf(d.EstUS, 0) {
		return 1
	}
	return d.NativeUS / d.EstUS
}
