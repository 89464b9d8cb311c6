package collective

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/arcpass/arc/reference/num"
)

// allSpecs lists every valid spec, with the bf16 fp codec both cast and not.
func allSpecs() []Spec {
	var specs []Spec
	for _, algo := range Algos() {
		for _, c := range Codecs(algo) {
			for _, dt := range num.DTypes {
				for _, w := range Worlds(algo) {
					specs = append(specs, Spec{algo, c, dt, w, false})
					if c == "fp" && dt == num.BF16 {
						specs = append(specs, Spec{algo, c, dt, w, true})
					}
				}
			}
		}
	}
	return specs
}

// randomInputs: N(0,1) times a per-rank power of two, and with special
// values sprinkled in when special is set.
func randomInputs(rng *rand.Rand, dt num.DType, world, n int, special bool) [][]byte {
	specials := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)),
		float32(math.NaN()), 65504, -65504, 0x1p-24, 0x1p-140, math.MaxFloat32}
	inputs := make([][]byte, world)
	for r := range inputs {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(rng.NormFloat64() * math.Ldexp(1, r%5-2))
			if special && rng.IntN(50) == 0 {
				v[i] = specials[rng.IntN(len(specials))]
			}
		}
		inputs[r] = num.Narrow(dt, v)
	}
	return inputs
}

func TestValidate(t *testing.T) {
	for _, s := range allSpecs() {
		if err := s.Validate(); err != nil {
			t.Errorf("%v: %v", s, err)
		}
	}
	for _, c := range []struct {
		spec Spec
		err  string
	}{
		{Spec{"threeshot", "", num.F16, 2, false}, "unknown algorithm"},
		{Spec{"oneshot", "int4", num.F16, 2, false}, "oneshot takes no codec"},
		{Spec{"oneshot", "", num.F16, 3, false}, "world size"},
		{Spec{"twoshot", "", num.F16, 2, false}, "needs a codec"},
		{Spec{"twoshot", "int2", num.F16, 2, false}, "needs a codec"},
		{Spec{"twoshot", "fp", num.F16, 6, false}, "world size"},
		{Spec{"hier", "fp8", num.BF16, 2, false}, "world size"},
		{Spec{"hier", "fp8", num.DType(9), 4, false}, "invalid dtype"},
	} {
		if err := c.spec.Validate(); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%+v: error %v, want %q", c.spec, err, c.err)
		}
	}
	if err := (Spec{"oneshot", "none", num.F32, 8, false}).Validate(); err != nil {
		t.Errorf("oneshot with codec none: %v", err)
	}
}

func TestEnums(t *testing.T) {
	s := Spec{"hier", "int4r", num.BF16, 8, false}
	if s.AlgoEnum() != 2 || s.CodecEnum() != 5 {
		t.Errorf("enums %d %d, want 2 5 (ARC_HIER, ARC_CODEC_INT4R)", s.AlgoEnum(), s.CodecEnum())
	}
	if (Spec{Algo: "oneshot", Codec: "none"}).CodecEnum() != 0 {
		t.Error("codec none is not ARC_CODEC_NONE")
	}
}

func TestBadInputs(t *testing.T) {
	s := Spec{"twoshot", "int8", num.F16, 2, false}
	for _, inputs := range [][][]byte{
		{make([]byte, 8)},                  // one rank short
		{make([]byte, 8), make([]byte, 6)}, // unequal
		{make([]byte, 7), make([]byte, 7)}, // half an element
	} {
		if _, err := Expected(s, inputs); err == nil {
			t.Errorf("Expected accepted %d inputs of %d bytes", len(inputs), len(inputs[0]))
		}
		if _, err := Run(s, inputs); err == nil {
			t.Errorf("Run accepted %d inputs of %d bytes", len(inputs), len(inputs[0]))
		}
	}
}

// TestRunMatchesExpected: the per-rank simulation and the direct formula
// agree bit-for-bit on every rank, for every spec, on sizes with short last
// blocks, fewer blocks than ranks, and special values.
func TestRunMatchesExpected(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 11))
	for _, s := range allSpecs() {
		for _, n := range []int{0, 1, 31, 32, 33, 100, 257, 1000} {
			inputs := randomInputs(rng, s.DType, s.World, n, n >= 100)
			want, err := Expected(s, inputs)
			if err != nil {
				t.Fatalf("%v: %v", s, err)
			}
			outs, err := Run(s, inputs)
			if err != nil {
				t.Fatalf("%v: %v", s, err)
			}
			for r, got := range outs {
				if string(got) != string(want) {
					i := num.FirstDiff(s.DType, got, want)
					t.Fatalf("%v n=%d: rank %d differs from Expected at element %d", s, n, r, i)
				}
			}
		}
	}
}

// TestExpectedInParallel: a buffer large enough for many goroutines gives
// what the simulation gives.
func TestExpectedInParallel(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 13))
	for _, s := range []Spec{{"twoshot", "int4r", num.BF16, 8, false}, {"hier", "fp8", num.F16, 8, false}, {"oneshot", "", num.F32, 6, false}} {
		inputs := randomInputs(rng, s.DType, s.World, 100_003, true)
		want, _ := Expected(s, inputs)
		outs, _ := Run(s, inputs)
		if string(outs[0]) != string(want) {
			t.Errorf("%v: Run and Expected differ at %d", s, num.FirstDiff(s.DType, outs[0], want))
		}
	}
}

// sumF32 is the f32 sum of values in the given order, starting from the first.
func sumF32(vals ...float32) float32 {
	acc := vals[0]
	for _, v := range vals[1:] {
		acc += v
	}
	return acc
}

// TestFormulas checks outputs elementwise against FORMATS.md's formulas for
// the codecs that keep every value: oneshot, and fp where it is lossless.
func TestFormulas(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 15))
	for _, dt := range num.DTypes {
		for _, w := range []int{4, 8} {
			inputs := randomInputs(rng, dt, w, 300, false)
			x := make([][]float32, w)
			for r := range x {
				x[r] = num.Widen(dt, inputs[r])
			}
			col := func(i, lo, hi int) []float32 {
				var v []float32
				for r := lo; r < hi; r++ {
					v = append(v, x[r][i])
				}
				return v
			}
			one, _ := Expected(Spec{"oneshot", "", dt, w, false}, inputs)
			two, _ := Expected(Spec{"twoshot", "fp", dt, w, false}, inputs)
			hier, _ := Expected(Spec{"hier", "fp", dt, w, false}, inputs)
			got1, got2, gotH := num.Widen(dt, one), num.Widen(dt, two), num.Widen(dt, hier)
			for i := range got1 {
				want := num.Round(dt, sumF32(col(i, 0, w)...))
				if math.Float32bits(got1[i]) != math.Float32bits(want) {
					t.Fatalf("oneshot %v w%d [%d] = %g, want %g", dt, w, i, got1[i], want)
				}
				// fp's wire is the I/O type: the second rounding is the narrowing itself.
				if math.Float32bits(got2[i]) != math.Float32bits(want) {
					t.Fatalf("twoshot/fp %v w%d [%d] = %g, want %g", dt, w, i, got2[i], want)
				}
				p0 := num.Round(dt, sumF32(col(i, 0, w/2)...))
				p1 := num.Round(dt, sumF32(col(i, w/2, w)...))
				if wantH := num.Round(dt, p0+p1); math.Float32bits(gotH[i]) != math.Float32bits(wantH) {
					t.Fatalf("hier/fp %v w%d [%d] = %g, want %g", dt, w, i, gotH[i], wantH)
				}
			}
		}
	}
}

// TestNegativeZero: sums start from rank 0's value, so -0 everywhere stays
// -0 under oneshot and fp; the integer codecs decode zeros as +0.
func TestNegativeZero(t *testing.T) {
	negZero := num.Narrow(num.F32, slices.Repeat([]float32{float32(math.Copysign(0, -1))}, 40))
	inputs := [][]byte{negZero, negZero, negZero, negZero}
	for _, c := range []struct {
		spec Spec
		bits uint32
	}{
		{Spec{"oneshot", "", num.F32, 4, false}, 0x80000000},
		{Spec{"twoshot", "fp", num.F32, 4, false}, 0x80000000},
		{Spec{"hier", "fp", num.F32, 4, false}, 0x80000000},
		{Spec{"twoshot", "int8", num.F32, 4, false}, 0},
		{Spec{"twoshot", "fp8", num.F32, 4, false}, 0},
	} {
		out, _ := Expected(c.spec, inputs)
		for i, v := range num.Widen(num.F32, out) {
			if math.Float32bits(v) != c.bits {
				t.Fatalf("%v: [%d] has bits %#08x, want %#08x", c.spec, i, math.Float32bits(v), c.bits)
			}
		}
	}
}

// TestQuantizationSteps: twoshot quantizes twice, hier three times, so on
// the same inputs their errors order as oneshot < twoshot < hier.
func TestQuantizationSteps(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 17))
	inputs := randomInputs(rng, num.F32, 8, 1<<14, false)
	exact := make([]float64, 1<<14)
	for _, in := range inputs {
		for i, v := range num.Widen(num.F32, in) {
			exact[i] += float64(v)
		}
	}
	errOf := func(s Spec) float64 {
		out, _ := Expected(s, inputs)
		var e float64
		for i, v := range num.Widen(num.F32, out) {
			e += (float64(v) - exact[i]) * (float64(v) - exact[i])
		}
		return e
	}
	one := errOf(Spec{"oneshot", "", num.F32, 8, false})
	two := errOf(Spec{"twoshot", "int6", num.F32, 8, false})
	hier := errOf(Spec{"hier", "int6", num.F32, 8, false})
	if !(one < two && two < hier) {
		t.Errorf("error energies oneshot %g, twoshot %g, hier %g: want increasing", one, two, hier)
	}
}

func BenchmarkExpected(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, s := range []Spec{
		{"oneshot", "", num.BF16, 8, false},
		{"twoshot", "fp", num.BF16, 8, false},
		{"twoshot", "int8", num.BF16, 8, false},
		{"twoshot", "int6", num.F16, 8, false},
		{"twoshot", "int4", num.BF16, 8, false},
		{"twoshot", "int4r", num.BF16, 8, false},
		{"twoshot", "fp8", num.BF16, 8, false},
		{"hier", "fp8", num.BF16, 8, false},
	} {
		b.Run(s.String(), func(b *testing.B) {
			inputs := randomInputs(rng, s.DType, s.World, 1<<20, false)
			b.SetBytes(int64(s.World * len(inputs[0])))
			for b.Loop() {
				if _, err := Expected(s, inputs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestCastOutsideF16: the sums that a plain cast to f16 turns into Inf, 0
// and NaN (two-shot, fp, bf16, world 2). With the scaled cast every one is
// what the uncast kernel gives, which is the bf16 rounding of the f32 sum.
func TestCastOutsideF16(t *testing.T) {
	for _, c := range []struct{ a, b, want float32 }{
		{70000, 1, 70144},                     // both bf16 70144: the f16 cast gave +Inf
		{1e-10, 1e-10, 2.0008883e-10},         // below f16's subnormals: the f16 cast gave 0
		{3e38, -3e38, 0},                      // the f16 cast gave Inf - Inf = NaN
		{-3e38, -3e38, float32(math.Inf(-1))}, // a sum bf16 itself overflows
	} {
		var outs [2][]float32
		for i, cast := range []bool{false, true} {
			ins := [][]byte{num.Narrow(num.BF16, []float32{c.a, 2}), num.Narrow(num.BF16, []float32{c.b, 1})}
			out, err := Expected(Spec{"twoshot", "fp", num.BF16, 2, cast}, ins)
			if err != nil {
				t.Fatal(err)
			}
			outs[i] = num.Widen(num.BF16, out)
		}
		if outs[0][0] != c.want && !(math.IsInf(float64(c.want), 0) && outs[0][0] == c.want) {
			t.Errorf("%g + %g without the cast = %g, want %g", c.a, c.b, outs[0][0], c.want)
		}
		if math.Float32bits(outs[1][0]) != math.Float32bits(outs[0][0]) || outs[1][1] != 3 {
			t.Errorf("%g + %g under the cast = %v, want %v", c.a, c.b, outs[1], outs[0])
		}
	}
}

// TestEverySize: counts that are no multiple of an atom (8 elements, the
// kernels' 16-byte vectors for f16 and bf16) or of a codec block (32), a
// scalar (one element) among them, in every dtype, algorithm, codec and
// world. The simulation of the data each rank sends gives Expected's bits
// on every rank; where the sum is exact apart from the order of the
// additions (oneshot, and the fp codec without the cast) every element is
// the one the aligned buffer gives it, its own inputs added in rank order
// and rounded once (hier: each half's sum rounded, then the halves), so a
// count changes no bit; with a codec every whole block before the short
// last one is the aligned buffer's, bit for bit (docs/KERNELS.md, "Every
// size").
func TestEverySize(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 19))
	const full = 1056 // 33 blocks
	for _, s := range allSpecs() {
		inputs := randomInputs(rng, s.DType, s.World, full, true)
		whole, err := Expected(s, inputs)
		if err != nil {
			t.Fatal(err)
		}
		es := s.DType.Size()
		exact := s.Algo == "oneshot" || s.Codec == "fp" && !s.Cast
		for _, n := range []int{1, 3, 5, 7, 9, 17, 31, 33, 1023} {
			prefix := make([][]byte, s.World)
			for r, in := range inputs {
				prefix[r] = in[:n*es]
			}
			got, err := Expected(s, prefix)
			if err != nil {
				t.Fatalf("%v n=%d: %v", s, n, err)
			}
			outs, err := Run(s, prefix)
			if err != nil {
				t.Fatalf("%v n=%d: %v", s, n, err)
			}
			for r, o := range outs {
				if string(o) != string(got) {
					t.Fatalf("%v n=%d: rank %d differs from Expected at element %d", s, n, r, num.FirstDiff(s.DType, o, got))
				}
			}
			same := n
			if !exact {
				same = n / bs * bs
			}
			if string(got[:same*es]) != string(whole[:same*es]) {
				t.Fatalf("%v n=%d: element %d differs from the aligned buffer's", s, n, num.FirstDiff(s.DType, got[:same*es], whole[:same*es]))
			}
			if s.Algo != "oneshot" {
				continue
			}
			// The scalar's formula: rank 0's value, then each rank's added
			// in rank order in f32, rounded once to the I/O type.
			vals := make([]float32, s.World)
			for r := range vals {
				vals[r] = num.Widen(s.DType, inputs[r][:es])[0]
			}
			want := num.Round(s.DType, sumF32(vals...))
			if g := num.Widen(s.DType, got[:es])[0]; math.Float32bits(g) != math.Float32bits(want) && !(g != g && want != want) {
				t.Fatalf("%v n=%d: element 0 = %g, want %g", s, n, g, want)
			}
		}
	}
}
