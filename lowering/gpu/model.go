package gpu

import (
	"fmt"
	"math"

	"github.com/arcpass/arc/abi"
	"github.com/arcpass/arc/passes"
)

// The analytic cost model of arc's GPU kernels and of the native collective:
// latency plus the slowest of link, memory and codec arithmetic, from each
// machine's rates. lowering/cuda and lowering/rocm give the rates, and lay
// measured points over the estimates where they have them;
// docs/LOWERINGS.md explains each number.

// Sizes for the machines' tables.
const (
	KiB = 1 << 10
	MiB = 1 << 20
)

// Model is what the analytic model needs to know about a machine.
type Model struct {
	Target, Source string
	LinkGBps       float64 // one direction, per GPU, to its peers (per pair where PairLinks)
	PairLinks      bool    // each pair of GPUs has its own link (xGMI): bandwidth grows with peers
	HbmGBps        float64
	OpsPerUS       float64 // arithmetic rate for codec work, operations per microsecond
	OneshotLat     float64 // microseconds
	TwoshotLat     float64
	QuantLat       float64 // extra fixed cost of a quantized kernel
	NativeLat      float64
	NativeEff      float64 // fraction of the link the native collective reaches
	CrossGBps      float64 // between the two halves of a hierarchical machine, shared by all their GPUs (0: flat)
	HalfSize       int     // GPUs per half of a hierarchical machine: larger groups cross between the halves
	Codecs         []string
	Worlds         []int
	Hier           bool
	OneshotMax     int64
	// CastBF16ToFP16 adds the bf16 costs of the fp codec under
	// --cast-bf16-to-fp16 ("twoshot:fp+cast"), for machines that offer it.
	CastBF16ToFP16 bool
	// NativeAt2 holds measured [bytes, us] points of the native all-reduce at
	// world 2, which replace the estimate for every dtype; nil keeps it.
	NativeAt2 [][2]float64
}

// wireBytes is the bytes one element occupies on the wire: its codec
// block's share (fp: the I/O type itself, or 65/32 for bf16 under the cast).
func wireBytes(codec, dtype string, cast bool) float64 {
	return float64(abi.BlockBytes(codec, dtype, cast)) / abi.CodecBlock
}

func dtypeBytes(dtype string) float64 {
	if dtype == "f32" {
		return 4
	}
	return 2
}

// codecOps estimates arithmetic per element per encode+decode (abi's
// table). A codec the table lacks is a model no one can trust: Profile
// panics with the error.
func codecOps(codec string) (float64, error) {
	c, ok := abi.CodecOf(codec)
	if !ok || c.Name == "none" {
		return 0, fmt.Errorf("the cost model has no codec %q (want one of %v)", codec, abi.Codecs[1:])
	}
	return c.Ops, nil
}

// peerGBps is the bandwidth one rank has towards w-1 peers.
func (m Model) peerGBps(w int) float64 {
	if m.PairLinks {
		return m.LinkGBps * float64(w-1)
	}
	return m.LinkGBps
}

// twoshotCost models reduce-scatter + all-gather with a codec: the link moves
// 2(w-1)/w of the encoded bytes, memory sees the input, the output and the
// encoded copies, and the codec's arithmetic runs over every element twice.
func (m Model) twoshotCost(w int, dtype, codec string, cast bool) passes.Cost {
	r := wireBytes(codec, dtype, cast) / dtypeBytes(dtype)
	perByte := []float64{
		2 * r * float64(w-1) / float64(w) / (m.peerGBps(w) * 1e3),
		(2 + 2*r) / (m.HbmGBps * 1e3),
		2 * mustOps(codec) / dtypeBytes(dtype) / m.OpsPerUS,
	}
	if m.spans(w) {
		// In each phase every rank of a half reads its 1/w share from the w/2
		// ranks of the other half: w/2 encoded input sizes per direction.
		perByte = append(perByte, r*float64(w)/2/(m.CrossGBps*1e3))
	}
	lat := m.TwoshotLat + float64(w-2)
	if codec != "fp" {
		lat += m.QuantLat
	}
	return passes.Cost{LatencyUS: lat, GBps: round3(1 / (maxOf(perByte) * 1e3))}
}

// hierCost models the 2 x w/2 hierarchy: two-shot inside each half, then each
// rank exchanges its 1/(w/2) share of the encoded bytes with its partner across,
// so the shared link between the halves carries one encoded input size per
// direction (a flat kernel sends w/2 times as much over it).
func (m Model) hierCost(w int, dtype, codec string, cast bool) passes.Cost {
	h := w / 2
	r := wireBytes(codec, dtype, cast) / dtypeBytes(dtype)
	inside := 2 * r * float64(h-1) / float64(h) / (m.LinkGBps * 1e3)
	across := r / (m.CrossGBps * 1e3)
	perByte := []float64{inside + across, (2 + 3*r) / (m.HbmGBps * 1e3), 3 * mustOps(codec) / dtypeBytes(dtype) / m.OpsPerUS}
	lat := m.TwoshotLat + float64(w-2)
	if codec != "fp" {
		lat += m.QuantLat
	}
	return passes.Cost{LatencyUS: lat, GBps: round3(1 / (maxOf(perByte) * 1e3))}
}

// oneshotCost: every rank reads all w-1 peers' inputs and reduces them.
func (m Model) oneshotCost(w int) passes.Cost {
	perByte := math.Max(float64(w-1)/(m.peerGBps(w)*1e3), float64(w+1)/(m.HbmGBps*1e3))
	if m.spans(w) { // every rank of a half reads the whole input of each rank of the other
		perByte = math.Max(perByte, float64(w*w)/4/(m.CrossGBps*1e3))
	}
	return passes.Cost{LatencyUS: m.OneshotLat + 0.5*float64(w-2), GBps: round3(1 / (perByte * 1e3)), MaxBytes: m.OneshotMax}
}

// nativeCost: a bandwidth-optimal ring (NCCL, RCCL) at NativeEff of the link.
func (m Model) nativeCost(w int) passes.Cost {
	perByte := 2 * float64(w-1) / float64(w) / (m.peerGBps(w) * m.NativeEff * 1e3)
	if m.spans(w) { // the ring crosses the shared link once each way
		perByte = math.Max(perByte, 2*float64(w-1)/float64(w)/(m.CrossGBps*m.NativeEff*1e3))
	}
	return passes.Cost{LatencyUS: m.NativeLat + 2*float64(w-2), GBps: round3(1 / (perByte * 1e3))}
}

// spans reports whether a group of w ranks crosses between the halves of a
// hierarchical machine. The model knows world sizes only: it takes a group
// that fits in a half to sit inside one.
func (m Model) spans(w int) bool { return m.CrossGBps > 0 && w > m.HalfSize }

// mustOps is codecOps for a codec Profile checked.
func mustOps(codec string) float64 {
	ops, err := codecOps(codec)
	if err != nil {
		panic(err)
	}
	return ops
}

// Profile builds the model's cost profile: every world, dtype and kernel.
// It panics on a codec abi's table lacks: the machines' models are code,
// and a cost made up for a codec would choose kernels on nothing.
func (m Model) Profile() *passes.Profile {
	for _, c := range m.Codecs {
		if _, err := codecOps(c); err != nil {
			panic(fmt.Sprintf("lowering/gpu: model of %s: %v", m.Target, err))
		}
	}
	p := &passes.Profile{Target: m.Target, Source: m.Source, Costs: map[string]map[string]map[string]passes.Cost{}}
	for _, w := range append(append([]int{}, m.Worlds...), 6) {
		ws := fmt.Sprint(w)
		p.Costs[ws] = map[string]map[string]passes.Cost{}
		for _, dt := range []string{"f16", "bf16", "f32"} {
			costs := map[string]passes.Cost{"native": m.nativeCost(w), "oneshot": m.oneshotCost(w)}
			if w == 2 && m.NativeAt2 != nil {
				costs["native"] = passes.Cost{Points: m.NativeAt2}
			}
			if w != 6 { // one-shot is the only kernel for six ranks
				for _, c := range m.Codecs {
					for _, cast := range []bool{false, true} {
						if cast && !(m.CastBF16ToFP16 && dt == "bf16" && c == "fp") {
							continue
						}
						costs[passes.CostKey("twoshot", c, cast)] = m.twoshotCost(w, dt, c, cast)
						if m.Hier && (w == 4 || w == 8) {
							costs[passes.CostKey("hier", c, cast)] = m.hierCost(w, dt, c, cast)
						}
					}
				}
			}
			p.Costs[ws][dt] = costs
		}
	}
	return p
}

func maxOf(v []float64) float64 {
	m := v[0]
	for _, x := range v[1:] {
		m = math.Max(m, x)
	}
	return m
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// The fused kernels (the all-reduce, the residual add and the RMSNorm in one
// kernel) against the all-reduce followed by the norm as a kernel of its
// own: what each adds to the all-reduce alone, a fixed part and a rate,
// fitted to kbench --row 2048 and --row 8192 on one H200 with logical ranks
// (world 2, bf16, 16 KiB to 16 MiB; docs/KERNELS.md). Each fit takes the
// row length that is the worse for fusion (the slower fused kernel, the
// faster separate norm), so the fuse pass fuses only where both measured
// fusion paying: one-shot's small messages. Two-shot's fused kernel never
// beats its pair at row 2048, so it is never chosen.
const (
	// normSeparateUS, normSeparateGBps: the norm's own kernel (row 2048).
	normSeparateUS, normSeparateGBps = 3.9, 300.0
	// oneshotNormUS, oneshotNormGBps: the norm in the one-shot kernel
	// (row 8192).
	oneshotNormUS, oneshotNormGBps = 3.1, 160.0
	// twoshotNormUS, twoshotNormGBps: the norm in the two-shot kernel
	// (row 8192), whose ranks wait for each other's sums of squares.
	twoshotNormUS, twoshotNormGBps = 5.2, 146.0
)

// NormSeparateUS is the norm's own kernel after an all-reduce of bytes: it
// reads the sum, the residual and the weight and writes h and y.
func NormSeparateUS(bytes int64) float64 {
	return normSeparateUS + float64(bytes)/(normSeparateGBps*1e3)
}

// NormFusedUS is what the norm adds to algo's kernel ("oneshot",
// "twoshot"): the residual read, h and y written, the rows' sums of squares
// and, for two-shot, the wait for the ranks that own the other rows.
func NormFusedUS(algo string, bytes int64) float64 {
	if algo == "twoshot" {
		return twoshotNormUS + float64(bytes)/(twoshotNormGBps*1e3)
	}
	return oneshotNormUS + float64(bytes)/(oneshotNormGBps*1e3)
}
