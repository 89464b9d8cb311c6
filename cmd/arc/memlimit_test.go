package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arcpass/arc"
)

// The memory bound docs/PERFORMANCE.md states: a command's peak resident
// memory exceeds what arc held at its start by at most memPerInputByte bytes
// per input byte plus memSlack (a module's groups may be expanded up to
// spec.MaxDevices processes whatever its size, and the garbage collector's
// timing moves the peak by a few MiB).
const (
	memPerInputByte = 80
	memSlack        = 16 << 20
)

// memStress writes the inputs that stress each part of arc that grows with
// a module: one written-out group of n replicas, n/2 groups of two, long
// attribute lists, many all-reduces, regions nested deep (and deeper than
// the parser takes), and a group run in each of 4 partitions (beyond
// spec.MaxDevices at 512 KiB). Each is about size bytes.
func memStress(size int) map[string][]byte {
	const sum = `({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    })`
	module := func(attrs, args, body string) []byte {
		return []byte(fmt.Sprintf("module @stress attributes {%s} {\n  func.func @main(%%x: tensor<1024xf32>%s) -> tensor<1024xf32> {\n%s  }\n}\n", attrs, args, body))
	}
	allReduce := func(res, operand, groups string, rows, cols int, extra string) string {
		return fmt.Sprintf("    %s = \"stablehlo.all_reduce\"(%s) %s {replica_groups = dense<%s> : tensor<%dx%dxi64>%s} : (tensor<1024xf32>) -> tensor<1024xf32>\n", res, operand, sum, groups, rows, cols, extra)
	}
	ids := func(from, to int) string {
		var b strings.Builder
		for i := from; i < to; i++ {
			if i > from {
				b.WriteString(", ")
			}
			b.WriteString(strconv.Itoa(i))
		}
		return b.String()
	}
	out := map[string][]byte{}

	n := size / 9 // "1234567, " is 9 bytes
	out["one-group"] = module(fmt.Sprintf("mhlo.num_replicas = %d : i32", n), "",
		allReduce("%0", "%x", "[["+ids(0, n)+"]]", 1, n, "")+"    return %0 : tensor<1024xf32>\n")

	pairs := size / 20
	var g strings.Builder
	for i := range pairs {
		if i > 0 {
			g.WriteString(", ")
		}
		fmt.Fprintf(&g, "[%d, %d]", 2*i, 2*i+1)
	}
	out["many-groups"] = module(fmt.Sprintf("mhlo.num_replicas = %d : i32", 2*pairs), "",
		allReduce("%0", "%x", "["+g.String()+"]", pairs, 2, "")+"    return %0 : tensor<1024xf32>\n")

	var attrs strings.Builder
	for i := 0; attrs.Len() < size/2; i++ {
		fmt.Fprintf(&attrs, ", xla.attr%d = \"v%d\"", i, i)
	}
	list := "[" + ids(0, size/2/9) + "]"
	out["long-attributes"] = module("mhlo.num_replicas = 4 : i32, mhlo.frontend_list = "+list, "",
		allReduce("%0", "%x", "[[0, 1, 2, 3]]", 1, 4, attrs.String())+"    return %0 : tensor<1024xf32>\n")

	var ops strings.Builder
	prev := "%x"
	for i := 0; ops.Len() < size; i++ {
		res := fmt.Sprintf("%%r%d", i)
		ops.WriteString(allReduce(res, prev, "[[0, 1], [2, 3]]", 2, 2, ""))
		prev = res
	}
	out["many-all-reduces"] = module("mhlo.num_replicas = 4 : i32", "", ops.String()+"    return "+prev+" : tensor<1024xf32>\n")

	// Regions nested as deep as a 100th of the size allows, up to 4000 (the
	// parser's limit is 4096), around an all-reduce, after all-reduces at
	// the function's level up to the size.
	depth := min(4000, size/100)
	var nest strings.Builder
	prev = "%x"
	for i := 0; nest.Len() < size-depth*100; i++ {
		res := fmt.Sprintf("%%top%d", i)
		nest.WriteString(allReduce(res, prev, "[[0, 1, 2, 3]]", 1, 4, ""))
		prev = res
	}
	for range depth {
		nest.WriteString("    %c = \"stablehlo.case\"(%i) ({\n")
	}
	nest.WriteString(allReduce("%in", prev, "[[0, 1, 2, 3]]", 1, 4, ""))
	nest.WriteString("      stablehlo.return %in : tensor<1024xf32>\n")
	for range depth - 1 {
		nest.WriteString("    }) : (tensor<i32>) -> tensor<1024xf32>\n      stablehlo.return %c : tensor<1024xf32>\n")
	}
	nest.WriteString("    }) : (tensor<i32>) -> tensor<1024xf32>\n    return %c : tensor<1024xf32>\n")
	out["deep-nesting"] = module("mhlo.num_replicas = 4 : i32", ", %i: tensor<i32>", nest.String())
	// Past the parser's limit: an error at the region that goes too deep.
	out["too-deep"] = module("", "", strings.Repeat("    \"a.b\"() ({\n", 4100))

	// A group of n/4 replicas written out, run in each of 4 partitions:
	// the expansion is 4 times the ids written.
	q := size / 9
	out["partitions"] = module(fmt.Sprintf("mhlo.num_partitions = 4 : i32, mhlo.num_replicas = %d : i32", q), "",
		allReduce("%0", "%x", "[["+ids(0, q)+"]]", 1, q, "")+"    return %0 : tensor<1024xf32>\n")
	return out
}

// init runs the test binary as arc under an address-space limit when
// ARC_TEST_MEMORY holds one (bytes beyond what the process holds now), and
// writes the peak resident memory the command added to what the process
// held before it, in bytes, as the last line of stderr ("peak N").
func init() {
	budget, err := strconv.ParseUint(os.Getenv("ARC_TEST_MEMORY"), 10, 64)
	if err != nil {
		return
	}
	before := procStatus("VmRSS")
	n := budget + vmSize()
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: n, Max: n}); err != nil {
		fmt.Fprintln(os.Stderr, "arc test: setrlimit:", err)
		os.Exit(3)
	}
	code := run(os.Args[1:], stdio{os.Stdin, io.Discard, os.Stderr})
	fmt.Fprintf(os.Stderr, "peak %d\n", procStatus("VmHWM")-before)
	os.Exit(code)
}

// procStatus reads a size in bytes from /proc/self/status ("VmHWM"), 0
// where it cannot.
func procStatus(key string) int64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, key+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

// TestMemoryLimit runs arc as a child process over the memory stress
// inputs, each under an address-space limit (as `prlimit --as` sets one:
// memAddressSpace beyond what the child holds at its start) and a time
// limit: `arc compile` for every target (none included) and `arc inspect`
// on inputs of 64 KiB, and a few of them on inputs of 512 KiB (not with
// -short); the peak resident memory each adds to what it held at its start
// must stay within memPerInputByte per input byte plus memSlack. Each must succeed or
// fail with a positioned error, never run out of memory. The children run
// with MALLOC_ARENA_MAX=1: arc links cgo, and glibc otherwise reserves 64
// MiB of address space for each thread that allocates (docs/PERFORMANCE.md).
func TestMemoryLimit(t *testing.T) {
	if runtime.GOOS != "linux" || vmSize() == 0 {
		t.Skip("needs Linux's /proc/self/status and setrlimit")
	}
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &lim); err != nil {
		t.Skipf("getrlimit: %v", err)
	}
	dir := t.TempDir()
	write := func(name string, src []byte) string {
		p := filepath.Join(dir, name+".mlir")
		if err := os.WriteFile(p, src, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}

	var all, some [][]string
	for _, target := range arc.Targets() {
		all = append(all, []string{"compile", "--target", target, "-o", os.DevNull})
	}
	all = append(all, []string{"inspect"})
	for _, target := range []string{"tpu:v6e-256", "cuda:nvlink", "none"} {
		some = append(some, []string{"compile", "--target", target, "-o", os.DevNull})
	}
	some = append(some, []string{"inspect"})
	sizes := []struct {
		size     int
		commands [][]string
	}{{64 << 10, all}, {512 << 10, some}}
	if testing.Short() {
		sizes = sizes[:1]
	}
	for _, sz := range sizes {
		inputs := memStress(sz.size)
		for _, name := range slices.Sorted(maps.Keys(inputs)) {
			src := inputs[name]
			in := write(fmt.Sprintf("%s-%d", name, sz.size), src)
			t.Run(fmt.Sprintf("%s/%dKiB", name, sz.size>>10), func(t *testing.T) {
				t.Parallel()
				for _, c := range sz.commands {
					args := append(slices.Clone(c), in)
					rss, took := childRSS(t, args, memAddressSpace(len(src)))
					if limit := memPerInputByte*int64(len(src)) + memSlack; rss > limit {
						t.Errorf("arc %s (%d bytes): %d MiB more resident memory than at its start, more than %d MiB (%.0f bytes per input byte; %v)",
							strings.Join(args, " "), len(src), rss>>20, limit>>20, float64(rss)/float64(len(src)), took)
					}
				}
			})
		}
	}
}

// memAddressSpace is the address space a child may add for an input of n
// bytes: twice the resident bound (the garbage collector lets the heap grow
// to twice what it keeps), and the Go runtime's arenas of 64 MiB.
func memAddressSpace(n int) uint64 {
	return uint64(2*(memPerInputByte*int64(n)+memSlack)) + 128<<20
}

// childRSS runs arc with args as a child under the address-space budget and
// a time limit, and returns the peak resident memory it added. It fails the
// test unless arc succeeds or reports a positioned error.
func childRSS(t *testing.T, args []string, budget uint64) (rss int64, took time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "ARC_") || strings.HasPrefix(kv, "GOMEMLIMIT=") || strings.HasPrefix(kv, "GOGC=") || strings.HasPrefix(kv, "MALLOC_ARENA_MAX=")
	}), fmt.Sprintf("ARC_TEST_MEMORY=%d", budget), "MALLOC_ARENA_MAX=1")
	var errs bytes.Buffer
	cmd.Stderr = &errs
	start := time.Now()
	err := cmd.Run()
	took = time.Since(start)
	what := fmt.Sprintf("arc %s under %d MiB", strings.Join(args, " "), budget>>20)
	switch {
	case ctx.Err() != nil:
		t.Fatalf("%s ran past its time limit", what)
	case cmd.ProcessState == nil:
		t.Fatalf("%s: %v", what, err)
	}
	stderr := strings.TrimRight(errs.String(), "\n")
	last := stderr[strings.LastIndexByte(stderr, '\n')+1:]
	peak, perr := strconv.ParseInt(strings.TrimPrefix(last, "peak "), 10, 64)
	if perr == nil {
		stderr = strings.TrimSuffix(stderr, last)
	}
	code, in := cmd.ProcessState.ExitCode(), args[len(args)-1]
	if runtimeDump.MatchString(stderr) || perr != nil || code != exitOK && !(code == exitInput && strings.HasPrefix(stderr, "arc: "+in+":")) {
		t.Fatalf("%s: exit %d after %v:\n%s", what, code, took, clip(stderr))
	}
	return peak, took
}
