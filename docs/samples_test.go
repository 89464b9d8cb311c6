package docs

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/arcpass/arc"
)

// TestLoweringsSamples: the report row and the lowered call that
// docs/LOWERINGS.md shows are what arc writes today for the module they
// come from, lowering/testdata/multi_operand.mlir on their target.
func TestLoweringsSamples(t *testing.T) {
	doc, err := os.ReadFile("LOWERINGS.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := func(lang string) []string {
		var out []string
		for _, m := range regexp.MustCompile("(?s)```"+lang+"\n(.*?)```").FindAllStringSubmatch(string(doc), -1) {
			out = append(out, m[1])
		}
		return out
	}
	var sample struct {
		Target      string           `json:"target"`
		Module      string           `json:"module"`
		Env         map[string]any   `json:"env"`
		Collectives []map[string]any `json:"collectives"`
	}
	var found bool
	for _, b := range blocks("json") {
		if strings.Contains(b, `"collectives"`) {
			if err := json.Unmarshal([]byte(b), &sample); err != nil {
				t.Fatalf("the report sample is not JSON: %v", err)
			}
			found = true
		}
	}
	if !found || len(sample.Collectives) != 1 {
		t.Fatal("docs/LOWERINGS.md: no report sample with one row")
	}
	src, err := os.ReadFile(filepath.Join("..", "lowering", "testdata", sample.Module+".mlir"))
	if err != nil {
		t.Fatal(err)
	}
	lowered, rep, err := arc.Compile(sample.Module+".mlir", src, arc.Options{Target: sample.Target})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := rep.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var real struct {
		Target      string           `json:"target"`
		Module      string           `json:"module"`
		Env         map[string]any   `json:"env"`
		Collectives []map[string]any `json:"collectives"`
	}
	if err := json.Unmarshal(buf.Bytes(), &real); err != nil {
		t.Fatal(err)
	}
	if real.Target != sample.Target || real.Module != sample.Module || len(real.Env) != len(sample.Env) {
		t.Errorf("the sample's target, module, env: %s %s %v; arc's: %s %s %v", sample.Target, sample.Module, sample.Env, real.Target, real.Module, real.Env)
	}
	row := sample.Collectives[0]
	i := int(row["index"].(float64))
	if i >= len(real.Collectives) {
		t.Fatalf("the sample's row %d is not in arc's report", i)
	}
	for k, v := range row { // the sample is abridged: its keys must hold arc's values
		if got, ok := real.Collectives[i][k]; !ok || !reflect.DeepEqual(got, v) {
			t.Errorf("row %d, %q: the sample says %v, arc writes %v", i, k, v, got)
		}
	}
	// The lowered call, printed on one line by arc and wrapped in the doc.
	var call string
	for _, b := range blocks("mlir") {
		if strings.Contains(b, `"arc_allreduce"`) {
			call = strings.Join(strings.Fields(b), " ")
		}
	}
	if call == "" {
		t.Fatal("docs/LOWERINGS.md: no lowered call shown")
	}
	for _, line := range strings.Split(string(lowered), "\n") {
		if strings.Join(strings.Fields(line), " ") == call {
			return
		}
	}
	t.Errorf("arc's lowering of %s has no line\n%s\nit is now:\n%s", sample.Module, call, lowered)
}
