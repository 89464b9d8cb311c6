package docs

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// gpuArchs is what `make gpu` must build: machine code for every GPU a PCIe
// user may have, Ampere to Blackwell, and compute_80 PTX, which the driver
// compiles for a GPU none of them fits (docs/KERNELS.md, "Architectures").
var gpuArchs = []string{"sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120", "compute_80"}

var gencode = regexp.MustCompile(`-gencode=arch=compute_[0-9]+[a-z]?,code=((?:sm|compute)_[0-9]+[a-z]?)`)

// TestGPUArchList: the nvcc commands `make gpu` runs (as make -n prints
// them, so a change of GPU_SMS, GPU_PTX or GPU_ARCH shows) compile every
// source for each of gpuArchs, with -fmad=false (docs/FORMATS.md forbids
// contracting into an FMA), and docs/KERNELS.md's table of architectures
// names the same codes.
func TestGPUArchList(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	// -n prints the commands and runs none: build/ is not touched.
	cmd := exec.Command("make", "-n", "-B", "--no-print-directory", "NVCC=nvcc", "build/libarc_gpu.so")
	cmd.Dir = ".."
	// The Makefile's defaults, not the caller's: its variables are ?=.
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "GPU_ARCH", "GPU_SMS", "GPU_PTX", "GPU_FLAGS", "NVCC_PAR", "MAKEFLAGS", "MAKELEVEL", "MFLAGS":
			continue
		}
		cmd.Env = append(cmd.Env, kv)
	}
	dry, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make -n: %v\n%s", err, dry)
	}
	var built []string
	compiles := 0
	for _, line := range strings.Split(string(dry), "\n") {
		if !strings.HasPrefix(line, "nvcc ") || !strings.Contains(line, " -c ") {
			continue
		}
		compiles++
		var codes []string
		for _, m := range gencode.FindAllStringSubmatch(line, -1) {
			codes = append(codes, m[1])
		}
		slices.Sort(codes)
		if built == nil {
			built = codes
		} else if !slices.Equal(codes, built) {
			t.Errorf("sources compile for different architectures: %v and %v", built, codes)
		}
		if !strings.Contains(line, "-fmad=false") {
			t.Errorf("an nvcc compile without -fmad=false: %s", line)
		}
	}
	if compiles == 0 {
		t.Fatalf("make -n printed no nvcc compile:\n%s", dry)
	}
	for _, want := range gpuArchs {
		if !slices.Contains(built, want) {
			t.Errorf("make gpu does not build for %s (it builds %v): a GPU of that architecture gets no kernels of its own", want, built)
		}
	}

	doc, err := os.ReadFile(filepath.Join("KERNELS.md"))
	if err != nil {
		t.Fatal(err)
	}
	listed := archTable(string(doc))
	slices.Sort(listed)
	if !slices.Equal(listed, slices.Compact(slices.Clone(built))) {
		t.Errorf("docs/KERNELS.md's \"Architectures\" table lists %v; make gpu builds %v", listed, built)
	}
}

// archTable returns the codes (`sm_80`, `compute_80`) in the first column
// of the table of the section "## Architectures".
func archTable(doc string) []string {
	_, sec, ok := strings.Cut(doc, "\n## Architectures\n")
	if !ok {
		return nil
	}
	if i := strings.Index(sec, "\n## "); i >= 0 {
		sec = sec[:i]
	}
	code := regexp.MustCompile("^\\| `((?:sm|compute)_[0-9]+[a-z]?)`")
	var codes []string
	for _, line := range strings.Split(sec, "\n") {
		if m := code.FindStringSubmatch(line); m != nil {
			codes = append(codes, m[1])
		}
	}
	return codes
}
