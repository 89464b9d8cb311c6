package passes

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/arcpass/arc/abi"
	"github.com/arcpass/arc/internal/jsonfile"
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
	// Keys: "native", "oneshot", "twoshot:CODEC", "hier:CODEC" (CostKey).
	Costs map[string]map[string]map[string]Cost `json:"costs"`

	file     string // where ParseProfile read it, for CheckTarget's message
	targetAt ir.Pos // where its "target" key starts
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

// Sizes names the sizes the cost allows a lowering at: "0 to any size",
// "16 MiB to any size" (whether it is off aside).
func (c Cost) Sizes() string {
	lo, hi := "0", "any size"
	if c.MinBytes > 0 {
		lo = HumanBytes(c.MinBytes)
	}
	if c.MaxBytes > 0 {
		hi = HumanBytes(c.MaxBytes)
	}
	return lo + " to " + hi
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
func LoadProfile(path string) (*Profile, error) { return jsonfile.Load(path, ParseProfile) }

// ParseProfile reads and checks the JSON of a profile; path names it in
// messages, which give the FILE:LINE:COL of the value at fault: a syntax
// error, an empty file, a key that repeats, a number that is negative or
// out of range, an unknown key, world, dtype or lowering.
func ParseProfile(path string, data []byte) (*Profile, error) {
	at, err := scanProfile(path, data)
	if err != nil {
		return nil, err
	}
	var p Profile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields() // a misspelt key would silently change the model
	if err := dec.Decode(&p); err != nil {
		return nil, jsonError(path, data, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%s: data after the profile", path)
	}
	if err := p.check(); err != nil {
		if off, ok := at[strings.Join(err.path, "/")]; ok {
			return nil, fmt.Errorf("%s:%v: %s", path, ir.PositionOf(data, off), err.msg)
		}
		return nil, fmt.Errorf("%s: %s", path, err.msg)
	}
	p.file = path
	if off, ok := at["target"]; ok {
		p.targetAt = ir.PositionOf(data, off)
	}
	return &p, nil
}

// CheckTarget refuses a profile made for another target than the one it
// is applied to, unless anyTarget (--profile-any-target) says to apply it
// anyway. A profile that names no target applies to any.
func (p *Profile) CheckTarget(target string, anyTarget bool) error {
	if anyTarget || p.Target == "" || p.Target == target {
		return nil
	}
	where := p.file
	if p.targetAt.Line > 0 {
		where += ":" + p.targetAt.String()
	}
	return fmt.Errorf("%s: the profile is for target %s, not %s (--profile-any-target applies it anyway)", where, p.Target, target)
}

// profileKeys lists the keys of a profile's objects, by depth below
// "costs": world, dtype, lowering, then a cost's fields.
var (
	profileTopKeys  = []string{"target", "source", "costs"}
	profileCostKeys = []string{"points", "latency_us", "gbps", "min_bytes", "max_bytes", "off"}
)

// Check rejects profiles the cost model cannot use.
func (p *Profile) Check() error {
	if err := p.check(); err != nil {
		return errors.New(err.msg)
	}
	return nil
}

// checkError is a problem of a profile at a path of keys, which
// ParseProfile turns into a position.
type checkError struct {
	path []string
	msg  string
}

func (p *Profile) check() *checkError {
	if len(p.Costs) == 0 {
		return &checkError{[]string{"costs"}, "profile has no costs"}
	}
	for w, byType := range p.Costs {
		if n, err := strconv.Atoi(w); err != nil || n < 1 {
			return &checkError{[]string{"costs", w}, fmt.Sprintf("costs: world %q is not a positive integer", w)}
		}
		for dt, costs := range byType {
			if !slices.Contains(abi.DTypes, dt) {
				return &checkError{[]string{"costs", w, dt}, fmt.Sprintf("costs[%s]: unknown dtype %q (want %s)", w, dt, strings.Join(abi.DTypes, ", "))}
			}
			if _, ok := costs["native"]; !ok {
				return &checkError{[]string{"costs", w, dt}, fmt.Sprintf("costs[%s][%s]: no \"native\" cost to compare with", w, dt)}
			}
			for key, c := range costs {
				where := fmt.Sprintf("costs[%s][%s][%s]", w, dt, key)
				path := []string{"costs", w, dt, key}
				if !ProfileKey(key) {
					return &checkError{path, fmt.Sprintf("costs[%s][%s]: unknown lowering %q (want native, oneshot, twoshot:CODEC or hier:CODEC, CODEC one of %s)",
						w, dt, key, strings.Join(abi.Codecs[1:], ", "))}
				}
				if len(c.Points) == 0 && c.GBps <= 0 && !c.Off {
					return &checkError{path, where + ": needs points or gbps"}
				}
				for i, pt := range c.Points {
					if pt[0] <= 0 || pt[1] <= 0 || (i > 0 && pt[0] <= c.Points[i-1][0]) {
						return &checkError{append(path, "points", strconv.Itoa(i)), where + ": points must have positive sizes and times, sizes increasing"}
					}
				}
				if c.MaxBytes > 0 && c.MinBytes > c.MaxBytes {
					return &checkError{append(path, "min_bytes"), fmt.Sprintf("%s: min_bytes %d is above max_bytes %d", where, c.MinBytes, c.MaxBytes)}
				}
			}
		}
	}
	return nil
}

// ProfileKey reports whether key names a lowering in a profile: "native",
// "oneshot", or "twoshot:CODEC" and "hier:CODEC" with one of abi.Codecs,
// and "twoshot:fp+cast", "hier:fp+cast" for bf16 under --cast-bf16-to-fp16.
func ProfileKey(key string) bool {
	if key == "native" || key == "oneshot" {
		return true
	}
	algo, codec, ok := strings.Cut(key, ":")
	if codec == "fp"+castSuffix {
		codec = "fp"
	}
	return ok && (algo == "twoshot" || algo == "hier") && codec != "none" && slices.Contains(abi.Codecs, codec)
}

// castSuffix marks the cost of the fp codec under --cast-bf16-to-fp16.
const castSuffix = "+cast"

// CostKey is a kernel's key in a profile: "twoshot:int8", "hier:fp+cast".
func CostKey(algo, codec string, castBF16ToFP16 bool) string {
	if castBF16ToFP16 {
		codec += castSuffix
	}
	return algo + ":" + codec
}

// maxProfileDepth bounds the nesting of a profile's JSON: costs, world,
// dtype, lowering, points, a point is six levels.
const maxProfileDepth = 8

// scanProfile walks the JSON tokens of a profile before it is decoded, for
// what decoding would pass silently or place badly: an empty file, a key
// that repeats (encoding/json keeps the last), a number that is negative,
// out of range or not a number at all, an unknown key, nesting no profile
// has. It returns where each key (and each list element) starts, by its
// path of keys and indices joined with "/" ("costs/2/f16/native").
func scanProfile(file string, data []byte) (map[string]int, error) {
	r, err := jsonfile.Open(file, data, "profile", "the JSON object arc tune writes")
	if err != nil {
		return nil, err
	}
	errAt := r.ErrAt
	type level struct {
		object bool
		seen   map[string]bool
		path   []string
		index  int
	}
	var stack []*level
	at := map[string]int{}
	var key string // the key whose value comes next, in an object
	for {
		off := r.Next()
		tok, err := r.Dec.Token()
		if err == io.EOF && len(stack) == 0 {
			break
		}
		if err != nil {
			return nil, r.SyntaxError(err, off)
		}
		var top *level
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object {
			if d, ok := tok.(json.Delim); !ok || d != '}' {
				if s, isKey := tok.(string); isKey && key == "" {
					if top.seen[s] {
						return nil, errAt(off, "key %q repeats", s)
					}
					top.seen[s] = true
					if known := unknownProfileKey(top.path, s); known != "" {
						return nil, errAt(off, "unknown key %q (want %s)", s, known)
					}
					key = s
					at[strings.Join(append(slices.Clone(top.path), s), "/")] = off
					continue
				}
			}
		}
		// A value (or the end of a container).
		var path []string
		switch {
		case top == nil:
		case top.object:
			path = append(slices.Clone(top.path), key)
		default:
			path = append(slices.Clone(top.path), strconv.Itoa(top.index))
			at[strings.Join(path, "/")] = off // an element: where its value starts
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{', '[':
				if len(stack) >= maxProfileDepth {
					return nil, errAt(off, "nesting deeper than a profile's %d levels", maxProfileDepth)
				}
				if top == nil && v != '{' {
					return nil, errAt(off, "a profile is a JSON object, not a list")
				}
				stack = append(stack, &level{object: v == '{', seen: map[string]bool{}, path: path})
				key = ""
				continue
			default: // '}' or ']'
				stack = stack[:len(stack)-1]
			}
		case json.Number:
			f, err := strconv.ParseFloat(string(v), 64)
			switch {
			case err != nil || math.IsInf(f, 0) || math.IsNaN(f):
				return nil, errAt(off, "number %s is out of range", v)
			case f < 0:
				return nil, errAt(off, "negative number %s: a profile's sizes, times and bandwidths are never negative", v)
			}
		default:
			if top == nil {
				return nil, errAt(off, "a profile is a JSON object, not %s", jsonWord(tok))
			}
		}
		if len(stack) > 0 {
			parent := stack[len(stack)-1]
			if parent.object {
				key = ""
			} else {
				parent.index++
			}
		}
	}
	return at, nil
}

// unknownProfileKey returns, when key is not one an object at path may
// hold, the keys it may; "" when key is fine. Keys of the costs maps
// (worlds, dtypes, lowerings) are checked after decoding.
func unknownProfileKey(path []string, key string) string {
	switch {
	case len(path) == 0:
		if !slices.Contains(profileTopKeys, key) {
			return strings.Join(profileTopKeys, ", ")
		}
	case len(path) == 4 && path[0] == "costs":
		if !slices.Contains(profileCostKeys, key) {
			return strings.Join(profileCostKeys, ", ")
		}
	}
	return ""
}

func jsonWord(tok json.Token) string {
	switch tok.(type) {
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return "a number"
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
