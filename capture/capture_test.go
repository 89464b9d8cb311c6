package capture

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gomlx/go-xla/pkg/pjrt"
	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/pkg/core/distributed"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
	"github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/shapes"

	"github.com/arcpass/arc"
	"github.com/arcpass/arc/internal/golden"
)

// allReduceGraph is x·w summed over a mesh of n devices.
func allReduceGraph(t *testing.T, b backends.Backend, n int) (*graph.Graph, *graph.Node) {
	t.Helper()
	mesh, err := distributed.NewDeviceMesh([]int{n}, []string{"tp"})
	if err != nil {
		t.Fatal(err)
	}
	g := graph.NewGraph(b, "allreduce")
	if err := g.SetSPMD(mesh); err != nil {
		t.Fatal(err)
	}
	x := graph.Parameter(g, "x", shapes.Make(dtypes.BFloat16, 16, 512))
	w := graph.Parameter(g, "w", shapes.Make(dtypes.BFloat16, 512, 128))
	return g, g.Distributed().AllReduceOne(graph.MatMul(x, w), backends.ReduceOpSum)
}

// TestCapturesTheProgram: the program gomlx hands to PJRT for a 4-device
// SPMD graph, byte for byte (testdata/allreduce.mlir; -update rewrites it).
func TestCapturesTheProgram(t *testing.T) {
	b, err := NewBackend(4)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Finalize()
	if b.NumDevices() != 4 {
		t.Fatalf("backend has %d devices, want 4", b.NumDevices())
	}
	g, y := allReduceGraph(t, b, 4)
	got, err := Compile(g, y)
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "allreduce.mlir"), []byte(got))
	for _, s := range []string{"stablehlo.num_replicas = 4", `"stablehlo.all_reduce"`, "dense<[[0, 1, 2, 3]]>"} {
		if !strings.Contains(got, s) {
			t.Errorf("captured program lacks %q", s)
		}
	}
}

// TestEachBackendHasItsDevices: backends made one after another keep their own device counts.
func TestEachBackendHasItsDevices(t *testing.T) {
	for _, n := range []int{8, 2} {
		b, err := NewBackend(n)
		if err != nil {
			t.Fatal(err)
		}
		g, y := allReduceGraph(t, b, n)
		got, err := Compile(g, y)
		b.Finalize()
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf("stablehlo.num_replicas = %d}", n); !strings.Contains(got, want) {
			t.Errorf("%d devices: program lacks %q", n, want)
		}
	}
}

func TestErrors(t *testing.T) {
	for _, n := range []int{0, MaxDevices + 1} {
		if _, err := NewBackend(n); err == nil {
			t.Errorf("NewBackend(%d) succeeded", n)
		}
	}
	b, err := NewBackend(2)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Finalize()
	// A mesh larger than the backend is gomlx's error, reported before anything is compiled.
	mesh, _ := distributed.NewDeviceMesh([]int{4}, []string{"tp"})
	if err := graph.NewGraph(b, "big").SetSPMD(mesh); err == nil {
		t.Error("a 4-device mesh on a 2-device capture backend was accepted")
	}
	// A graph that fails to build reaches no plugin: Compile returns gomlx's error.
	g := graph.NewGraph(b, "empty")
	if _, err := Compile(g); err == nil {
		t.Error("compiling a graph with no outputs succeeded")
	}
}

// TestABI compiles testdata/abi_check.c, which checks capture.h against the
// pjrt_c_api.h that go-xla ships.
func TestABI(t *testing.T) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not found")
	}
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/gomlx/go-xla").Output()
	if err != nil {
		t.Skipf("locating go-xla: %v", err)
	}
	include := filepath.Join(strings.TrimSpace(string(out)), "pkg", "pjrt")
	cmd := exec.Command(gcc, "-std=gnu11", "-Wall", "-Werror", "-fsyntax-only", "-I", include, "-I", ".",
		filepath.Join("testdata", "abi_check.c"))
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("capture.h does not match go-xla's pjrt_c_api.h: %v\n%s", err, msg)
	}
}

// TestCaptureThenCompile is a newcomer's path on a machine with no
// accelerator and no PJRT plugin: capture a gomlx SPMD program, then lower
// its all-reduce with arc for a GPU and a TPU target.
func TestCaptureThenCompile(t *testing.T) {
	t.Setenv("PJRT_PLUGIN_LIBRARY_PATH", t.TempDir()) // go-xla searches only an empty directory
	t.Setenv("GOMLX_NO_AUTO_INSTALL", "1")
	for name, path := range pjrt.AvailablePlugins() {
		if path != "_preloaded_" { // the plugins registered in this process
			t.Logf("go-xla still finds the PJRT plugin %s at %s; capture does not use it", name, path)
		}
	}
	b, err := NewBackend(4)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Finalize()
	g, y := allReduceGraph(t, b, 4)
	program, err := Compile(g, y)
	if err != nil {
		t.Fatal(err)
	}
	for target, lowering := range map[string]string{"cuda:nvlink": "oneshot", "tpu:v6e-4": "ring"} {
		out, rep, err := arc.Compile("captured.mlir", []byte(program), arc.Options{Target: target})
		if err != nil {
			t.Fatalf("%s: %v", target, err)
		}
		if len(rep.Collectives) != 1 || rep.Collectives[0].Lowering != lowering || rep.Collectives[0].Bytes != 16*128*2 {
			t.Errorf("%s: report %+v, want one 4 KiB all-reduce lowered as %s", target, rep.Collectives, lowering)
		}
		if string(out) == program {
			t.Errorf("%s: arc left the captured program unchanged", target)
		}
	}
}
