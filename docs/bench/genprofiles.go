//go:build ignore

// genprofiles rebuilds arc's built-in CUDA profiles, passes/profiles/*.json,
// from the H200 measurements in this folder. Run from the repository root
// (cgo, as for arc itself):
//
//	go run docs/bench/genprofiles.go
//
// It fits each CSV as `arc tune --from` does (bench.Fit, 5% margin over
// native), then applies the rules docs/BENCHMARKS.md explains and each
// profile's source text records.
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/arcpass/arc/passes"
	"github.com/arcpass/arc/runtime/bench"
)

// margin is arc tune's default: a lowering must beat native by 5%.
const margin = 0.05

func main() {
	peer := read("docs/bench/h200-xla-peer.csv")
	nvlink := fit(peer, "cuda:nvlink", "arc tune --from docs/bench/h200-xla-peer.csv (2 x H200 NV18, 2026-11-30: xla level, peer link, "+
		"K=20, median of 15; f16 and bf16); two-shot codecs start where they overtake oneshot")
	write("passes/profiles/cuda-nvlink.json", nvlink)

	host := oneshotFromAuto(read("docs/bench/h200-xla-host.csv"))
	nop2p := fit(host, "cuda:pcie-nop2p", "arc tune --from docs/bench/h200-xla-host.csv (2 x H200, peer access off, NCCL_P2P_DISABLE=1, "+
		"2026-11-30: xla level, host link, K=10, median of 9; f16 only); oneshot: the auto column where auto chose oneshot (64 KiB-2 MiB); "+
		"two-shot codecs start where they overtake oneshot; twoshot:int8 and twoshot:int6: the fp8 measurement (the same host-staged "+
		"two-shot, fewer wire bytes); twoshot:int4r off (not measured); bf16: the f16 measurements (the host-staged path is bound by "+
		"its PCIe transfers, which do not depend on the dtype)")
	f16 := nop2p.Costs["2"]["f16"]
	f16["twoshot:int8"], f16["twoshot:int6"] = f16["twoshot:fp8"], f16["twoshot:fp8"]
	f16["twoshot:int4r"] = passes.Cost{Off: true}
	bf16 := map[string]passes.Cost{}
	for k, c := range f16 {
		bf16[k] = c
	}
	nop2p.Costs["2"]["bf16"] = bf16
	write("passes/profiles/cuda-pcie-nop2p.json", nop2p)
}

// fit is bench.Fit, with each two-shot codec's smallest size raised to where
// it overtakes oneshot. Fit compares every lowering with native only; below
// that size oneshot is the faster kernel (at two ranks both move the same
// bytes and two-shot waits twice), and the small-size samples differ by less
// than their spread, so without the bound a noisy point could pick two-shot,
// or a lossy codec under --quant, where oneshot is as fast.
func fit(rs []bench.Result, target, source string) *passes.Profile {
	p, err := bench.Fit(rs, target, source, margin)
	check(err)
	// Fit again with oneshot standing in for native, at no margin.
	var vsOneshot []bench.Result
	for _, r := range rs {
		switch r.Lowering {
		case "oneshot":
			r.Lowering = "native"
		case "native", bench.Auto:
			continue
		}
		vsOneshot = append(vsOneshot, r)
	}
	q, err := bench.Fit(vsOneshot, target, source, 0)
	check(err)
	for w, byType := range p.Costs {
		for dt, costs := range byType {
			for key, c := range costs {
				o, ok := q.Costs[w][dt][key]
				if !strings.HasPrefix(key, "twoshot:") || !ok || c.Off {
					continue
				}
				if o.Off {
					fmt.Fprintf(os.Stderr, "%s %s x%s %s: never faster than oneshot\n", target, dt, w, key)
					c.Off, c.MinBytes, c.MaxBytes = true, 0, 0
				} else {
					c.MinBytes = max(c.MinBytes, o.MinBytes)
				}
				costs[key] = c
			}
		}
	}
	return p
}

// oneshotFromAuto turns the auto results that ran oneshot into oneshot
// measurements (auto compiled exactly the program --force oneshot does) when
// the sweep did not list oneshot itself.
func oneshotFromAuto(rs []bench.Result) []bench.Result {
	for _, r := range rs {
		if r.Lowering == "oneshot" {
			return rs
		}
	}
	out := rs[:0:0]
	for _, r := range rs {
		if r.Lowering == bench.Auto && r.Chose == "oneshot" {
			r.Lowering = "oneshot"
		}
		out = append(out, r)
	}
	return out
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
