package codec

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/arcpass/arc/reference/num"
)

// TestCastLayout: byte 0 is E, then x * 2^(127-E) as f16, for blocks whose
// E is worked out by hand.
func TestCastLayout(t *testing.T) {
	c := mustNew(t, "fp", num.BF16, true)
	for _, k := range []struct {
		x    []float32
		e    byte
		want []uint16
	}{
		{[]float32{1, -0.5}, 127 - 14, []uint16{0x7400, 0xF000}},       // 1 scales to 2^14
		{[]float32{70144, 1}, 127 + 16 - 14, []uint16{0x7448, 0x3400}}, // bf16(70000) = 70144 = 1.0703125 * 2^16
		{[]float32{0x1p-133, 0}, 1, []uint16{0x2000, 0}},               // the smallest bf16 at the floor: 2^-7
		{[]float32{float32(math.Inf(-1)), 2, float32(math.NaN())}, 127 + 1 - 14, []uint16{0xFC00, 0x7400, num.F16NaN}},
		{nil, 1, nil}, // zeros: E = 1
		{[]float32{0x1p40, 0x1p9, 0x1p10}, 127 + 40 - 14, []uint16{0x7400, 0x0080, 0x0100}}, // 2^9 is 31 binades below: an f16 subnormal
		{[]float32{0x1p40, 0x1p8, 0x1p10}, 0, []uint16{0x5380, 0x4380, 0x4480}},             // 2^8 is 32 below: the block goes as bf16
	} {
		var blk [BlockSize]float32
		copy(blk[:], k.x)
		enc := make([]byte, CastBlockBytes)
		c.EncodeBlock(enc, &blk)
		if enc[0] != k.e {
			t.Errorf("%v: E = %d, want %d", k.x, enc[0], k.e)
		}
		for i := range BlockSize {
			want := uint16(0)
			if i < len(k.want) {
				want = k.want[i]
			}
			if got := binary.LittleEndian.Uint16(enc[1+2*i:]); got != want {
				t.Errorf("%v: value %d is %#04x, want %#04x", k.x, i, got, want)
			}
		}
	}
}

// TestCastKeepsBF16: random bf16 blocks over the whole bf16 range, of
// narrow and wide spans, come back bit for bit.
func TestCastKeepsBF16(t *testing.T) {
	c := mustNew(t, "fp", num.BF16, true)
	rng := rand.New(rand.NewPCG(7, 8))
	scaled, wide := 0, 0
	for range 20000 {
		var blk [BlockSize]float32
		lo, hi := rng.IntN(260)-133, 0
		hi = lo + rng.IntN(127-lo)
		for i := range blk {
			e := lo + rng.IntN(hi-lo+1)
			v := float32(math.Ldexp(rng.Float64()+0.5, e))
			if rng.IntN(2) == 0 {
				v = -v
			}
			blk[i] = num.BF16ToF32(num.BF16FromF32(v))
		}
		if rng.IntN(8) == 0 {
			blk[rng.IntN(BlockSize)] = float32(math.Copysign(0, -1))
		}
		enc := make([]byte, CastBlockBytes)
		c.EncodeBlock(enc, &blk)
		var dec [BlockSize]float32
		c.DecodeBlock(&dec, enc)
		for i, x := range blk {
			if math.Float32bits(dec[i]) != math.Float32bits(x) {
				t.Fatalf("E %d: %g (bits %#x) comes back as %g (bits %#x)", enc[0], x, math.Float32bits(x), dec[i], math.Float32bits(dec[i]))
			}
		}
		if enc[0] == 0 {
			wide++
		} else {
			scaled++
		}
		checkCast(t, &blk, &dec)
	}
	if scaled < 1000 || wide < 1000 {
		t.Errorf("%d blocks scaled, %d sent as bf16: the blocks do not test both", scaled, wide)
	}
}

// checkCast holds for any block of f32 values (the sums the all-gather
// encodes): each finite value comes back within bf16's relative precision
// (f16's where the block is scaled) plus half the f16 subnormal step at the
// block's scale, never as ±Inf unless bf16 rounds it to ±Inf too; NaN stays
// NaN, ±Inf and zeros keep their sign.
func checkCast(t *testing.T, blk, dec *[BlockSize]float32) {
	t.Helper()
	e := castExponent(castRange(blk))
	rel, step := 0x1p-8, 0x1p-133 // bf16, whose subnormals step by 2^-133
	if e > 0 {
		rel, step = 0x1p-11, math.Ldexp(1, int(e)-127-24)
	}
	for i, x := range blk {
		y := dec[i]
		switch {
		case isNaN(x):
			if !isNaN(y) {
				t.Fatalf("NaN comes back as %g", y)
			}
		case math.IsInf(float64(x), 0) || x == 0:
			if math.Float32bits(y) != math.Float32bits(x) {
				t.Fatalf("%g (bits %#x) comes back as bits %#x", x, math.Float32bits(x), math.Float32bits(y))
			}
		case math.IsInf(float64(y), 0):
			if !math.IsInf(float64(num.BF16ToF32(num.BF16FromF32(x))), 0) {
				t.Fatalf("finite %g comes back as %g", x, y)
			}
		default:
			if d := math.Abs(float64(y) - float64(x)); d > rel*math.Abs(float64(x))+step/2+0x1p-150 {
				t.Fatalf("%g comes back as %g (E %d)", x, y, e)
			}
		}
	}
}
