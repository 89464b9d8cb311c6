// Package benchmodule builds the large module arc's benchmarks time: ir's
// round trip and the root package's compile.
package benchmodule

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

// Build returns a module of about size bytes: the layer of the JAX
// tensor-parallel MLP fixture (two matmuls, a GELU and a bf16 all-reduce),
// read from fixture, repeated with fresh value names, each layer reading
// the one before.
func Build(tb testing.TB, fixture string, size int) []byte {
	tb.Helper()
	src, err := os.ReadFile(fixture)
	if err != nil {
		tb.Fatal(err)
	}
	lines := strings.SplitAfter(string(src), "\n")
	// Lines 6-29 are the layer: %1 = dot_general ... %16 = all_reduce; line 5
	// opens the manual computation and 30-34 close it.
	head, layer, tail := strings.Join(lines[:5], ""), strings.Join(lines[5:29], ""), strings.Join(lines[30:], "")
	if !strings.Contains(layer, `%16 = "stablehlo.all_reduce"(%15)`) || !strings.HasPrefix(lines[29], "      sdy.return %16") {
		tb.Fatal("the fixture's layer is not where the benchmark expects it")
	}
	local := regexp.MustCompile(`%(\d+|cst(_\d+)?)\b`)
	var b strings.Builder
	b.Grow(size + len(layer))
	b.WriteString(head)
	prev := "%arg3"
	for i := 0; b.Len() < size-len(tail); i++ {
		l := local.ReplaceAllString(layer, fmt.Sprintf("%%l%d_$1", i))
		b.WriteString(strings.ReplaceAll(l, "%arg3,", prev+","))
		prev = fmt.Sprintf("%%l%d_16", i)
	}
	fmt.Fprintf(&b, "      sdy.return %s : tensor<16x512xbf16>\n", prev)
	b.WriteString(tail)
	return []byte(b.String())
}
