//go:build cgo

// Package xlarun is arc bench's XLA-level machine: it runs the benchmark
// programs (package bench) on the GPUs through arc's PJRT proxy. It needs
// cgo; package bench, which plans, tables, plots and fits, does not.
package xlarun

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"time"

	"github.com/gomlx/go-xla/pkg/pjrt"
	"github.com/gomlx/go-xla/pkg/types/dtypes"

	"github.com/arcpass/arc"
	"github.com/arcpass/arc/arcgomlx"
	"github.com/arcpass/arc/bench"
	"github.com/arcpass/arc/reference/num"
)

// XLAOptions configure the XLA-level machine.
type XLAOptions struct {
	Plugin string // the real PJRT plugin ("" : ARC_PJRT_PLUGIN, then go-xla's CUDA plugin)
	GPULib string // libarc_gpu.so ("" : ARC_GPU_LIB, then beside the executable)
	Link   string // "host": NCCL runs with NCCL_P2P_DISABLE=1
	GPUs   int    // ranks (0: every GPU)
	Lower  bench.LowerOptions
	// CollectiveMemory is the client's collective memory in bytes, which
	// NCCL user buffers (native+userbuf) come from: bench.Plan.CollectiveMemory.
	CollectiveMemory int64
	// Client are further PJRT client options ("preallocate", "memory_fraction").
	Client pjrt.NamedValuesMap
}

// XLA runs the benchmark programs through arc's PJRT proxy: the bench lowers
// each program itself (bench.LowerChain), so the proxy is told to leave every
// all-reduce as it comes (MinBytes beyond any size) and only registers arc's
// kernels with the plugin. One client runs every lowering and native, and
// native's variants with XLA's switches compile with those switches as
// per-program XLA flags (flags.go).
type XLA struct {
	lower  bench.LowerOptions
	client *pjrt.Client
	world  int
}

// OpenClient starts a PJRT client on the GPUs through arc's proxy, which
// registers arc's kernels with the plugin and hands every program to XLA as
// it comes (programs are lowered before they are compiled). It returns the
// client and the number of devices it sees.
func OpenClient(opt XLAOptions) (*pjrt.Client, int, error) {
	if opt.Link == "host" {
		// NCCL reads this when it first initialises, which is after the client starts.
		os.Setenv("NCCL_P2P_DISABLE", "1")
	}
	name, err := arcgomlx.Register("cuda", arcgomlx.Options{
		Compile: arc.Options{Target: opt.Lower.Target, MinBytes: math.MaxInt64}, Plugin: opt.Plugin, GPULib: opt.GPULib,
	})
	if err != nil {
		return nil, 0, err
	}
	plugin, err := pjrt.GetPlugin(name)
	if err != nil {
		return nil, 0, fmt.Errorf("arc: %w", err)
	}
	options := pjrt.NamedValuesMap{}
	for k, v := range opt.Client {
		options[k] = v
	}
	if opt.CollectiveMemory > 0 {
		options["collective_memory_size"] = opt.CollectiveMemory
	}
	if len(options) == 0 {
		options = nil
	}
	client, err := plugin.NewClient(options)
	if err != nil {
		return nil, 0, fmt.Errorf("arc: starting the PJRT client (options %v): %w", options, err)
	}
	return client, client.NumDevices(), nil
}

// NewXLA opens the GPUs through arc's proxy.
func NewXLA(opt XLAOptions) (*XLA, error) {
	client, devices, err := OpenClient(opt)
	if err != nil {
		return nil, err
	}
	world := opt.GPUs
	if world == 0 {
		world = devices
	}
	if world < 2 || world > devices {
		client.Destroy()
		return nil, fmt.Errorf("arc: the PJRT client sees %d device(s): an all-reduce benchmark needs 2 or more (--gpus %d)", devices, opt.GPUs)
	}
	return &XLA{lower: opt.Lower, client: client, world: world}, nil
}

// CompileSPMD compiles a StableHLO program over the first world devices,
// one replica each, with XLA flags for this program alone (flags.go). A
// program arc lowered already goes with the settings under which the
// proxy's arc keeps its calls (bench.ProxySettings).
func CompileSPMD(client *pjrt.Client, text string, world int, flags []bench.XLAFlag) (*pjrt.LoadedExecutable, error) {
	assignment := make([]int, world)
	for i := range assignment {
		assignment[i] = i
	}
	keep, err := bench.ProxySettings(text)
	if err != nil {
		return nil, err
	}
	flags = append(slices.Clip(flags), keep...)
	cc := client.Compile().WithStableHLO([]byte(text)).WithSPMD(world).WithDeviceAssignment(assignment)
	if err := withXLAFlags(cc, flags); err != nil {
		return nil, err
	}
	return cc.Done()
}

// World is the number of ranks.
func (x *XLA) World() int { return x.world }

// Close releases the client.
func (x *XLA) Close() { x.client.Destroy() }

// Open puts each rank's two inputs (x and d) on its GPU.
func (x *XLA) Open(dtype string, bytes int64) (bench.Cell, error) {
	dt, err := num.ParseDType(dtype)
	if err != nil {
		return nil, err
	}
	xdt := map[num.DType]dtypes.DType{num.F16: dtypes.Float16, num.BF16: dtypes.BFloat16, num.F32: dtypes.Float32}[dt]
	elems := bytes / bench.ElemSize(dtype)
	c := &xlaCell{x: x, dtype: dtype, elems: elems}
	for r := range x.world {
		for k, amp := range []float32{1, 0.25} { // x in [-1, 1), d in [-0.25, 0.25)
			data := fill(dt, bytes, uint64(2*r+k), amp)
			buf, err := x.client.BufferFromHost().FromRawData(data, xdt, []int{int(elems)}).ToDeviceNum(r).Done()
			if err != nil {
				c.Close()
				return nil, fmt.Errorf("copying %s of input to GPU %d: %w", bench.FormatSize(bytes), r, err)
			}
			c.inputs = append(c.inputs, buf)
		}
	}
	return c, nil
}

// fill makes bytes of random values in [-amp, amp) by repeating a random block.
func fill(dt num.DType, bytes int64, seed uint64, amp float32) []byte {
	rng := rand.New(rand.NewPCG(seed, 0x61726362))
	block := make([]float32, min(bytes/int64(dt.Size()), 1<<15))
	for i := range block {
		block[i] = amp * (2*rng.Float32() - 1)
	}
	pattern := num.Narrow(dt, block)
	out := make([]byte, bytes)
	for off := 0; off < len(out); off += copy(out[off:], pattern) {
	}
	return out
}

type xlaCell struct {
	x      *XLA
	dtype  string
	elems  int64
	inputs []*pjrt.Buffer // x and d of rank 0, then of rank 1, ...
}

func (c *xlaCell) Close() {
	for _, b := range c.inputs {
		b.Destroy()
	}
}

func (c *xlaCell) Control(steps int) (bench.Program, error) {
	return c.compile(bench.ProgramText(c.dtype, c.elems, c.x.world, steps, false), nil)
}

func (c *xlaCell) Chain(l bench.Lowering, steps int) (bench.Program, string, error) {
	text, chose, err := bench.LowerChain(c.x.lower, l, c.dtype, c.elems, c.x.world, steps)
	if err != nil {
		return nil, "", err
	}
	p, err := c.compile(text, l.XLAFlags())
	return p, chose, err
}

func (c *xlaCell) compile(text string, flags []bench.XLAFlag) (bench.Program, error) {
	exec, err := CompileSPMD(c.x.client, text, c.x.world, flags)
	if err != nil {
		return nil, err
	}
	return &xlaProgram{exec: exec, inputs: c.inputs}, nil
}

type xlaProgram struct {
	exec   *pjrt.LoadedExecutable
	inputs []*pjrt.Buffer
}

// Run executes on every rank and waits until all are done (go-xla waits on
// the devices' completion events); the outputs are freed untimed.
func (p *xlaProgram) Run() (time.Duration, error) {
	start := time.Now()
	outs, err := p.exec.Execute(p.inputs...).DonateNone().Done()
	d := time.Since(start)
	for _, o := range outs {
		o.Destroy()
	}
	return d, err
}

func (p *xlaProgram) Close() { p.exec.Destroy() }
