package normgen_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arcpass/arc"
	"github.com/arcpass/arc/internal/normgen"
	"github.com/arcpass/arc/ir"
)

// Every case is a valid program: it parses, and arc's analysis (StableHLO's
// rules, the types each use states) accepts it; a case's bytes are the case.
func TestCasesAreValid(t *testing.T) {
	cases := normgen.Seeds()
	rng := rand.New(rand.NewPCG(7, 8))
	for range 200 {
		b := make([]byte, rng.IntN(14))
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		cases = append(cases, normgen.Decode(b))
	}
	for _, c := range cases {
		if got := normgen.Decode(c.Bytes()); got != c {
			t.Errorf("Decode(%v.Bytes()) = %v", c, got)
		}
		src := c.Module()
		if _, err := ir.ParseString("gen.mlir", src); err != nil {
			t.Fatalf("%s: %v\n%s", c, err, src)
		}
		if _, _, err := arc.Compile("gen.mlir", []byte(src), arc.Options{Target: "none"}); err != nil {
			t.Fatalf("%s: %v\n%s", c, err, src)
		}
	}
}

// The exact seeds are norms the fuse pass takes (docs/LOWERINGS.md,
// "Fusion"): a matcher that misses one fails here, where the oracle, which
// checks what is fused, cannot see it.
func TestExactSeedsFuse(t *testing.T) {
	n := 0
	for _, c := range normgen.Seeds() {
		if !c.Exact() {
			continue
		}
		n++
		out, _, err := arc.Compile("gen.mlir", []byte(c.Module()), arc.Options{Target: "cuda:nvlink"})
		if err != nil {
			t.Errorf("%s: %v", c, err)
			continue
		}
		if !strings.Contains(string(out), `norm = "rmsnorm"`) {
			t.Errorf("%s: not fused\n%s", c, c.Module())
		}
	}
	if n < 30 {
		t.Errorf("%d exact seeds", n)
	}
}
