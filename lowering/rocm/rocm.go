// Package rocm is arc's AMD Instinct targets (MI300X gfx942, MI355X gfx950),
// lowered the way QuickReduce does: a two-shot kernel whose both phases go
// through a codec (QuickReduce's FP, INT8, INT6 and INT4; arc adds its
// own), bf16 sent
// as scaled fp16 when --cast-bf16-to-fp16 asks (QuickReduce's default, not
// arc's), the one-shot kernel for small messages, and RCCL (native) where
// neither is estimated faster. Each arc choice becomes a
// typed-FFI custom call of arc_allreduce (package gpu) that the runtime
// registers with the ROCm PJRT plugin.
//
// The cost model: RCCL and QuickReduce INT4 points from the published
// MI300X TP2 kernel times; the other codecs scale with their wire bytes;
// vLLM's _QR_MIN_SIZE table gives each codec's smallest profitable size.
package rocm

import (
	"fmt"
	"slices"

	"github.com/arcpass/arc/abi"
	"github.com/arcpass/arc/lowering/gpu"
	"github.com/arcpass/arc/passes"
)

const kib, mib = gpu.KiB, gpu.MiB

// Machines are the ROCm machines arc knows, each with the architecture of
// its GPUs: how the runtime tells them apart when ARC_TARGET is auto (the
// proxy reads them through proxy/arc_targets.h, generated).
var Machines = []struct{ Variant, Arch string }{{"mi300x", "gfx942"}, {"mi355x", "gfx950"}}

// Name is a machine's target name.
func Name(variant string) string { return "rocm:" + variant }

// Targets are the ROCm machines arc knows.
func Targets() []passes.Target {
	var out []passes.Target
	for _, mc := range Machines {
		variant, name := mc.Variant, Name(mc.Variant)
		out = append(out, &gpu.Machine{Target: name, Link: "peer", NodeSize: 8, TwoShot: "quickreduce", CastBF16ToFP16: true,
			Pass: "lower-rocm", Model: func() *passes.Profile { return profile(name, variant) }})
	}
	return out
}

// profile is QuickReduce's published figures (MI300X) over the analytic
// model, with vLLM's minimum sizes per codec.
func profile(name, variant string) *passes.Profile {
	scale := 1.0
	if variant == "mi355x" {
		scale = 1.25 // faster xGMI and HBM; an estimate until measured
	}
	m := gpu.Model{
		Target: name, LinkGBps: 46.5 * scale, PairLinks: true, HbmGBps: 4000 * scale, OpsPerUS: 40e6,
		OneshotLat: 9, TwoshotLat: 15, QuantLat: 8, NativeLat: 22, NativeEff: 1, Codecs: abi.Codecs[1:],
		Worlds: abi.TwoShotWorlds, OneshotMax: 8 * mib, CastBF16ToFP16: true,
		Source: "QuickReduce published MI300X TP2 times (RCCL and INT4 at 4, 16, 64 MB) and vLLM's _QR_MIN_SIZE thresholds; other sizes, codecs and worlds scaled from link bytes",
	}
	p := m.Profile()
	if variant == "mi300x" {
		// QuickReduce's INT4 times are of its f16 kernel, which its bf16
		// reaches through the cast; arc's bf16 kernels widen to f32 as its
		// f16 ones do, uncast, so bf16 takes the same times (docs/LOWERINGS.md).
		rccl := [][2]float64{{4 * kib, 22.1}, {256 * kib, 27.6}, {1 * mib, 44.6}, {4 * mib, 105}, {16 * mib, 376}, {64 * mib, 1464}}
		int4 := [][2]float64{{4 * kib, 25}, {1 * mib, 29}, {4 * mib, 42}, {16 * mib, 131}, {64 * mib, 468}}
		for _, dt := range []string{"f16", "bf16"} {
			p.Costs["2"][dt]["native"] = passes.Cost{Points: rccl}
			c := p.Costs["2"][dt]["twoshot:int4"]
			c.Points, c.LatencyUS, c.GBps = int4, 0, 0
			p.Costs["2"][dt]["twoshot:int4"] = c
		}
	}
	// vLLM _QR_MIN_SIZE in MB, order FP, INT8, INT6, INT4; -1 = off. vLLM
	// reads its bf16 row only with the cast off (under the cast, f16's).
	minMB := map[string]map[int][4]int{
		"f16":  {2: {1, 2, 2, 1}, 4: {1, 16, 4, 2}, 8: {16, 4, 4, 2}},
		"bf16": {2: {2, 8, 8, 8}, 4: {8, 64, 64, 16}, 8: {16, -1, -1, -1}},
	}
	for dt, byWorld := range minMB {
		for w, sizes := range byWorld {
			// The FP column is not applied: it marks where QuickReduce's FP kernel
			// overtakes vLLM's custom all-reduce, whose one-shot and two-shot
			// kernels (arc's oneshot and twoshot:fp) serve the sizes below it.
			// Bounding twoshot:fp by it left sizes where only native ran while
			// arc's two-shot was estimated faster: QuickReduce's dead zone.
			// arc's extra codecs follow the vLLM codec of their code width.
			for _, codec := range abi.CodecTable {
				i := slices.Index(vllmCodeBits, codec.CodeBits)
				if codec.CodeBits == 0 || i < 0 {
					continue
				}
				c := p.Costs[fmt.Sprint(w)][dt]["twoshot:"+codec.Name]
				if sizes[i] < 0 {
					c.Off = true
				} else {
					c.MinBytes = int64(sizes[i]) * mib
				}
				p.Costs[fmt.Sprint(w)][dt]["twoshot:"+codec.Name] = c
			}
		}
	}
	return p
}

// vllmCodeBits are the code widths of _QR_MIN_SIZE's columns: FP (values
// as they are), INT8, INT6, INT4.
var vllmCodeBits = []int{0, 8, 6, 4}
