package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/arcpass/arc/passes"
)

// minUS is the smallest time a profile point may hold: at tiny sizes the
// chain-minus-control difference of a fast kernel can fall to or below zero
// in the noise, and the cost model interpolates on log axes.
const minUS = 0.05

// Fit turns measurements into a cost profile for target: for every world,
// dtype and lowering measured (auto aside), the measured points and a fitted
// latency and bandwidth; and for every lowering other than native, the
// range of sizes where it beat native by more than margin (0.05: 5%) as
// MinBytes/MaxBytes, or Off when it never did; a two-shot lowering starts no
// earlier than where it beats oneshot by margin too. Failed measurements are left
// out; where native failed, the lowerings are compared with native
// interpolated between the sizes it was measured at.
func Fit(rs []Result, target, source string, margin float64) (*passes.Profile, error) {
	type key struct {
		world int
		dtype string
	}
	points := map[key]map[string][][2]float64{}
	for _, r := range rs {
		k := r.Lowering.Key()
		if !r.OK() || k == "" {
			continue
		}
		g := key{r.World, r.DType}
		if points[g] == nil {
			points[g] = map[string][][2]float64{}
		}
		points[g][k] = append(points[g][k], [2]float64{float64(r.Bytes), round3(math.Max(r.US, minUS))})
	}
	p := &passes.Profile{Target: target, Source: source, Costs: map[string]map[string]map[string]passes.Cost{}}
	for g, byKey := range points {
		native, ok := byKey["native"]
		if !ok {
			continue // nothing to compare with
		}
		costs := map[string]passes.Cost{}
		for k, pts := range byKey {
			sort.Slice(pts, func(i, j int) bool { return pts[i][0] < pts[j][0] })
			pts = dedupe(pts)
			c := fitCost(pts)
			if k != "native" {
				c.MinBytes, c.MaxBytes, c.Off = winningRange(pts, native, margin)
			}
			costs[k] = c
		}
		startWhereTwoShotOvertakesOneShot(costs, margin)
		w := strconv.Itoa(g.world)
		if p.Costs[w] == nil {
			p.Costs[w] = map[string]map[string]passes.Cost{}
		}
		p.Costs[w][g.dtype] = costs
	}
	if len(p.Costs) == 0 {
		return nil, fmt.Errorf("no measurement of native to fit a profile against")
	}
	return p, p.Check()
}

// startWhereTwoShotOvertakesOneShot raises each two-shot lowering's
// smallest size to where it beats oneshot, measured in the same sweep, by
// margin too, and turns it off where it never does. Below that size both move
// the same bytes at two ranks and two-shot waits twice; their samples differ
// by less than their spread, so a noisy point would otherwise choose two-shot,
// or under --quant a lossy codec, where oneshot is as fast.
func startWhereTwoShotOvertakesOneShot(costs map[string]passes.Cost, margin float64) {
	one, ok := costs["oneshot"]
	if !ok {
		return
	}
	for k, c := range costs {
		if !strings.HasPrefix(k, "twoshot:") || c.Off {
			continue
		}
		if lo, _, off := winningRange(c.Points, one.Points, margin); off {
			c.Off, c.MinBytes, c.MaxBytes = true, 0, 0
		} else {
			c.MinBytes = max(c.MinBytes, lo)
		}
		costs[k] = c
	}
}

// dedupe keeps the first point of each size (sorted input).
func dedupe(pts [][2]float64) [][2]float64 {
	out := pts[:0:0]
	for i, pt := range pts {
		if i == 0 || pt[0] != pts[i-1][0] {
			out = append(out, pt)
		}
	}
	return out
}

// fitCost keeps the points and summarises them: the latency is the fastest
// measured time (the small-message floor), the bandwidth what the largest
// size moves once that latency is paid.
func fitCost(pts [][2]float64) passes.Cost {
	c := passes.Cost{Points: pts}
	lat := math.Inf(1)
	for _, pt := range pts {
		lat = math.Min(lat, pt[1])
	}
	c.LatencyUS = round3(lat)
	last := pts[len(pts)-1]
	if last[1] > lat {
		c.GBps = round3(last[0] / (last[1] - lat) / 1e3)
	}
	return c
}

// winningRange finds the longest run of measured sizes where pts beats
// native by more than margin; it returns its bounds (0 where the run reaches
// the end of the measured sizes), or off when there is none. A bound sits
// where the two curves, interpolated on log axes, cross.
func winningRange(pts, native [][2]float64, margin float64) (minBytes, maxBytes int64, off bool) {
	nat := passes.Cost{Points: native}
	// advantage > 0 where the lowering wins: log(native / (lowering * (1+margin))).
	adv := make([]float64, len(pts))
	for i, pt := range pts {
		adv[i] = math.Log(nat.At(int64(pt[0])) / (pt[1] * (1 + margin)))
	}
	bestLo, bestHi := -1, -1
	for i := 0; i < len(pts); i++ {
		if adv[i] <= 0 {
			continue
		}
		j := i
		for j+1 < len(pts) && adv[j+1] > 0 {
			j++
		}
		if bestLo < 0 || j-i >= bestHi-bestLo {
			bestLo, bestHi = i, j
		}
		i = j
	}
	if bestLo < 0 {
		return 0, 0, true
	}
	if bestLo > 0 {
		minBytes = roundUp16(crossing(pts[bestLo-1][0], pts[bestLo][0], adv[bestLo-1], adv[bestLo]))
	}
	if bestHi < len(pts)-1 {
		maxBytes = crossing(pts[bestHi][0], pts[bestHi+1][0], adv[bestHi], adv[bestHi+1]) / 16 * 16
	}
	return minBytes, maxBytes, false
}

// crossing is where the advantage, linear in log size between two sizes, is zero.
func crossing(n0, n1, a0, a1 float64) int64 {
	t := a0 / (a0 - a1)
	return int64(math.Exp(math.Log(n0) + t*(math.Log(n1)-math.Log(n0))))
}

func roundUp16(n int64) int64 { return (n + 15) / 16 * 16 }

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// WriteProfile writes a profile as indented JSON, the form passes.LoadProfile
// reads, with each [bytes, us] point on one line.
func WriteProfile(w io.Writer, p *passes.Profile) error {
	data, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return err
	}
	data = pointLines.ReplaceAll(data, []byte("[$1, $2]"))
	_, err = w.Write(append(data, '\n'))
	return err
}

// pointLines matches a two-number array json.MarshalIndent spread over lines.
var pointLines = regexp.MustCompile(`\[\s+([-+.eE0-9]+),\s+([-+.eE0-9]+)\s+\]`)
