package passes

import (
	"fmt"
	"math"
)

// Built-in profiles. Measured points come from DESIGN.md (2 x H200, NCCL
// 2.28, XLA inside one jitted program) and from the published QuickReduce
// figures (MI300X, TP2); everything else is an analytic estimate from link,
// memory and arithmetic rates, to be replaced by `arc tune` on the machine.
// docs/LOWERINGS.md explains each number.

const (
	kib = 1 << 10
	mib = 1 << 20
)

// machine is what the analytic model needs to know about a target.
type machine struct {
	target, source string
	linkGBps       float64 // one direction, per GPU, to its peers (per pair where pairLinks)
	pairLinks      bool    // each pair of GPUs has its own link (xGMI): bandwidth grows with peers
	hbmGBps        float64
	opsPerUS       float64 // arithmetic rate for codec work, operations per microsecond
	oneshotLat     float64 // microseconds
	twoshotLat     float64
	quantLat       float64 // extra fixed cost of a quantized kernel
	nativeLat      float64
	nativeEff      float64 // fraction of the link the native collective reaches
	crossGBps      float64 // between the two halves of a hierarchical machine, shared by all their GPUs (0: flat)
	halfSize       int     // GPUs per half of a hierarchical machine: larger groups cross between the halves
	codecs         []string
	worlds         []int
	hier           bool
	oneshotMax     int64
	// nativeAt2 holds measured [bytes, us] points of the native all-reduce at
	// world 2, which replace the estimate for every dtype; nil keeps it.
	nativeAt2 [][2]float64
}

// wireBytes is the bytes one element occupies on the wire.
func wireBytes(codec, dtype string) float64 {
	switch codec {
	case "int8":
		return 34.0 / 32
	case "int6":
		return 26.0 / 32
	case "int4", "int4r":
		return 18.0 / 32
	case "fp8":
		return 36.0 / 32
	}
	return dtypeBytes(dtype) // fp: the I/O type itself
}

func dtypeBytes(dtype string) float64 {
	if dtype == "f32" {
		return 4
	}
	return 2
}

// codecOps estimates arithmetic per element per encode+decode.
func codecOps(codec string) float64 {
	switch codec {
	case "fp":
		return 2
	case "int4r":
		return 60 // two 32-point Hadamard transforms on top of int4
	case "fp8":
		return 24
	}
	return 20
}

// peerGBps is the bandwidth one rank has towards w-1 peers.
func (m machine) peerGBps(w int) float64 {
	if m.pairLinks {
		return m.linkGBps * float64(w-1)
	}
	return m.linkGBps
}

// twoshotCost models reduce-scatter + all-gather with a codec: the link moves
// 2(w-1)/w of the encoded bytes, memory sees the input, the output and the
// encoded copies, and the codec's arithmetic runs over every element twice.
func (m machine) twoshotCost(w int, dtype, codec string) Cost {
	r := wireBytes(codec, dtype) / dtypeBytes(dtype)
	perByte := []float64{
		2 * r * float64(w-1) / float64(w) / (m.peerGBps(w) * 1e3),
		(2 + 2*r) / (m.hbmGBps * 1e3),
		2 * codecOps(codec) / dtypeBytes(dtype) / m.opsPerUS,
	}
	if m.spans(w) {
		// In each phase every rank of a half reads its 1/w share from the w/2
		// ranks of the other half: w/2 encoded input sizes per direction.
		perByte = append(perByte, r*float64(w)/2/(m.crossGBps*1e3))
	}
	lat := m.twoshotLat + float64(w-2)
	if codec != "fp" {
		lat += m.quantLat
	}
	return Cost{LatencyUS: lat, GBps: round3(1 / (maxOf(perByte) * 1e3))}
}

// hierCost models the 2 x w/2 hierarchy: two-shot inside each half, then each
// rank exchanges its 1/(w/2) share of the encoded bytes with its partner across,
// so the shared link between the halves carries one encoded input size per
// direction (a flat kernel sends w/2 times as much over it).
func (m machine) hierCost(w int, dtype, codec string) Cost {
	h := w / 2
	r := wireBytes(codec, dtype) / dtypeBytes(dtype)
	inside := 2 * r * float64(h-1) / float64(h) / (m.linkGBps * 1e3)
	across := r / (m.crossGBps * 1e3)
	perByte := []float64{inside + across, (2 + 3*r) / (m.hbmGBps * 1e3), 3 * codecOps(codec) / dtypeBytes(dtype) / m.opsPerUS}
	lat := m.twoshotLat + float64(w-2)
	if codec != "fp" {
		lat += m.quantLat
	}
	return Cost{LatencyUS: lat, GBps: round3(1 / (maxOf(perByte) * 1e3))}
}

// oneshotCost: every rank reads all w-1 peers' inputs and reduces them.
func (m machine) oneshotCost(w int) Cost {
	perByte := math.Max(float64(w-1)/(m.peerGBps(w)*1e3), float64(w+1)/(m.hbmGBps*1e3))
	if m.spans(w) { // every rank of a half reads the whole input of each rank of the other
		perByte = math.Max(perByte, float64(w*w)/4/(m.crossGBps*1e3))
	}
	return Cost{LatencyUS: m.oneshotLat + 0.5*float64(w-2), GBps: round3(1 / (perByte * 1e3)), MaxBytes: m.oneshotMax}
}

// nativeCost: a bandwidth-optimal ring (NCCL, RCCL) at nativeEff of the link.
func (m machine) nativeCost(w int) Cost {
	perByte := 2 * float64(w-1) / float64(w) / (m.peerGBps(w) * m.nativeEff * 1e3)
	if m.spans(w) { // the ring crosses the shared link once each way
		perByte = math.Max(perByte, 2*float64(w-1)/float64(w)/(m.crossGBps*m.nativeEff*1e3))
	}
	return Cost{LatencyUS: m.nativeLat + 2*float64(w-2), GBps: round3(1 / (perByte * 1e3))}
}

// spans reports whether a group of w ranks crosses between the halves of a
// hierarchical machine. The model knows world sizes only: it takes a group
// that fits in a half to sit inside one.
func (m machine) spans(w int) bool { return m.crossGBps > 0 && w > m.halfSize }

func (m machine) profile() *Profile {
	p := &Profile{Target: m.target, Source: m.source, Costs: map[string]map[string]map[string]Cost{}}
	for _, w := range append(append([]int{}, m.worlds...), 6) {
		ws := fmt.Sprint(w)
		p.Costs[ws] = map[string]map[string]Cost{}
		for _, dt := range []string{"f16", "bf16", "f32"} {
			costs := map[string]Cost{"native": m.nativeCost(w), "oneshot": m.oneshotCost(w)}
			if w == 2 && m.nativeAt2 != nil {
				costs["native"] = Cost{Points: m.nativeAt2}
			}
			if w != 6 { // one-shot is the only kernel for six ranks
				for _, c := range m.codecs {
					costs["twoshot:"+c] = m.twoshotCost(w, dt, c)
					if m.hier && (w == 4 || w == 8) {
						costs["hier:"+c] = m.hierCost(w, dt, c)
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

var allCodecs = []string{"fp", "int8", "int6", "int4", "int4r", "fp8"}

// BuiltinProfile returns the profile arc uses for a target when no --profile
// is given, or nil for targets without arc kernels.
func BuiltinProfile(t Target) *Profile {
	switch t.Name {
	case "cuda:nvlink":
		return withTuned(machine{ // measured costs from passes/profiles/ over the estimates
			target: t.Name, source: "H200 NV18 native all-reduce measured in DESIGN.md (world 2, scaled for 4 and 8); arc kernels estimated from 80% of 450 GB/s NVLink, 4 TB/s HBM",
			linkGBps: 360, hbmGBps: 4000, opsPerUS: 40e6, oneshotLat: 6, twoshotLat: 9, quantLat: 2,
			nativeLat: 17.6, nativeEff: 0.75, codecs: allCodecs, worlds: []int{2, 4, 8}, oneshotMax: 8 * mib,
			// XLA's native all-reduce on 2 x H200 (DESIGN.md), f16 and bf16 alike.
			nativeAt2: [][2]float64{{4 * kib, 17.6}, {64 * kib, 17.7}, {256 * kib, 24.2}, {1 * mib, 27.3}, {4 * mib, 38.3}, {16 * mib, 87.4}, {64 * mib, 259}, {128 * mib, 472}},
		}.profile())
	case "cuda:pcie":
		return machine{
			target: t.Name, source: "estimate: PCIe Gen4 x16 peer-to-peer (22 GB/s per direction), L40S-class memory",
			linkGBps: 22, hbmGBps: 800, opsPerUS: 20e6, oneshotLat: 8, twoshotLat: 12, quantLat: 3,
			nativeLat: 25, nativeEff: 0.85, codecs: allCodecs, worlds: []int{2, 4, 8}, oneshotMax: 4 * mib,
		}.profile()
	case "cuda:pcie-nop2p":
		return withTuned(machine{
			target: t.Name, source: "NCCL without P2P measured on 2 x H200 (DESIGN.md); arc's host-staged kernels estimated from 55 GB/s pinned-host bandwidth per GPU",
			linkGBps: 55, hbmGBps: 4000, opsPerUS: 40e6, oneshotLat: 12, twoshotLat: 15, quantLat: 2,
			nativeLat: 30, nativeEff: 0.5, codecs: allCodecs, worlds: []int{2, 4, 8}, oneshotMax: 2 * mib,
			nativeAt2: [][2]float64{{4 * kib, 44}, {64 * kib, 44}, {256 * kib, 44}, {1 * mib, 68}, {4 * mib, 178}, {16 * mib, 633}, {64 * mib, 2408}, {128 * mib, 4698}},
		}.profile())
	case "cuda:pcie-2numa":
		return machine{
			target: t.Name, source: "estimate: 2 NUMA nodes x 4 GPUs behind PCIe Gen4 switches (22 GB/s inside, 12 GB/s across)",
			linkGBps: 22, hbmGBps: 800, opsPerUS: 20e6, oneshotLat: 8, twoshotLat: 12, quantLat: 3,
			nativeLat: 30, nativeEff: 0.85, crossGBps: 12, halfSize: 4, codecs: allCodecs, worlds: []int{2, 4, 8}, hier: true, oneshotMax: 2 * mib,
		}.profile()
	case "rocm:mi300x", "rocm:mi355x":
		return rocmProfile(t)
	}
	return nil
}

// rocmProfile: RCCL and QuickReduce INT4 points from the published MI300X TP2
// kernel times; the other codecs scale with their wire bytes; vLLM's
// _QR_MIN_SIZE table gives each codec's smallest profitable size.
func rocmProfile(t Target) *Profile {
	scale := 1.0
	if t.Variant == "mi355x" {
		scale = 1.25 // faster xGMI and HBM; an estimate until measured
	}
	m := machine{
		target: t.Name, linkGBps: 46.5 * scale, pairLinks: true, hbmGBps: 4000 * scale, opsPerUS: 40e6,
		oneshotLat: 9, twoshotLat: 15, quantLat: 8, nativeLat: 22, nativeEff: 1, codecs: allCodecs,
		worlds: []int{2, 4, 8}, oneshotMax: 8 * mib,
		source: "QuickReduce published MI300X TP2 times (RCCL and INT4 at 4, 16, 64 MB) and vLLM's _QR_MIN_SIZE thresholds; other sizes, codecs and worlds scaled from link bytes",
	}
	p := m.profile()
	if t.Variant == "mi300x" {
		rccl := [][2]float64{{4 * kib, 22.1}, {256 * kib, 27.6}, {1 * mib, 44.6}, {4 * mib, 105}, {16 * mib, 376}, {64 * mib, 1464}}
		int4 := [][2]float64{{4 * kib, 25}, {1 * mib, 29}, {4 * mib, 42}, {16 * mib, 131}, {64 * mib, 468}}
		for _, dt := range []string{"f16", "bf16"} {
			p.Costs["2"][dt]["native"] = Cost{Points: rccl}
			c := p.Costs["2"][dt]["twoshot:int4"]
			c.Points, c.LatencyUS, c.GBps = int4, 0, 0
			p.Costs["2"][dt]["twoshot:int4"] = c
		}
	}
	// vLLM _QR_MIN_SIZE in MB, order FP, INT8, INT6, INT4; -1 = off.
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
			// arc's extra codecs follow the vLLM codec of the same size class.
			for i, codecs := range [][]string{nil, {"int8", "fp8"}, {"int6"}, {"int4", "int4r"}} {
				for _, codec := range codecs {
					c := p.Costs[fmt.Sprint(w)][dt]["twoshot:"+codec]
					if sizes[i] < 0 {
						c.Off = true
					} else {
						c.MinBytes = int64(sizes[i]) * mib
					}
					p.Costs[fmt.Sprint(w)][dt]["twoshot:"+codec] = c
				}
			}
		}
	}
	return p
}
