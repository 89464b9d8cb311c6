package abi

import "slices"

// arc's vocabulary: one record per codec, algorithm, link, element type,
// lowering and target family. Every other package reads its words here; the
// C side's enums and name tables are generated from these tables into
// gpu/arc_vocab.h (go generate; internal/vocabgen's test fails when the file
// is stale).
//
//go:generate go run ../internal/vocabgen -root ..

// A CodecInfo describes one codec; its position in CodecTable is its C
// number (arc_codec).
type CodecInfo struct {
	Name string
	// BlockBytes is what one block of CodecBlock values occupies on the wire
	// (docs/FORMATS.md); 0 where it is the I/O type's own (none, fp: see
	// BlockBytes).
	BlockBytes int
	// CodeBits is the width of one code (0: the values travel as they are).
	CodeBits int
	// Ops is the cost model's arithmetic per element for one encode and one
	// decode (lowering/gpu).
	Ops float64
	// Lossy: it changes values beyond the order of the additions, so only
	// --quant (or --force) lets arc use it.
	Lossy bool
	// Bound names its per-element error bound, as docs/ACCURACY.md does.
	Bound string
	// Desc explains it in one line, for reports ("" for none, which sends
	// no codec).
	Desc string
}

// The per-element error bounds of the codecs (docs/ACCURACY.md, "Each
// codec's bound").
const (
	BoundExact    = "exact"         // nothing but the order of the additions
	BoundRounding = "wire rounding" // one rounding to the wire type
	BoundHalfStep = "half step"     // within half a step of the block's scale
	BoundBestOf3  = "best of three" // no worse than sqrt(32) times its plain codes'
	BoundE4M3     = "e4m3"          // 4 significant bits under an f32 scale
)

// CodecTable is every codec, in the order of the C enum arc_codec. "none" is
// one-shot's: no codec.
var CodecTable = []CodecInfo{
	{Name: "none", Bound: BoundExact},
	{Name: "fp", Ops: 2, Bound: BoundRounding,
		Desc: "values travel in their own type: exact apart from the order of the additions"},
	{Name: "int8", BlockBytes: 2 + CodecBlock, CodeBits: 8, Ops: 20, Lossy: true, Bound: BoundHalfStep,
		Desc: "8-bit codes, one fp16 scale per 32 values (8.5 bits a value on the wire)"},
	{Name: "int6", BlockBytes: 2 + CodecBlock*6/8, CodeBits: 6, Ops: 20, Lossy: true, Bound: BoundHalfStep,
		Desc: "6-bit codes, one fp16 scale per 32 values (6.5 bits a value)"},
	{Name: "int4", BlockBytes: 2 + CodecBlock/2, CodeBits: 4, Ops: 20, Lossy: true, Bound: BoundHalfStep,
		Desc: "4-bit codes, one fp16 scale per 32 values (4.5 bits a value)"},
	// two 32-point Hadamard transforms on top of int4's arithmetic
	{Name: "int4r", BlockBytes: 2 + CodecBlock/2, CodeBits: 4, Ops: 60, Lossy: true, Bound: BoundBestOf3,
		Desc: "arc's robust 4-bit codec: per 32 values the best of plain, rotated and outlier-split codes (4.5 bits)"},
	{Name: "fp8", BlockBytes: 4 + CodecBlock, CodeBits: 8, Ops: 24, Lossy: true, Bound: BoundE4M3,
		Desc: "FP8 e4m3 codes, one fp32 scale per 32 values (9 bits a value)"},
}

// An AlgoInfo describes one kernel algorithm; its position in AlgoTable is
// its C number (arc_algo).
type AlgoInfo struct {
	Name   string
	Worlds []int // the group sizes it runs
	Codec  bool  // it sends its values through a codec (one-shot sends them as they are)
	Desc   string
}

// AlgoTable is every algorithm, in the order of the C enum arc_algo.
var AlgoTable = []AlgoInfo{
	{Name: "oneshot", Worlds: OneShotWorlds, Desc: "every rank reads all peers and sums in rank order"},
	{Name: "twoshot", Worlds: TwoShotWorlds, Codec: true, Desc: "reduce-scatter then all-gather, through a codec"},
	// two halves of 2 or 4 ranks
	{Name: "hier", Worlds: []int{4, 8}, Codec: true, Desc: "two-shot inside each half, then across the halves"},
}

// A LinkInfo describes how ranks reach each other's buffers; its position in
// LinkTable is its C number (arc_link).
type LinkInfo struct{ Name, Desc string }

// LinkTable is every link, in the order of the C enum arc_link.
var LinkTable = []LinkInfo{
	{"peer", "device memory mapped by peer access (NVLink, PCIe P2P)"},
	{"host", "pinned, mapped host memory: no peer access needed"},
}

// A DTypeInfo is an element type the kernels take; its position in
// DTypeTable is its C number (arc_dtype).
type DTypeInfo struct {
	Name  string
	Bytes int
}

// DTypeTable is every element type, in the order of the C enum arc_dtype.
var DTypeTable = []DTypeInfo{{"f16", 2}, {"bf16", 2}, {"f32", 4}}

// A LoweringInfo is a word reports and --force name a lowering with.
type LoweringInfo struct {
	Name string
	// Algo is the kernel algorithm it runs by default ("": none of arc's).
	Algo string
	// Codec is the codec it implies when --force names none ("": the
	// exact ones).
	Codec string
	// Family is the one target family that has it ("": any).
	Family string
	// Desc explains it in one line, for reports.
	Desc string
}

// LoweringTable is every lowering word, in the order help texts list them.
var LoweringTable = []LoweringInfo{
	{Name: "native", Desc: "the platform's own all-reduce (NCCL, RCCL, XLA) stays"},
	{Name: "oneshot", Algo: "oneshot",
		Desc: "arc's one-shot kernel: every rank reads all peers and sums in rank order (small messages)"},
	{Name: "twoshot", Algo: "twoshot",
		Desc: "arc's two-shot kernel: reduce-scatter then all-gather, through the codec shown"},
	{Name: "quickreduce", Algo: "twoshot", Family: "rocm",
		Desc: "QuickReduce-style two-shot kernel on ROCm, both phases through the codec shown"},
	{Name: "lowprec", Algo: "twoshot", Codec: "fp8", Family: "cuda",
		Desc: "FP8 two-shot kernel for PCIe machines (TensorRT-LLM's low-precision all-reduce)"},
	{Name: "ring", Family: "tpu",
		Desc: "XLA's all-reduce over groups reordered as a ring of 1-hop steps on the TPU mesh"},
}

// A FamilyInfo is a family of targets: the prefix of their names
// ("cuda:nvlink" is of family cuda).
type FamilyInfo struct {
	Name string
	// Kernels: its targets run arc's kernels, whose handler the runtime
	// registers with the platform's plugin.
	Kernels bool
	// Native names the library that runs its native collectives ("": the
	// platform's compiler, XLA, runs them itself).
	Native string
	Desc   string
}

// FamilyTable is every target family.
var FamilyTable = []FamilyInfo{
	{Name: "cuda", Kernels: true, Native: "NCCL", Desc: "NVIDIA GPUs"},
	{Name: "rocm", Kernels: true, Native: "RCCL", Desc: "AMD Instinct GPUs"},
	{Name: "tpu", Desc: "Google TPU slices"},
}

// names lists the Name of every record of a table.
func names[T any](table []T, name func(T) string) []string {
	out := make([]string, len(table))
	for i, r := range table {
		out[i] = name(r)
	}
	return out
}

// lookup returns the record named name, and whether there is one.
func lookup[T any](table []T, name func(T) string, want string) (T, bool) {
	for _, r := range table {
		if name(r) == want {
			return r, true
		}
	}
	var zero T
	return zero, false
}

// CodecOf returns a codec's record, and whether the codec exists.
func CodecOf(name string) (CodecInfo, bool) {
	return lookup(CodecTable, func(c CodecInfo) string { return c.Name }, name)
}

// AlgoOf returns an algorithm's record, and whether it exists.
func AlgoOf(name string) (AlgoInfo, bool) {
	return lookup(AlgoTable, func(a AlgoInfo) string { return a.Name }, name)
}

// LoweringOf returns a lowering word's record, and whether it exists.
func LoweringOf(name string) (LoweringInfo, bool) {
	return lookup(LoweringTable, func(l LoweringInfo) string { return l.Name }, name)
}

// FamilyOf returns the family of a target name ("cuda:nvlink": cuda), and
// whether arc knows it.
func FamilyOf(target string) (FamilyInfo, bool) {
	for _, f := range FamilyTable {
		if len(target) > len(f.Name) && target[:len(f.Name)] == f.Name && target[len(f.Name)] == ':' {
			return f, true
		}
	}
	return FamilyInfo{}, false
}

// LoweringNames lists the lowering words, in LoweringTable's order.
func LoweringNames() []string {
	return names(LoweringTable, func(l LoweringInfo) string { return l.Name })
}

// quantized lists the lossy codecs, the most bits per value first.
func quantized() []string {
	var lossy []CodecInfo
	for _, c := range CodecTable {
		if c.Lossy {
			lossy = append(lossy, c)
		}
	}
	slices.SortStableFunc(lossy, func(a, b CodecInfo) int { return b.BlockBytes - a.BlockBytes })
	return names(lossy, func(c CodecInfo) string { return c.Name })
}
