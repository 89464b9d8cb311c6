// Package codec holds the block codecs of arc's all-reduce kernels: each
// turns 32 float32 values into a fixed number of bytes and back, exactly as
// docs/FORMATS.md specifies.
//
// All arithmetic is float32, each operation rounded once. Products are
// wrapped in float32(...) wherever an addition may follow, because Go may
// otherwise fuse them into an FMA on some architectures.
package codec

import (
	"fmt"
	"slices"

	"github.com/arcpass/arc/abi"
	"github.com/arcpass/arc/reference/num"
)

// BlockSize is the number of values a codec encodes at once.
const BlockSize = 32

// Codec encodes one block of 32 values into BlockBytes bytes and back.
type Codec interface {
	Name() string
	BlockBytes() int
	EncodeBlock(dst []byte, src *[BlockSize]float32)
	DecodeBlock(dst *[BlockSize]float32, src []byte)
}

// Names lists the codecs in order of decreasing bits per value, fp8 last:
// the C API's order (package abi), without one-shot's "none".
func Names() []string { return slices.Clone(abi.Codecs[1:]) }

// New returns the named codec for buffers of type io. castBF16ToFP16 makes
// bf16 travel as f16 under the fp codec, scaled by a power of two per block
// (castCodec); it has no effect on other codecs or types.
func New(name string, io num.DType, castBF16ToFP16 bool) (Codec, error) {
	if !io.Valid() {
		return nil, fmt.Errorf("codec: invalid dtype %v", io)
	}
	switch name {
	case "fp":
		if castBF16ToFP16 && io == num.BF16 {
			return castCodec{}, nil
		}
		return fpCodec{io}, nil
	case "int8":
		return int8Codec, nil
	case "int6":
		return int6Codec, nil
	case "int4":
		return int4Codec, nil
	case "int4r":
		return int4r{}, nil
	case "fp8":
		return fp8Codec{}, nil
	}
	return nil, fmt.Errorf("codec: unknown codec %q (want one of %v)", name, Names())
}

// BitsPerValue is the codec's wire cost: bits sent per value.
func BitsPerValue(c Codec) float64 { return float64(8*c.BlockBytes()) / BlockSize }

// Blocks is the number of blocks that n values occupy.
func Blocks(n int) int { return (n + BlockSize - 1) / BlockSize }

// EncodedSize is the number of bytes Encode returns for n values.
func EncodedSize(c Codec, n int) int { return Blocks(n) * c.BlockBytes() }

// Encode encodes src block by block; a short last block is padded with +0.
func Encode(c Codec, src []float32) []byte {
	bb := c.BlockBytes()
	dst := make([]byte, EncodedSize(c, len(src)))
	var blk [BlockSize]float32
	for b := range Blocks(len(src)) {
		blk = [BlockSize]float32{}
		copy(blk[:], src[b*BlockSize:])
		c.EncodeBlock(dst[b*bb:(b+1)*bb], &blk)
	}
	return dst
}

// Decode decodes the first n values of enc; the padding of a short last
// block is dropped. enc must hold EncodedSize(c, n) bytes.
func Decode(c Codec, enc []byte, n int) []float32 {
	if len(enc) < EncodedSize(c, n) {
		panic(fmt.Sprintf("codec: %d bytes cannot hold %d %s values", len(enc), n, c.Name()))
	}
	bb := c.BlockBytes()
	dst := make([]float32, n)
	var blk [BlockSize]float32
	for b := range Blocks(n) {
		c.DecodeBlock(&blk, enc[b*bb:(b+1)*bb])
		copy(dst[b*BlockSize:], blk[:])
	}
	return dst
}

// fpCodec sends the values themselves in the wire type.
type fpCodec struct{ wire num.DType }

func (fpCodec) Name() string                                      { return "fp" }
func (c fpCodec) BlockBytes() int                                 { return BlockSize * c.wire.Size() }
func (c fpCodec) EncodeBlock(dst []byte, src *[BlockSize]float32) { num.NarrowTo(dst, c.wire, src[:]) }
func (c fpCodec) DecodeBlock(dst *[BlockSize]float32, src []byte) { num.WidenTo(dst[:], c.wire, src) }
