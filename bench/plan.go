// Package bench measures arc's all-reduce lowerings against the native one
// (XLA/NCCL) on the machine it runs on, and turns the measurements into
// tables, CSV, plots and the cost profiles `arc tune` writes.
//
// A sweep visits every (dtype, size) cell of a Plan and times each lowering
// there. At the XLA level (xla.go) one lowering's time is that of a program
// chaining K all-reduces minus a control program doing the same work without
// them, divided by K; at the kernel level (kernel.go) it comes from arc's
// kernel benchmark program, which times arc's C API and NCCL with CUDA events.
package bench

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/arcpass/arc"
	"github.com/arcpass/arc/abi"
	"github.com/arcpass/arc/reference/codec"
)

// Lowering names one way to run an all-reduce, spelled as arc compile's
// report and --force spell it: "native" (XLA's all-reduce, XLA's default
// flags), "native+SWITCH[+SWITCH]" (XLA's all-reduce with switches a JAX
// user can turn on: native.go), "oneshot", "twoshot:CODEC", "lowprec:fp8",
// or "auto" (what arc's policy picks).
type Lowering string

// Auto is the lowering arc's cost model chooses, size by size.
const Auto Lowering = "auto"

// Native is XLA's own all-reduce (NCCL) with XLA's default flags.
const Native Lowering = "native"

// Lowerings is the default set: native and each of XLA's switches, every
// kernel arc has for two GPUs, and auto.
var Lowerings = append(append(slices.Clone(NativeLowerings), kernelLowerings()...), Auto)

// TuneLowerings are what arc tune measures by default: native (XLA's
// default flags, what a program runs when arc leaves an all-reduce alone)
// and every kernel arc has for two GPUs. Native's switches and auto have no
// cost of their own in a profile.
var TuneLowerings = append([]Lowering{Native}, kernelLowerings()...)

// kernelLowerings are arc's kernels for two GPUs, from abi's tables:
// oneshot, twoshot:CODEC for each codec, and last the codecs a lowering
// word implies under that word (lowprec:fp8).
func kernelLowerings() []Lowering {
	out, implied := []Lowering{"oneshot"}, []Lowering(nil)
	for _, c := range codec.Names() {
		if word := impliedBy(c); word != "" {
			implied = append(implied, Lowering(word+":"+c))
		} else {
			out = append(out, Lowering("twoshot:"+c))
		}
	}
	return append(out, implied...)
}

// impliedBy is the two-shot lowering word that implies codec c ("lowprec"
// for fp8), or "".
func impliedBy(c string) string {
	for _, l := range abi.LoweringTable {
		if c != "" && l.Algo == "twoshot" && l.Codec == c {
			return l.Name
		}
	}
	return ""
}

// Key is the lowering's key in a passes.Profile ("" for auto, which has no
// cost of its own, and for native with XLA's switches, which arc's policy
// does not compare with). A word that implies its codec runs the two-shot
// kernel, so lowprec:fp8 is "twoshot:fp8" there.
func (l Lowering) Key() string {
	word, c, _ := strings.Cut(string(l), ":")
	switch {
	case l == Auto || (l.IsNative() && l != Native):
		return ""
	case word != "twoshot" && impliedBy(c) == word:
		return "twoshot:" + c
	}
	return string(l)
}

// Label is the lowering's title in tables and plot legends: its name, the
// one arc compile's report, --force and --lowerings use.
func (l Lowering) Label() string { return string(l) }

// ForceFlags are the arc --force values that give every one of n all-reduce
// rows this lowering; auto forces nothing, and native with XLA's switches
// is native to arc (the switches go to XLA's compiler).
func (l Lowering) ForceFlags(n int) []string {
	if l == Auto {
		return nil
	}
	arc := l
	if l.IsNative() {
		arc = Native
	}
	flags := make([]string, n)
	for i := range flags {
		flags[i] = fmt.Sprintf("%d=%s", i, arc)
	}
	return flags
}

// LoweringForKey is the inverse of Key for arc's lowerings and native.
func LoweringForKey(key string) Lowering {
	if c, ok := strings.CutPrefix(key, "twoshot:"); ok && impliedBy(c) != "" {
		return Lowering(impliedBy(c) + ":" + c)
	}
	return Lowering(key)
}

// ParseLowering reads one lowering name, in any case; the profile key
// twoshot:fp8 reads as lowprec:fp8, and native's switches come out in
// their canonical order (native+all for all of them).
func ParseLowering(s string) (Lowering, error) {
	f := strings.ToLower(strings.TrimSpace(s))
	if f == "native" || strings.HasPrefix(f, "native+") {
		return parseNative(f)
	}
	algo, c, hasCodec := strings.Cut(f, ":")
	ok := false
	switch algo {
	case "oneshot", "auto":
		ok = !hasCodec
	case "twoshot":
		ok = slices.Contains(codec.Names(), c)
	default:
		ok = hasCodec && impliedBy(c) == algo
	}
	if !ok {
		var implied []string
		for _, l := range kernelLowerings() {
			if w, _, _ := strings.Cut(string(l), ":"); w != "oneshot" && w != "twoshot" {
				implied = append(implied, string(l))
			}
		}
		return "", fmt.Errorf("unknown lowering %q (native, native+{%s}, oneshot, twoshot:{%s}, %s, auto)",
			s, strings.Join(append(switchWords(), "all"), ","), strings.Join(codec.Names(), ","), strings.Join(implied, ", "))
	}
	return LoweringForKey(f), nil
}

// ParseLowerings reads a comma-separated list of lowerings.
func ParseLowerings(s string) ([]Lowering, error) {
	var out []Lowering
	for _, f := range splitList(s) {
		l, err := ParseLowering(f)
		if err != nil {
			return nil, err
		}
		if slices.Contains(out, l) {
			return nil, fmt.Errorf("lowering %q listed twice", l)
		}
		out = append(out, l)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no lowerings given")
	}
	return out, nil
}

// Plan is what a sweep measures and how.
type Plan struct {
	Sizes     []int64 // bytes per rank, increasing
	DTypes    []string
	Lowerings []Lowering
	Chain     int // all-reduces per chained program (K)
	Reps      int // timed runs of each program (R); the median is reported
	Warmup    int // untimed runs before the timed ones
	Jobs      int // programs compiled at once
}

// Check rejects plans a sweep cannot run.
func (p Plan) Check() error {
	switch {
	case len(p.Sizes) == 0:
		return fmt.Errorf("no sizes to measure")
	case len(p.DTypes) == 0:
		return fmt.Errorf("no dtypes to measure")
	case len(p.Lowerings) == 0:
		return fmt.Errorf("no lowerings to measure")
	case p.Chain < 1:
		return fmt.Errorf("--chain %d: want at least 1 all-reduce per program", p.Chain)
	case p.Reps < 1:
		return fmt.Errorf("--reps %d: want at least 1 repetition", p.Reps)
	case p.Warmup < 0:
		return fmt.Errorf("--warmup %d: want 0 or more", p.Warmup)
	case p.Jobs < 1:
		return fmt.Errorf("--jobs %d: want at least 1", p.Jobs)
	}
	for _, dt := range p.DTypes {
		if dt != "f16" && dt != "bf16" && dt != "f32" {
			return fmt.Errorf("dtype %q: arc's kernels take f16, bf16 and f32", dt)
		}
		// Any count of elements runs, but a size must be a whole number of them.
		es := ElemSize(dt)
		for _, n := range p.Sizes {
			if n%es != 0 {
				return fmt.Errorf("--sizes: size %s is not a whole number of %s elements (%d bytes each)", FormatSize(n), dt, es)
			}
		}
	}
	return nil
}

// Cells is the number of (dtype, size) cells; each holds one measurement per lowering.
func (p Plan) Cells() int { return len(p.DTypes) * len(p.Sizes) }

// ParseSizes reads sizes in bytes: a comma-separated list ("4K,64K,1M") or a
// range of powers of two ("4K:256M"). Suffixes K, M and G are binary.
func ParseSizes(s string) ([]int64, error) {
	var out []int64
	for _, f := range splitList(s) {
		if lo, hi, ok := strings.Cut(f, ":"); ok {
			a, err := ParseSize(lo)
			if err != nil {
				return nil, err
			}
			b, err := ParseSize(hi)
			if err != nil {
				return nil, err
			}
			if a > b {
				return nil, fmt.Errorf("size range %q runs backwards", f)
			}
			for n := a; n <= b; n *= 2 {
				out = append(out, n)
			}
			continue
		}
		n, err := ParseSize(f)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no sizes given")
	}
	for i, n := range out {
		if i > 0 && n <= out[i-1] {
			return nil, fmt.Errorf("sizes must increase: %s after %s", FormatSize(n), FormatSize(out[i-1]))
		}
	}
	return out, nil
}

// ParseSize reads one size: "4096", "4K", "64KiB", "1M", "2G" (the
// spellings of every size arc takes, arc.ParseSize), positive.
func ParseSize(s string) (int64, error) {
	n, err := arc.ParseSize(s)
	if err != nil || n == 0 {
		return 0, fmt.Errorf("bad size %q: want a positive byte count such as 4096, 4K, 64K, 1M", s)
	}
	return n, nil
}

// FormatSize prints a size the way ParseSize reads it, in the largest unit
// that divides it: 4K, 1M, 1536K, 100.
func FormatSize(n int64) string { return arc.FormatSize(n) }

// ParseDTypes reads a comma-separated list of dtypes.
func ParseDTypes(s string) []string { return splitList(s) }

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// us converts a duration to microseconds.
func us(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
