package gpu

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/arcpass/arc/abi"
	"github.com/arcpass/arc/passes"
	"github.com/arcpass/arc/passes/topology"
)

// Machine is a GPU target: what arc's kernels can do on it, its cost model
// and its rewrite. lowering/cuda and lowering/rocm describe their machines
// with it.
type Machine struct {
	Target string // "cuda:nvlink"
	// Link is how the kernels reach peers: "peer" or "host" (pinned host
	// memory, for machines without peer access).
	Link string
	// NodeSize is how many GPUs a host holds: a group must fit in one.
	NodeSize int
	// Hier offers the 2 x W/2 hierarchical kernel at worlds 4 and 8, for a
	// machine of two halves behind a slower link; groups may then span the
	// nodes of a --topology.
	Hier bool
	// TwoShot is the word for a two-shot lowering ("twoshot"; ROCm says
	// "quickreduce"); FP8's is "lowprec", TensorRT-LLM's name.
	TwoShot string
	// CastBF16ToFP16: the machine offers --cast-bf16-to-fp16, QuickReduce's
	// cast of bf16 to f16 under the fp codec (ROCm), scaled per block
	// (docs/FORMATS.md). Off unless the user opts in: the sums round twice.
	CastBF16ToFP16 bool
	// Pass names the lowering pass ("lower-cuda").
	Pass string
	// Model builds the built-in cost model, once.
	Model func() *passes.Profile

	once    sync.Once
	profile *passes.Profile
	lower   passes.Pass
}

// Name is the target's name.
func (m *Machine) Name() string { return m.Target }

// Profile is the built-in cost model.
func (m *Machine) Profile() *passes.Profile {
	m.once.Do(func() { m.profile = m.Model() })
	return m.profile
}

// Lower is the pass that turns the decisions into calls of arc's kernels.
func (m *Machine) Lower() passes.Pass {
	if m.lower == nil {
		m.lower = passes.Func(m.Pass, []passes.Need{{Pass: "select", Why: "it rewrites the decisions select writes"}}, Lower)
	}
	return m.lower
}

// kernels is what arc's GPU kernels take on this machine.
func (m *Machine) kernels() *passes.Kernels {
	return &passes.Kernels{
		DTypes:   abi.DTypes,
		Capacity: abi.DefaultMaxBytes,
		Worlds: func(g int) string {
			if slices.Contains(abi.TwoShotWorlds, g) || slices.Contains(abi.OneShotWorlds, g) {
				return ""
			}
			return fmt.Sprintf("group size %d: arc's kernels run on %s devices (%s for one-shot)", g,
				abi.WorldList(abi.TwoShotWorlds), abi.WorldList(onlyOneShot()))
		},
		Fits: m.fits,
	}
}

// onlyOneShot lists the worlds only the one-shot kernel runs.
func onlyOneShot() []int {
	var out []int
	for _, w := range abi.OneShotWorlds {
		if !slices.Contains(abi.TwoShotWorlds, w) {
			out = append(out, w)
		}
	}
	return out
}

// acrossProcesses says why a group whose ranks run in several processes
// (procs, from the client) does not get this machine's kernels: the
// host-staged link's shared-memory form (gpu/arc_shm.cc), which runs such a
// group, has run on the CPU's fake device layer only; it is given these
// groups once devtest/run.sh hostlink has passed on a GPU.
func (m *Machine) acrossProcesses(grp []int64, procs map[int64]int) string {
	if m.Link != "host" || procs == nil {
		return ""
	}
	seen := map[int]bool{}
	for _, id := range grp {
		if p, ok := procs[id]; ok {
			seen[p] = true
		}
	}
	if len(seen) < 2 {
		return ""
	}
	return fmt.Sprintf("group %v runs in %d processes: the host-staged link (%s) across processes has not run on a GPU yet", grp, len(seen), m.Target)
}

// partitioned says why an all-reduce of a partitioned program stays native:
// XLA's SPMD partitioner (num_partitions > 1) takes a side-effecting custom
// call only with a sharding that is not replicated, which arc's call has
// where the op runs per device (shard_map's manual region, ir.Manual) and
// nowhere else. Elsewhere the op is one logical all-reduce the partitioner
// rewrites, and arc's call would fail the compile (seen on the GPU
// machine: "Side-effect HLO must have sharding", "side-effect HLO cannot
// have a replicated sharding").
func partitioned(row passes.Row) string {
	if row.Partitions > 1 && !row.Manual {
		return fmt.Sprintf("outside a manual region of a partitioned program (num_partitions = %d): XLA's SPMD partitioner refuses a side-effecting custom call there; in shard_map's body arc lowers it", row.Partitions)
	}
	return ""
}

// candidate is one way arc's kernels could run an all-reduce.
type candidate struct {
	algo, codec string
	cast        bool   // bf16 travels as scaled f16 (--cast-bf16-to-fp16)
	rounds      string // what it rounds beyond the order of the additions, and the option that allows it
	est         float64
}

// key is the candidate's key in a cost profile.
func (c candidate) key() string {
	if c.algo == "oneshot" {
		return "oneshot"
	}
	return passes.CostKey(c.algo, c.codec, c.cast)
}

// Decide selects the lowering of one all-reduce row: the fastest of arc's
// kernels by the cost model, when it beats native.
func (m *Machine) Decide(row passes.Row, opts passes.Options) (passes.Decision, error) {
	force := opts.ForceOf(row.Index)
	if force.On && force.Lowering == "native" {
		return passes.Native("forced native by --force"), nil
	}
	reason := passes.Ineligible(row, opts, m.kernels())
	if reason == "" {
		reason = partitioned(row)
	}
	if reason != "" {
		if force.On && !force.All {
			return force.Cannot("%s", reason)
		}
		return passes.Native(reason), nil
	}
	if force.On && force.Lowering == "ring" {
		return force.Cannot("ring is a TPU lowering")
	}
	prof := opts.Profile
	if prof == nil {
		prof = m.Profile()
	}
	world := row.GroupSize
	nativeCost, ok := prof.Lookup(world, row.DType, "native")
	if !ok {
		return passes.Native(fmt.Sprintf("profile has no native cost for world %d", world)), nil
	}
	nativeUS := nativeCost.At(row.Bytes)
	native := passes.Native("")
	native.EstUS, native.NativeUS = nativeUS, nativeUS

	var cands []candidate
	var skipped []string
	quant := opts.Quant // the lossy codec the user allowed, "" when none
	if quant == "none" || quant == "fp" {
		quant = "" // fp runs anyway: no note when another kernel wins
	}
	quantWhy := "" // why the --quant codec does not run, once known
	if quant != "" && !slices.Contains(abi.TwoShotWorlds, world) {
		quantWhy = fmt.Sprintf("world %d has only the one-shot kernel", world)
	}
	extra := ""
	if force.On {
		extra = force.Codec
		if l, _ := abi.LoweringOf(force.Lowering); extra == "" {
			extra = l.Codec // the codec the word implies, if any
		}
	}
	cast := m.CastBF16ToFP16 && opts.CastBF16ToFP16 && row.DType == "bf16"
	for _, cand := range m.candidates(opts, world, row.DType, extra) {
		if force.On && !m.matches(force.Force, cand) {
			continue
		}
		if cand.cast = cast && cand.codec == "fp"; cand.cast {
			cand.rounds = "bf16 cast to f16 by --cast-bf16-to-fp16"
		}
		cost, ok := prof.Lookup(world, row.DType, cand.key())
		if !ok && cand.cast {
			// A profile that did not measure the cast: the uncast kernel's
			// cost, which sends 1/64 fewer bytes.
			cost, ok = prof.Lookup(world, row.DType, passes.CostKey(cand.algo, cand.codec, false))
		}
		if !ok {
			if quant != "" && cand.codec == quant && quantWhy == "" {
				quantWhy = fmt.Sprintf("the profile has no %s", cand.key())
			}
			continue
		}
		if !cost.Allows(row.Bytes) && !force.On {
			skipped = append(skipped, fmt.Sprintf("%s needs %s", cand.key(), sizeRange(cost)))
			if quant != "" && cand.codec == quant && quantWhy == "" {
				quantWhy = m.notAllowed(cand, cost, row)
			}
			continue
		}
		cand.est = cost.At(row.Bytes)
		cands = append(cands, cand)
	}
	if len(cands) == 0 {
		if force.On {
			return force.Cannot("no such kernel for %s at world %d (check --quant)", m.Target, world)
		}
		native.Reason = "no arc kernel fits this size"
		if len(skipped) > 0 {
			native.Reason += ": " + strings.Join(skipped, ", ")
		}
		return native, nil
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].est < cands[j].est })
	best := cands[0]
	if quant != "" && best.codec != quant && !force.On && quantWhy == "" {
		for _, c := range cands {
			if c.codec == quant {
				quantWhy = fmt.Sprintf("%s is slower here (est %.1f us)", m.describe(c), c.est)
				break
			}
		}
	}
	if best.est >= nativeUS && !force.On {
		native.Reason = fmt.Sprintf("native is faster: %.1f us vs %.1f us for arc's best (%s)", nativeUS, best.est, m.describe(best))
		if quantWhy != "" && best.codec != quant {
			native.Reason += fmt.Sprintf("; --quant %s not used: %s", opts.Quant, quantWhy)
		}
		return native, nil
	}
	d := passes.Decision{
		Lowering: m.word(best), Codec: best.codec, Algo: best.algo, Link: m.Link, CastBF16ToFP16: best.cast,
		EstUS: best.est, NativeUS: nativeUS,
	}
	if force.On {
		d.Reason = fmt.Sprintf("forced by --force; est %.1f us vs native %.1f us", best.est, nativeUS)
	} else {
		d.Reason = fmt.Sprintf("%s: est %.1f us vs native %.1f us (%.1fx)", m.describe(best), best.est, nativeUS, nativeUS/best.est)
		if quantWhy != "" {
			d.Reason += fmt.Sprintf("; --quant %s not used: %s", opts.Quant, quantWhy)
		}
	}
	return d, nil
}

// notAllowed says why the profile keeps a candidate off this row: off for
// its dtype and world, or below or above the sizes where it pays.
func (m *Machine) notAllowed(c candidate, cost passes.Cost, row passes.Row) string {
	if cost.Off {
		return fmt.Sprintf("the %s profile keeps %s off for %s at world %d", m.Target, c.key(), row.DType, row.GroupSize)
	}
	return fmt.Sprintf("the %s profile allows %s from %s", m.Target, c.key(), sizeRange(cost))
}

// fits says why a group cannot run arc's kernels on this machine: it spans
// hosts, or (on a peer link) two of its devices cannot reach each other's
// memory.
func (m *Machine) fits(grp []int64, opts passes.Options) string {
	if why := m.acrossProcesses(grp, opts.DeviceProcesses); why != "" {
		return why
	}
	topo := opts.Topology
	if topo == nil {
		for _, id := range grp {
			if m.NodeSize > 0 && id/int64(m.NodeSize) != grp[0]/int64(m.NodeSize) {
				return fmt.Sprintf("group %v spans hosts of %d devices", grp, m.NodeSize)
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
		if !m.Hier && d.Node != first.Node {
			return fmt.Sprintf("group %v spans nodes %q and %q", grp, first.Node, d.Node)
		}
	}
	if m.Link != "peer" {
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

// candidates lists the kernels the machine offers at a world size for a
// dtype: the exact ones, and those with the codec --quant allows. extra is a
// codec --force asks for even when --quant does not.
func (m *Machine) candidates(opts passes.Options, world int, dtype, extra string) []candidate {
	out := []candidate{{algo: "oneshot", codec: "none"}}
	if !slices.Contains(abi.TwoShotWorlds, world) {
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
		if !m.Hier || (world != 4 && world != 8) {
			continue
		}
		out = append(out, candidate{algo: "hier", codec: c})
	}
	return out
}

// describe names a candidate for a person: the lowering word, its codec,
// the kernel when the word does not say it ("lowprec fp8 (hier)") and the
// cast.
func (m *Machine) describe(c candidate) string {
	s := m.word(c)
	if c.algo != "oneshot" {
		s += " " + c.codec
	}
	if c.algo == "hier" {
		s += " (hier)"
	}
	if c.rounds != "" {
		s += ", " + c.rounds
	}
	return s
}

// word names a kernel choice the way reports and --force do: a lowering
// word of the machine's family that implies the codec (abi's table), else
// the machine's word for two-shot.
func (m *Machine) word(c candidate) string {
	if c.algo == "oneshot" {
		return "oneshot"
	}
	family, _ := abi.FamilyOf(m.Target)
	for _, l := range abi.LoweringTable {
		if l.Algo == "twoshot" && l.Codec != "" && l.Codec == c.codec && l.Family == family.Name {
			return l.Name
		}
	}
	return m.TwoShot
}

// matches reports whether a forced lowering names this candidate: its
// word, or any two-shot word that implies no codec.
func (m *Machine) matches(f passes.Force, c candidate) bool {
	l, _ := abi.LoweringOf(f.Lowering)
	twoshot := l.Algo == "twoshot" && l.Codec == "" && c.algo != "oneshot"
	if m.word(c) != f.Lowering && !twoshot {
		return false
	}
	if f.Codec != "" {
		return c.codec == f.Codec
	}
	return c.codec == "none" || c.codec == "fp" || l.Codec != ""
}

func sizeRange(c passes.Cost) string {
	if c.Off {
		return "a profile that enables it"
	}
	return c.Sizes()
}
