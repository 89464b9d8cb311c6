package passes_test

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arcpass/arc/passes"
)

func TestCostAt(t *testing.T) {
	points := passes.Cost{Points: [][2]float64{{1000, 10}, {4000, 40}, {8000, 60}}}
	one := passes.Cost{Points: [][2]float64{{1000, 10}}}
	linear := passes.Cost{LatencyUS: 5, GBps: 100}
	for _, c := range []struct {
		name string
		cost passes.Cost
		n    int64
		want float64
	}{
		{"below the first point: latency", points, 10, 10},
		{"zero bytes", points, 0, 10},
		{"at a point", points, 4000, 40},
		{"between points: log-log", points, 2000, 20}, // 10 * 4^(1/2)
		{"between points: log-log, off-centre", points, 5000, 40 * math.Pow(1.5, math.Log(1.25)/math.Log(2))},
		{"at the last point", points, 8000, 60},
		{"above the last point: the last rate", points, 16000, 100}, // 60 + 8000 * (20/4000)
		{"one point: below", one, 500, 10},
		{"one point: above, through the origin", one, 3000, 30},
		{"latency plus bytes over bandwidth", linear, 1_000_000, 15}, // 5 + 1e6 B / 100 GB/s
		{"latency alone", linear, 0, 5},
	} {
		if got := c.cost.At(c.n); math.Abs(got-c.want) > 1e-9*c.want {
			t.Errorf("%s: At(%d) = %g, want %g", c.name, c.n, got, c.want)
		}
	}
	if got := (passes.Cost{}).At(1000); !math.IsInf(got, 1) {
		t.Errorf("a cost with neither points nor bandwidth: At = %g, want +Inf", got)
	}
	// A measured curve that falls at its end does not make larger sizes faster.
	falling := passes.Cost{Points: [][2]float64{{1000, 50}, {2000, 40}}}
	if got := falling.At(100000); got != 40 {
		t.Errorf("falling curve above its last point: %g, want 40", got)
	}
}

func TestProfileLookup(t *testing.T) {
	p := &passes.Profile{Costs: map[string]map[string]map[string]passes.Cost{
		"2":  {"f16": {"native": {GBps: 1}, "oneshot": {GBps: 2}}},
		"8":  {"f16": {"native": {GBps: 8}}, "f32": {"native": {GBps: 32}}},
		"16": {"f16": {"native": {GBps: 16}}},
	}}
	for _, c := range []struct {
		world       int
		dtype, key  string
		ok          bool
		wantGBps    float64
		explanation string
	}{
		{2, "f16", "oneshot", true, 2, "exact"},
		{8, "f32", "native", true, 32, "exact"},
		{8, "bf16", "native", true, 8, "an unlisted dtype falls back to f16"},
		{3, "f16", "native", true, 1, "the nearest world: 2"},
		{6, "f16", "native", true, 8, "the nearest world: 8"},
		{24, "f16", "native", true, 16, "the nearest world: 16"},
		{5, "f16", "native", true, 1, "a tie goes to the smaller world"},
		{12, "f16", "native", true, 8, "the nearest world: 8"},
		{8, "f16", "oneshot", false, 0, "a lowering the world does not list"},
	} {
		got, ok := p.Lookup(c.world, c.dtype, c.key)
		if ok != c.ok || got.GBps != c.wantGBps {
			t.Errorf("Lookup(%d, %s, %s) = %+v, %v (%s)", c.world, c.dtype, c.key, got, ok, c.explanation)
		}
	}
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadProfile(t *testing.T) {
	path := writeFile(t, "p.json", `{
  "target": "cuda:nvlink",
  "source": "a test",
  "costs": {
    "4": {"f16": {
      "native": {"points": [[4096, 20], [1048576, 30]]},
      "oneshot": {"latency_us": 5, "gbps": 100, "max_bytes": 65536},
      "twoshot:fp": {"off": true}
    }}
  }
}`)
	p, err := passes.LoadProfile(path)
	if err != nil {
		t.Fatal(err)
	}
	c, ok := p.Lookup(4, "f16", "oneshot")
	if p.Target != "cuda:nvlink" || p.Source != "a test" || !ok || c.MaxBytes != 65536 || c.GBps != 100 {
		t.Fatalf("loaded %+v", p)
	}
}

func TestLoadProfileErrors(t *testing.T) {
	for _, c := range []struct{ name, content, want string }{
		{"syntax", "{\n  \"costs\": {,}\n}", ":2:13: invalid character ','"},
		{"type", "{\n  \"costs\": {\"2\": {\"f16\": {\"native\": {\"gbps\": \"fast\"}}}}\n}", `:2:46: json: cannot unmarshal string into Go struct field Cost.costs.gbps of type float64`},
		{"unknown key", "{\n  \"costs\": {\"2\": {\"f16\": {\"native\": {\"gbps\": 1, \"latency\": 3}}}}\n}", `:2:49: unknown key "latency" (want points, latency_us, gbps, min_bytes, max_bytes, off)`},
		{"trailing data", `{"costs": {"2": {"f16": {"native": {"gbps": 1}}}}} {}`, ": data after the profile"},
		{"no costs", `{"target": "cuda:nvlink"}`, ": profile has no costs"},
		{"bad world", `{"costs": {"two": {"f16": {"native": {"gbps": 1}}}}}`, `:1:12: costs: world "two" is not a positive integer`},
		{"no native", `{"costs": {"2": {"f16": {"oneshot": {"gbps": 1}}}}}`, `:1:18: costs[2][f16]: no "native" cost to compare with`},
		{"no curve", `{"costs": {"2": {"f16": {"native": {"latency_us": 4}}}}}`, `:1:26: costs[2][f16][native]: needs points or gbps`},
		{"unsorted points", `{"costs": {"2": {"f16": {"native": {"points": [[100, 1], [50, 2]]}}}}}`, `:1:58: costs[2][f16][native]: points must have positive sizes and times, sizes increasing`},
	} {
		path := writeFile(t, "p.json", c.content)
		_, err := passes.LoadProfile(path)
		if err == nil || err.Error() != path+c.want && !strings.HasPrefix(err.Error(), path+c.want) {
			t.Errorf("%s: %v, want %s%s", c.name, err, path, c.want)
		}
	}
	if _, err := passes.LoadProfile(filepath.Join(t.TempDir(), "missing.json")); err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("missing file: %v", err)
	}
}

func TestOverlay(t *testing.T) {
	est := &passes.Profile{Target: "cuda:nvlink", Source: "estimate", Costs: map[string]map[string]map[string]passes.Cost{
		"2": {"f16": {"native": {GBps: 100}, "oneshot": {GBps: 50}}, "f32": {"native": {GBps: 90}}},
		"4": {"f16": {"native": {GBps: 80}}},
	}}
	tuned := &passes.Profile{Target: "cuda:nvlink", Source: "measured", Costs: map[string]map[string]map[string]passes.Cost{
		"2": {"f16": {"native": {GBps: 200}, "twoshot:int8": {GBps: 300, MinBytes: 1 << 20}}},
	}}
	got := passes.Overlay(est, tuned)
	want := map[string]float64{"2/f16/native": 200, "2/f16/oneshot": 50, "2/f16/twoshot:int8": 300, "2/f32/native": 90, "4/f16/native": 80}
	n := 0
	for w, byType := range got.Costs {
		for dt, costs := range byType {
			for key, c := range costs {
				n++
				if k := w + "/" + dt + "/" + key; c.GBps != want[k] {
					t.Errorf("%s: %g GB/s, want %g", k, c.GBps, want[k])
				}
			}
		}
	}
	if n != len(want) {
		t.Errorf("overlay has %d costs, want %d", n, len(want))
	}
	if got.Source != "measured; elsewhere: estimate" || est.Costs["2"]["f16"]["native"].GBps != 100 {
		t.Errorf("source %q; the estimate must stay untouched (native %g)", got.Source, est.Costs["2"]["f16"]["native"].GBps)
	}
}
