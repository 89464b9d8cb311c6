//go:build cgo

package gputest

import (
	"encoding/binary"
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/arcpass/arc/reference/collective"
	"github.com/arcpass/arc/reference/num"
)

const (
	codeTimeout  = 5 // ARC_ERR_TIMEOUT
	codeMismatch = 6 // ARC_ERR_MISMATCH
)

// allNaN reports whether every element of b is the quiet NaN a failed call
// writes (f16 0x7E00, bf16 0x7FC0, f32 0x7FC00000), or the first that is not.
func allNaN(dt num.DType, b []byte) (int, bool) {
	for i := 0; i < len(b)/dt.Size(); i++ {
		var ok bool
		switch dt {
		case num.F32:
			ok = binary.LittleEndian.Uint32(b[4*i:]) == 0x7FC00000
		case num.F16:
			ok = binary.LittleEndian.Uint16(b[2*i:]) == 0x7E00
		default:
			ok = binary.LittleEndian.Uint16(b[2*i:]) == 0x7FC0
		}
		if !ok {
			return i, false
		}
	}
	return 0, true
}

// describe is how the library names a call in its messages.
func describe(s collective.Spec, n int) string {
	d := s.Algo
	if s.Codec != "" {
		d += " " + s.Codec
	}
	d += fmt.Sprintf(", %d %s", n, s.DType)
	if s.Cast {
		d += " cast to f16"
	}
	return d
}

// A rank that never calls: the others' calls end within the timeout (no
// hang), their outputs are NaN (no garbage), and the failure names the
// group, the rank that waited and the rank it waited for; every later call
// fails with the same message.
func TestMissingRankTimesOut(t *testing.T) {
	needGPUs(t, 1)
	const timeoutMs = 1500
	for _, c := range []struct {
		spec    collective.Spec
		n       int
		missing int
	}{
		{collective.Spec{Algo: "oneshot", DType: num.F16, World: 2}, 2048, 1},
		{collective.Spec{Algo: "twoshot", Codec: "int8", DType: num.BF16, World: 4}, 100_001, 3},
		{collective.Spec{Algo: "hier", Codec: "fp8", DType: num.F32, World: 8}, 300_001, 0},
	} {
		t.Run(c.spec.String(), func(t *testing.T) {
			devs := logical(c.spec.World, gpus())
			comm, err := NewCommConfig(CommConfig{Devices: devs, MaxBytes: 4 << 20, TimeoutMs: timeoutMs})
			if err != nil {
				t.Fatal(err)
			}
			g := rigOn(t, comm, devs, 4<<20)
			size := c.n * c.spec.DType.Size()
			inputs := randomInputs(7, c.spec.DType, c.spec.World, c.n, false)
			for r, d := range devs {
				if err := Memset(d, g.out[r], poison, size); err != nil {
					t.Fatal(err)
				}
				if err := ToDevice(d, g.in[r], inputs[r]); err != nil {
					t.Fatal(err)
				}
			}
			start := time.Now()
			for r := range devs {
				if r == c.missing {
					continue
				}
				if err := comm.AllReduce(r, g.in[r], g.out[r], c.n, int(c.spec.DType), c.spec.AlgoEnum(), c.spec.CodecEnum(), flags(c.spec), g.streams[r]); err != nil {
					t.Fatal(err)
				}
			}
			for r, d := range devs {
				if r != c.missing {
					if err := Sync(d, g.streams[r]); err != nil {
						t.Fatal(err)
					}
				}
			}
			took := time.Since(start)
			if took < timeoutMs*time.Millisecond*9/10 || took > timeoutMs*time.Millisecond+5*time.Second {
				t.Errorf("the calls ended after %v; the timeout is %d ms", took, timeoutMs)
			}
			err = comm.Status()
			if !IsCode(err, codeTimeout) {
				t.Fatalf("status: %v, want a timeout (code %d)", err, codeTimeout)
			}
			want := regexp.MustCompile(fmt.Sprintf(`^arc_comm_status: group \[[0-9,]+\]: rank [0-9] \(device [0-9]\) timed out after %d ms waiting for rank ([0-9]) \(device [0-9]\) in call 1 \(%s\); the communicator is unusable \(code 5\)$`,
				timeoutMs, regexp.QuoteMeta(describe(c.spec, c.n))))
			m := want.FindStringSubmatch(err.Error())
			if m == nil {
				t.Fatalf("status: %q does not match %s", err, want)
			}
			if c.spec.Algo != "hier" && m[1] != fmt.Sprint(c.missing) {
				t.Errorf("the failure names rank %s as the one waited for, want %d: %v", m[1], c.missing, err)
			}
			for r, d := range devs {
				if r == c.missing {
					continue
				}
				out := make([]byte, size)
				if err := FromDevice(d, out, g.out[r]); err != nil {
					t.Fatal(err)
				}
				if i, ok := allNaN(c.spec.DType, out); !ok {
					t.Fatalf("rank %d element %d = %#x after the timeout, want NaN", r, i, elem(c.spec.DType, out, i))
				}
			}
			// Sticky: any rank's next call, the missing one's too, fails the same way.
			for _, r := range []int{(c.missing + 1) % c.spec.World, c.missing} {
				err2 := comm.AllReduce(r, g.in[r], g.out[r], c.n, int(c.spec.DType), c.spec.AlgoEnum(), c.spec.CodecEnum(), flags(c.spec), g.streams[r])
				if !IsCode(err2, codeTimeout) || err2.(*Error).Msg[len("arc_allreduce"):] != err.(*Error).Msg[len("arc_comm_status"):] {
					t.Errorf("rank %d's next call: %v, want %v", r, err2, err)
				}
			}
		})
	}
}

// Ranks that make different calls fail with a message naming both calls,
// before any reads the other's data: no hang, no garbage, and the calls
// before the first difference are unaffected.
func TestMismatchedCalls(t *testing.T) {
	needGPUs(t, 1)
	oneshot := collective.Spec{Algo: "oneshot", DType: num.F16, World: 2}
	twoFP := collective.Spec{Algo: "twoshot", Codec: "fp", DType: num.F16, World: 2}
	int8 := collective.Spec{Algo: "twoshot", Codec: "int8", DType: num.F16, World: 4}
	int4 := collective.Spec{Algo: "twoshot", Codec: "int4", DType: num.F16, World: 4}
	hier := collective.Spec{Algo: "hier", Codec: "int8", DType: num.F16, World: 4}
	type call struct {
		spec collective.Spec
		n    int
	}
	for _, c := range []struct {
		name        string
		world       int
		first, rest []call // rank 0's calls, the other ranks'
		differ      int    // the first call (1-based) that differs
	}{
		{"order", 2, []call{{oneshot, 4096}, {oneshot, 4096}, {twoFP, 1 << 20}}, []call{{oneshot, 4096}, {twoFP, 1 << 20}, {oneshot, 4096}}, 2},
		{"count", 2, []call{{oneshot, 4096}}, []call{{oneshot, 4095}}, 1},
		{"codec", 4, []call{{int8, 65536}}, []call{{int4, 65536}}, 1},
		{"algo", 4, []call{{hier, 300_000}}, []call{{int8, 300_000}}, 1},
		{"dtype", 2, []call{{oneshot, 4096}}, []call{{collective.Spec{Algo: "oneshot", DType: num.BF16, World: 2}, 4096}}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			devs := logical(c.world, gpus())
			comm, err := NewCommConfig(CommConfig{Devices: devs, MaxBytes: 4 << 20, TimeoutMs: 20000})
			if err != nil {
				t.Fatal(err)
			}
			g := rigOn(t, comm, devs, 4<<20)
			type buf struct{ in, out Ptr }
			bufs := make([][]buf, c.world)
			inputs := make([][][]byte, len(c.first))
			for k := range c.first {
				inputs[k] = randomInputs(uint64(k), c.first[k].spec.DType, c.world, c.first[k].n, false)
			}
			// Every buffer first: a synchronous memset or copy while a rank's
			// kernel waits for a peer not yet enqueued would wait with it.
			for r, d := range devs {
				calls := c.rest
				if r == 0 {
					calls = c.first
				}
				for k, cl := range calls {
					size := cl.n * cl.spec.DType.Size()
					in, err1 := Malloc(d, size)
					out, err2 := Malloc(d, size)
					if err1 != nil || err2 != nil {
						t.Fatal(err1, err2)
					}
					t.Cleanup(func() { Free(d, in); Free(d, out) })
					if err := Memset(d, out, poison, size); err != nil {
						t.Fatal(err)
					}
					if k < c.differ-1 {
						if err := ToDevice(d, in, inputs[k][r]); err != nil {
							t.Fatal(err)
						}
					}
					bufs[r] = append(bufs[r], buf{in, out})
				}
			}
			start := time.Now()
			for r := range devs {
				calls := c.rest
				if r == 0 {
					calls = c.first
				}
				for k, cl := range calls {
					if err := comm.AllReduce(r, bufs[r][k].in, bufs[r][k].out, cl.n, int(cl.spec.DType), cl.spec.AlgoEnum(), cl.spec.CodecEnum(), 0, g.streams[r]); err != nil {
						t.Fatal(err)
					}
				}
			}
			for r, d := range devs {
				if err := Sync(d, g.streams[r]); err != nil {
					t.Fatal(err)
				}
			}
			if took := time.Since(start); took > 5*time.Second {
				t.Errorf("the calls took %v to fail", took)
			}
			err = comm.Status()
			if !IsCode(err, codeMismatch) {
				t.Fatalf("status: %v, want a mismatch (code %d)", err, codeMismatch)
			}
			a, b := c.first[c.differ-1], c.rest[c.differ-1]
			da, db := describe(a.spec, a.n), describe(b.spec, b.n)
			m := regexp.MustCompile(`ranks made different calls: rank [0-9] \(device [0-9]\) is at call ([0-9]+) \((.*)\), rank [0-9] \(device [0-9]\) at call ([0-9]+) \((.*)\); the communicator is unusable`).FindStringSubmatch(err.Error())
			if m == nil || m[1] != fmt.Sprint(c.differ) || m[3] != fmt.Sprint(c.differ) || !(m[2] == da && m[4] == db || m[2] == db && m[4] == da) {
				t.Fatalf("status: %q, want both calls %d named: %q and %q", err, c.differ, da, db)
			}
			// The calls before the difference are exact; from it on, NaN.
			for r, d := range devs {
				calls := c.rest
				if r == 0 {
					calls = c.first
				}
				for k, cl := range calls {
					out := make([]byte, cl.n*cl.spec.DType.Size())
					if err := FromDevice(d, out, bufs[r][k].out); err != nil {
						t.Fatal(err)
					}
					if k < c.differ-1 {
						want, err := collective.Expected(cl.spec, inputs[k])
						if err != nil {
							t.Fatal(err)
						}
						if i := mismatch(cl.spec.DType, out, want); i >= 0 {
							t.Errorf("rank %d call %d (before the difference) element %d wrong", r, k+1, i)
						}
					} else if i, ok := allNaN(cl.spec.DType, out); !ok {
						t.Errorf("rank %d call %d element %d = %#x, want NaN", r, k+1, i, elem(cl.spec.DType, out, i))
					}
				}
			}
		})
	}
}
