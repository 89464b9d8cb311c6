package oracle

import (
	"fmt"
	"slices"

	"github.com/arcpass/arc/ir"
)

// channelProblems lists the channel ids a lowering gives ops of another kind
// than the original's: XLA's verifier (VerifyChannels) refuses one id on
// channel instructions of different kinds (a send's and an all-reduce's), so
// an id the lowering makes up must be held by its op alone, and an id the
// original holds only by ops of the kinds that held it there.
func channelProblems(orig, lowered *ir.Module) []string {
	kinds := func(m *ir.Module) map[int64][]string {
		out := map[int64][]string{}
		for _, c := range m.ChannelIDs() {
			out[c.ID] = append(out[c.ID], channelKind(c.Op))
		}
		return out
	}
	before, after := kinds(orig), kinds(lowered)
	var problems []string
	ids := make([]int64, 0, len(after))
	for id := range after {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		held, was := after[id], before[id]
		switch {
		case was == nil && len(held) > 1:
			problems = append(problems, fmt.Sprintf("channel id %d, which the original does not hold, is held by %d ops (%v)", id, len(held), held))
		case was != nil:
			for _, k := range held {
				if !slices.Contains(was, k) {
					problems = append(problems, fmt.Sprintf("channel id %d, held by %v in the original, is also held by %s", id, was, k))
					break
				}
			}
		}
	}
	return problems
}

// channelKind names the kind of channel instruction an op is, as XLA's
// verifier tells them apart: its name without the dialect.
func channelKind(op *ir.Op) string {
	if op.Name == "" {
		return "alias definition"
	}
	return shortName(op.Name)
}
