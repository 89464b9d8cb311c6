package gpu_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/arcpass/arc/passes"
)

// The decision table of docs/LOWERINGS.md lies between these lines.
const (
	tableStart = "<!-- decision table: written by TestLoweringsDocIsCurrent (go test ./lowering/gpu) -->\n"
	tableEnd   = "<!-- end of the decision table -->\n"
)

// TestLoweringsDocIsCurrent checks that the table of docs/LOWERINGS.md that
// says what each GPU target chooses, size by size, is what the built-in
// profiles choose.
func TestLoweringsDocIsCurrent(t *testing.T) {
	doc, err := os.ReadFile("../../docs/LOWERINGS.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok1 := strings.Cut(string(doc), tableStart)
	got, _, ok2 := strings.Cut(rest, tableEnd)
	if !ok1 || !ok2 {
		t.Fatalf("docs/LOWERINGS.md lacks the lines %q and %q", tableStart, tableEnd)
	}
	if want := decisionTable(t); got != want {
		t.Errorf("docs/LOWERINGS.md's decision table is out of date; it should read:\n%s", want)
	}
}

// decisionTable lists, for every GPU target and world, the lowering of an
// f16 all-reduce (without --quant) from 16 B to 256 MiB, with the largest
// size of each range (16-byte steps).
func decisionTable(t *testing.T) string {
	var b strings.Builder
	b.WriteString("| target | world | f16 sum, default options: lowering up to the size given |\n| --- | --- | --- |\n")
	for _, name := range gpuTargets {
		opts := passes.Options{Profile: passes.ProfileOf(target(t, name))}
		for _, w := range []int64{2, 4, 6, 8} {
			word := func(n int64) string {
				d := decide(t, name, opts, sum("f16", n, iota(0, w)))
				switch {
				case d.Lowering == "native":
					return "native"
				case d.Algo == "hier":
					return "hier:" + d.Codec
				case d.Codec == "none":
					return d.Lowering
				}
				return d.Lowering + ":" + d.Codec
			}
			var parts []string
			prev, last := word(16), int64(16)
			for _, n := range append(sizes(), 256*mib) {
				if w := word(n); w != prev {
					lo, hi := last, n // the change lies in (lo, hi]
					for hi-lo > 16 {
						mid := (lo + hi) / 2 / 16 * 16
						if word(mid) == prev {
							lo = mid
						} else {
							hi = mid
						}
					}
					parts = append(parts, fmt.Sprintf("%s to %s", prev, exactBytes(lo)))
					prev = w
				}
				last = n
			}
			parts = append(parts, prev+" above")
			fmt.Fprintf(&b, "| `%s` | %d | %s |\n", name, w, strings.Join(parts, ", "))
		}
	}
	return b.String()
}

// exactBytes prints a size as HumanBytes does, with the bytes when that
// rounds.
func exactBytes(n int64) string {
	if n%kib == 0 && (n < mib || n%mib == 0) {
		return passes.HumanBytes(n)
	}
	return fmt.Sprintf("%s (%d B)", passes.HumanBytes(n), n)
}
