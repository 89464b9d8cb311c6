package docs

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/arcpass/arc/abi"
	"github.com/arcpass/arc/lowering"
)

// hardwareWords name what one target family has, beyond its targets' names:
// its runtime and collective library, its links, its chips.
var hardwareWords = []string{"libtpu", "nccl", "rccl", "nvlink", "ici", "xgmi", "nvidia", "amd", "hip", "gfx942", "gfx950"}

// targetWords are the words that name a target family or what one family
// alone has: each family (abi's table), the parts of each built-in target's
// name ("cuda:pcie-nop2p": pcie, nop2p), the lowering words of one family
// (abi.LoweringInfo.Family) and hardwareWords.
func targetWords(t *testing.T) []string {
	words := slices.Clone(hardwareWords)
	for _, f := range abi.FamilyTable {
		words = append(words, f.Name)
	}
	for _, name := range lowering.Names() {
		_, rest, ok := strings.Cut(name, ":")
		if !ok {
			continue // none: the identity target, a family of its own
		}
		for _, part := range strings.FieldsFunc(rest, func(r rune) bool { return r == '-' }) {
			if strings.IndexFunc(part, unicode.IsLetter) >= 0 {
				words = append(words, part)
			}
		}
	}
	for _, l := range abi.LoweringTable {
		if l.Family != "" {
			words = append(words, l.Name)
		}
	}
	if len(words) < len(hardwareWords)+6 {
		t.Fatalf("found only the words %v", words)
	}
	slices.Sort(words)
	return slices.Compact(words)
}

// tokens splits Go source into lower-case words: at every character that is
// not a letter or digit, each such word whole (ROCm: rocm) and split at its
// case changes (LibtpuInitArgs: libtpu, init, args; NCCLComm: nccl, comm).
func tokens(src string) []string {
	var out []string
	for _, field := range strings.FieldsFunc(src, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		out = append(out, strings.ToLower(field))
		rs := []rune(field)
		start := 0
		for i := 1; i < len(rs); i++ {
			lowerToUpper := unicode.IsLower(rs[i-1]) && unicode.IsUpper(rs[i])
			acronymEnd := i+1 < len(rs) && unicode.IsUpper(rs[i-1]) && unicode.IsUpper(rs[i]) && unicode.IsLower(rs[i+1])
			if lowerToUpper || acronymEnd {
				out = append(out, strings.ToLower(string(rs[start:i])))
				start = i
			}
		}
		out = append(out, strings.ToLower(string(rs[start:])))
	}
	return out
}

// TestPassesAndDecisionNameNoTarget keeps what one target knows in its own
// package under lowering/: no non-test Go file of passes/ or decision/ (their
// subfolders included) names a target family, a part of a target's name, a
// lowering word of one family or a family's hardware, in code, strings or
// comments.
func TestPassesAndDecisionNameNoTarget(t *testing.T) {
	words := targetWords(t)
	checked := 0
	for _, dir := range []string{"../passes", "../decision"} {
		err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			checked++
			found := map[string]int{}
			for i, line := range strings.Split(string(src), "\n") {
				for _, tok := range tokens(line) {
					if slices.Contains(words, tok) || slices.Contains(words, strings.TrimSuffix(tok, "s")) {
						if _, seen := found[tok]; !seen {
							found[tok] = i + 1
						}
					}
				}
			}
			var msgs []string
			for tok, line := range found {
				msgs = append(msgs, filepath.ToSlash(filepath.Clean(path))+":"+strconv.Itoa(line)+": "+tok)
			}
			sort.Strings(msgs)
			for _, m := range msgs {
				t.Errorf("%s names a target's own word: move it to lowering/<target> (ARCHITECTURE.md, A target)", m)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if checked < 10 {
		t.Errorf("checked %d files", checked)
	}
}
