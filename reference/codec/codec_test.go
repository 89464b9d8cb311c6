package codec

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/arcpass/arc/abi"
	"github.com/arcpass/arc/reference/num"
)

func mustNew(t testing.TB, name string, io num.DType, cast bool) Codec {
	t.Helper()
	c, err := New(name, io, cast)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func abs(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ (1 << 31)) }

func finite(x float32) bool { return math.Float32bits(x)&0x7F800000 != 0x7F800000 }

// quantized lists the codecs that carry a scale (everything but fp).
var quantized = []string{"int8", "int6", "int4", "int4r", "fp8"}

func TestBlockBytes(t *testing.T) {
	for _, c := range []struct {
		name  string
		io    num.DType
		cast  bool
		bytes int
		bits  float64
	}{
		{"fp", num.F16, false, 64, 16},
		{"fp", num.BF16, false, 64, 16},
		{"fp", num.BF16, true, 65, 16.25},
		{"fp", num.F32, false, 128, 32},
		{"fp", num.F32, true, 128, 32},
		{"int8", num.F16, false, 34, 8.5},
		{"int6", num.BF16, false, 26, 6.5},
		{"int4", num.F32, false, 18, 4.5},
		{"int4r", num.F16, true, 18, 4.5},
		{"fp8", num.BF16, false, 36, 9},
	} {
		k := mustNew(t, c.name, c.io, c.cast)
		if k.Name() != c.name || k.BlockBytes() != c.bytes || BitsPerValue(k) != c.bits {
			t.Errorf("%s/%v: name %q, %d bytes, %g bits; want %d, %g", c.name, c.io, k.Name(), k.BlockBytes(), BitsPerValue(k), c.bytes, c.bits)
		}
	}
	if _, err := New("int2", num.F16, false); err == nil {
		t.Error("New accepted int2")
	}
	if _, err := New("fp", num.DType(7), false); err == nil {
		t.Error("New accepted dtype 7")
	}
}

// TestShortLastBlock: whole-buffer sizes, zero padding, and dropping it.
func TestShortLastBlock(t *testing.T) {
	for _, name := range Names() {
		c := mustNew(t, name, num.F16, false)
		for _, n := range []int{0, 1, 31, 32, 33, 45, 100} {
			src := make([]float32, n)
			for i := range src {
				src[i] = float32(i%7) - 3
			}
			enc := Encode(c, src)
			if len(enc) != (n+31)/32*c.BlockBytes() || len(enc) != EncodedSize(c, n) {
				t.Fatalf("%s n=%d: %d bytes", name, n, len(enc))
			}
			if n%32 != 0 {
				// The last block must be the encoding of its values then +0s.
				var blk [BlockSize]float32
				copy(blk[:], src[n/32*32:])
				want := make([]byte, c.BlockBytes())
				c.EncodeBlock(want, &blk)
				if got := enc[len(enc)-c.BlockBytes():]; string(got) != string(want) {
					t.Fatalf("%s n=%d: last block % x, want % x", name, n, got, want)
				}
			}
			if dec := Decode(c, enc, n); len(dec) != n {
				t.Fatalf("%s n=%d: decoded %d values", name, n, len(dec))
			}
		}
	}
}

// packBits is an independent bit writer for the layout tests.
func packBits(codes []int, bits int) []byte {
	out := make([]byte, len(codes)*bits/8)
	for i, c := range codes {
		for k := range bits {
			if c>>k&1 != 0 {
				pos := i*bits + k
				out[pos/8] |= 1 << (pos % 8)
			}
		}
	}
	return out
}

// TestIntLayout encodes x_i = i - 16 (m = -16 picks s = 16/B) and checks
// every byte: scale, codes, rounding ties to even, the clamp at B-1.
func TestIntLayout(t *testing.T) {
	var blk [BlockSize]float32
	for i := range blk {
		blk[i] = float32(i - 16)
	}
	int4q := []int{-8, -8, -7, -6, -6, -6, -5, -4, -4, -4, -3, -2, -2, -2, -1, 0,
		0, 0, 1, 2, 2, 2, 3, 4, 4, 4, 5, 6, 6, 6, 7, 7} // rne((i-16)/2), 7.5 clamps to 7
	for _, c := range []struct {
		name  string
		scale uint16
		q     func(i int) int
	}{
		{"int8", 0x3000, func(i int) int { return 8 * (i - 16) }}, // s = 0.125
		{"int6", 0x3800, func(i int) int { return 2 * (i - 16) }}, // s = 0.5
		{"int4", 0x4000, func(i int) int { return int4q[i] }},     // s = 2
	} {
		k := mustNew(t, c.name, num.F32, false).(intCodec)
		bias := 1 << (k.bits - 1)
		codes := make([]int, BlockSize)
		for i := range codes {
			codes[i] = c.q(i) + bias
		}
		want := binary.LittleEndian.AppendUint16(nil, c.scale)
		want = append(want, packBits(codes, int(k.bits))...)
		got := make([]byte, k.BlockBytes())
		k.EncodeBlock(got, &blk)
		if string(got) != string(want) {
			t.Errorf("%s:\n got % x\nwant % x", c.name, got, want)
		}
		var dec [BlockSize]float32
		k.DecodeBlock(&dec, got)
		s := num.F16ToF32(c.scale)
		for i, y := range dec {
			if y != float32(c.q(i))*s {
				t.Errorf("%s: decoded[%d] = %g, want %g", c.name, i, y, float32(c.q(i))*s)
			}
		}
	}
}

func TestFP8Layout(t *testing.T) {
	var blk [BlockSize]float32
	for i := range blk {
		blk[i] = float32(i-16) / 4 // a = 4: s = 4/448, r = 112
	}
	got := make([]byte, 36)
	fp8Codec{}.EncodeBlock(got, &blk)
	s := float32(4) / 448
	if binary.LittleEndian.Uint32(got) != math.Float32bits(s) {
		t.Errorf("scale bits %#08x, want %#08x", binary.LittleEndian.Uint32(got), math.Float32bits(s))
	}
	r := 1 / s
	for i, x := range blk {
		if want := num.E4M3FromF32(x * r); got[4+i] != want {
			t.Errorf("code %d = %#02x, want %#02x", i, got[4+i], want)
		}
	}
	if got[4] != 0xFE { // -4 * 112 = -448
		t.Errorf("extreme code %#02x, want 0xfe (-448)", got[4])
	}
}

func TestZeroBlock(t *testing.T) {
	var blk [BlockSize]float32
	for i := range blk {
		if i%3 == 0 {
			blk[i] = float32(math.Copysign(0, -1))
		}
	}
	for _, name := range quantized {
		c := mustNew(t, name, num.BF16, false)
		enc := make([]byte, c.BlockBytes())
		c.EncodeBlock(enc, &blk)
		scaleBytes := 2
		if name == "fp8" {
			scaleBytes = 4
		}
		for _, b := range enc[:scaleBytes] {
			if b != 0 {
				t.Errorf("%s: zero block has scale bytes % x, want +0", name, enc[:scaleBytes])
				break
			}
		}
		var dec [BlockSize]float32
		c.DecodeBlock(&dec, enc)
		for i, y := range dec {
			if math.Float32bits(y) != 0 {
				t.Fatalf("%s: zero block decodes [%d] = %g (bits %#x), want +0", name, i, y, math.Float32bits(y))
			}
		}
	}
}

func TestNonFiniteBlock(t *testing.T) {
	for _, bad := range []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))} {
		for _, name := range quantized {
			c := mustNew(t, name, num.F16, false)
			var blk [BlockSize]float32
			for i := range blk {
				blk[i] = float32(i)
			}
			blk[17] = bad
			enc := make([]byte, c.BlockBytes())
			c.EncodeBlock(enc, &blk)
			var dec [BlockSize]float32
			c.DecodeBlock(&dec, enc)
			for i, y := range dec {
				if !isNaN(y) {
					t.Fatalf("%s with %g: decoded[%d] = %g, want NaN", name, bad, i, y)
				}
			}
			switch name {
			case "fp8":
				if binary.LittleEndian.Uint32(enc) != 0x7FC00000 || string(enc[4:]) != string(make([]byte, 32)) {
					t.Errorf("fp8 with %g: % x", bad, enc)
				}
			default:
				k, ok := c.(intCodec)
				if !ok {
					k = int4Codec // int4r's NaN block is int4's: mode 0, a NaN scale, codes 8
				}
				codes := make([]int, BlockSize)
				for i := range codes {
					codes[i] = int(k.bias())
				}
				want := append([]byte{0x00, 0x7E}, packBits(codes, int(k.bits))...)
				if string(enc) != string(want) {
					t.Errorf("%s with %g: % x, want % x", name, bad, enc, want)
				}
			}
		}
	}
}

// TestExtremes: ±max finite of each I/O type and one huge value among zeros.
func TestExtremes(t *testing.T) {
	// f16's max survives every integer codec exactly: 65504/B is exact in f16.
	for _, name := range []string{"int8", "int6", "int4"} {
		c := mustNew(t, name, num.F16, false)
		for _, v := range []float32{65504, -65504} {
			blk := [BlockSize]float32{3: v, 4: 1, 5: -2}
			dec := roundTrip(c, &blk)
			if dec[3] != v {
				t.Errorf("%s: %g decodes to %g", name, v, dec[3])
			}
		}
	}
	// Beyond 65504*B the f16 scale saturates: the value decodes to ±65504*B.
	for _, name := range []string{"int8", "int6", "int4"} {
		c := mustNew(t, name, num.F32, false).(intCodec)
		blk := [BlockSize]float32{0: math.MaxFloat32, 1: 1}
		dec := roundTrip(c, &blk)
		if want := float32(65504 * c.bias()); dec[0] != want || dec[1] != 0 {
			t.Errorf("%s: f32 max decodes to %g, %g; want %g, 0", name, dec[0], dec[1], want)
		}
	}
	// fp8 keeps f32's range: the max decodes within e4m3's rounding.
	blk := [BlockSize]float32{0: math.MaxFloat32, 1: -math.MaxFloat32, 2: 1e30}
	dec := roundTrip(fp8Codec{}, &blk)
	if d := math.Abs(float64(dec[0]) - math.MaxFloat32); d > math.MaxFloat32*1e-6 || dec[1] != -dec[0] {
		t.Errorf("fp8: ±max decodes to %g, %g", dec[0], dec[1])
	}
}

func TestSubnormals(t *testing.T) {
	// f16 subnormals k * 2^-24, k in [-128, 120]: int8's scale is 2^-24, so they are exact.
	var blk [BlockSize]float32
	for i := range blk {
		blk[i] = float32(i*8-128) * 0x1p-24
	}
	dec := roundTrip(int8Codec, &blk)
	if dec != blk {
		t.Errorf("int8 on f16 subnormals:\n got %v\nwant %v", dec, blk)
	}
	// Below half the smallest f16 scale a block decodes to zero.
	blk = [BlockSize]float32{0: 0x1p-40, 1: -0x1p-41}
	if dec := roundTrip(int4Codec, &blk); dec != ([BlockSize]float32{}) {
		t.Errorf("int4 on tiny values: %v", dec)
	}
	// fp8 on f32 subnormals and tiny bf16 values: the minimum scale keeps 1/s finite.
	for _, a := range []float32{math.SmallestNonzeroFloat32, 0x1p-130, 1e-37, 1e-36} {
		blk := [BlockSize]float32{0: a, 1: -a / 2, 2: 0}
		dec := roundTrip(fp8Codec{}, &blk)
		for i, y := range dec {
			if !finite(y) || math.Abs(float64(y-blk[i])) > math.Max(float64(abs(blk[i]))/16, 0x1p-136) {
				t.Errorf("fp8 on %g: decoded[%d] = %g, want about %g", a, i, y, blk[i])
			}
		}
	}
}

func roundTrip(c Codec, blk *[BlockSize]float32) [BlockSize]float32 {
	enc := make([]byte, c.BlockBytes())
	c.EncodeBlock(enc, blk)
	var dec [BlockSize]float32
	c.DecodeBlock(&dec, enc)
	return dec
}

// TestErrorBounds checks each codec's worst-case error on random blocks
// with a wide spread of magnitudes.
func TestErrorBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		var blk [BlockSize]float32
		scale := math.Ldexp(1, rng.IntN(40)-20)
		for i := range blk {
			blk[i] = float32(rng.NormFloat64() * scale)
		}
		if rng.IntN(4) == 0 {
			blk[rng.IntN(BlockSize)] *= 50 // an outlier
		}
		for _, k := range []intCodec{int8Codec, int6Codec, int4Codec} {
			enc := make([]byte, k.BlockBytes())
			k.EncodeBlock(enc, &blk)
			s := num.F16ToF32(binary.LittleEndian.Uint16(enc))
			var dec [BlockSize]float32
			k.DecodeBlock(&dec, enc)
			for i, y := range dec {
				q := y / s
				if s == 0 {
					q = y // a zero scale decodes to +0
				}
				if q != float32(math.Round(float64(q))) || q < float32(-k.bias()) || q > float32(k.bias()-1) {
					t.Fatalf("%s: decoded %g is not a code times %g", k.name, y, s)
				}
				if d := math.Abs(float64(y - blk[i])); d > intErrorBound(k, blk[i], s) {
					t.Fatalf("%s: %g decodes to %g (scale %g)", k.name, blk[i], y, s)
				}
			}
		}
		dec := roundTrip(fp8Codec{}, &blk)
		var a float32
		for _, x := range blk {
			a = max(a, abs(x))
		}
		for i, y := range dec {
			if d := math.Abs(float64(y - blk[i])); d > float64(abs(blk[i]))*(1.0/16+1e-6)+float64(a/448)*0x1p-10 {
				t.Fatalf("fp8: %g decodes to %g (block max %g)", blk[i], y, a)
			}
		}
	}
}

// intErrorBound is the largest error integer codec k may make on x in a
// block whose decoded scale is s: half a step inside the code range, about a
// step for the clamped extreme (the f16 scale may round down by 2^-11).
// Subnormal and saturated scales are too coarse for a bound (+Inf).
func intErrorBound(k intCodec, x, s float32) float64 {
	b, s64 := float64(k.bias()), math.Abs(float64(s))
	switch {
	case s == 0:
		return b * 0x1p-25 // the block's largest magnitude rounded to a zero scale
	case s64 < 0x1p-14 || s64 == num.F16Max:
		return math.Inf(1)
	}
	if q := float64(x) / float64(s); q >= -b && q <= b-1 {
		return s64 / 2
	}
	return s64 * (1 + b/2048)
}

// TestIdempotent: integer codecs and fp re-encode their own output to the
// same bytes.
func TestIdempotent(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 500 {
		var blk [BlockSize]float32
		for i := range blk {
			blk[i] = float32(rng.NormFloat64() * 100)
		}
		for _, name := range []string{"fp", "int8", "int6", "int4"} {
			for _, io := range num.DTypes {
				c := mustNew(t, name, io, false)
				e1 := make([]byte, c.BlockBytes())
				c.EncodeBlock(e1, &blk)
				var dec [BlockSize]float32
				c.DecodeBlock(&dec, e1)
				e2 := make([]byte, c.BlockBytes())
				c.EncodeBlock(e2, &dec)
				if string(e1) != string(e2) {
					t.Fatalf("%s/%v: not idempotent:\n% x\n% x", name, io, e1, e2)
				}
			}
		}
	}
}

func TestFPLossless(t *testing.T) {
	for _, io := range num.DTypes {
		c := mustNew(t, "fp", io, false)
		src := make([]float32, 100)
		for i := range src {
			src[i] = num.Round(io, float32(math.Ldexp(float64(i)-50.3, i%30-15)))
		}
		if dec := Decode(c, Encode(c, src), len(src)); !equalBits(dec, src) {
			t.Errorf("fp/%v is not lossless", io)
		}
	}
}

func equalBits(a, b []float32) bool {
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return len(a) == len(b)
}

// FuzzRoundTrip: any 32 float32 values, every codec and type: sizes hold,
// the NaN rule holds, integer codecs stay within their error bound, int4r
// writes the bytes of docs/FORMATS.md's model, and decodes any 18 bytes
// (the data's first) as the model does.
func FuzzRoundTrip(f *testing.F) {
	f.Add(make([]byte, 128))
	f.Add(binary.LittleEndian.AppendUint32(make([]byte, 124), 0x7F800000))
	f.Add(binary.LittleEndian.AppendUint32(make([]byte, 124), 0x00000001))
	f32s := func(v ...float32) []byte {
		b := make([]byte, 128)
		for i, x := range v {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
		}
		return b
	}
	f.Add(f32s(60, 5, 0.5, -0.25))                 // int4r's split
	f.Add(f32s(3e38, -3e38, 1))                    // int4r's rotation overflows
	f.Add(f32s(-3.2, 1.1, 0.7, 2.5, -0.1, 0.4, 3)) // a short block
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 4*BlockSize {
			return
		}
		var raw [int4rBytes]byte
		copy(raw[:], data)
		var dec [BlockSize]float32
		int4r{}.DecodeBlock(&dec, raw[:])
		if want := modelDecode(raw); !sameBits(dec, want) {
			t.Fatalf("int4r decodes % x to %v, the model to %v", raw, dec, want)
		}
		var blk [BlockSize]float32
		allFinite := true
		for i := range blk {
			blk[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
			allFinite = allFinite && finite(blk[i])
		}
		for _, name := range Names() {
			for _, io := range num.DTypes {
				c := mustNew(t, name, io, io == num.BF16)
				dec := roundTrip(c, &blk)
				if name == "fp" && io == num.BF16 {
					checkCast(t, &blk, &dec)
				}
				if name == "fp" {
					continue
				}
				for i, y := range dec {
					if allFinite == isNaN(y) {
						t.Fatalf("%s: finite block %v, decoded[%d] = %g", name, allFinite, i, y)
					}
				}
				if name == "int4r" && io == num.F16 { // int4r ignores the type
					checkInt4r(t, &blk)
				}
				if k, ok := c.(intCodec); ok && allFinite {
					enc := make([]byte, k.BlockBytes())
					k.EncodeBlock(enc, &blk)
					s := num.F16ToF32(binary.LittleEndian.Uint16(enc))
					for i, y := range dec {
						if d := math.Abs(float64(y - blk[i])); d > intErrorBound(k, blk[i], s) {
							t.Fatalf("%s: %g decodes to %g (scale %g)", name, blk[i], y, s)
						}
					}
				}
			}
		}
	})
}

// TestRoundEven compares the magic-number rounding with math.RoundToEven on
// every float32 in [-129, 129] with at most 12 fraction bits (all ties and
// their neighbours included) and on random values.
func TestRoundEven(t *testing.T) {
	check := func(v float32) {
		if got, want := roundEven(v), float32(math.RoundToEven(float64(v))); got != want {
			t.Fatalf("roundEven(%g) = %g, want %g", v, got, want)
		}
	}
	for k := -129 << 12; k <= 129<<12; k++ {
		v := float32(k) / (1 << 12)
		check(v)
		check(math.Nextafter32(v, 200))
		check(math.Nextafter32(v, -200))
	}
	rng := rand.New(rand.NewPCG(9, 9))
	for range 100000 {
		check(float32(rng.Float64()*(1<<23) - (1 << 22)))
	}
}

// TestHadamardOrder compares the fused transform with the stage-by-stage
// definition of docs/FORMATS.md, bit for bit.
func TestHadamardOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for range 10000 {
		var u [BlockSize]float32
		for i := range u {
			u[i] = float32(rng.NormFloat64() * math.Ldexp(1, rng.IntN(60)-30))
		}
		want := u
		for h := 1; h < BlockSize; h *= 2 {
			for i := range BlockSize {
				if i&h == 0 {
					want[i], want[i+h] = want[i]+want[i+h], want[i]-want[i+h]
				}
			}
		}
		for i := range want {
			want[i] = float32(want[i] * 0.125)
		}
		hadamard(&u, 0.125)
		for i := range u {
			if math.Float32bits(u[i]) != math.Float32bits(want[i]) {
				t.Fatalf("hadamard[%d] = %g, want %g", i, u[i], want[i])
			}
		}
	}
}

// BenchmarkEncodeDecode: one block encoded and decoded, per codec, on N(0, 1)
// values; MB/s counts the block's bf16 input (64 bytes).
func BenchmarkEncodeDecode(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	blocks := make([][BlockSize]float32, 1024)
	for k := range blocks {
		for i := range blocks[k] {
			blocks[k][i] = float32(rng.NormFloat64())
		}
	}
	for _, name := range Names() {
		c := mustNew(b, name, num.BF16, false)
		enc := make([]byte, c.BlockBytes())
		var dec [BlockSize]float32
		b.Run(name, func(b *testing.B) {
			b.SetBytes(BlockSize * 2)
			b.ReportAllocs()
			k := 0
			for b.Loop() {
				c.EncodeBlock(enc, &blocks[k%len(blocks)])
				c.DecodeBlock(&dec, enc)
				k++
			}
		})
	}
}

// TestBlockBytesAreABIs: the wire sizes the cost model reads from package
// abi are the reference's.
func TestBlockBytesAreABIs(t *testing.T) {
	for _, name := range Names() {
		for _, io := range num.DTypes {
			for _, cast := range []bool{false, true} {
				if got, want := mustNew(t, name, io, cast).BlockBytes(), abi.BlockBytes(name, io.String(), cast); got != want {
					t.Errorf("%s/%v cast=%v: %d bytes a block, abi says %d", name, io, cast, got, want)
				}
			}
		}
	}
}
