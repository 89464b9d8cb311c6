// Package cuda is arc's NVIDIA targets. On each the select pass chooses per
// operand among arc's one-shot kernel (small messages: every rank reads all
// peers and sums in rank order), its two-shot kernel (reduce-scatter then
// all-gather, optionally through a codec), the FP8 "lowprec" two-shot for
// PCIe machines (TensorRT-LLM's idea), the 2 x 4 hierarchical variant for
// cuda:pcie-2numa, and NCCL (native); the lowering turns each arc choice
// into a typed-FFI custom call of arc_allreduce (package gpu). The link mode
// in the call tells the runtime whether peers share device memory ("peer")
// or exchange through pinned host memory ("host", cuda:pcie-nop2p).
//
// The cost models: the native all-reduce and arc's kernels measured on
// 2 x H200 (profiles/, fitted by arc tune from docs/bench/) over analytic
// estimates from each machine's link, memory and arithmetic rates.
package cuda

import (
	"github.com/arcpass/arc/abi"
	"github.com/arcpass/arc/lowering/gpu"
	"github.com/arcpass/arc/passes"
)

const kib, mib = gpu.KiB, gpu.MiB

// Detected are the targets the runtime picks when ARC_TARGET is auto, by
// what it finds between the visible GPUs: every pair joined by NVLink,
// peer access between every pair, or neither (also for one GPU, which has
// no pair to probe). The proxy reads them through proxy/arc_targets.h,
// generated.
var Detected = struct{ NVLink, Peer, Host string }{"cuda:nvlink", "cuda:pcie", "cuda:pcie-nop2p"}

// codecs are the codecs arc's CUDA kernels run.
var codecs = abi.Codecs[1:]

// Targets are the CUDA machines arc knows.
func Targets() []passes.Target {
	return []passes.Target{
		machine("cuda:nvlink", "peer", false, func() *passes.Profile {
			return withTuned(gpu.Model{ // measured costs from profiles/ over the estimates
				Target: "cuda:nvlink", Source: "H200 NV18: XLA's native all-reduce measured at world 2 (scaled for 4 and 8); arc kernels estimated from 80% of 450 GB/s NVLink, 4 TB/s HBM",
				LinkGBps: 360, HbmGBps: 4000, OpsPerUS: 40e6, OneshotLat: 6, TwoshotLat: 9, QuantLat: 2,
				NativeLat: 17.6, NativeEff: 0.75, Codecs: codecs, Worlds: abi.TwoShotWorlds, OneshotMax: 8 * mib,
				// XLA's native all-reduce on 2 x H200 (docs/LOWERINGS.md), f16 and bf16 alike.
				NativeAt2: [][2]float64{{4 * kib, 17.6}, {64 * kib, 17.7}, {256 * kib, 24.2}, {1 * mib, 27.3}, {4 * mib, 38.3}, {16 * mib, 87.4}, {64 * mib, 259}, {128 * mib, 472}},
			}.Profile())
		}),
		// The PCIe targets' links (docs/LOWERINGS.md, "PCIe rates"): peer
		// writes over Gen4 x16 measured at 26.3 GB/s a direction (83% of its
		// 31.5), over Gen5 x16 at 53-56 (of 63); host-staged, Gen5 x16 measured
		// at about 55 GB/s each way per GPU on the H200 machine. The link's
		// term is the largest of every kernel's on these targets, so memory
		// and codec rates stay as they were.
		machine("cuda:pcie", "peer", false, func() *passes.Profile {
			return gpu.Model{
				Target: "cuda:pcie", Source: "estimate: PCIe Gen4 x16 peer-to-peer writes (26 GB/s per direction, p2pBandwidthLatencyTest on 2 x RTX 6000 Ada), L40S-class memory",
				LinkGBps: 26, HbmGBps: 800, OpsPerUS: 20e6, OneshotLat: 8, TwoshotLat: 12, QuantLat: 3,
				NativeLat: 25, NativeEff: 0.85, Codecs: codecs, Worlds: abi.TwoShotWorlds, OneshotMax: 4 * mib,
			}.Profile()
		}),
		machine("cuda:pcie-nop2p", "host", false, func() *passes.Profile {
			return withTuned(gpu.Model{
				Target: "cuda:pcie-nop2p", Source: "NCCL without P2P measured on 2 x H200 (PCIe Gen5 x16, peer access off); arc's host-staged kernels estimated from 55 GB/s pinned-host bandwidth per GPU",
				LinkGBps: 55, HbmGBps: 4000, OpsPerUS: 40e6, OneshotLat: 12, TwoshotLat: 15, QuantLat: 2,
				NativeLat: 30, NativeEff: 0.5, Codecs: codecs, Worlds: abi.TwoShotWorlds, OneshotMax: 2 * mib,
				NativeAt2: [][2]float64{{4 * kib, 44}, {64 * kib, 44}, {256 * kib, 44}, {1 * mib, 68}, {4 * mib, 178}, {16 * mib, 633}, {64 * mib, 2408}, {128 * mib, 4698}},
			}.Profile())
		}),
		machine("cuda:pcie-2numa", "peer", true, func() *passes.Profile {
			return gpu.Model{
				Target: "cuda:pcie-2numa", Source: "estimate: 2 NUMA nodes x 4 GPUs behind PCIe Gen4 switches (26 GB/s peer writes inside, as cuda:pcie; 12 GB/s across, shared)",
				LinkGBps: 26, HbmGBps: 800, OpsPerUS: 20e6, OneshotLat: 8, TwoshotLat: 12, QuantLat: 3,
				NativeLat: 30, NativeEff: 0.85, CrossGBps: 12, HalfSize: 4, Codecs: codecs, Worlds: abi.TwoShotWorlds, Hier: true, OneshotMax: 2 * mib,
			}.Profile()
		}),
	}
}

func machine(name, link string, hier bool, model func() *passes.Profile) *gpu.Machine {
	return &gpu.Machine{Target: name, Link: link, NodeSize: 8, Hier: hier, TwoShot: "twoshot", Pass: "lower-cuda", Model: model}
}
