package passes

import "github.com/arcpass/arc/decision"

// Target is one machine arc compiles for. Each target's knowledge (its
// kernels, cost model and rewrite) lives in its own package under
// lowering/; package lowering lists them.
type Target interface {
	// Name is the target as --target spells it: FAMILY:MACHINE, its family
	// one of abi's table.
	Name() string
	// Decide selects the lowering of one all-reduce operand. It fails only
	// for a --force entry that cannot apply.
	Decide(row Row, opts Options) (Decision, error)
	// Lower is the pass that rewrites the module's decisions into the
	// target's form; nil for a target that lowers nothing.
	Lower() Pass
}

// Admitter is a target that checks a decision it did not make in this
// compile as select checks its own before it chooses: an arc_allreduce
// call the module holds (the analyse pass), or the decisions a module
// carries into a pipeline without select (--passes; State.Decided). Admit
// says why the target would not run d for row under opts, or "" when it
// would: the op's eligibility, a kernel, world, link and cast the target
// has, and a codec this compile allows (Options.Allows). The cost model,
// --min-bytes and --max-bytes are select's policy and do not apply.
type Admitter interface {
	Target
	Admit(row Row, d Decision, opts Options) string
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

// Decision is what a target decides for one all-reduce operand; package
// decision writes it into the module and reads it back.
type Decision = decision.Decision

// Native is the decision to keep the platform's all-reduce, for a reason.
func Native(reason string) Decision { return decision.Native(reason) }
