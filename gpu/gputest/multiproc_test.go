//go:build cgo

package gputest

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arcpass/arc/reference/collective"
	"github.com/arcpass/arc/reference/num"
)

// One process per rank, every process on device 0 of its own: the ranks meet
// through a key-value store kept as files (CUDA IPC handles of their
// exchange and flag memory). Several processes spinning on one GPU need MPS
// (nvidia-cuda-mps-control -d); without it each flag handshake between them
// takes milliseconds. ARC_MP_WORLDS (e.g. "2,4,8") says which worlds to run:
// the test is for the GPU machine. ARC_MP_LINK=host runs it on the host-staged
// link, whose ranks share one POSIX shared-memory segment instead of IPC
// handles; its name must be gone from /dev/shm once the communicators are
// made, and after the run.
func TestMultiProcess(t *testing.T) {
	needGPUs(t, 1)
	worlds := os.Getenv("ARC_MP_WORLDS")
	if worlds == "" {
		t.Skip("ARC_MP_WORLDS is not set (e.g. 2,4,8; run under MPS)")
	}
	for _, w := range strings.Split(worlds, ",") {
		world, err := strconv.Atoi(w)
		if err != nil {
			t.Fatalf("ARC_MP_WORLDS=%q: %v", worlds, err)
		}
		t.Run(fmt.Sprintf("world%d", world), func(t *testing.T) { runProcesses(t, world) })
	}
}

func runProcesses(t *testing.T, world int) {
	kv := t.TempDir()
	// ARC_MP_DEADLINE (seconds, default 300) bounds the children: they are
	// killed when it passes.
	deadline := 300 * time.Second
	if s, err := strconv.Atoi(os.Getenv("ARC_MP_DEADLINE")); err == nil && s > 0 {
		deadline = time.Duration(s) * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	if mpLink() == LinkHost {
		defer func() {
			if left := shmLeft(world); len(left) > 0 {
				t.Errorf("left in /dev/shm after the run: %v", left)
			}
		}()
	}
	cmds := make([]*exec.Cmd, world)
	logs := make([]bytes.Buffer, world)
	start := time.Now()
	for r := range cmds {
		cmds[r] = exec.CommandContext(ctx, os.Args[0], "-test.run=^TestMultiProcessChild$", "-test.v",
			fmt.Sprintf("-test.timeout=%v", deadline+10*time.Second))
		cmds[r].Env = append(os.Environ(), "ARC_MP_CHILD=1", fmt.Sprintf("ARC_MP_RANK=%d", r),
			fmt.Sprintf("ARC_MP_WORLD=%d", world), "ARC_MP_KV="+kv, "ARC_CLOSE_MS=2000",
			fmt.Sprintf("GOMAXPROCS=%d", max(2, runtime.NumCPU()/world)))
		cmds[r].Stdout, cmds[r].Stderr = &logs[r], &logs[r]
		if err := cmds[r].Start(); err != nil {
			t.Fatal(err)
		}
	}
	for r, c := range cmds {
		err := c.Wait()
		killed := false
		if ee, ok := err.(*exec.ExitError); ok {
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
				killed = true
			}
		}
		last := r == world-1
		switch {
		case last && !killed:
			t.Errorf("process %d was to die by SIGKILL: %v\n%s", r, err, logs[r].String())
		case !last && (err != nil || !strings.Contains(logs[r].String(), "--- PASS: TestMultiProcessChild")):
			t.Errorf("process %d: %v\n%s", r, err, logs[r].String())
		case !last && r == 0:
			t.Logf("process 0 (of %d, all done after %v):\n%s", world, time.Since(start).Round(time.Millisecond),
				childLines(logs[r].String()))
		}
	}
}

// childLines keeps a child's own log lines.
func childLines(s string) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, "multiproc_test.go") {
			keep = append(keep, strings.TrimSpace(l))
		}
	}
	return strings.Join(keep, "\n")
}

// proc is one rank of a multi-process communicator, in this process.
type proc struct {
	t        *testing.T
	rank     int
	world    int
	comm     *Comm
	stream   Ptr
	in, out  Ptr
	capBytes int
}

func newProc(t *testing.T, rank, world int, kv, key string, timeoutMs int64, capBytes int) *proc {
	devs := make([]int, world)
	ids := make([]int64, world)
	for r := range devs {
		devs[r] = -1
		ids[r] = int64(r)
	}
	devs[rank] = 0
	c, err := NewCommConfig(CommConfig{Devices: devs, Link: mpLink(), MaxBytes: capBytes, TimeoutMs: timeoutMs, IDs: ids, KVDir: kv, Key: key})
	if err != nil {
		t.Fatalf("rank %d: %v", rank, err)
	}
	p := &proc{t: t, rank: rank, world: world, comm: c, capBytes: capBytes}
	if p.stream, err = NewStream(0); err != nil {
		t.Fatal(err)
	}
	if p.in, err = Malloc(0, capBytes); err != nil {
		t.Fatal(err)
	}
	if p.out, err = Malloc(0, capBytes); err != nil {
		t.Fatal(err)
	}
	return p
}

// mpLink is the link ARC_MP_LINK names: LinkPeer unless it says host.
func mpLink() int {
	if os.Getenv("ARC_MP_LINK") == "host" {
		return LinkHost
	}
	return LinkPeer
}

// shmLeft lists the /dev/shm names of the host link's segments of this
// test's communicators at world ("/arc-mp.wW.*": keys mp/wW/...).
func shmLeft(world int) []string {
	entries, _ := os.ReadDir("/dev/shm")
	var left []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), fmt.Sprintf("arc-mp.w%d.", world)) {
			left = append(left, e.Name())
		}
	}
	return left
}

func (p *proc) close() {
	Sync(0, p.stream)
	DestroyStream(0, p.stream)
	Free(0, p.in)
	Free(0, p.out)
	p.comm.Destroy()
}

func (p *proc) allreduce(s collective.Spec, in, out Ptr, n int) error {
	return p.comm.AllReduce(p.rank, in, out, n, int(s.DType), s.AlgoEnum(), s.CodecEnum(), flags(s), p.stream)
}

func (p *proc) sync() error {
	if err := Sync(0, p.stream); err != nil {
		return err
	}
	return p.comm.Status()
}

// check runs s on this rank's input (every process draws every rank's
// inputs from the same seed) and compares the output with the reference.
func (p *proc) check(s collective.Spec, inputs [][]byte) error {
	size := len(inputs[0])
	if err := Memset(0, p.out, poison, size); err != nil {
		return err
	}
	if err := ToDevice(0, p.in, inputs[p.rank]); err != nil {
		return err
	}
	n := size / s.DType.Size()
	if err := p.allreduce(s, p.in, p.out, n); err != nil {
		return err
	}
	if err := p.sync(); err != nil {
		return err
	}
	got := make([]byte, size)
	if err := FromDevice(0, got, p.out); err != nil {
		return err
	}
	want, err := collective.Expected(s, inputs)
	if err != nil {
		return err
	}
	if i := mismatch(s.DType, got, want); i >= 0 {
		return fmt.Errorf("%s n=%d: rank %d element %d = %#x, want %#x", s, n, p.rank, i, elem(s.DType, got, i), elem(s.DType, want, i))
	}
	return nil
}

// TestMultiProcessChild is one process of TestMultiProcess.
func TestMultiProcessChild(t *testing.T) {
	if os.Getenv("ARC_MP_CHILD") == "" {
		t.Skip("a child of TestMultiProcess")
	}
	needGPUs(t, 1)
	rank, _ := strconv.Atoi(os.Getenv("ARC_MP_RANK"))
	world, _ := strconv.Atoi(os.Getenv("ARC_MP_WORLD"))
	kv := os.Getenv("ARC_MP_KV")
	const capB = 16 << 20
	t0 := time.Now()
	p := newProc(t, rank, world, kv, fmt.Sprintf("mp/w%d/main/0", world), 20000, capB)
	// A second communicator for the end, when the last rank is killed.
	const killTimeoutMs = 3000
	k := newProc(t, rank, world, kv, fmt.Sprintf("mp/w%d/kill/0", world), killTimeoutMs, 1<<20)
	link := map[int]string{LinkPeer: "peer", LinkHost: "host"}[mpLink()]
	t.Logf("rank %d: two communicators of %d processes (%s link) in %v", rank, world, link, time.Since(t0).Round(time.Millisecond))
	if left := shmLeft(world); mpLink() == LinkHost && len(left) > 0 {
		t.Errorf("rank %d: names left in /dev/shm once the communicators are made: %v", rank, left)
	}

	// 1. every algorithm, codec and dtype at this world, bit-exact.
	t1 := time.Now()
	cases := 0
	seed := uint64(world) << 32
	for _, s := range specs(world) {
		for i, n := range []int{1, 33, 4097, 65537, 300_001} {
			seed++
			inputs := randomInputs(seed, s.DType, world, n, i%2 == 1)
			if err := p.check(s, inputs); err != nil {
				t.Fatal(err)
			}
			cases++
		}
	}
	t.Logf("rank %d: %d cases (%d specs) bit-exact in %v", rank, cases, len(specs(world)), time.Since(t1).Round(time.Millisecond))

	// 2. graph replays with new inputs before each, compared on the device.
	t2 := time.Now()
	replays := []struct {
		s collective.Spec
		n int
	}{{collective.Spec{Algo: "oneshot", DType: num.F16, World: world}, 10_000}}
	if slices.Contains(collective.Worlds("twoshot"), world) {
		replays = append(replays, struct {
			s collective.Spec
			n int
		}{collective.Spec{Algo: "twoshot", Codec: "int4", DType: num.BF16, World: world}, 1<<20 + 3})
	}
	if slices.Contains(collective.Worlds("hier"), world) {
		replays = append(replays, struct {
			s collective.Spec
			n int
		}{collective.Spec{Algo: "hier", Codec: "fp8", DType: num.F16, World: world}, 500_001})
	}
	for _, r := range replays {
		p.replay(r.s, r.n, 1000, seed)
		seed += 10
	}
	t.Logf("rank %d: %d x 1000 graph replays exact in %v", rank, len(replays), time.Since(t2).Round(time.Millisecond))

	// 3. changing sizes, algorithms and codecs back to back, no sync between.
	t3 := time.Now()
	p.interleaved(40, seed)
	t.Logf("rank %d: 40 interleaved calls exact in %v", rank, time.Since(t3).Round(time.Millisecond))

	// 4. the last rank dies; the others' next call fails within the timeout.
	if rank == world-1 {
		time.Sleep(100 * time.Millisecond)
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
	}
	time.Sleep(500 * time.Millisecond)
	s := collective.Spec{Algo: "oneshot", DType: num.F16, World: world}
	if err := Memset(0, k.out, poison, 8192); err != nil {
		t.Fatal(err)
	}
	t4 := time.Now()
	if err := k.allreduce(s, k.in, k.out, 4096); err != nil {
		t.Fatal(err)
	}
	err := k.sync()
	took := time.Since(t4)
	if !IsCode(err, codeTimeout) || took > killTimeoutMs*time.Millisecond+5*time.Second {
		t.Fatalf("after the last rank died: %v after %v, want a timeout within %d ms", err, took, killTimeoutMs)
	}
	if ok, _ := regexp.MatchString(fmt.Sprintf(`timed out after %d ms waiting for rank [0-9] \(device [0-9]\) in call 1 \(oneshot, 4096 f16\)`, killTimeoutMs), err.Error()); !ok {
		t.Errorf("the failure reads %q", err)
	}
	out := make([]byte, 8192)
	if err := FromDevice(0, out, k.out); err != nil {
		t.Fatal(err)
	}
	if i, ok := allNaN(num.F16, out); !ok {
		t.Errorf("element %d = %#x after the timeout, want NaN", i, elem(num.F16, out, i))
	}
	t.Logf("rank %d: the killed peer's call failed after %v: %v", rank, took.Round(time.Millisecond), err)
	k.close()
	p.close()
}

// replay captures one call in a graph and replays it iters times, each
// replay on one of three input sets, every output compared on the device.
func (p *proc) replay(s collective.Spec, n, iters int, seed uint64) {
	t := p.t
	const sets = 3
	size := n * s.DType.Size()
	var ins, wants [sets]Ptr
	for k := range sets {
		inputs := randomInputs(seed+uint64(k), s.DType, p.world, n, false)
		want, err := collective.Expected(s, inputs)
		if err != nil {
			t.Fatal(err)
		}
		for _, pair := range []struct {
			dst  *Ptr
			data []byte
		}{{&ins[k], inputs[p.rank]}, {&wants[k], want}} {
			q, err := Malloc(0, size)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { Free(0, q) })
			if err := ToDevice(0, q, pair.data); err != nil {
				t.Fatal(err)
			}
			*pair.dst = q
		}
	}
	counter, err := Malloc(0, 8)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { Free(0, counter) })
	if err := Memset(0, counter, 0, 8); err != nil {
		t.Fatal(err)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := CaptureBegin(0, p.stream); err != nil {
		t.Fatal(err)
	}
	err = p.allreduce(s, p.in, p.out, n)
	graph, endErr := CaptureEnd(0, p.stream)
	if err != nil || endErr != nil {
		t.Fatalf("capture: %v %v", err, endErr)
	}
	defer GraphDestroy(0, graph)
	for i := range iters {
		k := i % sets
		if err := CopyAsync(0, p.in, ins[k], size, p.stream); err != nil {
			t.Fatal(err)
		}
		if err := GraphLaunch(0, graph, p.stream); err != nil {
			t.Fatal(err)
		}
		if err := CountDiff(0, p.out, wants[k], n, int(s.DType), counter, p.stream); err != nil {
			t.Fatal(err)
		}
		if i%100 == 99 {
			if err := p.sync(); err != nil {
				t.Fatalf("%s replay %d: %v", s, i, err)
			}
		}
	}
	if err := p.sync(); err != nil {
		t.Fatal(err)
	}
	var c [8]byte
	if err := FromDevice(0, c[:], counter); err != nil {
		t.Fatal(err)
	}
	if bad := leUint64(c[:]); bad != 0 {
		t.Fatalf("%s n=%d: %d wrong elements over %d replays", s, n, bad, iters)
	}
}

// interleaved enqueues calls of random specs and sizes (the same sequence in
// every process) back to back, then checks them all.
func (p *proc) interleaved(calls int, seed uint64) {
	t := p.t
	list := specs(p.world)
	rng := rand.New(rand.NewPCG(seed, 99))
	type call struct {
		s       collective.Spec
		inputs  [][]byte
		in, out Ptr
	}
	var cs []call
	for i := range calls {
		s := list[rng.IntN(len(list))]
		n := 1 + rng.IntN(p.capBytes/8/s.DType.Size()) // up to 2 MB: the reference runs in every process
		if i%2 == 0 {
			n = 1 + rng.IntN(5000)
		}
		c := call{s: s, inputs: randomInputs(seed+uint64(i)<<8, s.DType, p.world, n, false)}
		var err1, err2 error
		c.in, err1 = Malloc(0, n*s.DType.Size())
		c.out, err2 = Malloc(0, n*s.DType.Size())
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		in, out := c.in, c.out
		t.Cleanup(func() { Free(0, in); Free(0, out) })
		if err := ToDevice(0, c.in, c.inputs[p.rank]); err != nil {
			t.Fatal(err)
		}
		if err := Memset(0, c.out, poison, n*s.DType.Size()); err != nil {
			t.Fatal(err)
		}
		cs = append(cs, c)
	}
	for _, c := range cs {
		if err := p.allreduce(c.s, c.in, c.out, len(c.inputs[0])/c.s.DType.Size()); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.sync(); err != nil {
		t.Fatal(err)
	}
	for i, c := range cs {
		want, err := collective.Expected(c.s, c.inputs)
		if err != nil {
			t.Fatal(err)
		}
		got := make([]byte, len(want))
		if err := FromDevice(0, got, c.out); err != nil {
			t.Fatal(err)
		}
		if j := mismatch(c.s.DType, got, want); j >= 0 {
			t.Fatalf("call %d %s n=%d: element %d = %#x, want %#x", i, c.s, len(want)/c.s.DType.Size(), j,
				elem(c.s.DType, got, j), elem(c.s.DType, want, j))
		}
	}
}
