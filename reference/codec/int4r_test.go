package codec

import (
	"encoding/binary"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arcpass/arc/reference/num"
)

// The model below is docs/FORMATS.md's int4r read literally, written apart
// from the codec's fast paths: float comparisons instead of integer ones,
// the transform stage by stage, one bit at a time into the payload, codes
// clamped after rounding. Tests compare the codec with it byte for byte.

// bitWriter writes little-endian bit strings, one bit at a time.
type bitWriter struct {
	buf []byte
	pos int
}

func (w *bitWriter) put(v uint64, width int) {
	for k := range width {
		if v>>k&1 != 0 {
			w.buf[w.pos/8] |= 1 << (w.pos % 8)
		}
		w.pos++
	}
}

func bitsAt(b []byte, pos, width int) uint64 {
	var v uint64
	for k := range width {
		v |= uint64(b[(pos+k)/8]>>((pos+k)%8)&1) << k
	}
	return v
}

func modelF16c(v float32) uint16 {
	if v > num.F16Max {
		v = num.F16Max
	}
	if v < -num.F16Max {
		v = -num.F16Max
	}
	return num.F16FromF32(v)
}

// modelSignedMax is int4 step 2: mx > -mn picks mx, anything else mn.
func modelSignedMax(x []float32) float32 {
	mx, mn := x[0], x[0]
	for _, v := range x {
		if v > mx {
			mx = v
		}
		if v < mn {
			mn = v
		}
	}
	if mx > -mn {
		return mx
	}
	return mn
}

// modelQ is clamp(rne(v), lo, hi), clamped as a float (v may be huge).
func modelQ(v float32, lo, hi float64) int {
	return int(min(max(math.RoundToEven(float64(v)), lo), hi))
}

// modelTransform is the Walsh-Hadamard transform in stage order, then * k.
func modelTransform(u [32]float32, k float32) [32]float32 {
	for h := 1; h < 32; h *= 2 {
		for i := range 32 {
			if i&h == 0 {
				u[i], u[i+h] = u[i]+u[i+h], u[i]-u[i+h]
			}
		}
	}
	for i := range u {
		u[i] = float32(u[i] * k)
	}
	return u
}

func modelSign(i int) float32 {
	if 0x6A09E667>>i&1 != 0 {
		return -1
	}
	return 1
}

func modelRotate(x [32]float32) [32]float32 {
	for i := range x {
		x[i] = float32(x[i] * modelSign(i))
	}
	return modelTransform(x, 0.125)
}

func modelUnrotate(w [32]float32) [32]float32 {
	u := modelTransform(w, 0.25)
	for i := range u {
		u[i] = float32(u[i] * modelSign(i))
	}
	return u
}

// modelInt4 is modes 0 and 1: int4 of v with the truncated scale.
func modelInt4(v [32]float32, mode uint16) [18]byte {
	var b [18]byte
	h := modelF16c(modelSignedMax(v[:])/-8) &^ 3
	s := num.F16ToF32(h)
	w := bitWriter{buf: b[2:]}
	for _, x := range v {
		q := 0
		if s != 0 {
			q = modelQ(x*(1/s), -8, 7)
		}
		w.put(uint64(q+8), 4)
	}
	if s == 0 {
		h = 0
	}
	binary.LittleEndian.PutUint16(b[:], h|mode)
	return b
}

func modelSplit(x [32]float32) [18]byte {
	var b [18]byte
	k1, k2 := -1, -1
	for i, v := range x {
		if k1 < 0 || math.Abs(float64(v)) > math.Abs(float64(x[k1])) {
			k1 = i
		}
	}
	for i, v := range x {
		if i != k1 && (k2 < 0 || math.Abs(float64(v)) > math.Abs(float64(x[k2]))) {
			k2 = i
		}
	}
	r := x
	r[k1], r[k2] = 0, 0
	s16 := modelF16c(modelSignedMax(r[:]) / -4)
	h8 := (s16 + 0x80) >> 8
	if h8 == 0x7C || h8 == 0xFC {
		h8--
	}
	s := num.F16ToF32(h8 << 8)
	if s == 0 {
		h8 = 0
	}
	binary.LittleEndian.PutUint16(b[:], modelF16c(x[k1])&^3|2)
	w := bitWriter{buf: b[2:]}
	w.put(uint64(k1), 5)
	w.put(uint64(k2), 5)
	w.put(uint64(modelF16c(x[k2])), 16)
	w.put(uint64(h8), 8)
	for i, v := range r {
		if i == k1 || i == k2 {
			continue
		}
		q := 0
		if s != 0 {
			q = modelQ(v*(1/s), -4, 3)
		}
		w.put(uint64(q+4), 3)
	}
	return b
}

func modelDecode(b [18]byte) [32]float32 {
	var y [32]float32
	h := binary.LittleEndian.Uint16(b[:])
	p := b[2:]
	switch h & 3 {
	case 0, 1:
		s := num.F16ToF32(h &^ 3)
		for i := range y {
			y[i] = float32(int(bitsAt(p, 4*i, 4))-8) * s
		}
		if h&3 == 1 {
			y = modelUnrotate(y)
		}
	case 2:
		k1, k2 := int(bitsAt(p, 0, 5)), int(bitsAt(p, 5, 5))
		if k1 == k2 {
			return modelNaN()
		}
		s := num.F16ToF32(uint16(bitsAt(p, 26, 8)) << 8)
		j := 0
		for i := range y {
			if i != k1 && i != k2 {
				y[i] = float32(int(bitsAt(p, 34+3*j, 3))-4) * s
				j++
			}
		}
		y[k1] = num.F16ToF32(h &^ 3)
		y[k2] = num.F16ToF32(uint16(bitsAt(p, 10, 16)))
	default:
		return modelNaN()
	}
	return y
}

func modelNaN() (y [32]float32) {
	for i := range y {
		y[i] = float32(math.NaN())
	}
	return y
}

func modelError(x, y [32]float32) float32 {
	var g [4]float32
	for k := range g {
		for i := 8 * k; i < 8*k+8; i++ {
			d := y[i] - x[i]
			g[k] = g[k] + float32(d*d)
		}
	}
	return (g[0] + g[1]) + (g[2] + g[3])
}

// modelEncode returns the chosen bytes, the mode and every mode's E.
func modelEncode(x [32]float32) ([18]byte, int, [3]float32) {
	var errs [3]float32
	for _, v := range x {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			var b [18]byte
			binary.LittleEndian.PutUint16(b[:], 0x7E00)
			for i := 2; i < 18; i++ {
				b[i] = 0x88
			}
			return b, 0, [3]float32{float32(math.NaN()), float32(math.NaN()), float32(math.NaN())}
		}
	}
	cands := [3][18]byte{modelInt4(x, 0), modelInt4(modelRotate(x), 1), modelSplit(x)}
	best := 0
	for m, b := range cands {
		errs[m] = modelError(x, modelDecode(b))
		if errs[m] < errs[best] {
			best = m
		}
	}
	return cands[best], best, errs
}

func sameBits(a, b [32]float32) bool {
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) && !(isNaN(a[i]) && isNaN(b[i])) {
			return false
		}
	}
	return true
}

// checkInt4r: the codec writes the model's bytes, decodes them as the
// model does, keeps the error of the mode it picked, and a finite block
// decodes to finite values.
func checkInt4r(t *testing.T, x *[BlockSize]float32) (mode int) {
	t.Helper()
	want, mode, errs := modelEncode(*x)
	var got [18]byte
	int4r{}.EncodeBlock(got[:], x)
	if got != want {
		t.Fatalf("int4r on %v:\n got % x\nwant % x (model's mode %d, errors %v)", x, got, want, mode, errs)
	}
	var dec [BlockSize]float32
	int4r{}.DecodeBlock(&dec, got[:])
	if !sameBits(dec, modelDecode(want)) {
		t.Fatalf("int4r on %v: decoded %v, the model %v", x, dec, modelDecode(want))
	}
	if m, ok := signedMax(x); ok {
		_, e := candidates(x, m)
		for k := range e {
			if math.Float32bits(e[k]) != math.Float32bits(errs[k]) && !(isNaN(e[k]) && k == modeRotated) {
				t.Fatalf("int4r on %v: errors %v, the model's %v", x, e, errs)
			}
		}
		for i, y := range dec {
			if !finite(y) {
				t.Fatalf("int4r on finite %v: decoded[%d] = %g", x, i, y)
			}
		}
	}
	return mode
}

// TestInt4rMatchesModel compares the codec with the model on blocks of
// many shapes, and checks that every mode gets exercised.
func TestInt4rMatchesModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	gens := []func(*[BlockSize]float32){
		func(x *[BlockSize]float32) { // Gaussian at any scale
			s := math.Ldexp(1, rng.IntN(80)-40)
			for i := range x {
				x[i] = float32(rng.NormFloat64() * s)
			}
		},
		func(x *[BlockSize]float32) { // one or two outliers
			for i := range x {
				x[i] = float32(rng.NormFloat64())
			}
			for range 1 + rng.IntN(2) {
				x[rng.IntN(BlockSize)] = float32(rng.NormFloat64() * math.Ldexp(1, rng.IntN(12)))
			}
		},
		func(x *[BlockSize]float32) { // f16 or bf16 values
			for i := range x {
				x[i] = num.Round(num.DTypes[rng.IntN(2)], float32(rng.NormFloat64()*100))
			}
		},
		func(x *[BlockSize]float32) { // small integers: ties in magnitude and in rounding
			for i := range x {
				x[i] = float32(rng.IntN(33) - 16)
			}
		},
		func(x *[BlockSize]float32) { // sparse, zeros of both signs, a short block's padding
			negZero := float32(math.Copysign(0, -1))
			for i := range x {
				x[i] = negZero
				if rng.IntN(3) == 0 {
					x[i] = 0
				}
				if rng.IntN(6) == 0 {
					x[i] = float32(rng.NormFloat64())
				}
			}
			clear(x[rng.IntN(BlockSize):])
		},
		func(x *[BlockSize]float32) { // extremes: near f32's max, f16 and f32 subnormals
			choices := []float32{math.MaxFloat32, -3e38, 1e37, 65504, 65520, 1e6, 0x1p-24, 0x1p-25, 0x1p-149, 1e-40, 0}
			for i := range x {
				x[i] = choices[rng.IntN(len(choices))] * float32(rng.IntN(3)-1)
			}
		},
		func(x *[BlockSize]float32) { // the inverse rotation of an int4 grid: mode 1 is exact
			var q [BlockSize]float32
			for i := range q {
				q[i] = float32(rng.IntN(16) - 8)
			}
			*x = modelUnrotate(q)
		},
	}
	const blocks = 14000
	modes := map[int]int{}
	for k := range blocks {
		var x [BlockSize]float32
		gens[k%len(gens)](&x)
		modes[checkInt4r(t, &x)]++
	}
	t.Logf("modes chosen: %v", modes)
	for m := modePlain; m <= modeSplit; m++ {
		if modes[m] < blocks/20 {
			t.Errorf("mode %d chosen %d times in %d blocks: the comparison does not cover it", m, modes[m], blocks)
		}
	}
}

// layout writes a header and payload fields for the layout tests.
func layout(h uint16, fields ...[2]uint64) []byte {
	b := binary.LittleEndian.AppendUint16(nil, h)
	b = append(b, make([]byte, 16)...)
	w := bitWriter{buf: b[2:]}
	for _, f := range fields {
		w.put(f[0], int(f[1]))
	}
	if w.pos > 128 {
		panic("payload over 128 bits")
	}
	return b
}

func int4Fields(codes []int) [][2]uint64 {
	var f [][2]uint64
	for _, c := range codes {
		f = append(f, [2]uint64{uint64(c), 4})
	}
	return f
}

func encodeInt4r(x *[BlockSize]float32) ([]byte, [BlockSize]float32) {
	enc := make([]byte, int4rBytes)
	int4r{}.EncodeBlock(enc, x)
	var dec [BlockSize]float32
	int4r{}.DecodeBlock(&dec, enc)
	return enc, dec
}

// TestInt4rLayoutPlain: integers in [-7, 7] and -8.0234375, whose scale
// 8.0234375/8 is the f16 0x3C03: the header truncates it to 0x3C00 (1.0),
// so every integer is exact and only -8.0234375 rounds (to -8). Neither
// other mode comes close.
func TestInt4rLayoutPlain(t *testing.T) {
	var x [BlockSize]float32
	codes := make([]int, BlockSize)
	for i := range x {
		x[i] = float32(i*7%15 - 7)
		codes[i] = int(x[i]) + 8
	}
	x[0], codes[0] = -8.0234375, 0
	if f16c(x[0]/-8) != 0x3C03 {
		t.Fatalf("the scale is %#04x, want 0x3c03", f16c(x[0]/-8))
	}
	enc, dec := encodeInt4r(&x)
	if want := layout(0x3C00, int4Fields(codes)...); string(enc) != string(want) {
		t.Errorf("\n got % x\nwant % x", enc, want)
	}
	for i, y := range dec {
		if want := float32(codes[i] - 8); y != want {
			t.Errorf("decoded[%d] = %g, want %g", i, y, want)
		}
	}
}

// hadamardEntry is H_ij = (-1)^popcount(i&j), the transform's matrix.
func hadamardEntry(i, j int) float64 {
	if bits.OnesCount(uint(i&j))%2 == 1 {
		return -1
	}
	return 1
}

// TestInt4rLayoutRotated: x = (1/4) D H q for an int4 grid q (every code,
// -8 first) is exact in f32, and rotates back to q exactly, so mode 1 holds
// x without error: the header is the scale 1.0 with mode 1, the payload q's
// int4 codes.
func TestInt4rLayoutRotated(t *testing.T) {
	var x [BlockSize]float32
	codes := make([]int, BlockSize)
	for i := range codes {
		codes[i] = i * 5 % 16 // q_i = codes[i] - 8, q_0 = -8
	}
	for i := range x {
		var v float64
		for j, c := range codes {
			v += hadamardEntry(i, j) * float64(c-8)
		}
		x[i] = float32(0.25 * float64(modelSign(i)) * v)
	}
	enc, dec := encodeInt4r(&x)
	if want := layout(0x3C01, int4Fields(codes)...); string(enc) != string(want) {
		t.Errorf("\n got % x\nwant % x", enc, want)
	}
	if dec != x {
		t.Errorf("decoded %v, want %v", dec, x)
	}
	m, _ := signedMax(&x)
	if _, errs := candidates(&x, m); errs[modeRotated] != 0 || !(errs[modePlain] > 0) || !(errs[modeSplit] > 0) {
		t.Errorf("errors %v, want mode 1's alone 0", errs)
	}
}

// TestInt4rLayoutSplit: two large values and 30 on a 3-bit grid. The
// header holds the largest value truncated (its f16's low bits cleared);
// the second largest travels whole; the rest scale rounds the top byte of
// its f16 and the code of the value that set it clamps.
func TestInt4rLayoutSplit(t *testing.T) {
	for _, c := range []struct {
		name   string
		k1, k2 int
		v1, v2 float32 // x_k1, x_k2
		rest   func(i int) int
		unit   float32 // the rest is rest(i) * unit
		first  float32 // then x_0, if not 0
		h      uint16  // the header
		v2f16  uint16
		h8     uint64
		y1     float32 // x'_k1
		y0     float32 // x'_0
	}{
		// 1001.5 is the f16 0x63D3, truncated to 0x63D0 (1000); -300.25 is
		// 0xDCB1, kept whole. The rest's largest, -3.25, gives the scale
		// 0.8125 = 0x3A80, whose top byte rounds up to 0x3B (0.875):
		// -3.25 / 0.875 = -3.71 rounds to code -4, -3.5.
		{"rounding", 5, 20, 1001.5, -300.25, func(i int) int { return i*3%7 - 3 }, 0.875, -3.25,
			0x63D2, 0xDCB1, 0x3B, 1000, -3.5},
		// k2 below k1 and a negative header: -2000.7 is the f16 0xE7D1
		// (-2001), truncated to 0xE7D0 (-2000); 1501 is 0x65DD, whole. The
		// rest is i%8 - 4 times 2^-4, whose scale 2^-4 is 0x2C00.
		{"k2 before k1", 31, 3, -2000.7, 1501, func(i int) int { return i%8 - 4 }, 0x1p-4, 0,
			0xE7D2, 0x65DD, 0x2C, -2000, -0.25},
	} {
		var x [BlockSize]float32
		for i := range x {
			x[i] = float32(c.rest(i)) * c.unit
		}
		if c.first != 0 {
			x[0] = c.first
		}
		x[c.k1], x[c.k2] = c.v1, c.v2
		fields := [][2]uint64{{uint64(c.k1), 5}, {uint64(c.k2), 5}, {uint64(c.v2f16), 16}, {c.h8, 8}}
		for i := range x {
			if i == c.k1 || i == c.k2 {
				continue
			}
			q := c.rest(i)
			if i == 0 && c.first != 0 {
				q = -4
			}
			fields = append(fields, [2]uint64{uint64(q + 4), 3})
		}
		enc, dec := encodeInt4r(&x)
		if want := layout(c.h, fields...); string(enc) != string(want) {
			t.Errorf("%s:\n got % x\nwant % x", c.name, enc, want)
		}
		if bitsAt(enc[2:], 124, 4) != 0 {
			t.Errorf("%s: bits 124-127 are not zero", c.name)
		}
		for i, y := range dec {
			want := float32(c.rest(i)) * c.unit
			switch i {
			case c.k1:
				want = c.y1
			case c.k2:
				want = c.v2
			case 0:
				want = c.y0
			}
			if y != want {
				t.Errorf("%s: decoded[%d] = %g, want %g", c.name, i, y, want)
			}
		}
	}
}

// TestSqErrorOrder: E sums four groups of eight in index order, then the
// groups in pairs. With d = (1, 2^-12, ..., 2^-12) a single running sum
// stays at 1 (each 2^-24 is half an ulp, a tie to even) where the groups
// keep 3 * 2^-21 of it.
func TestSqErrorOrder(t *testing.T) {
	var x, y [BlockSize]float32
	for i := range y {
		y[i] = 0x1p-12
	}
	y[0] = 1
	if got, want := sqError(&x, &y), float32(1+3*0x1p-21); got != want {
		t.Errorf("sqError = %x, want %x", got, want)
	}
	if got := modelError(x, y); got != 1+3*0x1p-21 {
		t.Errorf("the model's error = %x", got)
	}
}

func TestChooseMode(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	for _, c := range []struct {
		errs [3]float32
		want int
	}{
		{[3]float32{1, 2, 3}, 0},
		{[3]float32{3, 2, 1}, 2},
		{[3]float32{2, 1, 1}, 1}, // a tie keeps the lower mode
		{[3]float32{1, 1, 1}, 0},
		{[3]float32{0, 0, 0}, 0},
		{[3]float32{2, nan, 1}, 2}, // NaN never wins
		{[3]float32{2, 1, nan}, 1},
		{[3]float32{inf, nan, inf}, 0},
		{[3]float32{inf, nan, 5}, 2},
		{[3]float32{math.SmallestNonzeroFloat32, 0, 0}, 1},
	} {
		if got := chooseMode(c.errs); got != c.want {
			t.Errorf("chooseMode(%v) = %d, want %d", c.errs, got, c.want)
		}
	}
}

// TestInt4rTies: blocks that several modes hold exactly go to the lowest.
func TestInt4rTies(t *testing.T) {
	negZero := float32(math.Copysign(0, -1))
	for _, c := range []struct {
		name string
		x    [BlockSize]float32
		errs [3]float32
		want []byte
	}{
		// All zero: every mode is exact; mode 0 with a +0 scale.
		{"zeros", [BlockSize]float32{3: negZero}, [3]float32{0, 0, 0}, layout(0, int4Fields(slices.Repeat([]int{8}, 32))...)},
		// 60 e_0 + 4 e_1 rotates to -8, -7, -8, -7, ...: modes 1 and 2 are
		// exact, plain int4 is not (4 / 7.5 rounds to 1).
		{"rotated and split", [BlockSize]float32{60, 4}, [3]float32{12.25, 0, 0}, nil},
	} {
		m, _ := signedMax(&c.x)
		if _, errs := candidates(&c.x, m); errs != c.errs {
			t.Errorf("%s: errors %v, want %v", c.name, errs, c.errs)
		}
		enc, dec := encodeInt4r(&c.x)
		want := c.want
		if want == nil {
			codes := make([]int, 32)
			for i := range codes {
				codes[i] = i % 2 // -8 + 8, -7 + 8
			}
			want = layout(0x3C01, int4Fields(codes)...)
		}
		if string(enc) != string(want) {
			t.Errorf("%s:\n got % x\nwant % x", c.name, enc, want)
		}
		if dec != c.x {
			t.Errorf("%s: decoded %v", c.name, dec)
		}
	}
	// Change 4 into 5 and the split alone is exact; its zeros decode to
	// +0, the -0 among them too.
	x := [BlockSize]float32{60, 5, 2: negZero}
	enc, dec := encodeInt4r(&x)
	fields := [][2]uint64{{0, 5}, {1, 5}, {0x4500, 16}, {0, 8}}
	for range 30 {
		fields = append(fields, [2]uint64{4, 3})
	}
	if want := layout(0x5380|modeSplit, fields...); string(enc) != string(want) {
		t.Errorf("60, 5:\n got % x\nwant % x", enc, want)
	}
	for i, y := range dec {
		want := x[i]
		if i == 2 {
			want = 0
		}
		if math.Float32bits(y) != math.Float32bits(want) {
			t.Errorf("60, 5: decoded[%d] = %g (bits %#x)", i, y, math.Float32bits(y))
		}
	}
}

// TestInt4rZeroScales: a scale that is zero after truncation, or a rest
// scale of either zero, is stored as +0 with every code at zero; the
// decoded zeros are +0 whatever the sign of the block's extreme value.
func TestInt4rZeroScales(t *testing.T) {
	for _, m := range []float32{3 * 8 * 0x1p-24, -3 * 8 * 0x1p-24, 0x1p-30, 0, float32(math.Copysign(0, -1))} {
		x := [BlockSize]float32{m}
		for mode := range uint16(2) {
			var b [int4rBytes]byte
			var y [BlockSize]float32
			encodeInt4(&b, &x, m, mode, &y)
			if want := layout(mode, int4Fields(slices.Repeat([]int{8}, 32))...); string(b[:]) != string(want) {
				t.Errorf("m = %g, mode %d: % x, want % x", m, mode, b, want)
			}
			for i, v := range y {
				if math.Float32bits(v) != 0 {
					t.Errorf("m = %g, mode %d: y[%d] = %g", m, mode, i, v)
				}
			}
		}
	}
}

// TestSplitScale: the rest scale is the top byte of f16c(m / -4), rounded
// half up on the magnitude; the all-ones exponent steps back to 0x7B/0xFB;
// zero scales are +0.
func TestSplitScale(t *testing.T) {
	for _, c := range []struct {
		m  float32
		h8 uint8
	}{
		{-4, 0x3C},                            // 1.0 = 0x3C00
		{4, 0xBC},                             // -1.0
		{-3.25, 0x3B},                         // 0.8125 = 0x3A80: a half rounds up, to 0.875
		{-3.248046875, 0x3A},                  // 0x3A7F rounds down, to 0.75
		{-4.75, 0x3D},                         // 1.1875 = 0x3CC0: up to 1.25
		{-4.25, 0x3C},                         // 1.0625 = 0x3C40: down to 1.0
		{-4 * 61440, 0x7B},                    // 0x7B80 rounds into the Inf exponent: back to 0x7B (57344)
		{4 * 61440, 0xFB},                     // and its negative
		{-1e30, 0x7B},                         // clamped to 65504 (0x7BFF) first
		{1e30, 0xFB},                          //
		{-4 * 0x1p-16, 0x01},                  // 0x0100: the smallest nonzero scale, 2^-16
		{-4 * 0x1p-17, 0x01},                  // 0x0080 rounds up to 0x0100
		{-4 * 0x1.fcp-18, 0x00},               // 0x007F rounds down to zero
		{4 * 0x1.fcp-18, 0x00},                // 0x807F rounds to 0x80, -0: stored as +0
		{0, 0x00},                             // a -0 scale: +0
		{float32(math.Copysign(0, -1)), 0x00}, // a +0 scale
	} {
		h8, s := splitScale(c.m)
		if h8 != c.h8 || math.Float32bits(s) != math.Float32bits(num.F16ToF32(uint16(c.h8)<<8)) {
			t.Errorf("splitScale(%g) = %#02x, %g; want %#02x (s16 %#04x)", c.m, h8, s, c.h8, f16c(c.m/-4))
		}
	}
}

// TestInt4rTopOfRange: f32 blocks near the top of the range. Two large
// values of opposite rotated signs overflow the rotation's sums: mode 1 is
// then no candidate (E NaN). Either way every E is +Inf, and the block is
// mode 0, saturated but finite.
func TestInt4rTopOfRange(t *testing.T) {
	for _, c := range []struct {
		x         [BlockSize]float32
		overflows bool
	}{
		{[BlockSize]float32{math.MaxFloat32, 1, 2, 3}, false},
		{[BlockSize]float32{3e38, -3e38, 1, -1}, true}, // d_0 = d_1 = -1: u_0 - u_1 = -6e38
		{[BlockSize]float32{-2e38, 3: -2e38, 31: 5}, true},
	} {
		x := c.x
		m, _ := signedMax(&x)
		_, errs := candidates(&x, m)
		if isNaN(errs[modeRotated]) != c.overflows || !math.IsInf(float64(errs[modePlain]), 1) || !math.IsInf(float64(errs[modeSplit]), 1) {
			t.Errorf("%v: errors %v, want +Inf, %s, +Inf", x[:4], errs, map[bool]string{true: "NaN", false: "+Inf"}[c.overflows])
		}
		enc, dec := encodeInt4r(&x)
		var plain [int4rBytes]byte
		var y [BlockSize]float32
		encodeInt4(&plain, &x, m, modePlain, &y)
		if string(enc) != string(plain[:]) || enc[0]&modeBits != modePlain {
			t.Errorf("%v: % x, want mode 0's % x", x[:4], enc, plain)
		}
		for i, v := range dec {
			if !finite(v) || math.Abs(float64(v)) > 8*65472 {
				t.Errorf("%v: decoded[%d] = %g", x[:4], i, v)
			}
		}
		checkInt4r(t, &x)
	}
}

// TestInt4rInvalidBlocks: mode 3 and a split with k1 == k2 decode to NaN.
func TestInt4rInvalidBlocks(t *testing.T) {
	for _, b := range [][]byte{
		layout(0x3C03, int4Fields(slices.Repeat([]int{9}, 32))...),
		layout(0x3C02, [2]uint64{7, 5}, [2]uint64{7, 5}, [2]uint64{0x3C00, 16}, [2]uint64{0x3C, 8}),
	} {
		var dec [BlockSize]float32
		int4r{}.DecodeBlock(&dec, b)
		for i, y := range dec {
			if !isNaN(y) {
				t.Errorf("% x: decoded[%d] = %g, want NaN", b, i, y)
			}
		}
	}
}

// TestInt4rOnOutlierBlocks: on N(0, 1) blocks with one outlier of gain g,
// the error energy of plain int4 (mode 0 alone), of the rotation alone
// (mode 1, the first int4r) and of int4r's choice. Rotation alone stops
// halving int4's error (in L2) beyond a gain of about 40: the rotated
// outlier raises the step of all 32 codes. int4r must halve it at every
// gain. Run with -v for the table of docs/ACCURACY.md.
func TestInt4rOnOutlierBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, gain := range []float32{5, 10, 20, 30, 40, 60, 80, 100} {
		var e [4]float64 // plain, rotated, split, int4r
		for range 2000 {
			var x [BlockSize]float32
			for i := range x {
				x[i] = float32(rng.NormFloat64())
			}
			x[rng.IntN(BlockSize)] = gain * float32(1+0.1*rng.NormFloat64())
			m, _ := signedMax(&x)
			_, errs := candidates(&x, m)
			for k := range errs {
				e[k] += float64(errs[k])
			}
			e[3] += float64(errs[chooseMode(errs)])
		}
		rot, best := math.Sqrt(e[1]/e[0]), math.Sqrt(e[3]/e[0])
		t.Logf("gain %3g: L2 error over int4's: rotation alone %.2f, split alone %.2f, int4r %.2f",
			gain, rot, math.Sqrt(e[2]/e[0]), best)
		if best > 0.5 && gain >= 10 {
			t.Errorf("gain %g: int4r's error is %.2f of int4's, want <= 0.5", gain, best)
		}
	}
}
