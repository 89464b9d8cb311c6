package collective

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/arcpass/arc/internal/golden"
	"github.com/arcpass/arc/reference/codec"
	"github.com/arcpass/arc/reference/num"
)

var update = golden.Update // the one -update of every golden test

const goldenDir = "../testdata"

// goldenSizes: one short block; two whole blocks; four blocks and a short
// one, which carry the special values (see goldenInputs).
var goldenSizes = []int{5, 64, 150}

// goldenFiles maps each golden file to its specs: one file per algorithm
// and codec, holding every type and world size.
func goldenFiles() map[string][]Spec {
	files := map[string][]Spec{}
	for _, s := range allSpecs() {
		name := s.Algo
		if c := s.codecName(); c != "" {
			name += "-" + c
		}
		files[name+".golden"] = append(files[name+".golden"], s)
	}
	return files
}

// splitmix is a tiny deterministic generator (SplitMix64).
type splitmix uint64

func (s *splitmix) next() uint64 {
	*s += 0x9E3779B97F4A7C15
	z := uint64(*s)
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

// bell is a bell-shaped integer: four uniform 16-bit numbers summed and
// centred (standard deviation about 37837).
func (s *splitmix) bell() int {
	v := s.next()
	return int(v&0xFFFF+v>>16&0xFFFF+v>>32&0xFFFF+v>>48) - 2*0xFFFF
}

// goldenInputs builds inputs from integers only, so they are the same bits
// on every machine, and the same for every algorithm and codec at one type,
// world size and length. Values are bell-shaped with a magnitude that
// varies by rank and block. With n = 150 the blocks also carry:
// block 1 zeros of both signs (element 32 is -0 on every rank); block 2 the
// type's largest finite value (+ on rank 0, - on rank 1) and values ~1000
// times larger than the rest; block 3 subnormals of the type; block 4
// (short) a NaN, +Inf and -Inf in one element, and a lone +Inf.
func goldenInputs(dt num.DType, world, n int) [][]byte {
	rng := splitmix(uint64(dt)<<32 | uint64(world)<<16 | uint64(n))
	maxFinite := map[num.DType]float32{num.F16: 65504, num.BF16: num.BF16ToF32(0x7F7F), num.F32: math.MaxFloat32}[dt]
	tiny := map[num.DType]float32{num.F16: 0x1p-24, num.BF16: 0x1p-133, num.F32: 0x1p-149}[dt]
	inf, nan := float32(math.Inf(1)), math.Float32frombits(0x7FC00000)
	negZero := float32(math.Copysign(0, -1))
	inputs := make([][]byte, world)
	for r := range inputs {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(rng.bell()) * float32(math.Ldexp(1, (r+i/32)%5-17))
		}
		if n == 150 {
			for i := 32; i < 64; i++ {
				v[i] = 0
				if i == 32 || (i+r)%3 == 0 {
					v[i] = negZero
				}
			}
			v[80] *= 1024
			for i := 96; i < 128; i++ {
				v[i] = float32(rng.bell()>>13) * tiny // k in [-16, 15]
			}
			v[130], v[135], v[140] = 0, 0, 0
			switch r {
			case 0:
				v[70], v[135], v[140] = maxFinite, inf, inf
			case 1:
				v[75], v[135] = -maxFinite, -inf
			}
			if r == world-1 {
				v[130] = nan
			}
		}
		inputs[r] = num.Narrow(dt, v)
	}
	return inputs
}

func goldenCases(t *testing.T, specs []Spec) []Case {
	var cases []Case
	for _, s := range specs {
		for _, n := range goldenSizes {
			k, err := NewCase(s, goldenInputs(s.DType, s.World, n))
			if err != nil {
				t.Fatalf("%v: %v", s, err)
			}
			cases = append(cases, k)
		}
	}
	return cases
}

// TestGolden regenerates every golden file in memory and compares it with
// the stored one; -update rewrites them.
func TestGolden(t *testing.T) {
	files := goldenFiles()
	var names []string
	for name, specs := range files {
		names = append(names, name)
		var buf bytes.Buffer
		if err := WriteGolden(&buf, goldenCases(t, specs)); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(goldenDir, name)
		if *update {
			if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		stored, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test ./reference/collective -update)", err)
		}
		if !bytes.Equal(stored, buf.Bytes()) {
			t.Errorf("%s: stored file differs from the regenerated one%s", path, firstDifference(stored, buf.Bytes()))
		}
	}
	stored, _ := filepath.Glob(filepath.Join(goldenDir, "*.golden"))
	for _, path := range stored {
		if !slices.Contains(names, filepath.Base(path)) {
			t.Errorf("%s: no spec generates this file", path)
		}
	}
}

// firstDifference names the first case where two golden files differ.
func firstDifference(a, b []byte) string {
	ca, errA := ReadGolden(bytes.NewReader(a))
	cb, errB := ReadGolden(bytes.NewReader(b))
	if errA != nil || errB != nil {
		return ""
	}
	for i := range min(len(ca), len(cb)) {
		x, y := ca[i], cb[i]
		switch {
		case x.Spec != y.Spec || len(x.Output) != len(y.Output):
			return ": case " + x.Spec.String() + " vs " + y.Spec.String()
		case !slices.EqualFunc(x.Inputs, y.Inputs, bytes.Equal):
			return ": inputs of " + x.Spec.String()
		case !bytes.Equal(x.Encoded, y.Encoded):
			return ": encoded bytes of " + x.Spec.String()
		case !bytes.Equal(x.Output, y.Output):
			return ": output of " + x.Spec.String()
		}
	}
	return ": number of cases"
}

// TestGoldenFilesHold checks the stored files on their own terms: every
// case's output is what Expected and every rank of Run compute from its
// inputs, and its encoded bytes are the codec's encoding of rank 0's input.
func TestGoldenFilesHold(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(goldenDir, "*.golden"))
	if len(paths) == 0 {
		t.Fatal("no golden files (run go test ./reference/collective -update)")
	}
	total := 0
	for _, path := range paths {
		cases, err := ReadGoldenFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range cases {
			want, err := Expected(k.Spec, k.Inputs)
			if err != nil || !bytes.Equal(want, k.Output) {
				t.Fatalf("%s: %v: output differs from Expected (%v)", path, k.Spec, err)
			}
			outs, _ := Run(k.Spec, k.Inputs)
			for r, out := range outs {
				if !bytes.Equal(out, k.Output) {
					t.Fatalf("%s: %v: rank %d's output differs", path, k.Spec, r)
				}
			}
			c, _ := k.Spec.NewCodec()
			if c != nil && !bytes.Equal(k.Encoded, codec.Encode(c, num.Widen(k.Spec.DType, k.Inputs[0]))) {
				t.Fatalf("%s: %v: encoded bytes differ", path, k.Spec)
			}
		}
		total += len(cases)
	}
	if want := len(allSpecs()) * len(goldenSizes); total != want {
		t.Errorf("%d golden cases, want %d", total, want)
	}
}

func TestReadGoldenRejectsCorruption(t *testing.T) {
	var buf bytes.Buffer
	s := Spec{"twoshot", "int4", num.F16, 2, false}
	k, _ := NewCase(s, goldenInputs(s.DType, s.World, 40))
	WriteGolden(&buf, []Case{k})
	good := buf.Bytes()
	if cases, err := ReadGolden(bytes.NewReader(good)); err != nil || len(cases) != 1 || cases[0].Spec != s {
		t.Fatalf("round trip: %v, %v", cases, err)
	}
	for name, bad := range map[string][]byte{
		"magic":     append([]byte("ARCGOLD9"), good[8:]...),
		"truncated": good[:len(good)-1],
		"world 3":   slices.Concat(good[:24], []byte{3, 0, 0, 0}, good[28:]),
		"enc bytes": slices.Concat(good[:32], []byte{17, 0, 0, 0}, good[36:]),
	} {
		if _, err := ReadGolden(bytes.NewReader(bad)); err == nil {
			t.Errorf("%s: corrupt file accepted", name)
		}
	}
}
