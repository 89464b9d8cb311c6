package arcgomlx

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arcpass/arc"
	"github.com/arcpass/arc/proxy/fakepjrt"
	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/pkg/core/distributed"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
	"github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/shapes"
)

// TestGOMLXBackend runs a gomlx program that picks its backend with
// backends.New(), as gomlx users do, under GOMLX_BACKEND=arc:PLUGIN and
// GOMLX_BACKEND=arc (the platform from ARC_PJRT_PLUGIN), each in a child
// process of its own (a process holds a bounded number of proxies). The
// fake plugin must get arc's lowering of what gomlx wrote.
func TestGOMLXBackend(t *testing.T) {
	f := newFake(t)
	for _, tc := range []struct {
		name string
		env  []string
	}{
		{"arc:PLUGIN", []string{"GOMLX_BACKEND=arc:" + f.plugin}},
		{"arc", []string{"GOMLX_BACKEND=arc", "ARC_PJRT_PLUGIN=" + f.plugin}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			record, dump := t.TempDir(), t.TempDir()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestGOMLXBackendChild$", "-test.v")
			cmd.Env = append(os.Environ(), "ARC_BACKEND_CHILD=1", "FAKE_PJRT_DIR="+record, "ARC_DUMP_DIR="+dump,
				"ARC_TARGET=cuda:nvlink", "ARC_GPU_LIB="+f.gpuLib)
			cmd.Env = append(cmd.Env, tc.env...)
			out, err := cmd.CombinedOutput()
			if err != nil || !strings.Contains(string(out), "--- PASS: TestGOMLXBackendChild") {
				t.Fatalf("child: %v\n%s", err, out)
			}
			before := fakepjrt.MustRead(t, filepath.Join(dump, "arc-0001-before.mlir"))
			want := lowered(t, before, arc.Options{Target: "cuda:nvlink", DeviceAssignment: "0;1"})
			if !strings.Contains(want, `"arc_allreduce"`) {
				t.Fatalf("cuda:nvlink left gomlx's all-reduce native; the test needs a lowered one:\n%s", want)
			}
			if rec := fakepjrt.ReadRecord(t, record); len(rec.Programs) != 1 || rec.Programs[0] != want {
				t.Errorf("the plugin got:\n%s\nwant arc's lowering of gomlx's program:\n%s", first(rec.Programs), want)
			}
		})
	}
}

// TestGOMLXBackendChild is the gomlx program of TestGOMLXBackend: it knows
// nothing of arc but the backend's name in its environment.
func TestGOMLXBackendChild(t *testing.T) {
	if os.Getenv("ARC_BACKEND_CHILD") == "" {
		t.Skip("run by TestGOMLXBackend")
	}
	if !slices.Contains(backends.List(), BackendName) {
		t.Fatalf("gomlx's backends %v lack %q", backends.List(), BackendName)
	}
	for i := 0; i < 2; i++ { // a second backend reuses the proxy of the first
		b, err := backends.New()
		if err != nil {
			t.Fatal(err)
		}
		defer b.Finalize()
		if b.NumDevices() != 2 {
			t.Fatalf("backend has %d devices, want the fake plugin's 2", b.NumDevices())
		}
	}
	b, err := backends.New()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Finalize()
	mesh, err := distributed.NewDeviceMesh([]int{2}, []string{"replica"})
	if err != nil {
		t.Fatal(err)
	}
	g := graph.NewGraph(b, "allreduce")
	if err := g.SetSPMD(mesh); err != nil {
		t.Fatal(err)
	}
	x := graph.Parameter(g, "x", shapes.Make(dtypes.Float16, 16, 512))
	if err := catch(func() { g.Compile(g.Distributed().AllReduceOne(x, backends.ReduceOpSum)) }); err != nil {
		t.Fatal(err)
	}
}
