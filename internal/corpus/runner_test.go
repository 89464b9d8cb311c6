package corpus

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const sumModule = `module @m attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 2 : i32} {
  func.func public @main(%arg0: tensor<1024xf32>) -> tensor<1024xf32> {
    %0 = "stablehlo.all_reduce"(%arg0) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<1024xf32>) -> tensor<1024xf32>
    return %0 : tensor<1024xf32>
  }
}
`

// TestCompile: the outcomes the worker tells apart.
func TestCompile(t *testing.T) {
	if r := compile("m.mlir", []byte(sumModule), "none"); r.Outcome != compiled || r.Lowered+r.Native != 0 {
		t.Errorf("none: %+v, want compiled and nothing decided", r)
	}
	if r := compile("m.mlir", []byte(sumModule), "cuda:nvlink"); r.Outcome != compiled || r.Lowered+r.Native != 1 {
		t.Errorf("cuda:nvlink: %+v, want compiled with one decided operand", r)
	}
	dup := strings.Replace(sumModule, "[[0, 1]]", "[[0, 0]]", 1)
	if r := compile("d.mlir", []byte(dup), "none"); r.Outcome != refusedAt || !strings.HasPrefix(r.Msg, "d.mlir:3:") {
		t.Errorf("a replica twice in a group: %+v, want refused at d.mlir:3", r)
	}
	// MLIR's verifier does not see num_replicas; the specification does.
	short := strings.Replace(sumModule, "mhlo.num_replicas = 2", "mhlo.num_replicas = 4", 1)
	if r := compile("s.mlir", []byte(short), "none"); r.Outcome != refusedSpec || !strings.HasPrefix(r.Msg, "s.mlir:3:") {
		t.Errorf("groups short of num_replicas: %+v, want refused at s.mlir:3 by a rule of the specification's", r)
	}
	if r := compile("u.mlir", []byte(sumModule), "no-such-target"); r.Outcome != refused || !strings.HasPrefix(r.Msg, "usage: ") {
		t.Errorf("an unknown target: %+v, want refused as a usage error", r)
	}
	for _, c := range []struct {
		msg  string
		want bool
	}{{"a.mlir:1:2: x", true}, {"a.mlir: x", false}, {"b.mlir:1:2: x", false}, {"a.mlir:1: x", false}} {
		if got := positioned("a.mlir", c.msg); got != c.want {
			t.Errorf("positioned(a.mlir, %q) = %v", c.msg, got)
		}
	}
}

func TestClassKey(t *testing.T) {
	a := classKey("valid/x/1.mlir:3:5: %arg0 is defined twice (first at 2:7) in @main")
	b := classKey("valid/y/22.mlir:13:15: %rhs is defined twice (first at 12:17) in @f")
	if a != b || a != "%x is defined twice (first at N:N) in @x" {
		t.Errorf("classKey: %q and %q, want one class", a, b)
	}
}

// TestRunAll runs a corpus of two modules through worker processes, then
// again with a time bound no compile meets.
func TestRunAll(t *testing.T) {
	if testing.Short() {
		t.Skip("starts worker processes")
	}
	root := t.TempDir()
	dup := strings.Replace(sumModule, "[[0, 1]]", "[[0, 0]]", 1)
	for name, text := range map[string]string{"ok.mlir": sumModule, "dup.mlir": dup} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	jobs := []job{{"ok.mlir", "none"}, {"dup.mlir", "none"}, {"ok.mlir", "tpu:v6e-1"}}
	got := runAll(t, root, jobs, 2, time.Minute)
	for i, want := range []string{compiled, refusedAt, compiled} {
		if got[i].Outcome != want {
			t.Errorf("%v: %+v, want %s", jobs[i], got[i], want)
		}
	}
	for i, r := range runAll(t, root, jobs, 1, time.Nanosecond) {
		if r.Outcome != overBound {
			t.Errorf("%v with a bound of 1ns: %+v, want %s", jobs[i], r, overBound)
		}
	}
}
