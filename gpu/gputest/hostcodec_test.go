//go:build cgo

package gputest

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/arcpass/arc/internal/ctest"
	"github.com/arcpass/arc/reference/codec"
	"github.com/arcpass/arc/reference/collective"
	"github.com/arcpass/arc/reference/num"
)

// The kernels' arithmetic, compiled for the CPU, must agree with the Go
// reference bit for bit: conversions, every codec's bytes and decoded values.

var hostCodec struct {
	once sync.Once
	err  error
}

// needHostCodec builds testdata/hostcodec.cc with the kernels' headers
// (ctest.Build reads them, so the test cache sees an edit) and loads it.
func needHostCodec(t *testing.T) {
	t.Helper()
	hostCodec.once.Do(func() {
		hostCodec.err = errSkipped // until it loads: Build may skip the test
		lib := filepath.Join(os.TempDir(), fmt.Sprintf("arc-hostcodec-%d.so", os.Getpid()))
		ctest.Build(t, "g++", lib, "-std=c++17", "-O2", "-shared", "-fPIC", "-I", "..", filepath.Join("testdata", "hostcodec.cc"))
		hostCodec.err = openHostCodec(lib)
		os.Remove(lib)
	})
	if hostCodec.err == errSkipped {
		t.Skip("the host codec library was not built")
	}
	if hostCodec.err != nil {
		t.Fatal(hostCodec.err)
	}
}

var errSkipped = errors.New("skipped")

func sameFloat(a, b float32) bool {
	return math.Float32bits(a) == math.Float32bits(b) || (a != a && b != b)
}

// interesting returns f32 values around the edges of every format: zeros,
// subnormals, rounding ties, the largest finite values, Inf and NaN.
func interesting(rng *rand.Rand) []float32 {
	vals := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 65504, 65519.99, 65520, -65520, 448, 464, 463.99,
		480, 1e-8, 0x1p-24, 0x1p-25, 0x1.8p-25, 0x1p-14, 0x1p-6, 0x1p-9, 0x1p-10, 0x1.8p-10, 0x1p-126, 0x1p-149,
		math.MaxFloat32, float32(math.Inf(1)), float32(math.Inf(-1)), math.Float32frombits(0x7FC00000),
		math.Float32frombits(0xFFC00001)}
	for range 20000 {
		// random bits cover every exponent; ties come from bits with low zeros
		b := rng.Uint32()
		vals = append(vals, math.Float32frombits(b), math.Float32frombits(b&^0xFFF|0x1000), math.Float32frombits(b&^0xFFFF|0x8000))
	}
	return vals
}

func TestHostConversions(t *testing.T) {
	needHostCodec(t)
	rng := rand.New(rand.NewPCG(1, 2))
	for h := range 1 << 16 {
		for _, dt := range []num.DType{num.F16, num.BF16} {
			want := num.F16ToF32(uint16(h))
			if dt == num.BF16 {
				want = num.BF16ToF32(uint16(h))
			}
			if got := hostWiden16(int(dt), uint16(h)); !sameFloat(got, want) {
				t.Fatalf("%v widen %#04x: got %g, want %g", dt, h, got, want)
			}
		}
	}
	for c := range 256 {
		if got, want := hostE4M3ToF32(uint8(c)), num.E4M3ToF32(uint8(c)); !sameFloat(got, want) {
			t.Fatalf("e4m3 widen %#02x: got %g, want %g", c, got, want)
		}
	}
	for _, f := range interesting(rng) {
		if got, want := hostNarrow16(int(num.F16), f), num.F16FromF32(f); got != want && !(f != f) {
			t.Fatalf("f16 narrow %g (%#08x): got %#04x, want %#04x", f, math.Float32bits(f), got, want)
		}
		if got, want := hostNarrow16(int(num.BF16), f), num.BF16FromF32(f); got != want && !(f != f) {
			t.Fatalf("bf16 narrow %g (%#08x): got %#04x, want %#04x", f, math.Float32bits(f), got, want)
		}
		if got, want := hostE4M3(f), num.E4M3FromF32(f); got != want {
			t.Fatalf("e4m3 narrow %g (%#08x): got %#02x, want %#02x", f, math.Float32bits(f), got, want)
		}
	}
}

// testBlocks returns blocks that exercise a codec: gaussian at many scales,
// outliers, zeros of both signs, subnormals, huge values, spans of 40
// binades, NaN and Inf.
func testBlocks(rng *rand.Rand) [][32]float32 {
	var blocks [][32]float32
	for i := range 3000 {
		var b [32]float32
		scale := math.Ldexp(1, rng.IntN(80)-40)
		if i%7 == 0 {
			scale = math.Ldexp(1, rng.IntN(250)-140)
		}
		for j := range b {
			b[j] = float32(rng.NormFloat64() * scale)
		}
		switch i % 11 {
		case 1:
			b[rng.IntN(32)] *= 100 // an outlier
		case 2:
			b[rng.IntN(32)] = float32(math.Inf(1 - 2*(i&1)))
		case 3:
			b[rng.IntN(32)] = float32(math.NaN())
		case 4:
			for j := range b {
				b[j] = float32(math.Copysign(0, float64(1-2*(j&1))))
			}
		case 5:
			for j := range b[16:] {
				b[16+j] = 0 // a padded short block
			}
		case 6:
			b[0], b[1] = 65504, -65504
		case 7:
			b[3] = -b[3] * 1e6
		case 8:
			b[5] *= 0x1p40 // a span that the bf16 cast sends as bf16
		}
		blocks = append(blocks, b)
	}
	return blocks
}

func TestHostCodecsMatchReference(t *testing.T) {
	needHostCodec(t)
	rng := rand.New(rand.NewPCG(3, 4))
	blocks := testBlocks(rng)
	for _, name := range codec.Names() {
		for _, dt := range num.DTypes {
			for _, cast := range []bool{false, true} {
				if cast && (name != "fp" || dt != num.BF16) {
					continue
				}
				ref, err := codec.New(name, dt, cast)
				if err != nil {
					t.Fatal(err)
				}
				id := collective.Spec{Codec: name}.CodecEnum()
				if got := hostBlockBytes(id, int(dt), cast); got != ref.BlockBytes() {
					t.Fatalf("%s/%v: %d bytes per block, reference %d", name, dt, got, ref.BlockBytes())
				}
				want := make([]byte, ref.BlockBytes())
				for bi, b := range blocks {
					got := hostEncode(id, int(dt), cast, &b)
					ref.EncodeBlock(want, &b)
					if !bytes.Equal(got, want) {
						t.Fatalf("%s/%v cast=%v block %d %v:\nencoded % x\nwant    % x", name, dt, cast, bi, b, got, want)
					}
					var wantY [32]float32
					ref.DecodeBlock(&wantY, want)
					gotY := hostDecode(id, int(dt), cast, want)
					for i := range gotY {
						if !sameFloat(gotY[i], wantY[i]) {
							t.Fatalf("%s/%v block %d: decoded[%d] = %g, want %g", name, dt, bi, i, gotY[i], wantY[i])
						}
					}
				}
			}
		}
	}
}

// The golden vectors' encoded bytes (rank 0's input through the codec) come
// out of the kernels' arithmetic too.
func TestHostCodecsMatchGolden(t *testing.T) {
	needHostCodec(t)
	files, _ := filepath.Glob(filepath.Join(testdataDir, "*.golden"))
	if len(files) == 0 {
		t.Fatal("no golden vectors in " + testdataDir)
	}
	checked := 0
	for _, f := range files {
		cases, err := collective.ReadGoldenFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range cases {
			if len(k.Encoded) == 0 {
				continue
			}
			s := k.Spec
			id := s.CodecEnum()
			x := num.Widen(s.DType, k.Inputs[0])
			bb := hostBlockBytes(id, int(s.DType), s.Cast)
			for b := 0; b*32 < len(x); b++ {
				var blk [32]float32
				copy(blk[:], x[b*32:])
				if got, want := hostEncode(id, int(s.DType), s.Cast, &blk), k.Encoded[b*bb:(b+1)*bb]; !bytes.Equal(got, want) {
					t.Fatalf("%s: %s n=%d block %d:\nencoded % x\ngolden  % x", filepath.Base(f), s, len(x), b, got, want)
				}
			}
			checked++
		}
	}
	t.Logf("%d golden encodings match", checked)
}
