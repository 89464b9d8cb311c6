// Package accuracy measures what arc's codecs cost in accuracy: it
// generates inputs that look like what an all-reduce sees, runs the Go
// reference of an algorithm on them and compares every rank's output with
// the exact sum.
package accuracy

import (
	"fmt"
	"math"

	"github.com/arcpass/arc/reference/num"
)

// Dists lists the input distributions:
//
//   - gaussian: independent N(0, 1) values.
//   - outliers: activations of a hidden size of 4096 channels (element i is
//     channel i mod 4096) where a few channels (8 at places drawn from the
//     seed, the same on every rank) are 20-100 times larger than the rest
//     (gains f_c evenly spread over that range): N(0, f_c^2) instead of
//     N(0, 1), as LLM activations have (LLM.int8(), SmoothQuant).
//   - llm: the partial sums a tensor-parallel layer hands its all-reduce:
//     heavy-tailed values (Student's t with 4 degrees of freedom, unit
//     variance), a per-token scale (log-normal, sigma 0.5: some tokens are
//     several times louder than others), and the outlier channels with a
//     fixed sign per channel on every rank ("massive activations"), so they
//     add up coherently across ranks.
//
// Values are clamped to ±4096, so that f16 sums over 8 ranks stay finite.
func Dists() []string { return []string{"gaussian", "outliers", "llm"} }

// RangeDists lists the inputs beyond f16's range, for bf16 and f32 (what
// the bf16 cast must keep): llm's values times 2^20 (large: above 65504) or
// times 2^-40 (tiny: below f16's smallest subnormal, 2^-24).
func RangeDists() []string { return []string{"large", "tiny"} }

// rangeScale is what a distribution of RangeDists multiplies llm's values by.
var rangeScale = map[string]float32{"large": 0x1p20, "tiny": 0x1p-40}

const (
	hidden         = 4096 // channels of the modelled activation
	outlierCount   = 8    // outlier channels among them
	minGain        = 20   // outlier channels are minGain..maxGain times larger
	maxGain        = 100
	valueLimit     = 4096
	tokenScaleSkew = 0.5 // sigma of the log-normal per-token scale
)

// Inputs returns world ranks' inputs of elems values of type dt, drawn from
// dist; the same arguments give the same bytes.
func Inputs(dist string, dt num.DType, world, elems int, seed uint64) ([][]byte, error) {
	gen, ok := map[string]func(*source, *channels, int, []float32){
		"gaussian": gaussian,
		"outliers": outliers,
		"llm":      llm,
		"large":    llm,
		"tiny":     llm,
	}[dist]
	if !ok {
		return nil, fmt.Errorf("unknown distribution %q (want gaussian, outliers, llm, large or tiny)", dist)
	}
	if !dt.Valid() || world < 1 || elems < 0 {
		return nil, fmt.Errorf("invalid inputs: %v, world %d, %d elements", dt, world, elems)
	}
	scale, beyondF16 := rangeScale[dist]
	if beyondF16 && dt == num.F16 {
		return nil, fmt.Errorf("f16 cannot hold %s inputs (they are beyond its range)", dist)
	}
	if !beyondF16 {
		scale = 1
	}
	ch := newChannels(seed)
	inputs := make([][]byte, world)
	v := make([]float32, elems)
	for r := range inputs {
		gen(newSource(seed*0x9E3779B97F4A7C15+uint64(r+1)*0xD1B54A32D192ED03), ch, r, v)
		for i := range v {
			v[i] = max(-valueLimit, min(valueLimit, v[i])) * scale
		}
		inputs[r] = num.Narrow(dt, v)
	}
	return inputs, nil
}

func gaussian(src *source, _ *channels, _ int, v []float32) {
	for i := range v {
		v[i] = float32(src.normal())
	}
}

func outliers(src *source, ch *channels, _ int, v []float32) {
	for i := range v {
		v[i] = float32(src.normal() * ch.gain[i%hidden])
	}
}

func llm(src *source, ch *channels, _ int, v []float32) {
	for t := 0; t < len(v); t += hidden {
		scale := math.Exp(tokenScaleSkew * src.normal())
		for i := t; i < min(t+hidden, len(v)); i++ {
			c := i % hidden
			x := src.studentT4()
			if g := ch.gain[c]; g != 1 {
				x = ch.sign[c] * g * (1 + 0.25*src.normal())
			}
			v[i] = float32(x * scale)
		}
	}
}

// channels are the outlier channels, the same on every rank.
type channels struct {
	gain [hidden]float64 // 1, or in minGain..maxGain for an outlier channel
	sign [hidden]float64 // an outlier channel's sign under llm
}

func newChannels(seed uint64) *channels {
	ch := &channels{}
	for c := range ch.gain {
		ch.gain[c], ch.sign[c] = 1, 1
	}
	src := newSource(seed ^ 0xC4A5E17B0A5D1E5)
	for n := 0; n < outlierCount; {
		c := int(src.next() % hidden)
		if ch.gain[c] != 1 {
			continue
		}
		ch.gain[c] = minGain + (maxGain-minGain)*float64(n)/(outlierCount-1)
		if src.next()&1 == 1 {
			ch.sign[c] = -1
		}
		n++
	}
	return ch
}

// source is a SplitMix64 generator with a spare normal value.
type source struct {
	state uint64
	spare float64
	has   bool
}

func newSource(seed uint64) *source { return &source{state: seed} }

func (s *source) next() uint64 {
	s.state += 0x9E3779B97F4A7C15
	z := s.state
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

// uniform is in (0, 1).
func (s *source) uniform() float64 { return (float64(s.next()>>11) + 0.5) / (1 << 53) }

// normal is N(0, 1) by the Box-Muller transform, which makes two at a time.
func (s *source) normal() float64 {
	if s.has {
		s.has = false
		return s.spare
	}
	r := math.Sqrt(-2 * math.Log(s.uniform()))
	sin, cos := math.Sincos(2 * math.Pi * s.uniform())
	s.spare, s.has = r*sin, true
	return r * cos
}

// studentT4 is Student's t with 4 degrees of freedom, scaled to unit
// variance (its variance is 2): N(0, 1) / sqrt(chi2_4 / 4), where
// chi2_4 = -2 ln(U1 U2) is the sum of two chi2_2 = -2 ln U.
func (s *source) studentT4() float64 {
	chi2 := -2 * math.Log(s.uniform()*s.uniform())
	return s.normal() / math.Sqrt(chi2/4) / math.Sqrt2
}
