//go:build ignore

// genprofiles rebuilds arc's built-in CUDA profiles, lowering/cuda/profiles/*.json,
// from the H200 measurements in this folder. Run from the repository root:
//
//	go run docs/bench/genprofiles.go
//
// It fits each CSV as `arc tune --from` does (bench.Fit, 5% margin over
// native); for the host link it then fills in what was not measured, as
// docs/BENCHMARKS.md explains and the profile's source text records.
package main

import (
	"fmt"
	"os"

	"github.com/arcpass/arc/bench"
	"github.com/arcpass/arc/passes"
)

// margin is arc tune's default: a lowering must beat native by 5%.
const margin = 0.05

func main() {
	peer := read("docs/bench/h200-xla-peer.csv")
	nvlink := fit(peer, "cuda:nvlink", "arc tune --from docs/bench/h200-xla-peer.csv (2 x H200 NV18, 2026-11-30, "+
		"make device-bench: xla level, peer link, XLA's default flags, K=20, median of 11; f16 and bf16)")
	write("lowering/cuda/profiles/cuda-nvlink.json", nvlink)

	host := read("docs/bench/h200-xla-host.csv")
	nop2p := fit(host, "cuda:pcie-nop2p", "arc tune --from docs/bench/h200-xla-host.csv (2 x H200, peer access off, "+
		"NCCL_P2P_DISABLE=1, 2026-11-30, make device-bench: xla level, host link, XLA's default flags, K=20, median of 11; "+
		"f16 only); twoshot:int6: the int8 measurement (the same host-staged two-shot, fewer wire bytes); twoshot:int4r "+
		"off (not measured); bf16: the f16 measurements (the host-staged path is bound by its PCIe transfers, which do "+
		"not depend on the dtype)")
	f16 := nop2p.Costs["2"]["f16"]
	f16["twoshot:int6"] = f16["twoshot:int8"]
	f16["twoshot:int4r"] = passes.Cost{Off: true}
	bf16 := map[string]passes.Cost{}
	for k, c := range f16 {
		bf16[k] = c
	}
	nop2p.Costs["2"]["bf16"] = bf16
	write("lowering/cuda/profiles/cuda-pcie-nop2p.json", nop2p)
}

// fit is bench.Fit (arc tune --from), with arc tune's default margin.
func fit(rs []bench.Result, target, source string) *passes.Profile {
	p, err := bench.Fit(rs, target, source, margin)
	check(err)
	return p
}

func read(path string) []bench.Result {
	f, err := os.Open(path)
	check(err)
	defer f.Close()
	rs, err := bench.ReadCSV(f)
	check(err)
	return rs
}

func write(path string, p *passes.Profile) {
	check(p.Check())
	f, err := os.Create(path)
	check(err)
	check(bench.WriteProfile(f, p))
	check(f.Close())
	fmt.Println("wrote", path)
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "genprofiles:", err)
		os.Exit(1)
	}
}
