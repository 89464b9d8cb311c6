package passes

import (
	"fmt"
	"slices"
	"strings"
)

// Target is the machine a module is compiled for.
type Target struct {
	Name     string // canonical, as on the command line: "cuda:nvlink", "tpu:v6e-8"
	Platform string // none, cuda, rocm, tpu
	Variant  string // nvlink, pcie, pcie-nop2p, pcie-2numa, mi300x, mi355x, v6e-8, ...
	// NodeSize is the number of devices one host holds (groups must fit in a
	// node to use arc's kernels); 0 when it does not apply.
	NodeSize int
	// Link is how arc's kernels reach peer buffers: "peer" or "host".
	Link string
}

// tpuSlices are the chip counts of the TPU slices arc knows (v6e and v5e).
var tpuSlices = []int{1, 4, 8, 16, 32, 64, 128, 256}

// TargetNames lists every built-in target name.
func TargetNames() []string {
	names := []string{"none", "cuda:nvlink", "cuda:pcie", "cuda:pcie-nop2p", "cuda:pcie-2numa", "rocm:mi300x", "rocm:mi355x"}
	for _, gen := range []string{"v6e", "v5e"} {
		for _, n := range tpuSlices {
			names = append(names, fmt.Sprintf("tpu:%s-%d", gen, n))
		}
	}
	return append(names, "tpu:v5p-8")
}

// ParseTarget reads a --target value.
func ParseTarget(name string) (Target, error) {
	name = strings.TrimSpace(name)
	names := TargetNames()
	if !slices.Contains(names, name) {
		return Target{}, fmt.Errorf("unknown target %q (targets: %s)", name, strings.Join(names, ", "))
	}
	platform, variant, _ := strings.Cut(name, ":")
	t := Target{Name: name, Platform: platform, Variant: variant, Link: "peer"}
	switch platform {
	case "cuda", "rocm":
		t.NodeSize = 8
		if variant == "pcie-nop2p" {
			t.Link = "host"
		}
	case "none", "tpu":
		t.Link = ""
	}
	return t, nil
}
