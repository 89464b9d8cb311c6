package collective

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/arcpass/arc/reference/codec"
	"github.com/arcpass/arc/reference/num"
)

// Case is one golden vector (docs/FORMATS.md, "Golden vectors").
type Case struct {
	Spec    Spec
	Inputs  [][]byte // each rank's input, raw little-endian I/O type
	Encoded []byte   // rank 0's input encoded with the codec: what it sends first (empty for oneshot)
	Output  []byte   // what every rank must produce
}

// NewCase computes a golden vector's encoded bytes and output.
func NewCase(s Spec, inputs [][]byte) (Case, error) {
	out, err := Expected(s, inputs)
	if err != nil {
		return Case{}, err
	}
	k := Case{Spec: s, Inputs: inputs, Output: out}
	if c, _ := s.NewCodec(); c != nil {
		k.Encoded = codec.Encode(c, num.Widen(s.DType, inputs[0]))
	}
	return k, nil
}

const goldenMagic = "ARCGOLD1"

// maxGoldenCount bounds a case's elements, so a corrupt header cannot ask
// for gigabytes.
const maxGoldenCount = 1 << 24

// castFlag is ARC_CAST_BF16_TO_FP16.
const castFlag = 1

// WriteGolden writes cases in the golden file format.
func WriteGolden(w io.Writer, cases []Case) error {
	bw := bufio.NewWriter(w)
	bw.WriteString(goldenMagic)
	for _, k := range cases {
		s := k.Spec
		flags := 0
		if s.Cast {
			flags = castFlag
		}
		count := len(k.Output) / s.DType.Size()
		for _, v := range []int{s.AlgoEnum(), s.CodecEnum(), int(s.DType), flags, s.World, count, len(k.Encoded)} {
			bw.Write(binary.LittleEndian.AppendUint32(nil, uint32(v)))
		}
		for _, in := range k.Inputs {
			bw.Write(in)
		}
		bw.Write(k.Encoded)
		bw.Write(k.Output)
	}
	return bw.Flush()
}

// ReadGolden reads a golden file's cases.
func ReadGolden(r io.Reader) ([]Case, error) {
	br := bufio.NewReader(r)
	magic := make([]byte, len(goldenMagic))
	if _, err := io.ReadFull(br, magic); err != nil || string(magic) != goldenMagic {
		return nil, fmt.Errorf("not a golden file (magic %q)", magic)
	}
	var cases []Case
	for {
		var h [7]uint32
		if err := binary.Read(br, binary.LittleEndian, &h); err != nil {
			if errors.Is(err, io.EOF) {
				return cases, nil
			}
			return nil, fmt.Errorf("case %d: header: %w", len(cases), err)
		}
		algo, codecID, dtype, flags, world, count, encBytes := h[0], h[1], h[2], h[3], h[4], h[5], h[6]
		if int(algo) >= len(algoEnum) || int(codecID) >= len(codecEnum) || !num.DType(dtype).Valid() {
			return nil, fmt.Errorf("case %d: bad header %v", len(cases), h)
		}
		k := Case{Spec: Spec{algoEnum[algo], codecEnum[codecID], num.DType(dtype), int(world), flags&castFlag != 0}}
		if err := k.Spec.Validate(); err != nil {
			return nil, fmt.Errorf("case %d: %v", len(cases), err)
		}
		size := int(count) * k.Spec.DType.Size()
		want := 0
		if c, _ := k.Spec.NewCodec(); c != nil {
			want = codec.EncodedSize(c, int(count))
		}
		if count > maxGoldenCount || int(encBytes) != want {
			return nil, fmt.Errorf("case %d: %d elements with %d encoded bytes (want %d)", len(cases), count, encBytes, want)
		}
		read := func(n int) ([]byte, error) {
			b := make([]byte, n)
			_, err := io.ReadFull(br, b)
			return b, err
		}
		var err error
		k.Inputs = make([][]byte, world)
		for r := range k.Inputs {
			if k.Inputs[r], err = read(size); err != nil {
				return nil, fmt.Errorf("case %d: input %d: %w", len(cases), r, err)
			}
		}
		if k.Encoded, err = read(int(encBytes)); err != nil {
			return nil, fmt.Errorf("case %d: encoded: %w", len(cases), err)
		}
		if k.Output, err = read(size); err != nil {
			return nil, fmt.Errorf("case %d: output: %w", len(cases), err)
		}
		cases = append(cases, k)
	}
}

// ReadGoldenFile reads the golden file at path.
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
