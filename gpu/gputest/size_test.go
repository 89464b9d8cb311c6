//go:build cgo

package gputest

import (
	"fmt"
	"runtime"
	"testing"
	"unsafe"

	"github.com/arcpass/arc/abi"
	"github.com/arcpass/arc/reference/collective"
	"github.com/arcpass/arc/reference/num"
)

// Every size (docs/KERNELS.md, "Every size"): counts that are no multiple
// of an atom (8 elements) or of a codec block (32), one element (a scalar:
// a loss, a token count) among them, in every dtype, algorithm and codec,
// bit for bit with collective.Expected on every rank; buffers that are only
// element-aligned (the kernels' element path); not a byte written outside
// the output, and nothing past the input summed in; captured graphs
// replayed; the fused kernel's rows of any length. `-test.run EverySize`
// runs them alone.

// everySizes are element counts around an atom, a codec block and a tile
// (2048 elements).
var everySizes = []int{1, 2, 3, 5, 7, 9, 15, 17, 31, 33, 1023, 2047, 2049}

// placements are byte offsets of the input and the output in their
// allocations: both 16-byte aligned (the vector path for whole atoms), and
// one or both aligned to their element only, as a custom call's operand
// may be when XLA hands it a slice of a larger buffer.
func placements(es int) [][2]int { return [][2]int{{0, 0}, {es, es}, {0, 3 * es}, {5 * es, 0}} }

// guard is how many bytes after an output are checked to hold the poison
// they were given (before it: its offset's).
const guard = 64

// at is p moved by off bytes.
func at(p Ptr, off int) Ptr { return unsafe.Add(p, off) }

// checkAt runs s on inputs placed inOff bytes into each rank's input buffer,
// the output outOff bytes into its output buffer, and compares each rank's
// output with want. Both buffers hold poison around what the call may
// touch: a kernel that read past its input would sum poison into a codec
// block's scale, one that wrote past its output (or before it) would leave
// other bytes than poison.
func (g *rig) checkAt(s collective.Spec, inputs [][]byte, want []byte, inOff, outOff int) error {
	if g.broken != nil {
		return fmt.Errorf("not run: the communicator failed earlier: %w", g.broken)
	}
	size := len(inputs[0])
	inSpan, outSpan := inOff+size+guard, outOff+size+guard
	if inSpan > g.capB || outSpan > g.capB {
		return fmt.Errorf("%d bytes at +%d/+%d exceed the rig's %d", size, inOff, outOff, g.capB)
	}
	ins, outs := make([]Ptr, len(g.devs)), make([]Ptr, len(g.devs))
	for r, d := range g.devs {
		if err := Memset(d, g.in[r], poison, inSpan); err != nil {
			return err
		}
		if err := ToDevice(d, at(g.in[r], inOff), inputs[r]); err != nil {
			return err
		}
		if err := Memset(d, g.out[r], poison, outSpan); err != nil {
			return err
		}
		ins[r], outs[r] = at(g.in[r], inOff), at(g.out[r], outOff)
	}
	if err := g.enqueue(s, ins, outs, size/s.DType.Size()); err != nil {
		g.broken = err
		return err
	}
	if err := g.sync(); err != nil {
		g.broken = err
		return err
	}
	for r, d := range g.devs {
		got := make([]byte, outSpan)
		if err := FromDevice(d, got, g.out[r]); err != nil {
			return err
		}
		if i := outside(got, outOff, size); i >= 0 {
			return fmt.Errorf("%s n=%d: rank %d wrote byte %d of its output buffer, outside its output [%d, %d)", s,
				size/s.DType.Size(), r, i, outOff, outOff+size)
		}
		if i := mismatch(s.DType, got[outOff:outOff+size], want); i >= 0 {
			return fmt.Errorf("%s n=%d: rank %d element %d = %#x, want %#x (inputs %v)", s, size/s.DType.Size(), r, i,
				elem(s.DType, got[outOff:], i), elem(s.DType, want, i), inputsAt(s.DType, inputs, i))
		}
	}
	return nil
}

// outside returns the first byte of b outside [off, off+size) that is not
// the poison, or -1.
func outside(b []byte, off, size int) int {
	for i, c := range b {
		if (i < off || i >= off+size) && c != poison {
			return i
		}
	}
	return -1
}

// Worlds 2, 4, 6 and 8 over peer access (logical ranks where there are
// fewer GPUs), and world 2 over the host-staged link: every spec at every
// count and placement.
func TestEverySize(t *testing.T) {
	needGPUs(t, 1)
	runs := []struct {
		name        string
		world, link int
	}{{"world2", 2, LinkPeer}, {"world4", 4, LinkPeer}, {"world6", 6, LinkPeer}, {"world8", 8, LinkPeer}, {"world2-host", 2, LinkHost}}
	for k, run := range runs {
		t.Run(run.name, func(t *testing.T) {
			g := newRig(t, logical(run.world, gpus()), run.link, 1<<20)
			seed := uint64(k+1) << 36
			for _, s := range specs(run.world) {
				t.Run(s.String(), func(t *testing.T) {
					if g.broken != nil {
						t.Skipf("the communicator failed earlier: %v", g.broken)
					}
					es := s.DType.Size()
					for i, n := range everySizes {
						for _, p := range placements(es) {
							seed++
							inputs := randomInputs(seed, s.DType, s.World, n, i%3 == 1)
							want, err := collective.Expected(s, inputs)
							if err != nil {
								t.Fatal(err)
							}
							if err := g.checkAt(s, inputs, want, p[0], p[1]); err != nil {
								t.Fatalf("input at +%d, output at +%d: %v", p[0], p[1], err)
							}
						}
					}
				})
			}
		})
	}
}

// Scalars and odd counts in captured graphs replayed 1000 times with new
// inputs each, at aligned and element-aligned placements.
func TestEverySizeReplay(t *testing.T) {
	needGPUs(t, 1)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cases := []struct {
		world         int
		spec          collective.Spec
		n             int
		inOff, outOff int
	}{
		{2, collective.Spec{Algo: "oneshot", DType: num.F32, World: 2}, 1, 0, 0}, // a scalar loss
		{2, collective.Spec{Algo: "oneshot", DType: num.F32, World: 2}, 1, 4, 12},
		{8, collective.Spec{Algo: "oneshot", DType: num.BF16, World: 8}, 3, 2, 6},
		{4, collective.Spec{Algo: "twoshot", Codec: "fp", DType: num.F16, World: 4}, 17, 0, 2},
		{4, collective.Spec{Algo: "hier", Codec: "fp8", DType: num.BF16, World: 4}, 1023, 2, 2},
		{8, collective.Spec{Algo: "twoshot", Codec: "int4r", DType: num.F16, World: 8}, 33, 0, 0},
	}
	for i, c := range cases {
		t.Run(fmt.Sprintf("%s/n=%d/+%d+%d", c.spec, c.n, c.inOff, c.outOff), func(t *testing.T) {
			g := newRig(t, logical(c.world, gpus()), LinkPeer, 1<<16)
			replayAt(t, g, c.spec, c.n, 1000, uint64(i+1)<<44, c.inOff, c.outOff)
		})
	}
}

// The fused kernel (oneshot: twoshot's rows are whole codec blocks, a rule
// these sizes keep) on rows of any length: one element, odd lengths, a
// segment and one more; the rows' elements take the element path.
func TestEverySizeFused(t *testing.T) {
	needGPUs(t, 1)
	shapes := [][2]int{{1, 1}, {1, 3}, {4, 5}, {2, 17}, {3, 1023}, {1, 2049}, {2, 4095}}
	for _, world := range []int{2, 4, 8} {
		t.Run(fmt.Sprintf("world%d", world), func(t *testing.T) {
			g := newFusedRig(t, logical(world, gpus()), 1<<20)
			seed := uint64(world) << 40
			for _, s := range fusedSpecs(world) {
				if s.Algo != "oneshot" {
					continue
				}
				t.Run(s.String(), func(t *testing.T) {
					for i, sh := range shapes {
						rows, n := sh[0], sh[1]
						if abi.CheckFused(s.Algo, int64(n), int64(s.DType.Size())) != nil {
							continue
						}
						checkFusedRows(t, g, s, world, rows, n, i%3 == 1, &seed)
					}
				})
			}
		})
	}
}
