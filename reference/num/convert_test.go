package num

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

// format describes a small float format independently of the code under
// test: every finite non-negative value with its bit pattern, computed in
// float64 from the format's definition.
type format struct {
	name     string
	values   []float64 // ascending, finite, >= 0
	codes    []uint32  // codes[i] encodes values[i]
	signBit  uint32
	overflow float64 // magnitudes from here up overflow (to Inf, or saturate)
	inf      uint32  // the code for +Inf, or the saturated max
	isNaN    func(code uint32) bool
	narrow   func(float32) uint32
	widen    func(uint32) float32
}

func newFormat(name string, expBits, manBits, bias int, maxCode uint32, saturate bool) *format {
	f := &format{name: name, signBit: 1 << (expBits + manBits)}
	for code := uint32(0); code <= maxCode; code++ {
		e := int(code >> manBits)
		m := float64(code & (1<<manBits - 1))
		var v float64
		if e == 0 {
			v = math.Ldexp(m, 1-bias-manBits)
		} else {
			v = math.Ldexp(1+m/float64(int(1)<<manBits), e-bias)
		}
		f.values = append(f.values, v)
		f.codes = append(f.codes, code)
	}
	top := f.values[len(f.values)-1]
	ulp := top - f.values[len(f.values)-2]
	f.overflow = top + ulp/2 // the tie with the next (missing) code rounds up, away from max
	if saturate {
		f.inf = maxCode
		f.overflow = math.Inf(1)
	} else {
		f.inf = maxCode + 1
	}
	return f
}

// ref rounds x to the format: nearest value, ties to the even code.
func (f *format) ref(x float64) (code uint32, nan bool) {
	if math.IsNaN(x) {
		return 0, true
	}
	var sign uint32
	if math.Signbit(x) {
		sign, x = f.signBit, -x
	}
	if x >= f.overflow {
		return sign | f.inf, false
	}
	i := sort.SearchFloat64s(f.values, x) // first value >= x
	if i == len(f.values) {
		return sign | f.codes[i-1], false // above max, below the overflow point
	}
	if i == 0 || f.values[i] == x {
		return sign | f.codes[i], false
	}
	lo, hi := f.values[i-1], f.values[i]
	switch {
	case x-lo < hi-x:
		return sign | f.codes[i-1], false
	case x-lo > hi-x:
		return sign | f.codes[i], false
	case f.codes[i-1]&1 == 0:
		return sign | f.codes[i-1], false
	}
	return sign | f.codes[i], false
}

var (
	f16Format  = newFormat("f16", 5, 10, 15, 0x7BFF, false)
	bf16Format = newFormat("bf16", 8, 7, 127, 0x7F7F, false)
	e4m3Format = newFormat("e4m3", 4, 3, 7, 0x7E, true)
)

func init() {
	f16Format.narrow = func(v float32) uint32 { return uint32(F16FromF32(v)) }
	f16Format.widen = func(c uint32) float32 { return F16ToF32(uint16(c)) }
	f16Format.isNaN = func(c uint32) bool { return c&0x7C00 == 0x7C00 && c&0x3FF != 0 }
	bf16Format.narrow = func(v float32) uint32 { return uint32(BF16FromF32(v)) }
	bf16Format.widen = func(c uint32) float32 { return BF16ToF32(uint16(c)) }
	bf16Format.isNaN = func(c uint32) bool { return c&0x7F80 == 0x7F80 && c&0x7F != 0 }
	e4m3Format.narrow = func(v float32) uint32 { return uint32(E4M3FromF32(v)) }
	e4m3Format.widen = func(c uint32) float32 { return E4M3ToF32(uint8(c)) }
	e4m3Format.isNaN = func(c uint32) bool { return c&0x7F == 0x7F }
}

var formats = []*format{f16Format, bf16Format, e4m3Format}

// check compares one narrowing with the reference.
func (f *format) check(t *testing.T, v float32) {
	t.Helper()
	got := f.narrow(v)
	want, nan := f.ref(float64(v))
	if nan {
		if !f.isNaN(got) {
			t.Fatalf("%s(%g) = %#x, want NaN", f.name, v, got)
		}
		return
	}
	if got != want {
		t.Fatalf("%s(%g = %#08x) = %#x, want %#x", f.name, v, math.Float32bits(v), got, want)
	}
}

func TestWidenEveryCode(t *testing.T) {
	for _, f := range formats {
		for i, code := range f.codes {
			for _, sign := range []uint32{0, f.signBit} {
				want := f.values[i]
				if sign != 0 {
					want = -want
				}
				if got := f.widen(sign | code); float64(got) != want || math.Signbit(float64(got)) != (sign != 0) {
					t.Fatalf("%s widen(%#x) = %g, want %g", f.name, sign|code, got, want)
				}
			}
		}
	}
}

func TestRoundTripEveryCode(t *testing.T) {
	for _, f := range formats {
		n := uint32(2) * f.signBit
		for c := uint32(0); c < n; c++ {
			v := f.widen(c)
			got := f.narrow(v)
			if f.isNaN(c) {
				if !f.isNaN(got) {
					t.Fatalf("%s: NaN %#x narrows to %#x", f.name, c, got)
				}
				continue
			}
			if got != c {
				t.Fatalf("%s: %#x -> %g -> %#x", f.name, c, v, got)
			}
		}
	}
}

// TestRoundingBoundaries checks every midpoint between neighbouring values
// (the ties) and the float32 on either side of it, in both signs.
func TestRoundingBoundaries(t *testing.T) {
	for _, f := range formats {
		vals := append([]float64{}, f.values...)
		if !math.IsInf(f.overflow, 1) {
			vals = append(vals, 2*f.overflow-vals[len(vals)-1]) // the first value past max
		}
		for i := 1; i < len(vals); i++ {
			mid := float32((vals[i-1] + vals[i]) / 2)
			if float64(mid) != (vals[i-1]+vals[i])/2 {
				t.Fatalf("%s: midpoint %g not exact in float32", f.name, mid)
			}
			for _, v := range []float32{mid, math.Nextafter32(mid, 0), math.Nextafter32(mid, float32(math.Inf(1)))} {
				f.check(t, v)
				f.check(t, -v)
			}
		}
	}
}

func TestSpecialValues(t *testing.T) {
	inf := float32(math.Inf(1))
	nan := float32(math.NaN())
	maxF32 := float32(math.MaxFloat32)
	smallest := math.Float32frombits(1)
	for _, f := range formats {
		for _, v := range []float32{0, inf, nan, maxF32, smallest, math.Float32frombits(0x7FFFFF), 1, 448, 464, 465, 65504, 65519.996, 65520} {
			f.check(t, v)
			f.check(t, -v)
		}
	}
}

// TestKnownVectors pins results as CUDA's intrinsics give them.
func TestKnownVectors(t *testing.T) {
	for _, c := range []struct {
		v         float32
		f16, bf16 uint16
		e4m3      uint8
	}{
		{0, 0x0000, 0x0000, 0x00},
		{float32(math.Copysign(0, -1)), 0x8000, 0x8000, 0x80},
		{1, 0x3C00, 0x3F80, 0x38},
		{-2, 0xC000, 0xC000, 0xC0},
		{0.1, 0x2E66, 0x3DCD, 0x1D},
		{17, 0x4C40, 0x4188, 0x58}, // e4m3: tie between 16 and 18 goes to 16
		{448, 0x5F00, 0x43E0, 0x7E},
		{1000, 0x63D0, 0x447A, 0x7E},
		{65504, 0x7BFF, 0x4780, 0x7E},
		{65520, 0x7C00, 0x4780, 0x7E},
		{float32(math.Inf(-1)), 0xFC00, 0xFF80, 0xFE},
		{0x1p-24, 0x0001, 0x3380, 0x00},
		{0x1p-25, 0x0000, 0x3300, 0x00},
		{0x1.8p-25, 0x0001, 0x3340, 0x00},
		{0x1p-9, 0x1800, 0x3B00, 0x01},
		{0x1p-10, 0x1400, 0x3A80, 0x00},
		{0x1.8p-10, 0x1600, 0x3AC0, 0x01},
		{0x1p-130, 0x0000, 0x0008, 0x00}, // a bf16 subnormal: 8 * 2^-133
		{3.4028235e38, 0x7C00, 0x7F80, 0x7E},
		{float32(math.NaN()), F16NaN, BF16NaN, E4M3NaN},
	} {
		if got := F16FromF32(c.v); got != c.f16 {
			t.Errorf("F16FromF32(%g) = %#04x, want %#04x", c.v, got, c.f16)
		}
		if got := BF16FromF32(c.v); got != c.bf16 {
			t.Errorf("BF16FromF32(%g) = %#04x, want %#04x", c.v, got, c.bf16)
		}
		if got := E4M3FromF32(c.v); got != c.e4m3 {
			t.Errorf("E4M3FromF32(%g) = %#02x, want %#02x", c.v, got, c.e4m3)
		}
	}
}

func TestRandomFloat32(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := 1 << 20
	if testing.Short() {
		n = 1 << 16
	}
	for range n {
		v := math.Float32frombits(rng.Uint32())
		for _, f := range formats {
			f.check(t, v)
		}
	}
}

// TestBF16AllHighHalves covers every bf16 rounding boundary: rounding
// depends only on the low 16 bits relative to 0x8000 and the kept LSB.
func TestBF16AllHighHalves(t *testing.T) {
	for hi := uint32(0); hi < 1<<16; hi++ {
		for _, lo := range []uint32{0, 1, 0x7FFF, 0x8000, 0x8001, 0xFFFF} {
			bf16Format.check(t, math.Float32frombits(hi<<16|lo))
		}
	}
}

func TestWidenNarrowBuffers(t *testing.T) {
	src := []float32{0, 1, -2.5, 65504, 0x1p-24, float32(math.Inf(1))}
	for _, d := range DTypes {
		b := Narrow(d, src)
		if len(b) != len(src)*d.Size() {
			t.Fatalf("%s: %d bytes", d, len(b))
		}
		back := Widen(d, b)
		for i, v := range src {
			if back[i] != Round(d, v) {
				t.Errorf("%s: element %d: %g -> %g, want %g", d, i, v, back[i], Round(d, v))
			}
		}
	}
}

func TestParseDType(t *testing.T) {
	for _, d := range DTypes {
		got, err := ParseDType(d.String())
		if err != nil || got != d {
			t.Errorf("ParseDType(%q) = %v, %v", d.String(), got, err)
		}
	}
	if _, err := ParseDType("f64"); err == nil {
		t.Error("ParseDType(f64) accepted")
	}
	if F16.Size() != 2 || BF16.Size() != 2 || F32.Size() != 4 {
		t.Error("sizes")
	}
}

func TestFirstDiff(t *testing.T) {
	nan1 := Narrow(F16, []float32{1, float32(math.NaN()), 3})
	nan2 := append([]byte{}, nan1...)
	nan2[2], nan2[3] = 0x01, 0xFE // another NaN (negative, other payload)
	if got := FirstDiff(F16, nan1, nan2); got != -1 {
		t.Errorf("NaNs with different payloads differ at %d", got)
	}
	zero := Narrow(F32, []float32{0, 0})
	negZero := Narrow(F32, []float32{0, float32(math.Copysign(0, -1))})
	if got := FirstDiff(F32, zero, negZero); got != 1 {
		t.Errorf("+0 vs -0: FirstDiff = %d, want 1", got)
	}
	inf := Narrow(BF16, []float32{float32(math.Inf(1))})
	nan := Narrow(BF16, []float32{float32(math.NaN())})
	if got := FirstDiff(BF16, inf, nan); got != 0 {
		t.Errorf("Inf vs NaN: FirstDiff = %d, want 0", got)
	}
	if got := FirstDiff(BF16, inf, append(inf, 0, 0)); got != 1 {
		t.Errorf("length mismatch: FirstDiff = %d, want 1", got)
	}
}
