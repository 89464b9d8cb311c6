package decision_test

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/arcpass/arc/decision"
	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/reference/norm"
)

// parseCall reads the one op of src (a call as Format prints it, with a
// result).
func parseCall(t *testing.T, src string) (*decision.Call, error) {
	t.Helper()
	m, err := ir.ParseString("test.mlir", src)
	if err != nil {
		t.Fatalf("%v:\n%s", err, src)
	}
	if len(m.Body.Ops) != 1 {
		t.Fatalf("%d ops in\n%s", len(m.Body.Ops), src)
	}
	return decision.ParseCall(m, m.Body.Ops[0])
}

func tensor(elem string, shape ...int64) ir.TensorType {
	return ir.TensorType{Shape: shape, Elem: elem}
}

// TestCallRoundTrip: a call Format prints reads back as the same call.
func TestCallRoundTrip(t *testing.T) {
	twoshot := decision.Decision{Lowering: "quickreduce", Codec: "fp", Algo: "twoshot", Link: "peer", CastBF16ToFP16: true,
		Reason: `fits, "quoted" {x}`, EstUS: 12.5, NativeUS: 30.25}
	for _, c := range []decision.Call{
		{Target: decision.AllReduce, Decision: twoshot, World: 2, Devices: []int64{3, 0, 1, 2}, Groups: []int64{0, 1, 2, 3},
			Operands: []string{"%x"}, OperandTypes: []ir.TensorType{tensor("bf16", 8, 128)}, ResultTypes: []ir.TensorType{tensor("bf16", 8, 128)}},
		// An older arc's call, without devices.
		{Target: decision.AllReduce, Decision: decision.Decision{Lowering: "oneshot", Codec: "none", Algo: "oneshot", Link: "host", Reason: "small"},
			World: 4, Groups: []int64{0, 1, 2, 3}, Operands: []string{"%0#1"}, OperandTypes: []ir.TensorType{tensor("f32", 4)}, ResultTypes: []ir.TensorType{tensor("f32", 4)}},
		// The replaced op's shardings and frontend attributes.
		{Target: decision.AllReduce, Decision: decision.Decision{Lowering: "lowprec", Codec: "fp8", Algo: "hier", Link: "peer", Reason: "r"},
			World: 8, Devices: []int64{0, 1, 2, 3, 4, 5, 6, 7}, Groups: []int64{0, 1, 2, 3, 4, 5, 6, 7},
			Operands: []string{"%y"}, OperandTypes: []ir.TensorType{tensor("f16", 1024)}, ResultTypes: []ir.TensorType{tensor("f16", 1024)},
			Kept: []ir.Attr{{Name: "mhlo.frontend_attributes", Value: `{_xla_stream_annotation = "1"}`}, {Name: "mhlo.sharding", Value: `"{devices=[2]<=[2]}"`},
				{Name: "sdy.sharding", Value: `#sdy.sharding_per_value<[<@mesh, [{"x"}]>]>`}}},
		// The fused form: the operand, the residual and the weight; h and y.
		{Target: decision.AllReduce, Decision: decision.Decision{Lowering: "oneshot", Codec: "none", Algo: "oneshot", Link: "peer", Reason: "small",
			EstUS: 3, NativeUS: 9, Fuse: "rmsnorm", FuseReason: "fused with the residual add"},
			Norm:  &norm.Recipe{Norm: "rmsnorm", Row: 128, Mean: "div", Scale: 128, Eps: 1e-6, Weight: "io"},
			World: 2, Devices: []int64{0, 1}, Groups: []int64{0, 1},
			Operands: []string{"%s", "%x", "%w"}, OperandTypes: []ir.TensorType{tensor("bf16", 8, 128), tensor("bf16", 8, 128), tensor("bf16", 1, 128)},
			ResultTypes: []ir.TensorType{tensor("bf16", 8, 128), tensor("bf16", 8, 128)}},
		// LayerNorm with a bias: a fourth operand, the weight's type.
		{Target: decision.AllReduce, Decision: decision.Decision{Lowering: "twoshot", Codec: "fp", Algo: "twoshot", Link: "peer", Reason: "r",
			EstUS: 3, NativeUS: 9, Fuse: "layernorm_fast", FuseReason: "fused"},
			Norm:  &norm.Recipe{Norm: "layernorm_fast", Row: 64, Mean: "div", Scale: 64, Eps: 1e-6, Weight: "f32", Bias: true, Init: float32(math.Copysign(0, -1))},
			World: 2, Devices: []int64{0, 1}, Groups: []int64{0, 1},
			Operands: []string{"%s", "%x", "%w", "%b"}, OperandTypes: []ir.TensorType{tensor("f32", 4, 64), tensor("f32", 4, 64), tensor("f32", 64), tensor("f32", 64)},
			ResultTypes: []ir.TensorType{tensor("f32", 4, 64), tensor("f32", 4, 64)}},
	} {
		text := "%r = " + c.Format()
		if len(c.ResultTypes) == 2 {
			text = "%h, %y = " + c.Format()
		}
		back, err := parseCall(t, text)
		if err != nil {
			t.Fatalf("%v:\n%s", err, text)
		}
		if !reflect.DeepEqual(*back, c) {
			t.Errorf("read back\n%+v\nfrom\n%s\nwant\n%+v", *back, text, c)
		}
	}
}

// TestCallFormat pins the text of a call, which the handler and XLA read:
// attributes sorted by name, the typed FFI, a side effect, row-major
// layouts.
func TestCallFormat(t *testing.T) {
	c := decision.Call{Target: decision.AllReduce, Decision: decision.Decision{Lowering: "twoshot", Codec: "int8", Algo: "twoshot", Link: "peer", Reason: "why", EstUS: 1, NativeUS: 2.5},
		World: 2, Devices: []int64{0, 1}, Groups: []int64{0, 1}, Operands: []string{"%x"},
		OperandTypes: []ir.TensorType{tensor("f32", 4, 2)}, ResultTypes: []ir.TensorType{tensor("f32", 4, 2)},
		Kept: []ir.Attr{{Name: "mhlo.sharding", Value: `"{replicated}"`}}}
	want := `"stablehlo.custom_call"(%x) {api_version = 4 : i32, arc.est_us = 1.0 : f64, arc.lowering = "twoshot", arc.native_us = 2.5 : f64, arc.reason = "why", ` +
		`backend_config = {algo = "twoshot", cast = 0 : i64, codec = "int8", devices = array<i64: 0, 1>, groups = array<i64: 0, 1>, link = "peer", world = 2 : i64}, ` +
		`call_target_name = "arc_allreduce", has_side_effect = true, mhlo.sharding = "{replicated}", operand_layouts = [dense<[1, 0]> : tensor<2xindex>], ` +
		`result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<4x2xf32>) -> tensor<4x2xf32>`
	if got := c.Format(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestFusedCallFormat pins the text of the fused form: the norm's keys
// among the all-reduce's, the constants as f32 bits, arc.fuse beside the
// decision.
func TestFusedCallFormat(t *testing.T) {
	c := decision.Call{Target: decision.AllReduce, Decision: decision.Decision{Lowering: "twoshot", Codec: "fp", Algo: "twoshot", Link: "peer", Reason: "why",
		EstUS: 1, NativeUS: 2, Fuse: "rmsnorm", FuseReason: "pays"},
		Norm:  &norm.Recipe{Norm: "rmsnorm", Row: 64, Mean: "mul", Scale: 1.0 / 64, Eps: 1e-5, Weight: "f32"},
		World: 2, Devices: []int64{1, 0}, Groups: []int64{0, 1}, Operands: []string{"%s", "%x", "%w"},
		OperandTypes: []ir.TensorType{tensor("f16", 2, 64), tensor("f16", 2, 64), tensor("f16", 64)}, ResultTypes: []ir.TensorType{tensor("f16", 2, 64), tensor("f16", 2, 64)}}
	want := `"stablehlo.custom_call"(%s, %x, %w) {api_version = 4 : i32, arc.est_us = 1.0 : f64, arc.fuse = "rmsnorm", arc.fuse_reason = "pays", arc.lowering = "twoshot", arc.native_us = 2.0 : f64, arc.reason = "why", ` +
		`backend_config = {algo = "twoshot", cast = 0 : i64, codec = "fp", devices = array<i64: 1, 0>, eps = 0x3727C5AC : f32, groups = array<i64: 0, 1>, link = "peer", mean = "mul", norm = "rmsnorm", row = 64 : i64, scale = 0x3C800000 : f32, weight = "f32", world = 2 : i64}, ` +
		`call_target_name = "arc_allreduce", has_side_effect = true, operand_layouts = [dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[0]> : tensor<1xindex>], ` +
		`result_layouts = [dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>]} : (tensor<2x64xf16>, tensor<2x64xf16>, tensor<64xf16>) -> (tensor<2x64xf16>, tensor<2x64xf16>)`
	if got := c.Format(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestCallErrors: what the handler would refuse, or run other than the
// call says, is refused at the call.
func TestCallErrors(t *testing.T) {
	call := func(cfg string) string {
		return `%0 = "stablehlo.custom_call"(%x) {call_target_name = "arc_allreduce"` + cfg + `} : (tensor<4xf32>) -> tensor<4xf32>`
	}
	kernel := func(algo, cast, codec, devices, link string) string {
		return call(fmt.Sprintf(`, backend_config = {algo = %q, cast = %s : i64, codec = %q, devices = array<i64: %s>, groups = array<i64: 0, 1>, link = %q, world = 2 : i64}`, algo, cast, codec, devices, link))
	}
	const fusedTypes = "(tensor<2x64xf16>, tensor<2x64xf16>, tensor<64xf16>) -> (tensor<2x64xf16>, tensor<2x64xf16>)"
	const biasTypes = "(tensor<2x64xf16>, tensor<2x64xf16>, tensor<64xf16>, tensor<64xf16>) -> (tensor<2x64xf16>, tensor<2x64xf16>)"
	fused := func(norm, row, scale, mean, weight, types string) string {
		operands := map[int]string{4: "%s, %x", 5: "%s, %x, %w", 6: "%s, %x, %w, %b"}[strings.Count(types, "tensor")]
		return fmt.Sprintf(`%%h, %%y = "stablehlo.custom_call"(%s) {call_target_name = "arc_allreduce", backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", eps = 0x3727C5AC : f32, groups = array<i64: 0, 1>, link = "peer", mean = %q, norm = %q, row = %s : i64, scale = %s : f32, weight = %q, world = 2 : i64}} : %s`,
			operands, mean, norm, row, scale, weight, types)
	}
	for _, tc := range []struct{ src, want string }{
		{call(""), "arc's custom call has no backend_config dictionary"},
		{call(`, backend_config = "algo=oneshot"`), "arc's custom call has no backend_config dictionary"},
		{call(`, backend_config = {world = 0 : i64}`), `backend_config: bad world "0"`},
		{call(`, backend_config = {world = 2 : i64, groups = array<i64: 0, 1, 2>}`), `backend_config: bad groups "array<i64: 0, 1, 2>"`},
		{kernel("threeshot", "0", "none", "0, 1", "peer"), `backend_config: unknown algorithm "threeshot" (want one of [oneshot twoshot hier])`},
		{kernel("oneshot", "0", "int4", "0, 1", "peer"), `backend_config: oneshot takes no codec, not "int4"`},
		{kernel("twoshot", "0", "int2", "0, 1", "peer"), `backend_config: twoshot needs a codec in [fp int8 int6 int4 int4r fp8], not "int2"`},
		{kernel("hier", "0", "fp", "0, 1", "peer"), "backend_config: hier needs a world size in [4 8], not 2"},
		{kernel("oneshot", "0", "none", "0, 1", "wire"), `backend_config: unknown link "wire" (want one of [peer host])`},
		{kernel("oneshot", "2", "none", "0, 1", "peer"), `backend_config: cast is "2", not 0 or 1`},
		{kernel("oneshot", "0", "none", "0, 1, 2, 3", "peer"), `backend_config: devices "array<i64: 0, 1, 2, 3>" do not match groups "array<i64: 0, 1>"`},
		{strings.Replace(kernel("oneshot", "0", "none", "0, 1", "peer"), "}", `}, arc.est_us = "soon"`, 1), `arc.est_us: "soon" is not a number`},
		{strings.Replace(strings.Replace(kernel("oneshot", "0", "none", "0, 1", "peer"), "(%x)", "(%x, %x)", 1), "(tensor<4xf32>)", "(tensor<4xf32>, tensor<4xf32>)", 1), "arc's call takes one operand and returns its sum, not 2 operands and 1 results"},
		{fused("groupnorm", "64", "0x3C800000", "mul", "f32", fusedTypes), `backend_config: norm "groupnorm" (arc fuses [rmsnorm layernorm layernorm_fast])`},
		{fused("rmsnorm", "64", "0x3C800000", "mul", "f32", "(tensor<2x64xf16>, tensor<2x64xf16>) -> (tensor<2x64xf16>, tensor<2x64xf16>)"),
			"the fused call of rmsnorm takes the operand, the residual, the weight (and a LayerNorm's bias) and returns h and y, not 2 operands and 2 results"},
		{fused("rmsnorm", "64", "0x3C800000", "mul", "f32", biasTypes),
			"the fused call of rmsnorm takes the operand, the residual, the weight (and a LayerNorm's bias) and returns h and y, not 4 operands and 2 results"},
		{fused("layernorm", "64", "0x3C800000", "mul", "io", fusedTypes), `backend_config: norm: layernorm applies its weight in f32, not "io"`},
		{strings.Replace(fused("layernorm", "64", "0x3C800000", "mul", "f32", fusedTypes), "groups =", "init = 0x3F800000 : f32, groups =", 1),
			"backend_config: norm: a row sum from 1 (+0 or, for LayerNorm, -0)"},
		{strings.Replace(fused("rmsnorm", "64", "0x3C800000", "mul", "f32", fusedTypes), "groups =", "init = 0x80000000 : f32, groups =", 1),
			"backend_config: norm: a row sum from -0 (+0 or, for LayerNorm, -0)"},
		{fused("layernorm_fast", "64", "0x3C800000", "mul", "f32", strings.Replace(biasTypes, "tensor<64xf16>)", "tensor<64xf32>)", 1)),
			"operand 3 is tensor<64xf32>: the fused call takes a bias of the weight's type"},
		{fused("rmsnorm", "32", "0x3C800000", "mul", "f32", fusedTypes), `backend_config: row "32" is not the last dimension of tensor<2x64xf16>`},
		{fused("rmsnorm", "64", `"1/64"`, "mul", "f32", fusedTypes), `backend_config: scale = "1/64" : f32 is a string, but the handler reads scale as an f32`},
		{strings.Replace(fused("rmsnorm", "64", "0x3C800000", "mul", "f32", fusedTypes), "eps = 0x3727C5AC : f32", "eps = 1.0e-06", 1), // an f64
			`backend_config: eps = 1.0e-06 is not an f32, but the handler reads eps as an f32`},
		// Each key of the type the handler reads it as (parse_attrs).
		{strings.Replace(kernel("oneshot", "0", "none", "0, 1", "peer"), "world = 2 : i64", `world = "2"`, 1), `backend_config: world = "2" is a string, but the handler reads world as an i64`},
		{strings.Replace(kernel("oneshot", "0", "none", "0, 1", "peer"), "world = 2 : i64", `world = 2.0 : f32`, 1), `backend_config: world = 2.0 : f32 is not an integer, but the handler reads world as an i64`},
		{strings.Replace(kernel("oneshot", "0", "none", "0, 1", "peer"), "world = 2 : i64", `world = true`, 1), `backend_config: world = true is not an integer, but the handler reads world as an i64`},
		{strings.Replace(kernel("oneshot", "0", "none", "0, 1", "peer"), "world = 2 : i64", `world = 1 : i1`, 1), `backend_config: world = 1 : i1 is not an integer, but the handler reads world as an i64`},
		{strings.Replace(kernel("oneshot", "0", "none", "0, 1", "peer"), "world = 2 : i64", `world`, 1), `backend_config: world has no value, but the handler reads it as an i64`},
		{strings.Replace(kernel("oneshot", "0", "none", "0, 1", "peer"), `algo = "oneshot"`, `algo = 1 : i64`, 1), `backend_config: algo = 1 : i64 is not a string, but the handler reads algo as a string`},
		{strings.Replace(kernel("oneshot", "0", "none", "0, 1", "peer"), `cast = 0 : i64`, `cast = "0"`, 1), `backend_config: cast = "0" is a string, but the handler reads cast as an i64`},
		{strings.Replace(kernel("oneshot", "0", "none", "0, 1", "peer"), `groups = array<i64: 0, 1>`, `groups = dense<[0, 1]> : tensor<2xi64>`, 1),
			`backend_config: groups = dense<[0, 1]> : tensor<2xi64> is not an array<i64: ...>, but the handler reads groups as an array<i64>`},
		{strings.Replace(kernel("oneshot", "0", "none", "0, 1", "peer"), `groups = array<i64: 0, 1>`, `groups = [0, 1]`, 1),
			`backend_config: groups = [0, 1] is not an array<i64: ...>, but the handler reads groups as an array<i64>`},
		// An operand the kernels take.
		{strings.ReplaceAll(kernel("oneshot", "0", "none", "0, 1", "peer"), "tensor<4xf32>", "tensor<4xi32>"), "operand type tensor<4xi32>: dtype i32: arc's kernels take f16, bf16 and f32"},
		{strings.ReplaceAll(kernel("oneshot", "0", "none", "0, 1", "peer"), "tensor<4xf32>", "tensor<?xf32>"), "operand type tensor<?xf32>: dynamic shape"},
		{strings.ReplaceAll(kernel("oneshot", "0", "none", "0, 1", "peer"), "tensor<4xf32>", "tensor<0xf32>"), "operand type tensor<0xf32>: empty tensor"},
		{strings.ReplaceAll(kernel("oneshot", "0", "none", "0, 1", "peer"), "tensor<4xf32>", "tensor<134217728xf32>"), "operand type tensor<134217728xf32>: 536870912 bytes is more than the 268435456 arc's runtime buffers hold"},
		{fused("rmsnorm", "64", "0x3C800000", "mean", "f32", fusedTypes), `backend_config: norm: unknown mean "mean" (want one of [mul div])`},
		{fused("rmsnorm", "64", "0x3C800000", "mul", "f32", "(tensor<2x64xf16>, tensor<2x64xf32>, tensor<64xf16>) -> (tensor<2x64xf16>, tensor<2x64xf16>)"),
			"operand 1 is tensor<2x64xf32>: the fused call takes the residual of the operand's type"},
		{fused("rmsnorm", "64", "0x3C800000", "mul", "f32", "(tensor<2x64xf16>, tensor<2x64xf16>, tensor<2x64xf16>) -> (tensor<2x64xf16>, tensor<2x64xf16>)"),
			"operand 2 is tensor<2x64xf16>: the fused call takes a weight of 64 elements of f16"},
		{fused("rmsnorm", "64", "0x3C800000", "mul", "f32", "(tensor<2x64xf16>, tensor<2x64xf16>, tensor<64xf16>) -> (tensor<2x64xf16>, tensor<2x64xf32>)"),
			"result 1 is tensor<2x64xf32>, not the operand's tensor<2x64xf16>"},
	} {
		m, err := ir.ParseString("test.mlir", tc.src)
		if err != nil {
			t.Fatal(err)
		}
		_, err = decision.Collectives(m)
		var e *ir.Error
		if !errors.As(err, &e) || err.Error() != "test.mlir:1:1: stablehlo.custom_call: "+tc.want {
			t.Errorf("%s:\n got %v\nwant %s", tc.src, err, tc.want)
		}
	}
}

// TestCollectivesListCalls: arc's calls are all-reduces among the module's
// collectives, in source order, with their groups; other custom calls are
// not collectives.
func TestCollectivesListCalls(t *testing.T) {
	src := `%0 = "stablehlo.custom_call"(%x) {api_version = 4 : i32, backend_config = {algo = "twoshot", cast = 0 : i64, codec = "int4", groups = array<i64: 0, 1, 2, 3>, link = "peer", world = 2 : i64}, call_target_name = "arc_allreduce", has_side_effect = true, arc.reason = "fits"} : (tensor<1024xf16>) -> tensor<1024xf16>
%1 = "stablehlo.all_reduce"(%0) ({
^bb0(%a: tensor<f16>, %b: tensor<f16>):
  %2 = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
  "stablehlo.return"(%2) : (tensor<f16>) -> ()
}) {arc.reason = "small", replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, arc.lowering = "native"} : (tensor<1024xf16>) -> tensor<1024xf16>
%3 = "stablehlo.custom_call"(%1) {call_target_name = "other"} : (tensor<1024xf16>) -> tensor<1024xf16>
%4 = "stablehlo.custom_call"(%3) {backend_config = {algo = "oneshot", cast = 1 : i64, codec = "none", groups = array<i64: 1, 0>, link = "host", world = 2 : i64}, call_target_name = "arc_allreduce", arc.lowering = "oneshot", arc.est_us = 2.0 : f64} : (tensor<1024xf16>) -> tensor<1024xf16>
`
	m, err := ir.ParseString("test.mlir", src)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := decision.Collectives(m)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i, c := range cs {
		ds, err := decision.Read(m, c)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%d %d %s %s %s %v %+v %+v", i, c.Index, c.Op.Name, c.Kind, c.Reduction, c.Groups, *c.Arc, ds))
	}
	want := []string{
		"0 0 stablehlo.custom_call all_reduce sum [[0 1] [2 3]] {Lowering:twoshot} [{Lowering:twoshot Codec:int4 Reason:fits EstUS:0 Algo:twoshot Link:peer CastBF16ToFP16:false NativeUS:0 Payload:<nil> Fuse: FuseReason:}]",
		"1 1 stablehlo.all_reduce all_reduce sum [[0 1]] {Lowering:native} [{Lowering:native Codec:none Reason:small EstUS:0 Algo: Link: CastBF16ToFP16:false NativeUS:0 Payload:<nil> Fuse: FuseReason:}]",
		"2 2 stablehlo.custom_call all_reduce sum [[1 0]] {Lowering:oneshot} [{Lowering:oneshot Codec:none Reason: EstUS:2 Algo:oneshot Link:host CastBF16ToFP16:true NativeUS:0 Payload:<nil> Fuse: FuseReason:}]",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// FuzzParseCall: no backend_config makes ParseCall panic, and one it
// accepts prints (Format) as a call that reads back the same, of either
// form.
func FuzzParseCall(f *testing.F) {
	for _, cfg := range []string{
		`{algo = "twoshot", cast = 0 : i64, codec = "fp", devices = array<i64: 3, 2, 1, 0>, groups = array<i64: 0, 1, 2, 3>, link = "peer", world = 4 : i64}`,
		`{algo = "oneshot", cast = 1 : i64, codec = "none", groups = array<i64: 0, 1>, link = "host", world = 2 : i64}`,
		`{algo = "hier", cast = 0 : i64, codec = "int4r", groups = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, link = "peer", world = 8 : i64, extra = 1}`,
		`{world = -1 : i64}`, `{}`, `"x"`,
	} {
		f.Add(cfg, `"why"`, false)
	}
	for _, cfg := range []string{
		`{algo = "oneshot", cast = 0 : i64, codec = "none", eps = 0x3727C5AC : f32, groups = array<i64: 0, 1>, link = "peer", mean = "mul", norm = "rmsnorm", row = 64 : i64, scale = 0x3C800000 : f32, weight = "f32", world = 2 : i64}`,
		`{algo = "twoshot", cast = 0 : i64, codec = "fp", devices = array<i64: 1, 0>, eps = 1.0e-05 : f32, groups = array<i64: 0, 1>, link = "peer", mean = "div", norm = "rmsnorm", row = 64 : i64, scale = 64.0 : f32, weight = "io", world = 2 : i64}`,
	} {
		f.Add(cfg, `"fused"`, true)
	}
	f.Fuzz(func(t *testing.T, cfg, reason string, fused bool) {
		src := `%0 = "stablehlo.custom_call"(%x) {arc.reason = ` + reason + `, backend_config = ` + cfg + `, call_target_name = "arc_allreduce"} : (tensor<4x64xbf16>) -> tensor<4x64xbf16>`
		if fused {
			src = `%h, %y = "stablehlo.custom_call"(%x, %r, %w) {arc.fuse_reason = ` + reason + `, backend_config = ` + cfg + `, call_target_name = "arc_allreduce"} : (tensor<4x64xbf16>, tensor<4x64xbf16>, tensor<64xbf16>) -> (tensor<4x64xbf16>, tensor<4x64xbf16>)`
		}
		m, err := ir.ParseString("fuzz.mlir", src)
		if err != nil || len(m.Body.Ops) != 1 {
			return
		}
		c, err := decision.ParseCall(m, m.Body.Ops[0])
		if err != nil {
			return
		}
		text := "%r = " + c.Format()
		if c.Norm != nil {
			text = "%h, %y = " + c.Format()
		}
		back, err := parseCall(t, text)
		if err != nil {
			t.Fatalf("%v:\n%s", err, text)
		}
		nan := c.Norm != nil && (c.Norm.Scale != c.Norm.Scale || c.Norm.Eps != c.Norm.Eps) // read back, but not equal to itself
		if back.Format() != c.Format() || !nan && !reflect.DeepEqual(back, c) {
			t.Fatalf("read back\n%+v\nfrom\n%s\nwant\n%+v", *back, text, *c)
		}
	})
}

// A call in MLIR's pretty form (`stablehlo.custom_call @arc_allreduce(...)`,
// as stablehlo-opt prints arc's output) is arc's call like the generic one:
// listed, read and checked the same way, its errors at the op.
func TestPrettyCallsAreCalls(t *testing.T) {
	const cfg = `{api_version = 4 : i32, backend_config = {algo = "oneshot", cast = 0 : i64, codec = "none", devices = array<i64: %s>, groups = array<i64: %s>, link = "peer", world = 2 : i64}, has_side_effect = true}`
	for _, tc := range []struct{ callee, ids, want string }{
		{"@arc_allreduce", "0, 1", ""},
		{"@arc_allreduce", "0, 1, 2", `test.mlir:1:1: stablehlo.custom_call: backend_config: bad groups "array<i64: 0, 1, 2>"`},
		{`@"arc_allreduce"`, "1, 0", ""},
		{"@other_call", "0, 0", "not a call"},
	} {
		src := `%0 = stablehlo.custom_call ` + tc.callee + `(%x) ` + fmt.Sprintf(cfg, tc.ids, tc.ids) + ` : (tensor<4096xf16>) -> tensor<4096xf16>`
		m, err := ir.ParseString("test.mlir", src)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := decision.Collectives(m)
		switch {
		case tc.want == "not a call":
			if err != nil || len(cs) != 0 {
				t.Errorf("%s: %d collectives, %v; want none", tc.callee, len(cs), err)
			}
		case tc.want != "":
			if err == nil || err.Error() != tc.want {
				t.Errorf("%s %s: got %v, want %s", tc.callee, tc.ids, err, tc.want)
			}
		case err != nil || len(cs) != 1 || !decision.IsCall(cs[0]):
			t.Errorf("%s %s: %d collectives, %v; want arc's call", tc.callee, tc.ids, len(cs), err)
		default:
			c, err := decision.ParseCall(m, cs[0].Op)
			if err != nil || c == nil || c.Algo != "oneshot" || c.World != 2 || len(c.OperandTypes) != 1 {
				t.Errorf("%s: read %+v, %v", tc.callee, c, err)
			}
		}
	}
}
