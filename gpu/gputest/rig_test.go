//go:build cgo

package gputest

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"sync"
	"testing"

	"github.com/arcpass/arc/internal/ctest"
	"github.com/arcpass/arc/reference/collective"
	"github.com/arcpass/arc/reference/num"
)

var (
	libErr  error // why the library could not be loaded
	devices int   // GPUs the library sees
)

func TestMain(m *testing.M) {
	path := os.Getenv("ARC_GPU_LIB")
	if path == "" {
		path = "../../build/libarc_gpu.so"
	}
	// A kernel that waits for a peer forever would hang the run: give up
	// after 10 s and report it (arc_comm_status).
	if os.Getenv("ARC_TIMEOUT_MS") == "" {
		os.Setenv("ARC_TIMEOUT_MS", "10000")
	}
	// The harness's own kernels (compare, fill) load at first use unless
	// loading is eager, and a load can wait for a device where a rank spins
	// on a peer this thread has yet to launch (libarc_gpu preloads its own).
	os.Setenv("CUDA_MODULE_LOADING", "EAGER")
	if libErr = Open(path); libErr == nil {
		devices = DeviceCount()
	}
	code := m.Run()
	ctest.Cleanup()
	os.Exit(code)
}

// needGPUs skips the test without the library or without n GPUs.
func needGPUs(t *testing.T, n int) {
	t.Helper()
	if libErr != nil {
		t.Skip(libErr)
	}
	if devices < n {
		t.Skipf("needs %d GPUs, found %d", n, devices)
	}
}

// logical places world ranks on the first gpus devices, alternating, so a
// pair of GPUs runs world 4, 6 and 8.
func logical(world, gpus int) []int {
	devs := make([]int, world)
	for r := range devs {
		devs[r] = r % gpus
	}
	return devs
}

// rig is a communicator with a stream and an input and output buffer of
// capBytes per rank.
type rig struct {
	t       testing.TB
	broken  error // a failure that may leave the communicator unusable
	comm    *Comm
	devs    []int
	streams []Ptr
	in, out []Ptr
	capB    int
}

func newRig(t testing.TB, devs []int, link, capBytes int) *rig {
	t.Helper()
	c, err := NewComm(devs, link, capBytes)
	if err != nil {
		t.Fatalf("devices %v link %d: %v", devs, link, err)
	}
	return rigOn(t, c, devs, capBytes)
}

// rigOn gives a communicator made elsewhere streams and buffers (ranks of
// other processes, -1 in devs, get none).
func rigOn(t testing.TB, c *Comm, devs []int, capBytes int) *rig {
	t.Helper()
	g := &rig{t: t, comm: c, devs: devs, capB: capBytes}
	t.Cleanup(g.close)
	for _, d := range devs {
		s, err := NewStream(d)
		if err != nil {
			t.Fatal(err)
		}
		g.streams = append(g.streams, s)
		for _, buf := range []*[]Ptr{&g.in, &g.out} {
			p, err := Malloc(d, capBytes)
			if err != nil {
				t.Fatal(err)
			}
			*buf = append(*buf, p)
		}
	}
	return g
}

func (g *rig) close() {
	for r, d := range g.devs {
		if r < len(g.streams) {
			Sync(d, g.streams[r])
			DestroyStream(d, g.streams[r])
		}
		if r < len(g.in) {
			Free(d, g.in[r])
		}
		if r < len(g.out) {
			Free(d, g.out[r])
		}
	}
	g.comm.Destroy()
}

func flags(s collective.Spec) int {
	if s.Cast {
		return 1 // ARC_CAST_BF16_TO_FP16
	}
	return 0
}

// enqueue starts every rank's part of one all-reduce.
func (g *rig) enqueue(s collective.Spec, in, out []Ptr, n int) error {
	for r := range g.devs {
		if err := g.comm.AllReduce(r, in[r], out[r], n, int(s.DType), s.AlgoEnum(), s.CodecEnum(), flags(s), g.streams[r]); err != nil {
			return fmt.Errorf("rank %d: %w", r, err)
		}
	}
	return nil
}

func (g *rig) sync() error {
	for r, d := range g.devs {
		if err := Sync(d, g.streams[r]); err != nil {
			return err
		}
	}
	return g.comm.Status()
}

// poison is a finite non-zero pattern in every type (0x7B7B...), so an
// output the kernel never wrote cannot pass for a result.
const poison = 0x7B

// run performs one all-reduce of inputs (one per rank) and returns what
// every rank wrote.
func (g *rig) run(s collective.Spec, inputs [][]byte) ([][]byte, error) {
	size := len(inputs[0])
	if size > g.capB {
		return nil, fmt.Errorf("%d bytes exceed the rig's %d", size, g.capB)
	}
	for r, d := range g.devs {
		if err := Memset(d, g.out[r], poison, size); err != nil {
			return nil, err
		}
		if err := ToDevice(d, g.in[r], inputs[r]); err != nil {
			return nil, err
		}
	}
	if err := g.enqueue(s, g.in, g.out, size/s.DType.Size()); err != nil {
		return nil, err
	}
	if err := g.sync(); err != nil {
		return nil, err
	}
	outs := make([][]byte, len(g.devs))
	for r, d := range g.devs {
		outs[r] = make([]byte, size)
		if err := FromDevice(d, outs[r], g.out[r]); err != nil {
			return nil, err
		}
	}
	return outs, nil
}

// check runs s on inputs and compares every rank's output with want. After
// a failure of the library (a timeout, say) the rig refuses further work, so
// one broken communicator cannot cost a timeout per remaining case.
func (g *rig) check(s collective.Spec, inputs [][]byte, want []byte) error {
	if g.broken != nil {
		return fmt.Errorf("not run: the communicator failed earlier: %w", g.broken)
	}
	outs, err := g.run(s, inputs)
	if err != nil {
		g.broken = err
		return err
	}
	for r, out := range outs {
		if i := mismatch(s.DType, out, want); i >= 0 {
			return fmt.Errorf("%s n=%d: rank %d element %d = %#x, want %#x (inputs %v)", s, len(want)/s.DType.Size(), r, i,
				elem(s.DType, out, i), elem(s.DType, want, i), inputsAt(s.DType, inputs, i))
		}
	}
	return nil
}

// mismatch returns the first element where a and b differ (any NaN equals
// any NaN), or -1.
func mismatch(dt num.DType, a, b []byte) int {
	if bytes.Equal(a, b) {
		return -1
	}
	return num.FirstDiff(dt, a, b)
}

func elem(dt num.DType, b []byte, i int) uint32 {
	if dt == num.F32 {
		return binary.LittleEndian.Uint32(b[4*i:])
	}
	return uint32(binary.LittleEndian.Uint16(b[2*i:]))
}

func inputsAt(dt num.DType, inputs [][]byte, i int) []float32 {
	var v []float32
	for _, in := range inputs {
		v = append(v, num.Widen(dt, in[i*dt.Size():(i+1)*dt.Size()])...)
	}
	return v
}

// randomInputs returns world buffers of n random elements: bell-shaped
// values whose scale changes every 32 elements (2^-8..2^8), and with specials a
// sprinkling of zeros of both signs, subnormals, the largest finite value,
// Inf and NaN. Large buffers are filled on all cores.
func randomInputs(seed uint64, dt num.DType, world, n int, specials bool) [][]byte {
	inputs := make([][]byte, world)
	const chunk = 1 << 16
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for r := range inputs {
		inputs[r] = make([]byte, n*dt.Size())
		for lo := 0; lo < n; lo += chunk {
			wg.Add(1)
			sem <- struct{}{}
			go func(r, lo int) {
				defer func() { <-sem; wg.Done() }()
				rng := rand.New(rand.NewPCG(seed, uint64(r)<<40|uint64(lo)))
				hi := min(lo+chunk, n)
				v := make([]float32, hi-lo)
				var scale float32
				for i := range v {
					if (lo+i)%32 == 0 {
						scale = float32(math.Ldexp(1, rng.IntN(17)-8-31))
					}
					bits := rng.Uint64() // two uniforms summed: bell-shaped, cheaper than NormFloat64
					v[i] = float32(int32(bits)>>1+int32(bits>>32)>>1) * scale
					if specials && rng.IntN(4096) == 0 {
						v[i] = special(dt, rng.IntN(8))
					}
				}
				copy(inputs[r][lo*dt.Size():], num.Narrow(dt, v))
			}(r, lo)
		}
	}
	wg.Wait()
	return inputs
}

func special(dt num.DType, k int) float32 {
	maxFinite := map[num.DType]float32{num.F16: 65504, num.BF16: num.BF16ToF32(0x7F7F), num.F32: math.MaxFloat32}[dt]
	tiny := map[num.DType]float32{num.F16: 0x1p-24, num.BF16: 0x1p-133, num.F32: 0x1p-149}[dt]
	switch k {
	case 0:
		return 0
	case 1:
		return float32(math.Copysign(0, -1))
	case 2:
		return tiny
	case 3:
		return -3 * tiny
	case 4:
		return maxFinite
	case 5:
		return -maxFinite
	case 6:
		return float32(math.Inf(1))
	}
	return float32(math.NaN())
}
