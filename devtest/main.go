// Command devtest runs gomlx SPMD all-reduces on the GPUs through both forms
// of arc's PJRT proxy, one lowering at a time, and checks every rank's output
// bit for bit against the Go reference (collective.Expected) of the kernel
// arc actually chose, read back from the dumped program.
//
// With -all it runs every (form, lowering) pair in a child process of its own,
// since the standalone plugin reads its configuration once per process, and
// ends with "N passed, M failed". devtest/run.sh runs it on the
// GPU machine; it needs no Go there.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/arcpass/arc"
	"github.com/arcpass/arc/abi"
	"github.com/arcpass/arc/arcgomlx"
	"github.com/arcpass/arc/decision"
	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/reference/collective"
	"github.com/arcpass/arc/reference/num"
	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/backends/xla"
	"github.com/gomlx/gomlx/pkg/core/distributed"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
	"github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/shapes"
	"github.com/gomlx/gomlx/pkg/core/tensors"
)

// A config is one lowering to exercise: the target and what to force on
// every operand ("" lets arc's policy choose).
type config struct{ name, target, lowering string }

var configs = slices.Concat([]config{
	{"auto", "cuda:nvlink", ""},
	{"native", "cuda:nvlink", "native"},
	{"oneshot", "cuda:nvlink", "oneshot"},
}, twoshotConfigs(), []config{
	{"lowprec-fp8-peer", "cuda:pcie", "lowprec:fp8"},
	{"lowprec-fp8-host", "cuda:pcie-nop2p", "lowprec:fp8"},
})

// twoshotConfigs force the two-shot kernel with each codec of abi's table
// that no lowering word implies (lowprec's fp8 has configs of its own).
func twoshotConfigs() []config {
	var out []config
	for _, c := range abi.Codecs[1:] {
		implied := slices.ContainsFunc(abi.LoweringTable, func(l abi.LoweringInfo) bool { return l.Codec == c })
		if !implied {
			out = append(out, config{"twoshot-" + c, "cuda:nvlink", "twoshot:" + c})
		}
	}
	return out
}

// force is the --force list putting the config's lowering on each of n
// operands: arc decides per operand, and an index past the last is an error,
// so one process serves one operand count.
func (c config) force(n int) []string {
	var out []string
	for i := 0; i < n && c.lowering != ""; i++ {
		out = append(out, fmt.Sprintf("%d=%s", i, c.lowering))
	}
	return out
}

func main() {
	var (
		all        = flag.Bool("all", false, "run every form and lowering, each in a child process")
		form       = flag.String("form", "inprocess", "inprocess (arcgomlx) or standalone (the -standalone plugin)")
		configName = flag.String("config", "auto", "the lowering to run (a name from the list in main.go)")
		only       = flag.String("configs", "", "with -all: comma-separated config names (default: all)")
		forms      = flag.String("forms", "inprocess,standalone", "with -all: the forms to run")
		opsList    = flag.String("operands", "1,3", "operands per all-reduce (one count per child process)")
		plugin     = flag.String("plugin", "/opt/torch/.venv/lib/python3.12/site-packages/jax_plugins/xla_cuda13/xla_cuda_plugin.so", "the real PJRT plugin")
		standalone = flag.String("standalone", "", "pjrt_c_api_arc_plugin.so (standalone form)")
		gpuLib     = flag.String("gpu-lib", "build/libarc_gpu.so", "libarc_gpu.so")
		dump       = flag.String("dump", "", "ARC_DUMP_DIR root (default: a temporary directory)")
		dtypeList  = flag.String("dtypes", "f16,bf16,f32", "element types")
		sizeList   = flag.String("sizes", "16,4096,262144,4194304,67108864,268435456", "bytes per operand")
		maxTotal   = flag.Int64("max-total", 256<<20, "skip cases whose operands together exceed this many bytes")
	)
	flag.Parse()
	if *all {
		os.Exit(runAll(*forms, *only, *opsList, os.Args[1:]))
	}
	nops := int(ints(*opsList)[0])
	cfg, ok := find(*configName)
	if !ok {
		fatalf("unknown -config %q", *configName)
	}
	if *dump == "" {
		d, err := os.MkdirTemp("", "arc-devtest-")
		if err != nil {
			fatalf("%v", err)
		}
		*dump = d
	}
	dumpDir := filepath.Join(*dump, fmt.Sprintf("%s-%s-x%d", *form, cfg.name, nops))
	backend, err := newBackend(*form, cfg.target, cfg.force(nops), *plugin, *standalone, *gpuLib, dumpDir)
	if err != nil {
		fatalf("%s %s: %v", *form, cfg.name, err)
	}
	defer backend.Finalize()
	if backend.NumDevices() < 2 {
		fatalf("%d device(s); the test needs 2", backend.NumDevices())
	}
	for _, ds := range strings.Split(*dtypeList, ",") {
		dt, err := num.ParseDType(ds)
		if err != nil {
			fatalf("%v", err)
		}
		for _, size := range ints(*sizeList) {
			if size*int64(nops) > *maxTotal {
				continue
			}
			c := testCase{form: *form, cfg: cfg, dtype: dt, bytes: size, operands: nops, dumpDir: dumpDir}
			c.run(backend)
		}
	}
}

func find(name string) (config, bool) {
	for _, c := range configs {
		if c.name == name {
			return c, true
		}
	}
	return config{}, false
}

func newBackend(form, target string, force []string, plugin, standalone, gpuLib, dumpDir string) (backends.Backend, error) {
	switch form {
	case "inprocess":
		return arcgomlx.New(plugin, arcgomlx.Options{Compile: arc.Options{Target: target, Force: force}, GPULib: gpuLib, Dump: dumpDir})
	case "standalone":
		abs, err := filepath.Abs(standalone)
		if err != nil || standalone == "" {
			return nil, fmt.Errorf("-standalone: %q", standalone)
		}
		for k, v := range map[string]string{"ARC_PJRT_PLUGIN": plugin, "ARC_TARGET": target, "ARC_FORCE": strings.Join(force, ","),
			"ARC_GPU_LIB": gpuLib, "ARC_DUMP_DIR": dumpDir} {
			os.Setenv(k, v)
		}
		return xla.NewWithOptions(abs, nil)
	}
	return nil, fmt.Errorf("unknown -form %q", form)
}

type testCase struct {
	form     string
	cfg      config
	dtype    num.DType
	bytes    int64
	operands int
	dumpDir  string
}

func (c testCase) String() string {
	return fmt.Sprintf("%s %s %v %s x%d", c.form, c.cfg.name, c.dtype, human(c.bytes), c.operands)
}

var gomlxDType = map[num.DType]dtypes.DType{num.F16: dtypes.Float16, num.BF16: dtypes.BFloat16, num.F32: dtypes.Float32}

// run compiles and runs one all-reduce and prints PASS or FAIL.
func (c testCase) run(backend backends.Backend) {
	start := time.Now()
	ran, err := c.check(backend)
	status := "PASS"
	if err != nil {
		status, ran = "FAIL", err.Error()
	}
	fmt.Printf("%s %s: %s (%.1fs)\n", status, c, ran, time.Since(start).Seconds())
}

func (c testCase) check(backend backends.Backend) (ran string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	const world = 2
	elems := int(c.bytes) / c.dtype.Size()
	mesh, err := distributed.NewDeviceMesh([]int{world}, []string{"replica"})
	if err != nil {
		return "", err
	}
	g := graph.NewGraph(backend, fmt.Sprintf("allreduce_%v_%d_%d", c.dtype, elems, c.operands))
	if err := g.SetSPMD(mesh); err != nil {
		return "", err
	}
	var params []*graph.Node
	for i := range c.operands {
		params = append(params, graph.Parameter(g, fmt.Sprintf("x%d", i), shapes.Make(gomlxDType[c.dtype], elems)))
	}
	g.Compile(g.Distributed().AllReduce(params, backends.ReduceOpSum)...)
	specs, err := lastSpecs(c.dumpDir, c.dtype, world)
	if err != nil {
		return "", err
	}
	if len(specs) != c.operands {
		return "", fmt.Errorf("the dumped all-reduce has %d operands, want %d", len(specs), c.operands)
	}

	// inputs[op][rank]; gomlx takes device 0's parameters, then device 1's.
	inputs := make([][][]byte, c.operands)
	var feed []any
	for op := range inputs {
		for rank := range world {
			seed := uint64(c.bytes)<<16 ^ uint64(c.operands)<<12 ^ uint64(c.dtype)<<8 ^ uint64(op)<<4 ^ uint64(rank)
			inputs[op] = append(inputs[op], randomInput(c.dtype, elems, seed))
		}
	}
	for rank := range world {
		for op := range inputs {
			feed = append(feed, tensorOf(c.dtype, elems, inputs[op][rank]))
		}
	}
	outputs := g.Run(feed...)
	if len(outputs) != world*c.operands {
		return "", fmt.Errorf("%d outputs, want %d", len(outputs), world*c.operands)
	}
	var used []string
	for op := range c.operands {
		want, err := collective.Expected(specs[op], inputs[op])
		if err != nil {
			return "", fmt.Errorf("reference for %v: %v", specs[op], err)
		}
		for rank := range world {
			var got []byte
			outputs[rank*c.operands+op].ConstBytes(func(b []byte) { got = bytes.Clone(b) })
			if i := num.FirstDiff(c.dtype, got, want); i >= 0 {
				return "", fmt.Errorf("operand %d rank %d (%v) differs from the reference at element %d of %d",
					op, rank, specs[op], i, elems)
			}
		}
		used = append(used, specs[op].String())
	}
	return "bit-exact, ranks agree: " + strings.Join(used, " "), nil
}

// randomInput draws elems values from N(0,1) narrowed to d, in chunks of
// 1 Mi values drawn in parallel, each from a generator seeded by the chunk's
// place: the values depend on seed alone, not on the number of CPUs, and a
// 256 MB operand takes a fraction of a second instead of seconds.
func randomInput(d num.DType, elems int, seed uint64) []byte {
	const chunk = 1 << 20
	out := make([]byte, elems*d.Size())
	work := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for lo := range work {
				rng := rand.New(rand.NewPCG(seed, uint64(lo)))
				v := make([]float32, min(chunk, elems-lo))
				for i := range v {
					v[i] = float32(rng.NormFloat64())
				}
				num.NarrowTo(out[lo*d.Size():(lo+len(v))*d.Size()], d, v)
			}
		})
	}
	for lo := 0; lo < elems; lo += chunk {
		work <- lo
	}
	close(work)
	wg.Wait()
	return out
}

func tensorOf(d num.DType, elems int, data []byte) *tensors.Tensor {
	t := tensors.FromShape(shapes.Make(gomlxDType[d], elems))
	t.MutableBytes(func(b []byte) { copy(b, data) })
	return t
}

var (
	allReduce = regexp.MustCompile(`"stablehlo\.all_reduce"\(([^)]*)\)`)
)

// lastSpecs reads the newest program pair arc dumped in dir and returns, per
// operand, the spec of the kernel that reduces it.
func lastSpecs(dir string, d num.DType, world int) ([]collective.Spec, error) {
	names, _ := filepath.Glob(filepath.Join(dir, "arc-*-after.mlir"))
	if len(names) == 0 {
		return nil, fmt.Errorf("no program dumped in %s", dir)
	}
	sort.Strings(names)
	after, err := os.ReadFile(names[len(names)-1])
	if err != nil {
		return nil, err
	}
	before, err := os.ReadFile(strings.TrimSuffix(names[len(names)-1], "after.mlir") + "before.mlir")
	if err != nil {
		return nil, err
	}
	return specsOf(string(before), string(after), d, world)
}

// specsOf maps the operands of the all-reduce in before to the kernels in
// after: arc's custom call on that operand, or, for an operand left native,
// the one-shot reference, which at world 2 is the sum rounded once, as NCCL
// computes it too.
func specsOf(before, after string, d num.DType, world int) ([]collective.Spec, error) {
	m := allReduce.FindStringSubmatch(before)
	if m == nil {
		return nil, fmt.Errorf("no all-reduce in the program gomlx printed")
	}
	operands := strings.Split(m[1], ", ")
	specs := make([]collective.Spec, len(operands))
	for i := range specs {
		specs[i] = collective.Spec{Algo: "oneshot", DType: d, World: world}
	}
	am, err := ir.ParseString("after.mlir", after)
	if err != nil {
		return nil, err
	}
	cs, err := decision.Collectives(am)
	if err != nil {
		return nil, err
	}
	for _, c := range cs {
		if !decision.IsCall(c) {
			continue
		}
		call, err := decision.ParseCall(am, c.Op)
		if err != nil {
			return nil, err
		}
		i := slices.Index(operands, call.Operands[0])
		if i < 0 {
			return nil, fmt.Errorf("cannot match arc's call on %s to an operand of %v", call.Operands[0], operands)
		}
		if call.World != world {
			return nil, fmt.Errorf("arc's call on %s has world %d, want %d", call.Operands[0], call.World, world)
		}
		specs[i] = collective.Spec{DType: d, Algo: call.Algo, Codec: call.Codec, Cast: call.CastBF16ToFP16, World: call.World}
	}
	return specs, nil
}

// forwarded is the command line a child gets: the parent's flags without
// those -all expands (-all, -configs, -forms, -operands), each dropped with
// its value, whether written "-configs x" or "-configs=x".
func forwarded(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		name, _, hasValue := strings.Cut(strings.TrimLeft(args[i], "-"), "=")
		switch name {
		case "all":
		case "configs", "forms", "operands":
			if !hasValue {
				i++ // the value is the next argument
			}
		default:
			out = append(out, args[i])
		}
	}
	return out
}

// runAll runs each (form, config, operand count) in a child process and
// totals the results.
func runAll(forms, only, ops string, args []string) int {
	childArgs := forwarded(args)
	passed, failed := 0, 0
	for _, form := range strings.Split(forms, ",") {
		for _, cfg := range configs {
			if only != "" && !slices.Contains(strings.Split(only, ","), cfg.name) {
				continue
			}
			for _, n := range strings.Split(ops, ",") {
				args := append([]string{"-form", form, "-config", cfg.name, "-operands", n}, childArgs...)
				cmd := exec.Command(os.Args[0], args...)
				var out bytes.Buffer
				cmd.Stdout = &out
				cmd.Stderr = os.Stderr
				err := cmd.Run()
				os.Stdout.Write(out.Bytes())
				for _, line := range strings.Split(out.String(), "\n") {
					passed += b2i(strings.HasPrefix(line, "PASS "))
					failed += b2i(strings.HasPrefix(line, "FAIL "))
				}
				if err != nil {
					fmt.Printf("FAIL %s %s x%s: child process: %v\n", form, cfg.name, n, err)
					failed++
				}
			}
		}
	}
	fmt.Printf("%d passed, %d failed\n", passed, failed)
	if failed > 0 {
		return 1
	}
	return 0
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func ints(s string) []int64 {
	var out []int64
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
		if err != nil {
			fatalf("bad number %q", f)
		}
		out = append(out, n)
	}
	return out
}

func human(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%dMB", n>>20)
	case n >= 1<<10:
		return fmt.Sprintf("%dKB", n>>10)
	}
	return fmt.Sprintf("%dB", n)
}

func fatalf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "devtest: "+format+"\n", args...)
	os.Exit(2)
}
