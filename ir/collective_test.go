package ir

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// coll is the part of a Collective a table row states.
type coll struct {
	kind      string
	pos       string // line:col of the op
	operands  string // comma-separated
	dtype     string // element types of the operands, comma-separated
	shape     string // shapes of the operands, comma-separated
	results   string // result types, comma-separated
	bytes     int64
	reduction string
	groups    [][]int64
	spelling  string
	mesh      string
	channel   int64 // handle, -1 when absent
	global    bool  // use_global_device_ids
}

func summarize(c *Collective) coll {
	var dt, sh, res []string
	for _, t := range c.OperandTypes {
		dt, sh = append(dt, t.Elem), append(sh, t.ShapeString())
	}
	for _, t := range c.ResultTypes {
		res = append(res, t.String())
	}
	return coll{
		kind: c.Kind, pos: c.Pos.String(), operands: strings.Join(c.Operands, ","),
		dtype: strings.Join(dt, ","), shape: strings.Join(sh, ","), results: strings.Join(res, ","),
		bytes: c.Bytes(), reduction: c.Reduction, groups: c.Groups, spelling: c.GroupSpelling,
		mesh: c.Mesh, channel: c.Channel, global: c.UseGlobalDeviceIDs,
	}
}

var collectiveTable = map[string][]coll{
	"goxla_allreduce_4rep.mlir": {
		{"all_reduce", "3:5", "%x", "f16", "8x1024", "tensor<8x1024xf16>", 16384, "sum", [][]int64{{0, 1, 2, 3}}, "dense", "", -1, false},
		{"all_reduce", "8:5", "%y", "f32", "16", "tensor<16xf32>", 64, "max", [][]int64{{0, 1}, {2, 3}}, "dense", "", -1, false},
	},
	"gomlx_gemma_tp4_bf16.mlir": {
		{"all_reduce", "12:5", "%0", "bf16", "6x384", "tensor<6x384xbf16>", 4608, "sum", [][]int64{{0, 1, 2, 3}}, "dense", "", -1, false},
	},
	"gomlx_gemma_tp4_f32.mlir": {
		{"all_reduce", "12:5", "%0", "f32", "6x384", "tensor<6x384xf32>", 9216, "sum", [][]int64{{0, 1, 2, 3}}, "dense", "", -1, false},
	},
	"gomlx_layernorm_tp4_bf16.mlir": {
		{"all_reduce", "12:5", "%0", "bf16", "6x384", "tensor<6x384xbf16>", 4608, "sum", [][]int64{{0, 1, 2, 3}}, "dense", "", -1, false},
	},
	"gomlx_layernorm_tp4_f32.mlir": {
		{"all_reduce", "12:5", "%0", "f32", "6x384", "tensor<6x384xf32>", 9216, "sum", [][]int64{{0, 1, 2, 3}}, "dense", "", -1, false},
	},
	"goxla_misc_collectives.mlir": {
		// Ragged groups: the -1 padding is dropped.
		{"all_reduce", "3:5", "%x", "bf16", "6x8", "tensor<6x8xbf16>", 96, "product", [][]int64{{0, 1, 2}, {3, 4, 5, 6}, {7}}, "dense", "", -1, false},
		{"collective_permute", "8:5", "%y", "f32", "4", "tensor<4xf32>", 16, "", [][]int64{{0, 1}, {1, 2}, {2, 0}}, "pairs", "", 3, false},
		// Hex dense groups.
		{"all_to_all", "9:5", "%z", "f16", "2x16", "tensor<2x16xf16>", 64, "", [][]int64{{0, 1}, {2, 3}, {4, 5}, {6, 7}}, "dense", "", -1, false},
		{"collective_broadcast", "10:5", "%2", "f16", "2x16", "tensor<2x16xf16>", 64, "", [][]int64{{4, 5}}, "dense", "", -1, false},
		// Inside a pretty while: an inline mesh x=2, y=4 and the major half of y.
		{"all_reduce", "18:7", "%iterArg_0", "f32", "256", "tensor<256xf32>", 1024, "sum", [][]int64{{0, 2}, {1, 3}, {4, 6}, {5, 7}}, "mesh_axes", "", 4, true},
	},
	"jax_dp2_tp4_8dev.mlir": {
		{"all_reduce", "10:7", "%1", "f16", "32x1024", "tensor<32x1024xf16>", 65536, "sum", [][]int64{{0, 1, 2, 3}, {4, 5, 6, 7}}, "mesh_axes", "mesh", 1, true},
		{"all_reduce", "15:7", "%arg5,%arg5", "f32,f32", "8,8", "tensor<8xf32>,tensor<8xf32>", 32 + 32, "sum", [][]int64{{0, 4}, {1, 5}, {2, 6}, {3, 7}}, "mesh_axes", "mesh", 2, true},
	},
	"jax_mixed_collectives_f32_2dev.mlir": {
		{"all_reduce", "6:7", "%arg3", "f32", "8", "tensor<8xf32>", 32, "max", [][]int64{{0, 1}}, "mesh_axes", "mesh_0", 1, true},
		{"all_reduce", "11:7", "%arg4", "f32", "8", "tensor<8xf32>", 32, "min", [][]int64{{0, 1}}, "mesh_axes", "mesh_0", 1, true},
		{"all_reduce", "16:7", "%arg5", "f32", "64", "tensor<64xf32>", 256, "sum", [][]int64{{0, 1}}, "mesh_axes", "mesh_0", 1, true},
		{"reduce_scatter", "21:7", "%arg5", "f32", "64", "tensor<32xf32>", 256, "sum", [][]int64{{0, 1}}, "mesh_axes", "mesh_0", 1, true},
		{"all_gather", "27:7", "%5", "f32", "1x8", "tensor<2x8xf32>", 32, "", [][]int64{{0, 1}}, "mesh_axes", "mesh_0", 1, true},
	},
	"jax_tp_mlp_bf16_2dev.mlir": {
		{"all_reduce", "25:7", "%15", "bf16", "16x512", "tensor<16x512xbf16>", 16384, "sum", [][]int64{{0, 1}}, "mesh_axes", "mesh_0", 1, true},
	},
	"attributes.mlir": {
		// A multi-line dictionary with hex groups, a quoted name and a unit attribute.
		{"all_reduce", "4:5", "%0", "i64", "2x2", "tensor<2x2xi64>", 32, "sum", [][]int64{{0, 1}}, "dense", "", 5, true},
		// Splat groups.
		{"all_reduce", "14:5", "%1", "i64", "2x2", "tensor<2x2xi64>", 32, "and", [][]int64{{0}}, "dense", "", -1, false},
	},
	"comments.mlir": {
		{"all_reduce", "8:5", "%0", "f32", "scalar", "tensor<f32>", 4, "max", [][]int64{{0}}, "dense", "", -1, false},
	},
	"crlf.mlir": {
		{"all_reduce", "4:5", "%x", "f16", "2", "tensor<2xf16>", 4, "sum", [][]int64{{0, 1}}, "dense", "", -1, false},
	},
	"generic.mlir": {
		{"all_reduce", "5:5", "%x,%y", "f32,f32", "4,4", "tensor<4xf32>,tensor<4xf32>", 32, "sum", [][]int64{{0, 1}}, "dense", "", 7, false},
	},
	"collectives.mlir": {
		// Variadic, with a dictionary spread over lines and a comment in it.
		{"all_reduce", "8:5", "%x,%z", "f32,f32", "8,4", "tensor<8xf32>,tensor<4xf32>", 48, "sum", [][]int64{{0, 1}, {2, 3}}, "dense", "", 0, false},
		// The result promotes f32 to f64; the groups are flattened ids.
		{"all_reduce", "17:5", "%0#0", "f32", "8", "tensor<8xf64>", 32, "max", [][]int64{{0, 1, 2, 3}}, "dense", "", 1, true},
		{"all_reduce", "22:5", "%x", "f32", "8", "tensor<8xf32>", 32, "sum", [][]int64{{0, 1}, {2, 3}}, "mesh_axes", "mesh", 2, true},
		{"all_gather", "27:5", "%4", "f32", "8", "tensor<16xf32>", 32, "", [][]int64{{0, 2}, {1, 3}}, "dense", "", 3, true},
		{"all_gather", "28:5", "%x,%y", "f32,i32", "8,4", "tensor<16xf32>,tensor<8xi32>", 48, "", [][]int64{{0, 1}, {2, 3}}, "dense", "", -1, false},
		{"reduce_scatter", "29:5", "%5", "f32", "16", "tensor<8xf32>", 64, "sum", [][]int64{{0, 1}, {2, 3}}, "dense", "", -1, false},
		{"all_to_all", "34:5", "%7", "f32", "8", "tensor<8xf32>", 32, "", [][]int64{{0, 1}, {2, 3}}, "dense", "", -1, false},
		{"all_to_all", "35:5", "%8,%8", "f32,f32", "8,8", "tensor<8xf32>,tensor<8xf32>", 64, "", [][]int64{{0, 1}, {2, 3}}, "dense", "", -1, false},
		{"collective_permute", "36:5", "%9#0", "f32", "8", "tensor<8xf32>", 32, "", [][]int64{{0, 1}, {1, 2}, {2, 3}, {3, 0}}, "pairs", "", -1, false},
		{"collective_broadcast", "37:5", "%10", "f32", "8", "tensor<8xf32>", 32, "", [][]int64{{1, 0}, {3, 2}}, "dense", "", -1, false},
	},
	"all_reduce_results.mlir": {
		// Empty groups and a dynamic result.
		{"all_reduce", "11:5", "%h", "bf16", "16", "tensor<?xbf16>", 32, "product", nil, "dense", "", -1, false},
		// Quantized storage promoted from i8 to i16; hex groups.
		{"all_reduce", "16:5", "%q", "!quant.uniform<i8:f32, 2.000000e+00:15>", "4", "tensor<4x!quant.uniform<i16:f32, 2.000000e+00:15>>", 4, "sum", [][]int64{{0, 1}}, "dense", "", -1, false},
		{"all_reduce", "21:5", "%f", "f64", "2", "tensor<?xf64>", 16, "sum", [][]int64{{0, 1}}, "dense", "", -1, false},
	},
	"interpreter.mlir": {
		// "%operand : tensor<4xi64>" in the signature.
		{"all_reduce", "8:5", "%operand", "i64", "4", "tensor<4xi64>", 32, "sum", [][]int64{{0, 1}}, "dense", "", 0, false},
	},
	"jax_export.mlir": {
		{"all_reduce", "14:7", "%arg3", "bf16", "16", "tensor<16xbf16>", 32, "sum", [][]int64{{0, 1}}, "mesh_axes", "mesh", 1, true},
	},
	"layout.mlir": {
		// One token a line, with comments between them.
		{"all_reduce", "16:5", "%x", "f32", "4", "tensor<4xf32>", 16, "sum", [][]int64{{0}, {1}}, "dense", "", -1, false},
	},
	"mhlo.mlir": {
		// #mhlo.channel_handle.
		{"all_reduce", "7:5", "%1", "f32", "8", "tensor<8xf32>", 32, "sum", [][]int64{{0, 1}, {2, 3}}, "dense", "", 5, false},
		{"all_reduce", "12:5", "%2", "f32", "8", "tensor<8xf32>", 32, "min", [][]int64{{0, 1, 2, 3}}, "dense", "", 6, true},
		{"all_gather", "17:5", "%3", "f32", "8", "tensor<32xf32>", 32, "", [][]int64{{0, 1, 2, 3}}, "dense", "", -1, false},
		{"reduce_scatter", "18:5", "%4", "f32", "32", "tensor<8xf32>", 128, "sum", [][]int64{{0, 1, 2, 3}}, "dense", "", -1, false},
		{"collective_permute", "23:5", "%5", "f32", "8", "tensor<8xf32>", 32, "", [][]int64{{0, 1}, {1, 2}, {2, 3}, {3, 0}}, "pairs", "", -1, false},
	},
	"shardy.mlir": {
		// Mesh x=4, y=2: the major half of x (Shardy's spelling of a sub-axis).
		{"all_reduce", "15:7", "%arg2", "f32", "4x4", "tensor<4x4xf32>", 64, "sum", [][]int64{{0, 4}, {1, 5}, {2, 6}, {3, 7}}, "mesh_axes", "mesh", 1, true},
		// y, then the minor half of x.
		{"all_reduce", "20:7", "%3", "f32", "4x4", "tensor<4x4xf32>", 64, "sum", [][]int64{{0, 2, 1, 3}, {4, 6, 5, 7}}, "mesh_axes", "mesh", 2, true},
	},
	"vhlo.mlir": {
		// The generic func's all-reduce; VHLO's versioned ops are not collectives arc reads.
		{"all_reduce", "16:5", "%arg0,%arg1", "f32,f32", "4,4", "tensor<4xf32>,tensor<4xf32>", 32, "sum", [][]int64{{0}, {1}}, "dense", "", -1, false},
	},
	// JAX's Llama block: the two psums of a layer, over Shardy's tp axis.
	"jax_gemma_io_tp2_bf16.mlir": {
		{"all_reduce", "7:7", "%1", "bf16", "6x384", "tensor<6x384xbf16>", 4608, "sum", [][]int64{{0, 1}}, "mesh_axes", "mesh_0", 1, true},
	},
	"jax_gemma_io_tp2_f32.mlir": {
		{"all_reduce", "7:7", "%1", "f32", "6x384", "tensor<6x384xf32>", 9216, "sum", [][]int64{{0, 1}}, "mesh_axes", "mesh_0", 1, true},
	},
	"jax_layernorm_tp2_bf16.mlir": {
		{"all_reduce", "7:7", "%1", "bf16", "6x384", "tensor<6x384xbf16>", 4608, "sum", [][]int64{{0, 1}}, "mesh_axes", "mesh_0", 1, true},
	},
	"jax_layernorm_tp2_f32.mlir": {
		{"all_reduce", "7:7", "%1", "f32", "6x384", "tensor<6x384xf32>", 9216, "sum", [][]int64{{0, 1}}, "mesh_axes", "mesh_0", 1, true},
	},
	"jax_layernorm_fast_tp2_bf16.mlir": {
		{"all_reduce", "7:7", "%1", "bf16", "6x384", "tensor<6x384xbf16>", 4608, "sum", [][]int64{{0, 1}}, "mesh_axes", "mesh_0", 1, true},
	},
	"jax_layernorm_fast_tp2_f32.mlir": {
		{"all_reduce", "7:7", "%1", "f32", "6x384", "tensor<6x384xf32>", 9216, "sum", [][]int64{{0, 1}}, "mesh_axes", "mesh_0", 1, true},
	},
	"jax_gemma_tp2_bf16.mlir": {
		{"all_reduce", "7:7", "%1", "bf16", "6x384", "tensor<6x384xbf16>", 4608, "sum", [][]int64{{0, 1}}, "mesh_axes", "mesh_0", 1, true},
	},
	"jax_gemma_tp2_f32.mlir": {
		{"all_reduce", "7:7", "%1", "f32", "6x384", "tensor<6x384xf32>", 9216, "sum", [][]int64{{0, 1}}, "mesh_axes", "mesh_0", 1, true},
	},
	"jax_rms_fp8_tp2_bf16.mlir": {
		{"all_reduce", "7:7", "%1", "bf16", "6x384", "tensor<6x384xbf16>", 4608, "sum", [][]int64{{0, 1}}, "mesh_axes", "mesh_0", 1, true},
	},
	// JAX's scalar psum of a loss: 4 bytes.
	"jax_loss_tp2_f32.mlir": {
		{"all_reduce", "12:7", "%4", "f32", "scalar", "tensor<f32>", 4, "sum", [][]int64{{0, 1}}, "mesh_axes", "mesh_0", 1, true},
	},
	"jax_llama_block_tp2_bf16.mlir": {
		{"all_reduce", "187:7", "%133", "bf16", "4x1x2048", "tensor<4x1x2048xbf16>", 16384, "sum", [][]int64{{0, 1}}, "mesh_axes", "mesh_0", 1, true},
		{"all_reduce", "217:7", "%156", "bf16", "4x1x2048", "tensor<4x1x2048xbf16>", 16384, "sum", [][]int64{{0, 1}}, "mesh_axes", "mesh_0", 1, true},
	},
	"jax_llama_block_tp2_f32.mlir": {
		{"all_reduce", "182:7", "%128", "f32", "4x1x2048", "tensor<4x1x2048xf32>", 32768, "sum", [][]int64{{0, 1}}, "mesh_axes", "mesh_0", 1, true},
		{"all_reduce", "209:7", "%148", "f32", "4x1x2048", "tensor<4x1x2048xf32>", 32768, "sum", [][]int64{{0, 1}}, "mesh_axes", "mesh_0", 1, true},
	},
	"jax_llama_block_tp4_bf16.mlir": {
		{"all_reduce", "186:7", "%132", "bf16", "4x1x2048", "tensor<4x1x2048xbf16>", 16384, "sum", [][]int64{{0, 1, 2, 3}}, "mesh_axes", "mesh_0", 1, true},
		{"all_reduce", "216:7", "%155", "bf16", "4x1x2048", "tensor<4x1x2048xbf16>", 16384, "sum", [][]int64{{0, 1, 2, 3}}, "mesh_axes", "mesh_0", 1, true},
	},
	"jax_llama_block_tp4_f32.mlir": {
		{"all_reduce", "181:7", "%127", "f32", "4x1x2048", "tensor<4x1x2048xf32>", 32768, "sum", [][]int64{{0, 1, 2, 3}}, "mesh_axes", "mesh_0", 1, true},
		{"all_reduce", "208:7", "%147", "f32", "4x1x2048", "tensor<4x1x2048xf32>", 32768, "sum", [][]int64{{0, 1, 2, 3}}, "mesh_axes", "mesh_0", 1, true},
	},
	"jax_llama_block_tp8_bf16.mlir": {
		{"all_reduce", "186:7", "%132", "bf16", "4x1x2048", "tensor<4x1x2048xbf16>", 16384, "sum", [][]int64{{0, 1, 2, 3, 4, 5, 6, 7}}, "mesh_axes", "mesh_0", 1, true},
		{"all_reduce", "216:7", "%155", "bf16", "4x1x2048", "tensor<4x1x2048xbf16>", 16384, "sum", [][]int64{{0, 1, 2, 3, 4, 5, 6, 7}}, "mesh_axes", "mesh_0", 1, true},
	},
	"jax_llama_block_tp8_f32.mlir": {
		{"all_reduce", "181:7", "%127", "f32", "4x1x2048", "tensor<4x1x2048xf32>", 32768, "sum", [][]int64{{0, 1, 2, 3, 4, 5, 6, 7}}, "mesh_axes", "mesh_0", 1, true},
		{"all_reduce", "208:7", "%147", "f32", "4x1x2048", "tensor<4x1x2048xf32>", 32768, "sum", [][]int64{{0, 1, 2, 3, 4, 5, 6, 7}}, "mesh_axes", "mesh_0", 1, true},
	},
	"sdy_device_ids.mlir": {
		// Mesh x=2, y=2 with device_ids [3, 2, 1, 0]: groups name device ids, not positions.
		{"all_reduce", "6:7", "%arg1", "f32", "4x4", "tensor<4x4xf32>", 64, "sum", [][]int64{{3, 1}, {2, 0}}, "mesh_axes", "mesh", 1, true},
		// Two axes, y major.
		{"all_gather", "11:7", "%1", "f32", "4x4", "tensor<4x16xf32>", 64, "", [][]int64{{3, 1, 2, 0}}, "mesh_axes", "mesh", 2, true},
	},
}

func TestCollectives(t *testing.T) {
	for _, path := range inputs(t) {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			m := parseFile(t, path)
			cs, err := m.Collectives()
			if err != nil {
				t.Fatal(err)
			}
			want := collectiveTable[name]
			if len(cs) != len(want) {
				t.Fatalf("%d collectives, want %d", len(cs), len(want))
			}
			for i, c := range cs {
				if c.Index != i {
					t.Errorf("collective %d has index %d", i, c.Index)
				}
				if got := summarize(c); !reflect.DeepEqual(got, want[i]) {
					t.Errorf("collective %d:\n got %+v\nwant %+v", i, got, want[i])
				}
				if !strings.HasSuffix(c.Op.Name, c.Kind) {
					t.Errorf("collective %d: kind %s for op %s", i, c.Kind, c.Op.Name)
				}
				// The typed view of one op agrees with the module's list.
				one, err := m.Collective(c.Op)
				if err != nil || !reflect.DeepEqual(summarize(one), summarize(c)) {
					t.Errorf("Collective(op %d) = %+v, %v", i, one, err)
				}
			}
		})
	}
}

func TestMixedCollectivesAcceptance(t *testing.T) {
	m := parseFile(t, "../testdata/fixtures/jax_mixed_collectives_f32_2dev.mlir")
	cs, err := m.Collectives()
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, c := range cs {
		count[c.Kind+"/"+c.Reduction]++
	}
	want := map[string]int{"all_reduce/max": 1, "all_reduce/min": 1, "all_reduce/sum": 1, "reduce_scatter/sum": 1, "all_gather/": 1}
	if !reflect.DeepEqual(count, want) {
		t.Errorf("collectives by kind/reduction: %v, want %v", count, want)
	}
}

func TestCollectiveNonCollective(t *testing.T) {
	m := parseFile(t, "../testdata/fixtures/jax_tp_mlp_bf16_2dev.mlir")
	n := 0
	m.Walk(func(op *Op) bool {
		c, err := m.Collective(op)
		if err != nil {
			t.Fatalf("%s: %v", op.Name, err)
		}
		if c != nil {
			n++
		}
		return true
	})
	if n != 1 {
		t.Errorf("%d ops read as collectives, want 1", n)
	}
}

func TestReductions(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{`%3 = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>`, "sum"},
		{`%3 = stablehlo.maximum %a, %b : tensor<f32>`, "max"},
		{`%3 = "mhlo.minimum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>`, "min"},
		{`%3 = stablehlo.multiply %a, %b : tensor<f32>`, "product"},
		{`%3 = stablehlo.or %a, %b : tensor<f32>`, "or"},
		{`%3 = stablehlo.xor %a, %b : tensor<f32>`, "xor"},
		{`%3 = stablehlo.subtract %a, %b : tensor<f32>`, "other"},
		{"%3 = stablehlo.add %a, %b : tensor<f32>\n      %4 = stablehlo.add %3, %b : tensor<f32>", "other"},
		// the op alone does not make a sum: it must add the two arguments
		{`%3 = stablehlo.add %a, %a : tensor<f32>`, "other"},
		{`%3 = "stablehlo.add"(%b, %a) : (tensor<f32>, tensor<f32>) -> tensor<f32>`, "sum"},
		{`%3 = stablehlo.add %a, %b : tensor<f32> loc("stablehlo.maximum")`, "sum"},
	} {
		src := `%0 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      ` + tc.body + `
      "stablehlo.return"(%3) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
`
		m := mustParse(t, src)
		cs, err := m.Collectives()
		if err != nil {
			t.Fatal(err)
		}
		if len(cs) != 1 || cs[0].Reduction != tc.want {
			t.Errorf("%s: reduction %q, want %q", tc.body, cs[0].Reduction, tc.want)
		}
	}
}

// TestArcMark: an all-reduce arc has decided carries its mark; arc's own
// custom calls are package decision's to read, so ir lists neither them
// nor other custom calls.
func TestArcMark(t *testing.T) {
	src := `%0 = "stablehlo.custom_call"(%x) {api_version = 4 : i32, backend_config = {algo = "twoshot", cast = 0 : i64, codec = "int4", groups = array<i64: 0, 1, 2, 3>, link = "peer", world = 2 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, arc.reason = "fits"} : (tensor<1024xf16>) -> tensor<1024xf16>
%1 = "stablehlo.all_reduce"(%0) ({
^bb0(%a: tensor<f16>, %b: tensor<f16>):
  %2 = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
  "stablehlo.return"(%2) : (tensor<f16>) -> ()
}) {arc.reason = "small", replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, arc.lowering = "native"} : (tensor<1024xf16>) -> tensor<1024xf16>
%3 = "stablehlo.custom_call"(%1) {call_target_name = "other"} : (tensor<1024xf16>) -> tensor<1024xf16>
`
	m := mustParse(t, src)
	cs, err := m.Collectives()
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 1 || cs[0].Op.Name != "stablehlo.all_reduce" {
		t.Fatalf("%d collectives, want the all-reduce alone", len(cs))
	}
	if got := fmt.Sprintf("%s %+v", cs[0].Reduction, *cs[0].Arc); got != "sum {Lowering:native}" {
		t.Errorf("marked all-reduce: %s", got)
	}
}

// TestMHLOChannelHandle: MHLO spells the channel handle in its own dialect.
func TestMHLOChannelHandle(t *testing.T) {
	m := mustParse(t, `%0 = "mhlo.all_reduce"(%x) ({
^bb0(%a: tensor<f32>, %b: tensor<f32>):
  %1 = mhlo.add %a, %b : tensor<f32>
  mhlo.return %1 : tensor<f32>
}) {channel_handle = #mhlo.channel_handle<handle = 3, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids} : (tensor<4xf32>) -> tensor<4xf32>
`)
	cs, err := m.Collectives()
	if err != nil {
		t.Fatal(err)
	}
	if c := cs[0]; c.Kind != "all_reduce" || c.Channel != 3 || c.ChannelType != 1 || !c.UseGlobalDeviceIDs || c.Reduction != "sum" {
		t.Errorf("mhlo all-reduce: %+v", c)
	}
}
