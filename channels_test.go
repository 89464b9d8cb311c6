package arc

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/arcpass/arc/ir"
)

// TestChannelsEveryTarget compiles the channel cases (testdata/exact/channels)
// for every target: each channel id the output holds that the input does not
// is held by one op alone, and none the input holds moves to an op of
// another kind (the oracle's rule, which checkCompile applies too), as XLA's
// verifier demands of send, recv and every collective.
func TestChannelsEveryTarget(t *testing.T) {
	files, err := filepath.Glob("testdata/exact/channels/*.mlir")
	if err != nil || len(files) == 0 {
		t.Fatalf("no channel cases: %v", err)
	}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		in, err := ir.Parse(file, src)
		if err != nil {
			t.Fatal(err)
		}
		held := map[int64]bool{}
		for _, c := range in.ChannelIDs() {
			held[c.ID] = true
		}
		for _, target := range Targets() {
			t.Run(filepath.Base(file)+"/"+target, func(t *testing.T) {
				opt := Options{Target: target}
				out, _, err := Compile(file, src, opt)
				var pos *ir.Error
				if errors.As(err, &pos) {
					return // the case's error (TestExact checks where and what)
				}
				if err != nil {
					t.Fatal(err)
				}
				low, err := ir.Parse("out.mlir", out)
				if err != nil {
					t.Fatal(err)
				}
				seen := map[int64]int{}
				for _, c := range low.ChannelIDs() {
					if !held[c.ID] {
						seen[c.ID]++
					}
				}
				for id, n := range seen {
					if n > 1 {
						t.Errorf("new channel id %d is held by %d ops", id, n)
					}
				}
				checkCompile(t, src, opt, &original{})
			})
		}
	}
}
