//go:build cgo

package gputest

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/arcpass/arc/reference/collective"
	"github.com/arcpass/arc/reference/num"
)

// Element counts: one element; short, whole and split codec blocks (32); a
// tile (4096) and around it; sizes that divide by nothing in particular.
var smallSizes = []int{1, 5, 8, 31, 32, 33, 100, 1000, 4095, 4096, 4097, 12345, 65537, 131077, 1<<20 + 77}

const midSize = 3_000_017 // about 6 MB of f16

// specs lists every algorithm x codec x dtype valid at world, and the bf16
// fp codec with the cast to f16.
func specs(world int) []collective.Spec {
	var out []collective.Spec
	for _, algo := range collective.Algos() {
		if !slices.Contains(collective.Worlds(algo), world) {
			continue
		}
		for _, c := range collective.Codecs(algo) {
			for _, dt := range num.DTypes {
				out = append(out, collective.Spec{Algo: algo, Codec: c, DType: dt, World: world})
				if c == "fp" && dt == num.BF16 {
					out = append(out, collective.Spec{Algo: algo, Codec: c, DType: dt, World: world, Cast: true})
				}
			}
		}
	}
	return out
}

// sweep checks each spec at each size with fresh random inputs; every third
// size carries special values (zeros, subnormals, extremes, Inf, NaN).
func sweep(t *testing.T, g *rig, list []collective.Spec, sizes func(collective.Spec) []int, seed uint64) {
	for _, s := range list {
		t.Run(s.String(), func(t *testing.T) {
			if g.broken != nil {
				t.Skipf("the communicator failed earlier: %v", g.broken)
			}
			for i, n := range sizes(s) {
				if n*s.DType.Size() > g.capB {
					continue
				}
				seed++
				inputs := randomInputs(seed, s.DType, s.World, n, i%3 == 1)
				want, err := collective.Expected(s, inputs)
				if err != nil {
					t.Fatal(err)
				}
				if err := g.check(s, inputs, want); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// gpus is how many GPUs the tests spread ranks over: two where there are,
// else logical ranks on one.
func gpus() int { return min(devices, 2) }

// World 2 over peer access (two GPUs, or two logical ranks on one): every
// spec from 1 element to 256 MB.
func TestWorld2(t *testing.T) {
	needGPUs(t, 1)
	const big = 256 << 20
	g := newRig(t, logical(2, gpus()), LinkPeer, big)
	sweep(t, g, specs(2), func(s collective.Spec) []int {
		sizes := append(slices.Clone(smallSizes), midSize)
		// The largest, 256 MB less a few elements (a multiple of neither a
		// block nor a tile), for every codec in f16 and a few others: each
		// costs seconds of reference time.
		if s.DType == num.F16 || s.Codec == "fp" || (s.DType == num.F32 && s.Codec == "int8") {
			sizes = append(sizes, big/s.DType.Size()-13)
		}
		return sizes
	}, 1000)
}

// World 4, 6 and 8 as logical ranks on two GPUs (or one).
func TestLogicalRanks(t *testing.T) {
	needGPUs(t, 1)
	for _, world := range []int{4, 6, 8} {
		t.Run(fmt.Sprintf("world%d", world), func(t *testing.T) {
			const capB = 64 << 20
			g := newRig(t, logical(world, gpus()), LinkPeer, capB)
			sweep(t, g, specs(world), func(s collective.Spec) []int {
				sizes := slices.Clone(smallSizes)
				if world < 8 || s.DType != num.F32 {
					sizes = append(sizes, midSize)
				}
				if world == 8 && s.DType == num.F16 && (s.Codec == "" || s.Codec == "int4" || s.Codec == "fp8") {
					sizes = append(sizes, capB/2-13)
				}
				return sizes
			}, uint64(world)<<20)
		})
	}
}

// The Go reference's golden vectors (special values in every block kind).
func TestGolden(t *testing.T) {
	needGPUs(t, 1)
	files, _ := filepath.Glob(filepath.Join(testdataDir, "*.golden"))
	if len(files) == 0 {
		t.Fatal("no golden vectors in " + testdataDir)
	}
	rigs := map[int]*rig{} // one per world, kept for every file
	parent := t
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			cases, err := collective.ReadGoldenFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range cases {
				w := k.Spec.World
				if rigs[w] == nil {
					rigs[w] = newRig(parent, logical(w, gpus()), LinkPeer, 1<<20)
				}
				if err := rigs[w].check(k.Spec, k.Inputs, k.Output); err != nil {
					t.Fatal(err)
				}
			}
			t.Logf("%d cases", len(cases))
		})
	}
}

// A captured graph replayed 1000 times, the inputs changing before each
// replay, every output checked on the device.
func TestGraphReplay(t *testing.T) {
	needGPUs(t, 1)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cases := []struct {
		world int
		spec  collective.Spec
		n     int
	}{
		{2, collective.Spec{Algo: "oneshot", DType: num.F16, World: 2}, 10_000},
		{2, collective.Spec{Algo: "twoshot", Codec: "int4", DType: num.F16, World: 2}, 1<<20 + 3},
		{2, collective.Spec{Algo: "twoshot", Codec: "fp", DType: num.BF16, World: 2}, 300_001},
		{4, collective.Spec{Algo: "hier", Codec: "fp8", DType: num.BF16, World: 4}, 500_001},
	}
	for i, c := range cases {
		t.Run(c.spec.String(), func(t *testing.T) {
			g := newRig(t, logical(c.world, gpus()), LinkPeer, 4<<20)
			replay(t, g, c.spec, c.n, 1000, uint64(i+1)<<30)
		})
	}
}

func replay(t *testing.T, g *rig, s collective.Spec, n, iters int, seed uint64) {
	replayAt(t, g, s, n, iters, seed, 0, 0)
}

// replayAt replays with the input inOff bytes into each rank's input
// buffer and the output outOff bytes into its output buffer; the bytes
// around the output must keep the poison they had before the capture.
func replayAt(t *testing.T, g *rig, s collective.Spec, n, iters int, seed uint64, inOff, outOff int) {
	const sets = 3
	size := n * s.DType.Size()
	if inOff+size > g.capB || outOff+size+guard > g.capB {
		t.Fatalf("%d bytes at +%d/+%d exceed the rig's %d", size, inOff, outOff, g.capB)
	}
	in, out := make([]Ptr, len(g.devs)), make([]Ptr, len(g.devs))
	for r, d := range g.devs {
		in[r], out[r] = at(g.in[r], inOff), at(g.out[r], outOff)
		if err := Memset(d, g.out[r], poison, outOff+size+guard); err != nil {
			t.Fatal(err)
		}
	}
	// per set and rank: the input and the expected output, on the rank's device
	var ins, wants [sets][]Ptr
	for k := range sets {
		inputs := randomInputs(seed+uint64(k), s.DType, s.World, n, false)
		want, err := collective.Expected(s, inputs)
		if err != nil {
			t.Fatal(err)
		}
		for r, d := range g.devs {
			for _, pair := range []struct {
				dst  *[]Ptr
				data []byte
			}{{&ins[k], inputs[r]}, {&wants[k], want}} {
				p, err := Malloc(d, size)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { Free(d, p) })
				if err := ToDevice(d, p, pair.data); err != nil {
					t.Fatal(err)
				}
				*pair.dst = append(*pair.dst, p)
			}
		}
	}
	counters := make([]Ptr, len(g.devs))
	graphs := make([]Ptr, len(g.devs))
	for r, d := range g.devs {
		p, err := Malloc(d, 8)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { Free(d, p) })
		if err := Memset(d, p, 0, 8); err != nil {
			t.Fatal(err)
		}
		counters[r] = p
		if err := CaptureBegin(d, g.streams[r]); err != nil {
			t.Fatal(err)
		}
		err = g.comm.AllReduce(r, in[r], out[r], n, int(s.DType), s.AlgoEnum(), s.CodecEnum(), flags(s), g.streams[r])
		graph, endErr := CaptureEnd(d, g.streams[r])
		if err != nil || endErr != nil {
			t.Fatalf("capture rank %d: %v %v", r, err, endErr)
		}
		graphs[r] = graph
		t.Cleanup(func() { GraphDestroy(d, graph) })
	}
	for i := range iters {
		// One thread enqueues for every rank: if a rank's launch queue filled
		// up, the thread would block there with a peer's next call not yet
		// enqueued while this rank's kernel waits for it. Drain now and then.
		if i%50 == 49 {
			if err := g.sync(); err != nil {
				t.Fatalf("replay %d: %v", i, err)
			}
		}
		k := i % sets
		for r, d := range g.devs {
			st := g.streams[r]
			if err := CopyAsync(d, in[r], ins[k][r], size, st); err != nil {
				t.Fatal(err)
			}
			if err := GraphLaunch(d, graphs[r], st); err != nil {
				t.Fatal(err)
			}
			if err := CountDiff(d, out[r], wants[k][r], n, int(s.DType), counters[r], st); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := g.sync(); err != nil {
		t.Fatal(err)
	}
	for r, d := range g.devs {
		var c [8]byte
		if err := FromDevice(d, c[:], counters[r]); err != nil {
			t.Fatal(err)
		}
		if bad := leUint64(c[:]); bad != 0 {
			t.Fatalf("rank %d: %d wrong elements over %d replays", r, bad, iters)
		}
		got := make([]byte, outOff+size+guard)
		if err := FromDevice(d, got, g.out[r]); err != nil {
			t.Fatal(err)
		}
		if i := outside(got, outOff, size); i >= 0 {
			t.Fatalf("rank %d wrote byte %d of its output buffer, outside its output [%d, %d)", r, i, outOff, outOff+size)
		}
	}
}

func leUint64(b []byte) uint64 {
	var v uint64
	for i := 7; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	return v
}

// Calls of different sizes, algorithms and codecs enqueued back to back with
// no synchronisation between them: a call must never touch bytes an earlier
// one still reads.
func TestInterleavedSizes(t *testing.T) {
	needGPUs(t, 1)
	for _, world := range []int{2, 8} {
		t.Run(fmt.Sprintf("world%d", world), func(t *testing.T) {
			const capB = 8 << 20
			g := newRig(t, logical(world, gpus()), LinkPeer, capB)
			list := specs(world)
			rng := rand.New(rand.NewPCG(uint64(world), 99))
			type call struct {
				s       collective.Spec
				inputs  [][]byte
				in, out []Ptr
			}
			var calls []call
			for i := range 40 {
				s := list[rng.IntN(len(list))]
				n := 1 + rng.IntN(capB/s.DType.Size())
				if i%2 == 0 {
					n = 1 + rng.IntN(5000) // small and large alternate
				}
				c := call{s: s, inputs: randomInputs(uint64(world)<<32|uint64(i), s.DType, world, n, false)}
				for r, d := range g.devs {
					in, err1 := Malloc(d, n*s.DType.Size())
					out, err2 := Malloc(d, n*s.DType.Size())
					if err1 != nil || err2 != nil {
						t.Fatal(err1, err2)
					}
					t.Cleanup(func() { Free(d, in); Free(d, out) })
					if err := ToDevice(d, in, c.inputs[r]); err != nil {
						t.Fatal(err)
					}
					if err := Memset(d, out, poison, n*s.DType.Size()); err != nil {
						t.Fatal(err)
					}
					c.in, c.out = append(c.in, in), append(c.out, out)
				}
				calls = append(calls, c)
			}
			for _, c := range calls {
				if err := g.enqueue(c.s, c.in, c.out, len(c.inputs[0])/c.s.DType.Size()); err != nil {
					t.Fatal(err)
				}
			}
			if err := g.sync(); err != nil {
				t.Fatal(err)
			}
			for i, c := range calls {
				want, err := collective.Expected(c.s, c.inputs)
				if err != nil {
					t.Fatal(err)
				}
				for r, d := range g.devs {
					got := make([]byte, len(want))
					if err := FromDevice(d, got, c.out[r]); err != nil {
						t.Fatal(err)
					}
					if j := mismatch(c.s.DType, got, want); j >= 0 {
						t.Fatalf("call %d %s n=%d: rank %d element %d = %#x, want %#x", i, c.s, len(want)/c.s.DType.Size(), r, j,
							elem(c.s.DType, got, j), elem(c.s.DType, want, j))
					}
				}
			}
		})
	}
}

// The host-staged link with peer access off: every exchange goes through
// pinned host memory.
func TestHostStaged(t *testing.T) {
	needGPUs(t, 1)
	checkPeerOff := func() {
		if gpus() < 2 {
			return // logical ranks on one GPU: no peer access in question
		}
		for a := range 2 {
			if on, err := PeerEnabled(a, 1-a); err != nil || on {
				t.Fatalf("peer access %d->%d is on (%v): the host-staged test needs it off", a, 1-a, err)
			}
		}
	}
	checkPeerOff()
	t.Run("world2", func(t *testing.T) {
		const capB = 64 << 20
		g := newRig(t, logical(2, gpus()), LinkHost, capB)
		var list []collective.Spec
		for _, s := range specs(2) {
			if s.DType != num.F32 {
				list = append(list, s)
			}
		}
		sweep(t, g, list, func(s collective.Spec) []int {
			return []int{1, 33, 4097, 131077, midSize, capB/s.DType.Size() - 13}
		}, 7<<40)
		checkPeerOff()
	})
	t.Run("world4", func(t *testing.T) {
		g := newRig(t, logical(4, gpus()), LinkHost, 4<<20)
		sweep(t, g, specs(4), func(collective.Spec) []int { return []int{5, 4097, 65537, 1<<20 + 77} }, 8<<40)
		checkPeerOff()
	})
}

// Arguments the C API must refuse, with the right code and without work.
func TestAPIErrors(t *testing.T) {
	needGPUs(t, 1)
	g := newRig(t, logical(2, gpus()), LinkPeer, 1<<20)
	const (
		invalid     = 1
		unsupported = 2
		tooLarge    = 4
	)
	in, out, s := g.in[0], g.out[0], g.streams[0]
	for _, c := range []struct {
		name                   string
		rank, count, dt, algo  int
		codec, flags, wantCode int
	}{
		{"too large", 0, 1<<19 + 1, 0, 0, 0, 0, tooLarge},
		{"f32 too large", 0, 1<<18 + 1, 2, 1, 1, 0, tooLarge},
		{"oneshot with a codec", 0, 64, 0, 0, codecInt8, 0, unsupported},
		{"twoshot without a codec", 0, 64, 0, 1, 0, 0, unsupported},
		{"hier at world 2", 0, 64, 0, 2, codecFP8, 0, unsupported},
		{"rank out of range", 2, 64, 0, 1, codecFP, 0, invalid},
		{"unknown dtype", 0, 64, 7, 1, codecFP, 0, invalid},
		{"unknown codec", 0, 64, 0, 1, 9, 0, invalid},
		{"unknown flag", 0, 64, 0, 1, codecFP, 4, invalid},
	} {
		err := g.comm.AllReduce(c.rank, in, out, c.count, c.dt, c.algo, c.codec, c.flags, s)
		if !IsCode(err, c.wantCode) {
			t.Errorf("%s: got %v, want code %d", c.name, err, c.wantCode)
		}
	}
	if _, err := NewComm([]int{0}, LinkPeer, 0); !IsCode(err, unsupported) {
		t.Errorf("world 1: got %v, want code %d", err, unsupported)
	}
	if _, err := NewComm([]int{0, 99}, LinkPeer, 0); !IsCode(err, invalid) {
		t.Errorf("missing device: got %v, want code %d", err, invalid)
	}
	if err := g.sync(); err != nil {
		t.Fatal(err)
	}
}
