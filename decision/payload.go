package decision

import (
	"slices"

	"github.com/arcpass/arc/ir"
)

// A Payload is a target's own part of a decision, beyond what every
// decision records (the lowering, codec, kernel, reason and estimates): the
// target that decides it defines its type, writes its attributes through
// Write and registers how Read reads them back (RegisterPayload). Its JSON
// form is an object whose fields the report shows among the decision's.
type Payload interface {
	// Attrs are the attributes it records on the op, values as MLIR
	// prints them.
	Attrs() []ir.Attr
	// Equal reports whether p records what the payload records.
	Equal(p Payload) bool
}

// A PayloadKind is how one target's payload is read back.
type PayloadKind struct {
	// Lowering is the lowering word whose decisions carry it.
	Lowering string
	// Attrs are every attribute it writes (Write drops them from an op it
	// decides afresh).
	Attrs []string
	// Read returns the payload an op's attributes (by name, as written)
	// record, nil when they record none; value returns this operand's entry
	// of an attribute, unquoted, as the common part reads its own.
	Read func(attrs map[string]string, value func(name string) (string, error)) (Payload, error)
	// Lowered is the payload of an op the target has lowered already
	// (the decision's lowering, none of the attributes); nil: none.
	Lowered func(c *ir.Collective) Payload
}

// payloads are the registered kinds, in the order they registered.
var payloads []PayloadKind

// RegisterPayload makes Read read a target's payload; a target's package
// calls it from init. A second kind for one lowering word panics.
func RegisterPayload(k PayloadKind) {
	if slices.ContainsFunc(payloads, func(p PayloadKind) bool { return p.Lowering == k.Lowering }) {
		panic("decision: a second payload for lowering " + k.Lowering)
	}
	payloads = append(payloads, k)
}

// PayloadKindOf returns the kind registered for a lowering word.
func PayloadKindOf(lowering string) (PayloadKind, bool) {
	i := slices.IndexFunc(payloads, func(p PayloadKind) bool { return p.Lowering == lowering })
	if i < 0 {
		return PayloadKind{}, false
	}
	return payloads[i], true
}

// SamePayload reports whether two decisions' payloads record the same.
func SamePayload(a, b Payload) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Equal(b)
}
