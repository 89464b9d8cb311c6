package spec

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/arcpass/arc/ir"
)

func TestParseDense(t *testing.T) {
	for _, tc := range []struct {
		in, want string // want: "splat V of SHAPE", "FLAT of SHAPE", or "error at OFF: MSG"
	}{
		{"dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>", "[0 1 2 3] of [2 2]"},
		{"dense<[[0, 1], [2, 3]]> : tensor<1x4xi64>", "error at 0: inferred shape of elements literal ([2, 2]) does not match type ([1, 4])"},
		{"dense<[[0, 1, 2, 3]]> : tensor<4x1xi64>", "error at 0: inferred shape of elements literal ([1, 4]) does not match type ([4, 1])"},
		{"dense<[0, 1]> : tensor<1x2xi64>", "error at 0: inferred shape of elements literal ([2]) does not match type ([1, 2])"},
		{"dense<[[[0]]]> : tensor<1x1xi64>", "error at 0: inferred shape of elements literal ([1, 1, 1]) does not match type ([1, 1])"},
		{"dense<[[0, 1], [2]]> : tensor<2x2xi64>", "error at 18: tensor literal is invalid; ranks are not consistent between elements"},
		{"dense<[[0, 1], 2]> : tensor<2x2xi64>", "error at 16: tensor literal is invalid; ranks are not consistent between elements"},
		{"dense<7> : tensor<3x5xi64>", "splat 7 of [3 5]"},
		{"dense<-1> : tensor<1000000000x1000000000xi64>", "splat -1 of [1000000000 1000000000]"},
		{"dense<[[0x10, -0x1]]> : tensor<1x2xi64>", "[16 -1] of [1 2]"},
		{"dense<[[18446744073709551615, -9223372036854775808]]> : tensor<1x2xi64>", "[-1 -9223372036854775808] of [1 2]"},
		{"dense<[[18446744073709551616]]> : tensor<1x1xi64>", "error at 8: integer constant out of range for type"},
		{"dense<[[-9223372036854775809]]> : tensor<1x1xi64>", "error at 9: integer constant out of range for type"},
		{"dense<[[2147483648]]> : tensor<1x1xi32>", "[-2147483648] of [1 1]"},
		{"dense<[[4294967296]]> : tensor<1x1xi32>", "error at 8: integer constant out of range for type"},
		{"dense<[[007, 1]]> : tensor<1x2xi64>", "[7 1] of [1 2]"},
		{"dense<[[a]]> : tensor<1x1xi64>", "error at 8: expected element literal of primitive type"},
		{"dense<[[1.5]]> : tensor<1x1xi64>", "error at 8: expected integer elements, but parsed floating-point"},
		{"dense<[[0, 1]> : tensor<1x2xi64>", "error at 0: dense<: '<' is not closed"},
		{"dense<[[0 1]]> : tensor<1x2xi64>", "error at 9: expected ']'"},
		{"dense<[[0, 1]] 2> : tensor<1x2xi64>", "error at 14: expected '>'"},
		{"dense<> : tensor<0x0xi64>", "[] of [0 0]"},
		{"dense<> : tensor<1x1xi64>", "error at 0: parsed zero elements, but type (tensor<1x1xi64>) expected at least 1"},
		{"dense<[]> : tensor<0xi64>", "[] of [0]"},
		{"dense<[[]]> : tensor<1x0xi64>", "[] of [1 0]"},
		{"dense<[\n  [0, 1],\n  [2, 3]\n]> : tensor<2x2xi64>", "[0 1 2 3] of [2 2]"},
		{`dense<"0x00000000000000000100000000000000"> : tensor<1x2xi64>`, "[0 1] of [1 2]"},
		{`dense<"0xFFFFFFFFFFFFFFFF"> : tensor<4x4xi64>`, "splat -1 of [4 4]"},
		{`dense<"0x0000"> : tensor<1x2xi64>`, "error at 0: elements hex data size is invalid for provided type: tensor<1x2xi64>"},
		{`dense<"0xZZ"> : tensor<1x1xi64>`, "error at 6: expected string containing hex digits starting with `0x`"},
		{"dense<[[0, 1]]> : tensor<1x?xi64>", "error at 0: elements literal type must have static shape"},
		{"dense<[[0, 1]]>", "error at 15: expected ':'"},
		{"dense<[[0.0, 1.0]]> : tensor<1x2xf32>", "error at 19: replica groups must be integers, found f32"},
	} {
		d, err := parseDense(tc.in)
		var got string
		switch {
		case err != nil:
			got = fmt.Sprintf("error at %d: %v", err.(*denseError).off, err)
		case d.splat:
			got = fmt.Sprintf("splat %d of %v", d.value, d.shape)
		default:
			got = fmt.Sprintf("%v of %v", d.flat, d.shape)
			if d.flat == nil {
				got = fmt.Sprintf("[] of %v", d.shape)
			}
		}
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s:\n  got  %s\n  want %s", tc.in, got, tc.want)
		}
	}
}

// TestSplatsStaySmall checks huge splats, which package ir may refuse
// before spec sees them, straight on readGroups and checkSpace.
func TestSplatsStaySmall(t *testing.T) {
	m, err := ir.ParseString("t.mlir", "module {}\n")
	if err != nil {
		t.Fatal(err)
	}
	fail := func(format string, args ...any) error { return fmt.Errorf(format, args...) }
	for _, tc := range []struct{ lit, want string }{
		{"dense<-1> : tensor<1000000000x1000000000xi64>", "replica groups name no replicas"},
		{"dense<3> : tensor<1000000000x1000000000xi64>", "replica id #3 seen more than once"},
		{"dense<0> : tensor<1x1xi64>", ""},
		{"dense<> : tensor<0x1000000000000xi64>", ""},
	} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		lit, err := parseDense(tc.lit)
		if err != nil {
			t.Fatal(err)
		}
		k := &Checker{m: m, replicas: 1, partitions: 1}
		g, err := k.readGroups(&ir.Collective{}, lit, false, fail)
		if err == nil {
			err = k.checkNamed(CrossReplica, g, fail)
		}
		if err == nil {
			_, err = k.checkSpace(CrossReplica, g, fail)
		}
		runtime.ReadMemStats(&after)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if !strings.HasPrefix(got, tc.want) || (tc.want == "") != (got == "") {
			t.Errorf("%s: %q, want %q", tc.lit, got, tc.want)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<10 {
			t.Errorf("%s: allocated %d bytes", tc.lit, grew)
		}
	}
}

func TestParseDeviceAssignment(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"0,1;2,3", "[[0 1] [2 3]]"},
		{" 3 ; 2 ;1;0 ", "[[3] [2] [1] [0]]"},
		{"7", "[[7]]"},
		{"", `device assignment "": empty`},
		{"0,1;2", `device assignment "0,1;2": replica 1 has 1 partitions but replica 0 has 2`},
		{"0,1;1,2", `device assignment "0,1;1,2": device 1 is assigned twice (replica 0 partition 1, replica 1 partition 0)`},
		{"0,-1", `device assignment "0,-1": replica 0: "-1" is not a device id (a non-negative integer)`},
		{"0,,1", `device assignment "0,,1": replica 0: "" is not a device id`},
		{"0;x", `device assignment "0;x": replica 1: "x" is not a device id`},
	} {
		d, err := ParseDeviceAssignment(tc.in)
		got := fmt.Sprint([][]int64(d))
		if err != nil {
			got = err.Error()
		}
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("%q: %s, want %s", tc.in, got, tc.want)
		}
		if err == nil {
			if again, _ := ParseDeviceAssignment(d.String()); again.String() != d.String() {
				t.Errorf("%q: String %q reads back as %v", tc.in, d.String(), again)
			}
		}
	}
	if got := DefaultDeviceAssignment(2, 3).String(); got != "0,2,4;1,3,5" {
		t.Errorf("default 2x3 assignment %s", got)
	}
}

// TestProcessGroups checks the four splits against the examples of
// StableHLO's specification ("Collective ops").
func TestProcessGroups(t *testing.T) {
	for _, tc := range []struct {
		mode   Mode
		groups [][]int64
		r, p   int64
		want   string
	}{
		{CrossReplica, [][]int64{{0, 1}, {2, 3}}, 4, 2, "[[{0 0} {1 0}] [{0 1} {1 1}] [{2 0} {3 0}] [{2 1} {3 1}]]"},
		{CrossPartition, [][]int64{{0, 1}}, 4, 2, "[[{0 0} {0 1}] [{1 0} {1 1}] [{2 0} {2 1}] [{3 0} {3 1}]]"},
		{CrossReplicaAndPartition, [][]int64{{0, 1}, {2, 3}}, 4, 2, "[[{0 0} {1 0} {0 1} {1 1}] [{2 0} {3 0} {2 1} {3 1}]]"},
		{FlattenedIDs, [][]int64{{0, 1, 2, 3}, {4, 5, 6, 7}}, 4, 2, "[[{0 0} {0 1} {1 0} {1 1}] [{2 0} {2 1} {3 0} {3 1}]]"},
	} {
		if got := fmt.Sprint(processGroups(tc.mode, tc.groups, tc.r, tc.p)); got != tc.want {
			t.Errorf("%v of %v: %s, want %s", tc.mode, tc.groups, got, tc.want)
		}
	}
}

func TestPromotable(t *testing.T) {
	for _, tc := range []struct {
		x, y string
		want bool
	}{
		{"f16", "f32", true}, {"f32", "f16", false}, {"bf16", "f16", true}, {"f8E4M3FN", "bf16", true},
		{"i8", "i32", true}, {"i32", "i8", false}, {"ui8", "i16", true}, {"i1", "i1", true}, {"i1", "i8", false}, {"i8", "i1", false},
		{"i32", "f32", false}, {"f32", "complex<f32>", false}, {"complex<f32>", "complex<f64>", true},
		{"complex<f64>", "complex<f32>", false},
		{"!quant.uniform<i8:f32, 0.5:1>", "!quant.uniform<i16:f32, 0.5:1>", true},
		{"!quant.uniform<i8<-127:127>:f32, 0.5>", "!quant.uniform<i8:f32, 2.0>", true},
		{"!quant.uniform<i8:f32, 0.5>", "!quant.uniform<i8:f16, 0.5>", false},
		{"!quant.uniform<i16:f32, 0.5>", "!quant.uniform<i8:f32, 0.5>", false},
		{"index", "index", false}, {"i0", "i8", false},
	} {
		if got := promotable(tc.x, tc.y); got != tc.want {
			t.Errorf("promotable(%s, %s) = %v", tc.x, tc.y, got)
		}
	}
}

// TestElemTypes checks the reading of element types: one canonical spelling
// per type, and HLO_Tensor's membership.
func TestElemTypes(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"!quant.uniform<i8:f32, 2.0:15>", "!quant.uniform<i8<-128:127>:f32, 2.000000e+00:15>", true},
		{"!quant.uniform<i8:f32, 2.0>", "!quant.uniform<i8:f32, 2.0:0>", true},
		{"!quant.uniform<i8:f32, 2.0>", "!quant.uniform<i8:f32, 2.5>", false},
		{"!quant.uniform<i8:f32, 2.0>", "!quant.uniform<u8:f32, 2.0>", false},
		{"!quant.uniform<i8:f32:0, {2.0:1, 3.0}>", "!quant.uniform<i8:f32:0, {2.0e0:1, 3.0:0}>", true},
		{"!quant.uniform<i8:f32:0, {2.0}>", "!quant.uniform<i8:f32:1, {2.0}>", false},
		{"complex<f32>", "complex< f32 >", true},
		{"i8", "si8", false},
	} {
		a, okA := parseElem(tc.a)
		b, okB := parseElem(tc.b)
		if !okA || !okB || (a.canon == b.canon) != tc.same {
			t.Errorf("%s (%v, %s) and %s (%v, %s): same %v, want %v", tc.a, okA, a.canon, tc.b, okB, b.canon, a.canon == b.canon, tc.same)
		}
	}
	for _, tc := range []struct {
		e               string
		stablehlo, mhlo bool
	}{
		{"i1", true, true}, {"i2", true, true}, {"ui64", true, true}, {"si8", false, false}, {"i7", false, false},
		{"bf16", true, true}, {"tf32", false, false}, {"f8E4M3B11FNUZ", true, true}, {"f8E9M9", false, false},
		{"complex<f64>", true, true}, {"complex<bf16>", false, false},
		{"!quant.uniform<i32:f32, 1.0>", true, true}, {"!quant.uniform<i64:f32, 1.0>", false, false},
		{"!quant.uniform<u4:f16, 1.0:15>", true, true}, {"!quant.uniform<u4:f16, 1.0:16>", false, false},
		{"!quant.uniform<i8<-8:7>:f32, 1.0:-9>", false, false},
		{"!quant.uniform<i8:f32:0, {1.0, 2.0}>", false, true},
	} {
		e, ok := parseElem(tc.e)
		if ok && tc.e == "f8E9M9" {
			t.Errorf("%s: read as a type", tc.e)
		}
		if !ok && (tc.stablehlo || tc.mhlo) {
			t.Errorf("%s: not read", tc.e)
			continue
		}
		if ok && (e.hlo(false) != tc.stablehlo || e.hlo(true) != tc.mhlo) {
			t.Errorf("%s: HLO_Tensor %v, MHLO_Tensor %v; want %v, %v", tc.e, e.hlo(false), e.hlo(true), tc.stablehlo, tc.mhlo)
		}
	}
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"tensor<4xf32>", "tensor<?xf32>", true},
		{"tensor<4xf32>", "tensor<4x1xf32>", false},
		{"tensor<?xf32, #stablehlo.bounds<4>>", "tensor<4xf32>", true},
		{"tensor<?xf32, #stablehlo.bounds<4>>", "tensor<5xf32>", false},
		{"tensor<5xf32>", "tensor<?xf32, #mhlo.type_extensions<bounds = [4]>>", false},
		{"tensor<?x?xf32, #stablehlo.bounds<?, 2>>", "tensor<9x2xf32>", true},
		{"tensor<4x!quant.uniform<i8:f32, 1.0>>", "tensor<4x!quant.uniform<i8:f32, 3.0:4>>", true},
		{"tensor<4x!quant.uniform<i8:f32, 1.0>>", "tensor<4x!quant.uniform<i8<-127:127>:f32, 1.0>>", false},
		{"tensor<4x!quant.uniform<i8:f32, 1.0>>", "tensor<4x!quant.uniform<i16:f32, 1.0>>", false},
		{"tensor<4xf32>", "tensor<4xf16>", false},
	} {
		a, err1 := parseTensor(tc.a)
		b, err2 := parseTensor(tc.b)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if got := compatibleForInference(a, b); got != tc.want {
			t.Errorf("compatibleForInference(%s, %s) = %v", tc.a, tc.b, got)
		}
	}
}

// TestGeneratedFixtures checks the modules that JAX and go-xla printed (see
// testdata/fixtures/README.md) and the examples' models: valid, and the sums
// lowerable onto the groups they name.
func TestGeneratedFixtures(t *testing.T) {
	for _, tc := range []struct {
		file string
		want []string // per all-reduce: "mode groups" or the reason
	}{
		{"../testdata/fixtures/goxla_allreduce_4rep.mlir", []string{"cross_replica [[0 1 2 3]]", "reducer is max, arc's kernels sum"}},
		{"../testdata/fixtures/jax_tp_mlp_bf16_2dev.mlir", []string{"flattened_ids [[0 1]]"}},
		{"../testdata/fixtures/jax_mixed_collectives_f32_2dev.mlir", []string{"reducer is max, arc's kernels sum", "reducer is min, arc's kernels sum", "flattened_ids [[0 1]]"}},
		{"../examples/tpmlp/model.mlir", []string{"cross_replica [[0 1 2 3 4 5 6 7]]"}},
		{"../examples/decoder/model.mlir", []string{"cross_replica [[0 1 2 3 4 5 6 7]]"}},
	} {
		src, err := os.ReadFile(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		m, err := ir.Parse(filepath.Base(tc.file), src)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := m.Collectives()
		if err != nil {
			t.Fatal(err)
		}
		k, err := New(m, nil)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, c := range cs {
			if c.Kind != "all_reduce" {
				continue
			}
			res, err := k.Check(c)
			if err != nil {
				t.Fatalf("%v", err)
			}
			got := fmt.Sprintf("%v %v", res.Mode, res.Groups)
			if res.Reason(0) != "" {
				got = res.Reason(0)
			}
			want := tc.want[min(n, len(tc.want)-1)] // the examples repeat one all-reduce
			if got != want {
				t.Errorf("%s:%v: %s, want %s", tc.file, c.Pos, got, want)
			}
			n++
		}
		if n < len(tc.want) {
			t.Errorf("%s: %d all-reduces, want %d", tc.file, n, len(tc.want))
		}
	}
}

// TestModesAgainstXLA compares Check's groups with XLA's per-device view
// (GetParticipatingDevices in xla/service/collective_ops_utils.cc: a device
// finds its replica, partition or flattened id in the groups, then takes the
// devices of the ids it is grouped with), over random grids, groups and
// device assignments. Each device must see the same set of peers.
func TestModesAgainstXLA(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 400; iter++ {
		R, P := 1+rng.IntN(4), 1+rng.IntN(3)
		mode := []Mode{CrossReplica, CrossReplicaAndPartition, FlattenedIDs}[rng.IntN(3)]
		space := R
		attrs := ""
		switch mode {
		case CrossReplicaAndPartition:
			attrs = ", " + ch
		case FlattenedIDs:
			space, attrs = R*P, ", "+ch+", use_global_device_ids"
		}
		// Split a shuffled 0..space-1 into groups, padded with -1.
		ids := rng.Perm(space)
		var groups [][]int
		for len(ids) > 0 {
			n := 1 + rng.IntN(len(ids))
			groups = append(groups, ids[:n])
			ids = ids[n:]
		}
		width := 0
		for _, g := range groups {
			width = max(width, len(g))
		}
		var rows []string
		for _, g := range groups {
			row := make([]string, width)
			for i := range row {
				row[i] = "-1"
				if i < len(g) {
					row[i] = fmt.Sprint(g[i])
				}
			}
			rows = append(rows, "["+strings.Join(row, ", ")+"]")
		}
		lit := fmt.Sprintf("replica_groups = dense<[%s]> : tensor<%dx%dxi64>", strings.Join(rows, ", "), len(groups), width)
		var da DeviceAssignment
		if rng.IntN(2) == 0 {
			perm := rng.Perm(R * P)
			for r := 0; r < R; r++ {
				row := make([]int64, P)
				for p := range row {
					row[p] = int64(perm[r*P+p])
				}
				da = append(da, row)
			}
		}
		dev := func(r, p int) int64 {
			if da != nil {
				return da[r][p]
			}
			return int64(p*R + r)
		}
		groupOf := func(id int) []int {
			for _, g := range groups {
				if slices.Contains(g, id) {
					return g
				}
			}
			t.Fatalf("id %d in no group", id)
			return nil
		}
		// XLA's view, device by device.
		want := map[int64][]int64{}
		for r := 0; r < R; r++ {
			for p := 0; p < P; p++ {
				var peers []int64
				switch mode {
				case CrossReplica:
					for _, r2 := range groupOf(r) {
						peers = append(peers, dev(r2, p))
					}
				case CrossReplicaAndPartition:
					for _, r2 := range groupOf(r) {
						for p2 := 0; p2 < P; p2++ {
							peers = append(peers, dev(r2, p2))
						}
					}
				case FlattenedIDs:
					for _, f := range groupOf(r*P + p) {
						peers = append(peers, dev(f/P, f%P))
					}
				}
				slices.Sort(peers)
				want[dev(r, p)] = peers
			}
		}
		src := prog{mod: grid(R, P), attrs: lit + attrs, in: "tensor<16xf32>"}.text()
		m, err := ir.ParseString("t.mlir", src)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := m.Collectives()
		if err != nil {
			t.Fatal(err)
		}
		res, err := Check(m, cs[0], da)
		if err != nil {
			t.Fatalf("%s\n%v", src, err)
		}
		if res.Mode != mode {
			t.Fatalf("mode %v, want %v", res.Mode, mode)
		}
		got := map[int64][]int64{}
		for _, g := range res.Groups {
			peers := slices.Sorted(slices.Values(g))
			for _, d := range g {
				if _, dup := got[d]; dup {
					t.Fatalf("device %d in two groups: %v", d, res.Groups)
				}
				got[d] = peers
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%s mode, %dx%d, groups %v, assignment %v:\n  got  %v\n  want %v", mode, R, P, groups, da, got, want)
		}
	}
}

// BenchmarkCheck checks a 16,384-device module (one group per pair of
// flattened ids, written out): time and memory grow with the ids written.
func BenchmarkCheck(b *testing.B) {
	const n = 16384
	var rows []string
	for i := 0; i < n; i += 2 {
		rows = append(rows, fmt.Sprintf("[%d, %d]", i, i+1))
	}
	src := prog{mod: grid(1, n), attrs: fmt.Sprintf("replica_groups = dense<[%s]> : tensor<%dx2xi64>", strings.Join(rows, ", "), n/2) + ", " + ch + ", use_global_device_ids"}.text()
	m, err := ir.ParseString("b.mlir", src)
	if err != nil {
		b.Fatal(err)
	}
	cs, err := m.Collectives()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if res, err := Check(m, cs[0], nil); err != nil || len(res.Groups) != n/2 {
			b.Fatal(err)
		}
	}
}
