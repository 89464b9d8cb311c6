// Package abi holds the facts arc's compiler and its runtime share: the
// names and C API numbers of the codecs, algorithms, links and element
// types, the world sizes the kernels run, and the runtime's buffer size.
// This is their one source (vocab.go's tables): the Go packages read them
// from here, the C and CUDA sides from gpu/arc_vocab.h, which go generate
// writes from the tables, and abi_test.go checks what the C side still
// states by hand (the world sizes, the default buffer size).
package abi

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Codecs are the codec names in the order of the C enum arc_codec:
// Codecs[i] is ARC_CODEC_<upper(name)> = i (CodecTable).
var Codecs = names(CodecTable, func(c CodecInfo) string { return c.Name })

// Algos are the kernel algorithms in the order of the C enum arc_algo.
var Algos = names(AlgoTable, func(a AlgoInfo) string { return a.Name })

// Links are how ranks reach each other's buffers, in the order of arc_link:
// peer (device memory through peer access) or host (pinned host memory).
var Links = names(LinkTable, func(l LinkInfo) string { return l.Name })

// DTypes are the element types the kernels take, in the order of arc_dtype.
var DTypes = names(DTypeTable, func(d DTypeInfo) string { return d.Name })

// Quantized lists the codecs that change values beyond the order of the
// additions, the most bits per value first: what --quant may name.
var Quantized = quantized()

// TwoShotWorlds are the group sizes the two-shot and hierarchical kernels
// run; OneShotWorlds those of the one-shot kernel.
var (
	TwoShotWorlds = []int{2, 4, 8}
	OneShotWorlds = []int{2, 4, 6, 8}
)

// DefaultMaxBytes is the largest all-reduce operand a communicator takes
// by default (arc_comm_create with max_bytes 0): the compiler keeps larger
// ones native, since every run would fail.
const DefaultMaxBytes = 256 << 20

// The kernels take any element count, a scalar (one element) included, and
// buffers of any alignment: whole atoms of 8 elements move as 16-byte
// vectors where both buffers are 16-byte aligned, and the last atom of a
// count that is not a multiple of 8, or every atom of a buffer that is not
// so aligned, element by element. Elements past the count read as +0 and
// are never written (docs/KERNELS.md, "Every size"), so a size is no reason
// to stay native.

// CodecBlock is the number of values a codec encodes at once.
const CodecBlock = 32

// BlockBytes is what one codec block of CodecBlock values occupies on the
// wire (docs/FORMATS.md): fp sends the I/O type itself, or for bf16 under
// --cast-bf16-to-fp16 an exponent byte and 32 scaled f16 values; the others
// a scale and codes (CodecInfo.BlockBytes). 0 for an unknown codec or dtype,
// and for none.
func BlockBytes(codec, dtype string, castBF16ToFP16 bool) int {
	c, ok := CodecOf(codec)
	if !ok || c.Name == "none" {
		return 0
	}
	if c.BlockBytes > 0 {
		return c.BlockBytes
	}
	d, ok := lookup(DTypeTable, func(d DTypeInfo) string { return d.Name }, dtype)
	switch {
	case !ok:
		return 0
	case dtype == "bf16" && castBF16ToFP16:
		return 1 + 2*CodecBlock
	}
	return d.Bytes * CodecBlock
}

// Codec returns a codec's C API number, or -1.
func Codec(name string) int { return slices.Index(Codecs, name) }

// Algo returns an algorithm's C API number, or -1.
func Algo(name string) int { return slices.Index(Algos, name) }

// Link returns a link's C API number, or -1.
func Link(name string) int { return slices.Index(Links, name) }

// WorldList names group sizes in a message: "2, 4, 6 or 8".
func WorldList(ns []int) string {
	words := make([]string, len(ns))
	for i, n := range ns {
		words[i] = strconv.Itoa(n)
	}
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// DType returns an element type's C API number, or -1.
func DType(name string) int { return slices.Index(DTypes, name) }

// Worlds lists the group sizes an algorithm runs (nil if unknown): the
// hierarchical kernel splits its group into two halves of 2 or 4 ranks.
func Worlds(algo string) []int {
	if a, ok := AlgoOf(algo); ok {
		return slices.Clone(a.Worlds)
	}
	return nil
}

// CheckKernel reports whether an algorithm, codec and group size name a
// kernel arc has: one-shot sends the inputs themselves (codec none), the
// others need a codec.
func CheckKernel(algo, codec string, world int) error {
	worlds := Worlds(algo)
	switch {
	case worlds == nil:
		return fmt.Errorf("unknown algorithm %q (want one of %v)", algo, Algos)
	case !slices.Contains(worlds, world):
		return fmt.Errorf("%s needs a world size in %v, not %d", algo, worlds, world)
	case !codes(algo) && codec != "none":
		return fmt.Errorf("%s takes no codec, not %q", algo, codec)
	case codes(algo) && (codec == "none" || Codec(codec) < 0):
		return fmt.Errorf("%s needs a codec in %v, not %q", algo, Codecs[1:], codec)
	}
	return nil
}

// codes reports an algorithm that sends its values through a codec.
func codes(algo string) bool {
	a, _ := AlgoOf(algo)
	return a.Codec
}
