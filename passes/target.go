package passes

import "math"

// Target is one machine arc compiles for. Each target's knowledge (its
// kernels, cost model and rewrite) lives in its own package under
// lowering/; package lowering lists them.
type Target interface {
	// Name is the target as --target spells it: "cuda:nvlink", "tpu:v6e-8".
	Name() string
	// Decide selects the lowering of one all-reduce operand. It fails only
	// for a --force entry that cannot apply.
	Decide(row Row, opts Options) (Decision, error)
	// Lower is the pass that rewrites the module's decisions into the
	// target's form; nil for a target that lowers nothing.
	Lower() Pass
}

// Profiled is a target with a built-in cost model, which `arc tune`
// measurements replace (--profile).
type Profiled interface {
	Target
	Profile() *Profile
}

// Codecless is a target whose lowerings send every all-reduce's values as
// they are, so --quant has nothing to choose there; NoCodecs says why, once
// per report.
type Codecless interface {
	Target
	NoCodecs() string
}

// ProfileOf returns a target's built-in profile, or nil.
func ProfileOf(t Target) *Profile {
	if p, ok := t.(Profiled); ok {
		return p.Profile()
	}
	return nil
}

// Decision is the selection for one all-reduce operand, as select writes it
// into the module and the lowering passes and the report read it back.
type Decision struct {
	Lowering string // native, oneshot, twoshot, quickreduce, lowprec, ring
	Codec    string // none, fp, fp8, int8, int6, int4, int4r
	Algo     string // oneshot, twoshot, hier: the kernel that runs
	Link     string // peer, host
	Cast     bool   // bf16 sent as fp16
	Reason   string
	EstUS    float64
	NativeUS float64
	// Ring and RingMaxHops are a TPU ring embedding of the op's groups.
	Ring        [][]int64
	RingMaxHops int
	// Fuse is the norm the kernel also runs ("rmsnorm", FusePass), or "";
	// FuseReason why or why not.
	Fuse, FuseReason string
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
