package norm

import (
	"math"
	"testing"

	"github.com/arcpass/arc/reference/num"
)

func TestFP8QuantizeTable(t *testing.T) {
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	negZero := float32(math.Copysign(0, -1))
	div1 := FP8{Op: "div", Scale: 1}
	for _, c := range []struct {
		e    FP8
		y    float32
		want uint8
	}{
		{div1, 0, 0x00},
		{div1, negZero, 0x80}, // the clip keeps -0
		{div1, 1, 0x38},
		{div1, 448, 0x7E},
		{div1, -448, 0xFE},
		{div1, 449, 0x7E},     // clipped
		{div1, 1e6, 0x7E},     // clipped
		{div1, -inf, 0xFE},    // clipped: no e4m3 Inf
		{div1, inf, 0x7E},     // clipped
		{div1, 17, 0x58},      // halfway between 16 and 18: to even, 16
		{div1, 19, 0x5A},      // halfway between 18 and 20: to even, 20
		{div1, 432, 0x7E},     // halfway between 416 and 448: to even, 448
		{div1, 400, 0x7C},     // halfway between 384 and 416: to even, 384
		{div1, 440, 0x7E},     // above the tie: 448
		{div1, 0x1p-9, 0x01},  // the smallest subnormal
		{div1, 0x1p-10, 0x00}, // halfway between 0 and 2^-9: to even, 0
		{div1, -0x1p-10, 0x80},
		{div1, 0x1.8p-9, 0x02}, // halfway between 1 and 2 * 2^-9: to even, 2
		{div1, 0x1.4p-9, 0x01}, // below the tie
		{div1, 0x7p-9, 0x07},   // the largest subnormal
		{div1, 0x7.8p-9, 0x08}, // halfway to 2^-6, the smallest normal: to even
		{div1, 0x1p-6, 0x08},
		{div1, 0x1p-149, 0x00},         // an f32 subnormal
		{FP8{"div", 0.05}, 22.4, 0x7E}, // 22.4 / 0.05 rounds to 448.00003: clipped
		{FP8{"div", 0.05}, 1, 0x5A},    // 20
		{FP8{"mul", 20}, 1, 0x5A},
		{FP8{"div", 2}, -3, 0xBC}, // -1.5
	} {
		if got := c.e.Quantize(c.y); got != c.want {
			t.Errorf("%v of %g = %#02x, want %#02x", c.e, c.y, got, c.want)
		}
	}
	if got := div1.Quantize(nan); got&0x7F != 0x7F {
		t.Errorf("NaN quantizes to %#02x, want a NaN", got)
	}
	if got := (FP8{"mul", 0}).Quantize(inf); got&0x7F != 0x7F { // Inf * 0 = NaN, kept by the clip
		t.Errorf("Inf * 0 quantizes to %#02x, want a NaN", got)
	}
}

// The divide and the multiply by the reciprocal differ: the epilogue takes
// the program's op. y = 0x3cc66666 (about 0.0242): y / 0.05 rounds to just
// below 0.484375, the tie between e4m3's 0.46875 and 0.5, y * 20 to it.
func TestFP8DivIsNotMulByReciprocal(t *testing.T) {
	y := math.Float32frombits(0x3cc66666)
	if d, m := (FP8{"div", 0.05}).Quantize(y), (FP8{"mul", 20}).Quantize(y); d != 0x2F || m != 0x30 {
		t.Errorf("%g / 0.05 -> %#02x, * 20 -> %#02x; want 0x2f and 0x30", y, d, m)
	}
}

// Every e4m3 value, scaled by 1: the clip and convert give it back exactly;
// and every f32 in range rounds to a neighbour.
func TestFP8QuantizeEveryCode(t *testing.T) {
	e := FP8{Op: "div", Scale: 1}
	for c := 0; c < 256; c++ {
		v := num.E4M3ToF32(uint8(c))
		got := e.Quantize(v)
		if c&0x7F == 0x7F {
			if got&0x7F != 0x7F {
				t.Errorf("NaN %#02x -> %#02x", c, got)
			}
			continue
		}
		if got != uint8(c) {
			t.Errorf("%g (%#02x) -> %#02x", v, c, got)
		}
	}
}

func TestFP8QuantizeRows(t *testing.T) {
	q, err := FP8{"div", 0.5}.QuantizeRows(num.BF16, num.Narrow(num.BF16, []float32{1, -300, 0.25}))
	if err != nil {
		t.Fatal(err)
	}
	if want := []byte{0x40, 0xFE, 0x30}; string(q) != string(want) {
		t.Errorf("q = %x, want %x", q, want)
	}
	if _, err := (FP8{"sub", 1}).QuantizeRows(num.F32, make([]byte, 4)); err == nil {
		t.Error("an epilogue of op sub: no error")
	}
}
