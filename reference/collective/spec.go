// Package collective is the Go reference of arc's all-reduce kernels: the
// exact output docs/FORMATS.md defines (Expected) and a simulation of the
// data each rank sends and receives (Run).
package collective

import (
	"fmt"
	"slices"

	"github.com/arcpass/arc/abi"
	"github.com/arcpass/arc/reference/codec"
	"github.com/arcpass/arc/reference/num"
)

// Spec names one all-reduce: algorithm, codec, I/O type and world size.
type Spec struct {
	Algo  string    // "oneshot", "twoshot" or "hier"
	Codec string    // one of codec.Names(); "" (or "none") for oneshot
	DType num.DType // the I/O type
	World int       // number of ranks
	Cast  bool      // bf16 travels as f16 under the fp codec (see codec.New)
}

// Algos lists the algorithms (in arc_algo's order).
func Algos() []string { return slices.Clone(algoEnum) }

// Worlds lists the world sizes an algorithm supports (nil if unknown).
func Worlds(algo string) []int { return abi.Worlds(algo) }

// Codecs lists the codecs an algorithm accepts: none for oneshot, every
// codec for the others.
func Codecs(algo string) []string {
	switch algo {
	case "oneshot":
		return []string{""}
	case "twoshot", "hier":
		return codec.Names()
	}
	return nil
}

// The C API's enum values (gpu/arc_gpu.h, checked by package abi): arc_algo
// and arc_codec are the positions in these lists; the spec names one-shot's
// "none" codec "".
var (
	algoEnum  = abi.Algos
	codecEnum = append([]string{""}, abi.Codecs[1:]...)
)

// AlgoEnum is the spec's arc_algo value, -1 if unknown.
func (s Spec) AlgoEnum() int { return slices.Index(algoEnum, s.Algo) }

// CodecEnum is the spec's arc_codec value (ARC_CODEC_NONE = 0 for oneshot),
// -1 if unknown.
func (s Spec) CodecEnum() int { return slices.Index(codecEnum, s.codecName()) }

func (s Spec) codecName() string {
	if s.Codec == "none" {
		return ""
	}
	return s.Codec
}

// Validate reports whether the algorithm, codec, type and world size fit.
func (s Spec) Validate() error {
	if !s.DType.Valid() {
		return fmt.Errorf("invalid dtype %v", s.DType)
	}
	c := s.Codec
	if c == "" {
		c = "none"
	}
	return abi.CheckKernel(s.Algo, c, s.World)
}

func (s Spec) String() string {
	name := s.Algo
	if c := s.codecName(); c != "" {
		name += "/" + c
	}
	name += fmt.Sprintf("/%v/w%d", s.DType, s.World)
	if s.Cast {
		name += "/cast"
	}
	return name
}

// NewCodec returns the spec's codec, nil for oneshot.
func (s Spec) NewCodec() (codec.Codec, error) {
	if s.codecName() == "" {
		return nil, nil
	}
	return codec.New(s.Codec, s.DType, s.Cast)
}

// BitsPerValue is what one value costs on the wire: the codec's bits, or
// the I/O type's for oneshot, which sends the inputs themselves.
func (s Spec) BitsPerValue() float64 {
	c, err := s.NewCodec()
	if err != nil || c == nil {
		return float64(8 * s.DType.Size())
	}
	return codec.BitsPerValue(c)
}

// check validates the spec and the inputs, and returns the codec and the
// number of elements per rank.
func (s Spec) check(inputs [][]byte) (codec.Codec, int, error) {
	if err := s.Validate(); err != nil {
		return nil, 0, err
	}
	if len(inputs) != s.World {
		return nil, 0, fmt.Errorf("%d inputs for world %d", len(inputs), s.World)
	}
	size := len(inputs[0])
	for r, in := range inputs {
		if len(in) != size {
			return nil, 0, fmt.Errorf("rank %d has %d bytes, rank 0 has %d", r, len(in), size)
		}
	}
	if size%s.DType.Size() != 0 {
		return nil, 0, fmt.Errorf("%d bytes is not a whole number of %v elements", size, s.DType)
	}
	c, err := s.NewCodec()
	return c, size / s.DType.Size(), err
}
