package norm

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/arcpass/arc/abi"
	"github.com/arcpass/arc/reference/collective"
	"github.com/arcpass/arc/reference/num"
)

// Case is one golden vector of a fused kernel: every rank's input and
// residual, the weight and bias (nil without one), and every rank's h and
// y.
type Case struct {
	Spec         collective.Spec
	Recipe       Recipe
	Inputs       [][]byte
	Residuals    [][]byte
	Weight, Bias []byte
	H, Y         [][]byte
}

// NewCase computes a golden vector's outputs.
func NewCase(s collective.Spec, rc Recipe, inputs, residuals [][]byte, w, b []byte) (Case, error) {
	h, y, err := Expected(s, rc, inputs, residuals, w, b)
	if err != nil {
		return Case{}, err
	}
	return Case{s, rc, inputs, residuals, w, b, h, y}, nil
}

const goldenMagic = "ARCNORM2"

// WriteGolden writes cases: the magic, then per case a header of 32-bit
// words (algo, codec, dtype, cast, world, count, row, mean, weight, scale
// and eps bits, norm, bias 0 or 1, init bits) and the buffers: inputs, residuals
// (rank by rank), weight, bias (with one), h, y (rank by rank).
func WriteGolden(w io.Writer, cases []Case) error {
	bw := bufio.NewWriter(w)
	bw.WriteString(goldenMagic)
	for _, k := range cases {
		s, rc := k.Spec, k.Recipe
		cast, bias := 0, 0
		if s.Cast {
			cast = 1
		}
		if rc.Bias {
			bias = 1
		}
		count := len(k.Inputs[0]) / s.DType.Size()
		for _, v := range []uint32{uint32(s.AlgoEnum()), uint32(s.CodecEnum()), uint32(s.DType), uint32(cast), uint32(s.World),
			uint32(count), uint32(rc.Row), uint32(abi.NormMean(rc.Mean)), uint32(abi.NormWeight(rc.Weight)),
			math.Float32bits(rc.Scale), math.Float32bits(rc.Eps), uint32(abi.NormKind(rc.Norm)), uint32(bias), math.Float32bits(rc.Init)} {
			bw.Write(binary.LittleEndian.AppendUint32(nil, v))
		}
		for _, bufs := range [][][]byte{k.Inputs, k.Residuals, {k.Weight, k.Bias}, k.H, k.Y} {
			for _, b := range bufs {
				bw.Write(b)
			}
		}
	}
	return bw.Flush()
}

// ReadGolden reads a file of WriteGolden.
func ReadGolden(r io.Reader) ([]Case, error) {
	br := bufio.NewReader(r)
	magic := make([]byte, len(goldenMagic))
	if _, err := io.ReadFull(br, magic); err != nil || string(magic) != goldenMagic {
		return nil, fmt.Errorf("not a norm golden file (magic %q)", magic)
	}
	var cases []Case
	for {
		var hd [14]uint32
		if err := binary.Read(br, binary.LittleEndian, &hd); err != nil {
			if errors.Is(err, io.EOF) {
				return cases, nil
			}
			return nil, fmt.Errorf("case %d: header: %w", len(cases), err)
		}
		algo, codec, dtype, cast, world, count, row := hd[0], hd[1], hd[2], hd[3], hd[4], hd[5], hd[6]
		bad := func() error { return fmt.Errorf("case %d: bad header %v", len(cases), hd) }
		if int(algo) >= len(abi.Algos) || int(codec) >= len(abi.Codecs) || !num.DType(dtype).Valid() ||
			int(hd[7]) >= len(abi.NormMeans) || int(hd[8]) >= len(abi.NormWeights) || int(hd[11]) >= len(abi.NormKinds) ||
			hd[12] > 1 || world > 8 || count > 1<<22 ||
			row == 0 || count%row != 0 {
			return nil, bad()
		}
		c := abi.Codecs[codec]
		if c == "none" {
			c = ""
		}
		k := Case{
			Spec: collective.Spec{Algo: abi.Algos[algo], Codec: c, DType: num.DType(dtype), World: int(world), Cast: cast == 1},
			Recipe: Recipe{Norm: abi.NormKinds[hd[11]], Row: int(row), Mean: abi.NormMeans[hd[7]], Weight: abi.NormWeights[hd[8]],
				Scale: math.Float32frombits(hd[9]), Eps: math.Float32frombits(hd[10]), Bias: hd[12] == 1,
				Init: math.Float32frombits(hd[13])},
		}
		if err := k.Spec.Validate(); err != nil {
			return nil, fmt.Errorf("case %d: %v", len(cases), err)
		}
		size := int(count) * k.Spec.DType.Size()
		read := func(n int) []byte {
			b := make([]byte, n)
			if _, err := io.ReadFull(br, b); err != nil {
				return nil
			}
			return b
		}
		ranks := func(n int) [][]byte {
			out := make([][]byte, world)
			for r := range out {
				out[r] = read(n)
			}
			return out
		}
		k.Inputs, k.Residuals = ranks(size), ranks(size)
		k.Weight = read(int(row) * k.Spec.DType.Size())
		if k.Recipe.Bias {
			k.Bias = read(int(row) * k.Spec.DType.Size())
		}
		k.H, k.Y = ranks(size), ranks(size)
		if k.Y[len(k.Y)-1] == nil {
			return nil, fmt.Errorf("case %d: %w", len(cases), io.ErrUnexpectedEOF)
		}
		cases = append(cases, k)
	}
}

// ReadGoldenFile reads the norm golden file at path.
func ReadGoldenFile(path string) ([]Case, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	cases, err := ReadGolden(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return cases, nil
}
