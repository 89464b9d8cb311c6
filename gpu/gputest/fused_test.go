//go:build cgo

package gputest

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/arcpass/arc/abi"
	"github.com/arcpass/arc/reference/collective"
	"github.com/arcpass/arc/reference/norm"
	"github.com/arcpass/arc/reference/num"
)

// The fused kernels (arc_allreduce_norm) against reference/norm, bit for
// bit: h and y of every rank, each rank with its own residual.

// fusedRig is a rig with each rank's residual, weight and y.
type fusedRig struct {
	*rig
	res, w, y []Ptr
}

func newFusedRig(t testing.TB, devs []int, capBytes int) *fusedRig {
	g := &fusedRig{rig: newRig(t, devs, LinkPeer, capBytes)}
	for _, d := range devs {
		for _, buf := range []*[]Ptr{&g.res, &g.w, &g.y} {
			p, err := Malloc(d, capBytes)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { Free(d, p) })
			*buf = append(*buf, p)
		}
	}
	return g
}

func normOf(rc norm.Recipe, res, w, y Ptr) Norm {
	return Norm{Residual: res, Weight: w, Y: y, Row: rc.Row, Mean: abi.NormMean(rc.Mean), Scale: rc.Scale, Eps: rc.Eps,
		WeightMode: abi.NormWeight(rc.Weight)}
}

func (g *fusedRig) enqueue(s collective.Spec, rc norm.Recipe, n int) error {
	for r := range g.devs {
		if err := g.comm.AllReduceNorm(r, g.in[r], g.out[r], n, int(s.DType), s.AlgoEnum(), s.CodecEnum(), flags(s),
			normOf(rc, g.res[r], g.w[r], g.y[r]), g.streams[r]); err != nil {
			return fmt.Errorf("rank %d: %w", r, err)
		}
	}
	return nil
}

// check runs one fused all-reduce and compares every rank's h and y.
func (g *fusedRig) check(s collective.Spec, rc norm.Recipe, inputs, residuals [][]byte, w []byte, wantH, wantY [][]byte) error {
	if g.broken != nil {
		return fmt.Errorf("not run: the communicator failed earlier: %w", g.broken)
	}
	size := len(inputs[0])
	for r, d := range g.devs {
		for _, c := range []struct {
			p    Ptr
			data []byte
		}{{g.in[r], inputs[r]}, {g.res[r], residuals[r]}, {g.w[r], w}} {
			if err := ToDevice(d, c.p, c.data); err != nil {
				return err
			}
		}
		for _, p := range []Ptr{g.out[r], g.y[r]} {
			if err := Memset(d, p, poison, size); err != nil {
				return err
			}
		}
	}
	if err := g.enqueue(s, rc, size/s.DType.Size()); err != nil {
		g.broken = err
		return err
	}
	if err := g.rig.sync(); err != nil {
		g.broken = err
		return err
	}
	for r, d := range g.devs {
		for k, p := range []Ptr{g.out[r], g.y[r]} {
			got := make([]byte, size)
			if err := FromDevice(d, got, p); err != nil {
				return err
			}
			want := [][][]byte{wantH, wantY}[k]
			if i := mismatch(s.DType, got, want[r]); i >= 0 {
				return fmt.Errorf("%s %v n=%d: rank %d %s element %d = %#x, want %#x", s, rc, size/s.DType.Size(), r,
					[]string{"h", "y"}[k], i, elem(s.DType, got, i), elem(s.DType, want[r], i))
			}
		}
	}
	return nil
}

// Every golden vector of reference/testdata/norm (special values in rows).
func TestFusedGolden(t *testing.T) {
	needGPUs(t, 1)
	cases, err := norm.ReadGoldenFile(filepath.Join(testdataDir, "norm", "cases.golden"))
	if err != nil {
		t.Fatal(err)
	}
	rigs := map[int]*fusedRig{}
	ran := 0
	for i, k := range cases {
		if !slices.Contains(abi.KernelNorms, k.Recipe.Norm) {
			continue // the library refuses the norms its kernels do not run yet
		}
		ran++
		w := k.Spec.World
		if rigs[w] == nil {
			rigs[w] = newFusedRig(t, logical(w, gpus()), 1<<20)
		}
		if err := rigs[w].check(k.Spec, k.Recipe, k.Inputs, k.Residuals, k.Weight, k.H, k.Y); err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
	}
	t.Logf("%d cases of %d (the others' norms are not in abi.KernelNorms %v)", ran, len(cases), abi.KernelNorms)
}

// fusedShapes are rows x row length: one row (decode), a few short rows,
// rows of several segments with a short last one, many rows.
var fusedShapes = [][2]int{{1, 8192}, {3, 40}, {2, 2112}, {7, 4096}, {64, 1024}, {33, 8192}, {1000, 96}, {5, 16384}}

// recipes are the two means and weight placements, with gomlx's and
// JAX's constants.
func fusedRecipes(n int) []norm.Recipe {
	return []norm.Recipe{
		{Norm: "rmsnorm", Row: n, Mean: "mul", Scale: 1 / float32(n), Eps: 1e-5, Weight: "f32"},
		{Norm: "rmsnorm", Row: n, Mean: "div", Scale: float32(n), Eps: 1e-6, Weight: "io"},
	}
}

// fusedSpecs: oneshot in every type; twoshot with every codec in every
// type, and bf16 fp with the cast.
func fusedSpecs(world int) []collective.Spec {
	var out []collective.Spec
	for _, s := range specs(world) {
		if slices.Contains(abi.FusedAlgos, s.Algo) {
			out = append(out, s)
		}
	}
	return out
}

// residuals of rank-dependent values, and a weight near 1.
func fusedInputs(seed uint64, dt num.DType, world, rows, n int, specials bool) (in, res [][]byte, w []byte) {
	in = randomInputs(seed, dt, world, rows*n, specials)
	res = randomInputs(seed^0x5eed, dt, world, rows*n, false)
	rng := rand.New(rand.NewPCG(seed, 7))
	wv := make([]float32, n)
	for i := range wv {
		wv[i] = 1 + float32(rng.NormFloat64())*0.1
	}
	return in, res, num.Narrow(dt, wv)
}

func sweepFused(t *testing.T, world int, capB int) {
	g := newFusedRig(t, logical(world, gpus()), capB)
	seed := uint64(world) << 32
	for _, s := range fusedSpecs(world) {
		t.Run(s.String(), func(t *testing.T) {
			for i, sh := range fusedShapes {
				rows, n := sh[0], sh[1]
				if abi.CheckFused(s.Algo, int64(n), int64(s.DType.Size())) != nil || rows*n*s.DType.Size() > capB {
					continue
				}
				checkFusedRows(t, g, s, world, rows, n, i%3 == 1, &seed)
			}
		})
	}
}

// checkFusedRows runs rows of n elements through g's fused kernel with every
// recipe of that row length, against reference/norm; *seed counts up by one
// per recipe (specials: signed zeros, subnormals, the largest value, Inf and
// NaN among the inputs, as randomInputs sprinkles them).
func checkFusedRows(t *testing.T, g *fusedRig, s collective.Spec, world, rows, n int, specials bool, seed *uint64) {
	t.Helper()
	for _, rc := range fusedRecipes(n) {
		*seed++
		in, res, w := fusedInputs(*seed, s.DType, world, rows, n, specials)
		h, y, err := norm.Expected(s, rc, in, res, w, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.check(s, rc, in, res, w, h, y); err != nil {
			t.Fatal(err)
		}
	}
}

// Worlds 2, 4 and 8: two GPUs, or logical ranks on one.
func TestFusedWorlds(t *testing.T) {
	needGPUs(t, 1)
	for _, world := range []int{2, 4, 8} {
		t.Run(fmt.Sprintf("world%d", world), func(t *testing.T) { sweepFused(t, world, 8<<20) })
	}
}

// The arguments the library refuses.
func TestFusedErrors(t *testing.T) {
	needGPUs(t, 1)
	g := newFusedRig(t, logical(2, gpus()), 1<<20)
	rc := norm.Recipe{Norm: "rmsnorm", Row: 64, Mean: "mul", Scale: 1.0 / 64, Eps: 1e-5, Weight: "f32"}
	for _, c := range []struct {
		name        string
		algo, codec int
		n           int
		mutate      func(*Norm)
	}{
		{"hier", 2, 1, 256, nil},
		{"partial row", 0, 0, 100, nil},
		{"twoshot row", 1, 1, 240, func(n *Norm) { n.Row = 40 }},
		{"long row", 0, 0, 65536, func(n *Norm) { n.Row = 65536 }},
		{"mean", 0, 0, 256, func(n *Norm) { n.Mean = 7 }},
		{"null y", 0, 0, 256, func(n *Norm) { n.Y = nil }},
		{"aliased", 0, 0, 256, func(n *Norm) { n.Y = g.out[0] }},
	} {
		nm := normOf(rc, g.res[0], g.w[0], g.y[0])
		if c.mutate != nil {
			c.mutate(&nm)
		}
		if err := g.comm.AllReduceNorm(0, g.in[0], g.out[0], c.n, int(num.F16), c.algo, c.codec, 0, nm, g.streams[0]); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
}

// A captured graph of the fused call replayed 1000 times, the inputs and
// residuals changing before each replay, h and y checked on the device.
func TestFusedGraphReplay(t *testing.T) {
	needGPUs(t, 1)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cases := []struct {
		spec    collective.Spec
		rows, n int
		rc      norm.Recipe
	}{
		{collective.Spec{Algo: "oneshot", DType: num.BF16, World: 2}, 4, 8192, fusedRecipes(8192)[0]},
		{collective.Spec{Algo: "oneshot", DType: num.F16, World: 8}, 1, 4096, fusedRecipes(4096)[1]},
		{collective.Spec{Algo: "twoshot", Codec: "fp", DType: num.BF16, World: 4}, 64, 4096, fusedRecipes(4096)[0]},
		{collective.Spec{Algo: "twoshot", Codec: "int8", DType: num.F32, World: 2}, 33, 2048, fusedRecipes(2048)[1]},
	}
	for i, c := range cases {
		t.Run(c.spec.String(), func(t *testing.T) {
			g := newFusedRig(t, logical(c.spec.World, gpus()), 4<<20)
			replayFused(t, g, c.spec, c.rc, c.rows*c.n, 1000, uint64(i+1)<<30)
		})
	}
}

func replayFused(t *testing.T, g *fusedRig, s collective.Spec, rc norm.Recipe, n, iters int, seed uint64) {
	const sets = 3
	size := n * s.DType.Size()
	alloc := func(d int, data []byte) Ptr {
		p, err := Malloc(d, max(size, len(data)))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { Free(d, p) })
		if err := ToDevice(d, p, data); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var ins, reses, wantH, wantY [sets][]Ptr
	_, _, w := fusedInputs(seed, s.DType, s.World, n/rc.Row, rc.Row, false)
	for k := range sets {
		in, res, _ := fusedInputs(seed+uint64(k), s.DType, s.World, n/rc.Row, rc.Row, false)
		h, y, err := norm.Expected(s, rc, in, res, w, nil)
		if err != nil {
			t.Fatal(err)
		}
		for r, d := range g.devs {
			ins[k] = append(ins[k], alloc(d, in[r]))
			reses[k] = append(reses[k], alloc(d, res[r]))
			wantH[k] = append(wantH[k], alloc(d, h[r]))
			wantY[k] = append(wantY[k], alloc(d, y[r]))
		}
	}
	counters := make([]Ptr, len(g.devs))
	graphs := make([]Ptr, len(g.devs))
	for r, d := range g.devs {
		counters[r] = alloc(d, make([]byte, 8))
		if err := ToDevice(d, g.w[r], w); err != nil {
			t.Fatal(err)
		}
		if err := CaptureBegin(d, g.streams[r]); err != nil {
			t.Fatal(err)
		}
		err := g.comm.AllReduceNorm(r, g.in[r], g.out[r], n, int(s.DType), s.AlgoEnum(), s.CodecEnum(), flags(s),
			normOf(rc, g.res[r], g.w[r], g.y[r]), g.streams[r])
		graph, endErr := CaptureEnd(d, g.streams[r])
		if err != nil || endErr != nil {
			t.Fatalf("capture rank %d: %v %v", r, err, endErr)
		}
		graphs[r] = graph
		t.Cleanup(func() { GraphDestroy(d, graph) })
	}
	for i := range iters {
		if i%50 == 49 {
			if err := g.rig.sync(); err != nil {
				t.Fatalf("replay %d: %v", i, err)
			}
		}
		k := i % sets
		for r, d := range g.devs {
			st := g.streams[r]
			for _, c := range [][2]Ptr{{g.in[r], ins[k][r]}, {g.res[r], reses[k][r]}} {
				if err := CopyAsync(d, c[0], c[1], size, st); err != nil {
					t.Fatal(err)
				}
			}
			if err := GraphLaunch(d, graphs[r], st); err != nil {
				t.Fatal(err)
			}
			for _, c := range [][2]Ptr{{g.out[r], wantH[k][r]}, {g.y[r], wantY[k][r]}} {
				if err := CountDiff(d, c[0], c[1], n, int(s.DType), counters[r], st); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if err := g.rig.sync(); err != nil {
		t.Fatal(err)
	}
	for r, d := range g.devs {
		var c [8]byte
		if err := FromDevice(d, c[:], counters[r]); err != nil {
			t.Fatal(err)
		}
		if bad := leUint64(c[:]); bad != 0 {
			t.Fatalf("rank %d: %d wrong elements of h and y over %d replays", r, bad, iters)
		}
	}
}

// Fused calls between unfused calls that use fewer blocks. A block counts
// the calls it took part in (its epoch), so after a call of one block the
// rank's blocks disagree on the epoch's parity; the fused oneshot kernel
// must still find every segment's sum of squares, which another block of
// the rank wrote. The sweeps above run each shape an even number of times,
// which kept every block's parity equal, so they could not see a kernel
// that read a row's sums at its own block's parity (the first row of JAX
// programs whose all-reduces differ in size came out too large by up to
// sqrt(2)).
func TestFusedAfterOtherCalls(t *testing.T) {
	needGPUs(t, 1)
	for _, world := range []int{2, 4, 8} {
		t.Run(fmt.Sprintf("world%d", world), func(t *testing.T) {
			g := newFusedRig(t, logical(world, gpus()), 1<<20)
			seed := uint64(world) << 40
			for _, s := range fusedSpecs(world) {
				if s.Algo != "oneshot" && s.Codec != "fp" {
					continue
				}
				plain := collective.Spec{Algo: "oneshot", DType: s.DType, World: world}
				// before each fused call: 1, 2, then 3 calls of one to three blocks
				for calls := 1; calls <= 3; calls++ {
					for c := range calls {
						seed++
						n := []int{7, 2048 + 1, 2*2048 + 5}[c%3] // 1, 2, 3 tiles
						in := randomInputs(seed, s.DType, world, n, false)
						want, err := collective.Expected(plain, in)
						if err != nil {
							t.Fatal(err)
						}
						if err := g.rig.check(plain, in, want); err != nil {
							t.Fatal(err)
						}
					}
					for _, sh := range [][2]int{{1, 4096}, {3, 8192}, {2, 2112}, {8, 4096}} {
						rows, n := sh[0], sh[1]
						if abi.CheckFused(s.Algo, int64(n), int64(s.DType.Size())) != nil {
							continue
						}
						seed++
						rc := fusedRecipes(n)[int(seed)%2]
						in, res, w := fusedInputs(seed, s.DType, world, rows, n, false)
						h, y, err := norm.Expected(s, rc, in, res, w, nil)
						if err != nil {
							t.Fatal(err)
						}
						if err := g.check(s, rc, in, res, w, h, y); err != nil {
							t.Fatalf("after %d unfused calls: %v", calls, err)
						}
					}
				}
			}
		})
	}
}
