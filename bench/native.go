package bench

import (
	"fmt"
	"slices"
	"strings"
)

// A Switch is one of the all-reduce switches jaxlib's XLA has that a JAX user
// can turn on, per process (XLA_FLAGS=--NAME=VALUE) or per program
// (jax.jit(f).lower(...).compile(compiler_options={NAME: VALUE})). The
// lowering "native+WORD" is XLA's own all-reduce compiled with it.
type Switch struct {
	Word  string // in the lowering's name: native+oneshot
	Flag  string // XLA's debug option
	Value string // what it is set to
	Doc   string
}

// Switches are XLA's all-reduce switches, in the order lowering names list them.
var Switches = []Switch{
	{"oneshot", "xla_gpu_unsupported_use_all_reduce_one_shot_kernel", "true",
		"XLA's own one-shot all-reduce kernel (f32 and bf16 sums, peer access, up to 8 ranks; two-shot above 256 KB)"},
	{"symm", "xla_gpu_experimental_enable_nccl_symmetric_buffers", "true",
		"NCCL's symmetric kernels on buffers XLA registers as symmetric windows (NCCL 2.27+)"},
	{"userbuf", "xla_gpu_enable_nccl_user_buffers", "true",
		"NCCL user-buffer registration of the collectives' buffers, from the client's collective memory"},
}

// NativeLowerings are native and each switch alone, then all of them together.
var NativeLowerings = []Lowering{Native, "native+oneshot", "native+symm", "native+userbuf", "native+all"}

// IsNative reports whether l is XLA's own all-reduce, with or without
// switches, or NCCL called directly at the kernel level (nccl-graph,
// nccl-symm-graph): what a user gets without arc.
func (l Lowering) IsNative() bool {
	s := string(l)
	return l == Native || strings.HasPrefix(s, "native+") || strings.HasPrefix(s, "nccl-")
}

// XLAFlag is one debug option of XLA's compiler.
type XLAFlag struct{ Name, Value string }

// String is the flag as XLA_FLAGS spells it.
func (f XLAFlag) String() string { return "--" + f.Name + "=" + f.Value }

// XLAFlags are the debug options a native lowering compiles with (none for
// native itself and for arc's lowerings).
func (l Lowering) XLAFlags() []XLAFlag {
	var out []XLAFlag
	for _, s := range l.switches() {
		out = append(out, XLAFlag{s.Flag, s.Value})
	}
	return out
}

// NeedsCollectiveMemory reports whether l runs from the PJRT client's
// collective memory (NCCL user buffers), which the client must reserve when
// it starts ("collective_memory_size").
func (l Lowering) NeedsCollectiveMemory() bool {
	return slices.ContainsFunc(l.switches(), func(s Switch) bool { return s.Word == "userbuf" })
}

func (l Lowering) switches() []Switch {
	rest, ok := strings.CutPrefix(string(l), "native+")
	if !ok {
		return nil
	}
	if rest == "all" {
		return Switches
	}
	var out []Switch
	for _, w := range strings.Split(rest, "+") {
		for _, s := range Switches {
			if s.Word == w {
				out = append(out, s)
			}
		}
	}
	return out
}

func switchWords() []string {
	var out []string
	for _, s := range Switches {
		out = append(out, s.Word)
	}
	return out
}

// parseNative reads native+WORD[+WORD...] (lower case), with the words in
// Switches' order and native+all for all of them.
func parseNative(f string) (Lowering, error) {
	if f == "native" {
		return Native, nil
	}
	words := strings.Split(strings.TrimPrefix(f, "native+"), "+")
	if len(words) == 1 && words[0] == "all" {
		return "native+all", nil
	}
	var on []string
	for _, w := range words {
		if !slices.Contains(switchWords(), w) {
			return "", fmt.Errorf("unknown lowering %q: XLA's switches are native+{%s} (+ joins several; native+all is all of them)",
				f, strings.Join(switchWords(), ","))
		}
		if slices.Contains(on, w) {
			return "", fmt.Errorf("lowering %q names %s twice", f, w)
		}
		on = append(on, w)
	}
	if len(on) == len(Switches) {
		return "native+all", nil
	}
	var canon []string
	for _, w := range switchWords() {
		if slices.Contains(on, w) {
			canon = append(canon, w)
		}
	}
	return Lowering("native+" + strings.Join(canon, "+")), nil
}

// NeedsCollectiveMemory reports whether any lowering of the plan runs from
// the client's collective memory.
func (p Plan) NeedsCollectiveMemory() bool {
	return slices.ContainsFunc(p.Lowerings, Lowering.NeedsCollectiveMemory)
}

// CollectiveMemory is how much collective memory the PJRT client reserves
// for a plan with NCCL user buffers: room for four buffers of the largest
// size (a chained all-reduce's operand and result, and XLA's double
// buffering of both), at least 256 MiB.
func (p Plan) CollectiveMemory() int64 {
	if !p.NeedsCollectiveMemory() || len(p.Sizes) == 0 {
		return 0
	}
	return max(4*p.Sizes[len(p.Sizes)-1], 256<<20)
}
