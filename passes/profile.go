package passes

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/arcpass/arc/ir"
)

// Profile holds the cost model of one target: for each world size, dtype and
// lowering, the time of one all-reduce as a function of its size. Built-in
// profiles come from published and measured figures (see docs/LOWERINGS.md);
// `arc tune` writes measured ones, which `--profile FILE.json` loads.
type Profile struct {
	Target string `json:"target"`
	Source string `json:"source"` // where the numbers come from
	// Costs maps world size ("2") -> dtype ("f16") -> lowering key -> cost.
	// Keys: "native", "oneshot", "twoshot:CODEC", "hier:CODEC".
	Costs map[string]map[string]map[string]Cost `json:"costs"`
}

// Cost is the time of one all-reduce against its size in bytes: measured
// points, interpolated on log-log axes, or a latency plus a bandwidth.
type Cost struct {
	Points    [][2]float64 `json:"points,omitempty"` // [bytes, microseconds], sorted by bytes
	LatencyUS float64      `json:"latency_us,omitempty"`
	GBps      float64      `json:"gbps,omitempty"` // input bytes per second, in GB/s, once latency is paid
	// MinBytes and MaxBytes bound the sizes the profile allows this lowering
	// for (0: no bound). A measured crossover goes here.
	MinBytes int64 `json:"min_bytes,omitempty"`
	MaxBytes int64 `json:"max_bytes,omitempty"`
	// Off disables the lowering for this world and dtype.
	Off bool `json:"off,omitempty"`
}

// At estimates the time in microseconds of an all-reduce of n bytes.
func (c Cost) At(n int64) float64 {
	if len(c.Points) == 0 {
		if c.GBps <= 0 {
			return math.Inf(1)
		}
		return c.LatencyUS + float64(n)/(c.GBps*1e3)
	}
	x := float64(max(n, 1))
	p := c.Points
	if x <= p[0][0] {
		return p[0][1] // below the smallest measured size the time is latency
	}
	for i := 1; i < len(p); i++ {
		if x <= p[i][0] {
			lx0, lx1 := math.Log(p[i-1][0]), math.Log(p[i][0])
			ly0, ly1 := math.Log(p[i-1][1]), math.Log(p[i][1])
			return math.Exp(ly0 + (ly1-ly0)*(math.Log(x)-lx0)/(lx1-lx0))
		}
	}
	// Above the largest size, time grows linearly at the last measured rate.
	last := p[len(p)-1]
	if len(p) == 1 {
		return last[1] * x / last[0]
	}
	prev := p[len(p)-2]
	rate := math.Max((last[1]-prev[1])/(last[0]-prev[0]), 0)
	return last[1] + rate*(x-last[0])
}

// Allows reports whether the profile lets this lowering run at n bytes.
func (c Cost) Allows(n int64) bool {
	return !c.Off && (c.MinBytes == 0 || n >= c.MinBytes) && (c.MaxBytes == 0 || n <= c.MaxBytes)
}

// Lookup returns the cost of a lowering, falling back to the nearest world
// size the profile knows and to f16 for a dtype it does not list.
func (p *Profile) Lookup(world int, dtype, key string) (Cost, bool) {
	w := p.nearestWorld(world)
	byType := p.Costs[w]
	costs, ok := byType[dtype]
	if !ok {
		costs, ok = byType["f16"]
	}
	if !ok {
		return Cost{}, false
	}
	c, ok := costs[key]
	return c, ok
}

// nearestWorld returns the key of the world closest to world; a tie goes to
// the smaller world.
func (p *Profile) nearestWorld(world int) string {
	best, bestWorld, bestDist := "", 0, math.MaxInt
	for k := range p.Costs {
		w, err := strconv.Atoi(k)
		if err != nil {
			continue
		}
		d := w - world
		if d < 0 {
			d = -d
		}
		if d < bestDist || d == bestDist && w < bestWorld {
			best, bestWorld, bestDist = k, w, d
		}
	}
	return best
}

// LoadProfile reads a profile written by `arc tune` (or by hand).
func LoadProfile(path string) (*Profile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseProfile(path, data)
}

// ParseProfile reads and checks the JSON of a profile; path names it in
// messages.
func ParseProfile(path string, data []byte) (*Profile, error) {
	var p Profile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields() // a misspelt key would silently change the model
	if err := dec.Decode(&p); err != nil {
		return nil, jsonError(path, data, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%s: data after the profile", path)
	}
	if err := p.Check(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return &p, nil
}

// Check rejects profiles the cost model cannot use.
func (p *Profile) Check() error {
	if len(p.Costs) == 0 {
		return fmt.Errorf("profile has no costs")
	}
	for w, byType := range p.Costs {
		if n, err := strconv.Atoi(w); err != nil || n < 1 {
			return fmt.Errorf("costs: world %q is not a positive integer", w)
		}
		for dt, costs := range byType {
			if _, ok := costs["native"]; !ok {
				return fmt.Errorf("costs[%s][%s]: no \"native\" cost to compare with", w, dt)
			}
			for key, c := range costs {
				where := fmt.Sprintf("costs[%s][%s][%s]", w, dt, key)
				if len(c.Points) == 0 && c.GBps <= 0 && !c.Off {
					return fmt.Errorf("%s: needs points or gbps", where)
				}
				for i, pt := range c.Points {
					if pt[0] <= 0 || pt[1] <= 0 || (i > 0 && pt[0] <= c.Points[i-1][0]) {
						return fmt.Errorf("%s: points must have positive sizes and times, sizes increasing", where)
					}
				}
			}
		}
	}
	return nil
}

// jsonError adds the line and column of a JSON syntax or type error.
func jsonError(path string, data []byte, err error) error {
	var off int64 = -1
	switch e := err.(type) {
	case *json.SyntaxError:
		off = e.Offset - 1 // the offset is just after the offending byte
	case *json.UnmarshalTypeError:
		off = valueStart(data, e.Offset) // the offset is just after the value
	default:
		if key, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			off = int64(bytes.Index(data, []byte(key)))
		}
	}
	if off < 0 {
		return fmt.Errorf("%s: %v", path, err)
	}
	return fmt.Errorf("%s:%v: %v", path, ir.PositionOf(data, int(off)), err)
}

// valueStart steps back from just after a JSON string or literal to its
// first byte.
func valueStart(data []byte, end int64) int64 {
	i := min(end, int64(len(data))) - 1
	if i < 0 {
		return 0
	}
	if data[i] == '"' {
		for i--; i > 0 && (data[i] != '"' || data[i-1] == '\\'); i-- {
		}
		return max(i, 0)
	}
	for i > 0 && !strings.ContainsRune(" \t\r\n,:[{", rune(data[i-1])) {
		i--
	}
	return i
}

// Overlay returns est with every cost of tuned replacing est's: measured
// costs over a model's estimates.
func Overlay(est, tuned *Profile) *Profile {
	out := &Profile{Target: est.Target, Source: tuned.Source + "; elsewhere: " + est.Source, Costs: map[string]map[string]map[string]Cost{}}
	for _, p := range []*Profile{est, tuned} {
		for w, byType := range p.Costs {
			if out.Costs[w] == nil {
				out.Costs[w] = map[string]map[string]Cost{}
			}
			for dt, costs := range byType {
				if out.Costs[w][dt] == nil {
					out.Costs[w][dt] = map[string]Cost{}
				}
				for key, c := range costs {
					out.Costs[w][dt][key] = c
				}
			}
		}
	}
	return out
}
