package accuracy

import (
	"math"
	"testing"

	"github.com/arcpass/arc/reference/codec"
	"github.com/arcpass/arc/reference/collective"
	"github.com/arcpass/arc/reference/num"
)

// TestInt4rModes checks what each of int4r's modes is for, on the inputs of
// docs/ACCURACY.md's table (f16): blocks that hold an outlier channel
// ("outlier blocks", 1 in 16) and the others. It counts the modes rank 0's
// input is encoded with, and splits twoshot's error energy between the two
// kinds of blocks. Run with -v for the figures docs/ACCURACY.md quotes.
//
//   - The split (mode 2) is the outlier blocks' mode: at least 3 in 4 of them
//     use it under outliers and llm, and under 5% of the other blocks do.
//   - On N(0, 1) blocks plain and rotated codes are about as good, and int4r
//     keeps the better one: each takes 40-60% of the blocks.
//   - int4r's error in outlier blocks is at most 0.3 of int4's (L2), and at
//     most 0.95 of it in the other blocks.
func TestInt4rModes(t *testing.T) {
	ch := newChannels(DefaultSeed)
	holdsOutlier := func(block int) bool {
		for i := block * codec.BlockSize; i < (block+1)*codec.BlockSize; i++ {
			if ch.gain[i%hidden] != 1 {
				return true
			}
		}
		return false
	}
	int4r, err := codec.New("int4r", num.F16, false)
	if err != nil {
		t.Fatal(err)
	}
	const other, outlier = 0, 1
	kinds := []string{"other", "outlier"}
	for _, dist := range Dists() {
		in, err := Inputs(dist, num.F16, 8, DefaultElems, DefaultSeed)
		if err != nil {
			t.Fatal(err)
		}
		var modes [2][4]int // by kind of block, then mode
		enc := codec.Encode(int4r, num.Widen(num.F16, in[0]))
		for b := range codec.Blocks(DefaultElems) {
			k := other
			if holdsOutlier(b) {
				k = outlier
			}
			modes[k][enc[b*int4r.BlockBytes()]&3]++
		}
		exact := Exact(num.F16, in)
		var errSq [2][2]float64 // by codec (int4, int4r), then kind of block
		for c, name := range []string{"int4", "int4r"} {
			outs, err := collective.Run(collective.Spec{Algo: "twoshot", Codec: name, DType: num.F16, World: 8}, in)
			if err != nil {
				t.Fatal(err)
			}
			for i, y := range num.Widen(num.F16, outs[0]) {
				k := other
				if holdsOutlier(i / codec.BlockSize) {
					k = outlier
				}
				d := float64(y) - exact[i]
				errSq[c][k] += d * d
			}
		}
		for k, kind := range kinds {
			n := modes[k][0] + modes[k][1] + modes[k][2]
			share := func(mode int) float64 { return float64(modes[k][mode]) / float64(n) }
			ratio := math.Sqrt(errSq[1][k] / errSq[0][k])
			t.Logf("%-8s %-7s blocks (%4d): plain %3.0f%%, rotated %3.0f%%, split %3.0f%%; int4's error energy here %3.0f%%, int4r's L2 error %.2f of int4's",
				dist, kind, n, 100*share(0), 100*share(1), 100*share(2), 100*errSq[0][k]/(errSq[0][0]+errSq[0][1]), ratio)
			if modes[k][3] != 0 {
				t.Errorf("%s: %d blocks in mode 3", dist, modes[k][3])
			}
			switch {
			case k == outlier && dist != "gaussian" && share(2) < 0.75:
				t.Errorf("%s: %.0f%% of the outlier blocks use the split, want at least 75%%", dist, 100*share(2))
			case k == other && share(2) >= 0.05:
				t.Errorf("%s: %.0f%% of the other blocks use the split, want under 5%%", dist, 100*share(2))
			}
			if dist == "gaussian" && (share(0) < 0.4 || share(0) > 0.6 || share(1) < 0.4 || share(1) > 0.6) {
				t.Errorf("gaussian %s blocks: plain %.2f, rotated %.2f, want each in 0.4-0.6", kind, share(0), share(1))
			}
			if bound := map[int]float64{other: 0.95, outlier: 0.3}[k]; dist != "gaussian" && ratio > bound {
				t.Errorf("%s, %s blocks: int4r's error is %.2f of int4's, want at most %g", dist, kind, ratio, bound)
			}
		}
	}
}
