package megatron

import (
	"math"
	"slices"
	"testing"

	"github.com/gomlx/gomlx/pkg/core/dtypes"
)

// SplitMix64's published first output for seed 0.
func TestRNGKnownAnswer(t *testing.T) {
	r := rng{}
	if got := r.next(); got != 0xE220A8397B1DCDAF {
		t.Fatalf("splitmix64(0) = %#x, want 0xe220a8397b1dcdaf", got)
	}
}

func TestValues(t *testing.T) {
	w := Tensor{Name: "w", DType: dtypes.Float32, Shape: []int{64, 32}, Init: Init{Uniform, 0.5}}
	a, b := w.Values(7), w.Values(7)
	if !slices.Equal(a, b) {
		t.Fatal("the same seed drew different values")
	}
	if slices.Equal(a, w.Values(8)) {
		t.Error("seeds 7 and 8 drew the same values")
	}
	other := w
	other.Name = "v"
	if slices.Equal(a, other.Values(7)) {
		t.Error("tensors w and v drew the same values")
	}
	var sum, sq float64
	for _, x := range a {
		if x < -0.5 || x >= 0.5 {
			t.Fatalf("value %v outside [-0.5, 0.5)", x)
		}
		sum += float64(x)
		sq += float64(x) * float64(x)
	}
	n := float64(len(a))
	// Uniform on [-0.5, 0.5): mean 0, variance 1/12; 2048 samples put both well inside these bounds.
	if mean, variance := sum/n, sq/n; math.Abs(mean) > 0.03 || math.Abs(variance-1.0/12) > 0.01 {
		t.Errorf("mean %.4f, variance %.4f: want about 0 and %.4f", mean, variance, 1.0/12)
	}

	tok := Tensor{Name: "tokens", DType: dtypes.Int32, Shape: []int{1000}, Init: Init{Tokens, 50}}
	seen := map[float32]bool{}
	for _, x := range tok.Values(1) {
		if x != float32(int(x)) || x < 0 || x >= 50 {
			t.Fatalf("token %v is not an integer in [0, 50)", x)
		}
		seen[x] = true
	}
	if len(seen) != 50 {
		t.Errorf("1000 tokens hit %d of 50 ids", len(seen))
	}
	for _, x := range (Tensor{Name: "g", Shape: []int{3}, Init: Init{Const, 1.5}}).Values(1) {
		if x != 1.5 {
			t.Fatalf("Const 1.5 drew %v", x)
		}
	}
}

func TestShard(t *testing.T) {
	v := []float32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11} // 2x6
	for _, tc := range []struct {
		split Split
		tp    int
		shape []int
		want  [][]float32
	}{
		{Replicated, 2, []int{2, 6}, [][]float32{v, v}},
		{Columns, 2, []int{2, 3}, [][]float32{{0, 1, 2, 6, 7, 8}, {3, 4, 5, 9, 10, 11}}},
		{Columns, 3, []int{2, 2}, [][]float32{{0, 1, 6, 7}, {2, 3, 8, 9}, {4, 5, 10, 11}}},
		{Rows, 2, []int{1, 6}, [][]float32{{0, 1, 2, 3, 4, 5}, {6, 7, 8, 9, 10, 11}}},
	} {
		tensor := Tensor{Name: "t", Shape: []int{2, 6}, Split: tc.split}
		shape, err := tensor.ShardShape(tc.tp)
		if err != nil || !slices.Equal(shape, tc.shape) {
			t.Errorf("split %d over %d: shard shape %v (%v), want %v", tc.split, tc.tp, shape, err, tc.shape)
		}
		for rank, want := range tc.want {
			got, err := tensor.Shard(v, tc.tp, rank)
			if err != nil || !slices.Equal(got, want) {
				t.Errorf("split %d over %d, rank %d: %v (%v), want %v", tc.split, tc.tp, rank, got, err, want)
			}
		}
	}
	if _, err := (Tensor{Name: "t", Shape: []int{2, 6}, Split: Rows}).ShardShape(4); err == nil {
		t.Error("2 rows split over 4 ranks")
	}
	// A vector split by columns and by rows is the same split.
	vec := Tensor{Name: "b", Shape: []int{4}, Split: Columns}
	if got, _ := vec.Shard([]float32{1, 2, 3, 4}, 2, 1); !slices.Equal(got, []float32{3, 4}) {
		t.Errorf("vector column shard 1 = %v, want [3 4]", got)
	}
}

func TestEncodeDecode(t *testing.T) {
	v := []float32{0, 1, -2.5, 0.15625, 65504}
	for _, dt := range []dtypes.DType{dtypes.Float32, dtypes.Float16, dtypes.BFloat16} {
		b, err := Encode(dt, v)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Decode(dt, b)
		if err != nil {
			t.Fatal(err)
		}
		for i := range v {
			if dt != dtypes.BFloat16 || i != 4 { // 65504 is not a bfloat16 (it rounds to 65536)
				if got[i] != v[i] {
					t.Errorf("%s: %v came back as %v", dt, v[i], got[i])
				}
			}
		}
	}
	b, err := Encode(dtypes.Int32, []float32{3, 70000})
	if err != nil || !slices.Equal(b, []byte{3, 0, 0, 0, 0x70, 0x11, 1, 0}) {
		t.Errorf("int32 encoding % x (%v)", b, err)
	}
	if _, err := Encode(dtypes.Float64, v); err == nil {
		t.Error("f64 encoded; the examples support bf16, f16, f32")
	}
	if got := Epsilon(dtypes.BFloat16); got != 1.0/128 {
		t.Errorf("bf16 epsilon %v, want 2^-7", got)
	}
}
