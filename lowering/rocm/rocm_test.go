package rocm_test

import (
	"testing"

	"github.com/arcpass/arc/lowering/rocm"
	"github.com/arcpass/arc/passes"
)

// TestProfileFollowsVLLM: the built-in profiles bound each quantized codec
// by vLLM's _QR_MIN_SIZE (MB, per dtype and world; off where vLLM has none)
// and leave the fp codec unbounded (QuickReduce's dead zone otherwise).
func TestProfileFollowsVLLM(t *testing.T) {
	const mib = 1 << 20
	for _, tg := range rocm.Targets() {
		p := passes.ProfileOf(tg)
		for _, c := range []struct {
			world         int
			dtype, key    string
			minBytes      int64
			off, boundsFP bool
		}{
			{2, "f16", "twoshot:int4", 1 * mib, false, false},
			{4, "f16", "twoshot:int8", 16 * mib, false, false},
			{8, "f16", "twoshot:int6", 4 * mib, false, false},
			{2, "bf16", "twoshot:int8", 8 * mib, false, false},
			{4, "bf16", "twoshot:int4r", 16 * mib, false, false},
			{8, "bf16", "twoshot:int4", 0, true, false},
			{8, "bf16", "twoshot:fp8", 0, true, false},
		} {
			cost, ok := p.Lookup(c.world, c.dtype, c.key)
			if !ok || cost.MinBytes != c.minBytes || cost.Off != c.off {
				t.Errorf("%s world %d %s %s: min %d off %v, want %d %v", tg.Name(), c.world, c.dtype, c.key, cost.MinBytes, cost.Off, c.minBytes, c.off)
			}
		}
		if fp, _ := p.Lookup(2, "bf16", "twoshot:fp"); fp.MinBytes != 0 || fp.Off {
			t.Errorf("%s: twoshot:fp bounded: %+v", tg.Name(), fp)
		}
	}
}

// TestBF16TravelsAsFP16: a bf16 two-shot fp all-reduce casts to fp16 only
// under --cast-bf16-to-fp16; other codecs never cast.
func TestBF16TravelsAsFP16(t *testing.T) {
	tg := rocm.Targets()[0]
	row := passes.Row{Op: "all_reduce", DType: "bf16", Bytes: 4 << 20, Reduction: "sum", Groups: [][]int64{{0, 1}}, GroupSize: 2,
		Index: 0}
	force := map[int]passes.Force{0: {Lowering: "quickreduce", Codec: "fp"}}
	for _, cast := range []bool{false, true} {
		d, err := tg.Decide(row, passes.Options{CastBF16ToFP16: cast, Force: force})
		if err != nil {
			t.Fatal(err)
		}
		if d.Lowering != "quickreduce" || d.CastBF16ToFP16 != cast {
			t.Errorf("cast-bf16-to-fp16 %v: %s cast %v", cast, d.Lowering, d.CastBF16ToFP16)
		}
	}
	d, err := tg.Decide(row, passes.Options{CastBF16ToFP16: true, Force: map[int]passes.Force{0: {Lowering: "quickreduce", Codec: "int8"}}})
	if err != nil || d.CastBF16ToFP16 {
		t.Errorf("int8: cast %v (%v)", d.CastBF16ToFP16, err)
	}
}
