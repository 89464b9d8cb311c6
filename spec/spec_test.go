package spec

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/arcpass/arc/ir"
)

// prog is a one-all-reduce module, written from its parts. The all-reduce
// starts at line 3, column 5.
type prog struct {
	mod     string // module attributes; "" for none
	attrs   string // the all-reduce's attributes, inside {...}
	in, out string // operand and result types (tensor<1024xf32>)
	red     string // the reducer's element type (f32)
	body    string // the reducer's block; {E} stands for tensor<red>
}

const sumBody = `^bb0(%lhs: {E}, %rhs: {E}):
      %s = stablehlo.add %lhs, %rhs : {E}
      stablehlo.return %s : {E}`

func (p prog) text() string {
	or := func(s, def string) string {
		if s == "" {
			return def
		}
		return s
	}
	in := or(p.in, "tensor<1024xf32>")
	out := or(p.out, in)
	body := strings.ReplaceAll(or(p.body, sumBody), "{E}", "tensor<"+or(p.red, "f32")+">")
	mod := "module @m {"
	if p.mod != "" {
		mod = "module @m attributes {" + p.mod + "} {"
	}
	return fmt.Sprintf(`%s
  func.func @main(%%x: %s, %%k: tensor<f32>) -> %s {
    %%0 = "stablehlo.all_reduce"(%%x) ({
    %s
    }) {%s} : (%s) -> %s
    return %%0 : %s
  }
}
`, mod, in, out, body, p.attrs, in, out, out)
}

// collective is a module of one collective of kind (not all_reduce), whose
// attributes are attrs, from in to out. The op starts at line 3, column 5.
func collective(kind, mod, attrs, in, out string) string {
	region := ""
	if kind == "reduce_scatter" {
		region = "({\n    " + strings.ReplaceAll(sumBody, "{E}", "tensor<f32>") + "\n    }) "
	}
	if mod != "" {
		mod = " attributes {" + mod + "}"
	}
	return fmt.Sprintf(`module @m%s {
  func.func @main(%%x: %s) -> %s {
    %%0 = "stablehlo.%s"(%%x) %s{%s} : (%s) -> %s
    return %%0 : %s
  }
}
`, mod, in, out, kind, region, attrs, in, out, out)
}

// grid writes module attributes for r replicas and p partitions.
func grid(r, p int) string {
	return fmt.Sprintf("mhlo.num_partitions = %d : i32, mhlo.num_replicas = %d : i32", p, r)
}

func rg(groups string) string { // replica_groups of a 2-D literal
	rows := strings.Count(groups, "[") - 1
	cols := 0
	if rows > 0 {
		first := groups[2 : strings.IndexByte(groups[1:], ']')+1]
		cols = len(strings.Split(first, ","))
	}
	return fmt.Sprintf("replica_groups = dense<%s> : tensor<%dx%dxi64>", groups, rows, cols)
}

const ch = "channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>"

// want is the expected outcome: an error (at "LINE:COL: " then a part of
// the message), or a reason (part of Reason(operand)), or neither: lowerable
// onto groups, in mode.
type want struct {
	err     string
	reason  string
	operand int
	mode    Mode
	groups  string // fmt %v of Result.Groups; checked when not ""
	flat    string // fmt %v of Result.FlattenedIDs(); checked when not ""
	which   int    // the all-reduce (or collective of kind) the expectation is about
	kind    string // the kind of collective it is about: all_reduce when ""
	one     bool   // lowerable: only operand, not every operand
}

type tcase struct {
	name string
	src  string
	da   string
	want want
}

func cases() []tcase {
	var cs []tcase
	add := func(name string, p prog, w want) { cs = append(cs, tcase{name: name, src: p.text(), want: w}) }
	addDA := func(name, da string, p prog, w want) {
		cs = append(cs, tcase{name: name, src: p.text(), da: da, want: w})
	}
	raw := func(name, src string, w want) { cs = append(cs, tcase{name: name, src: src, want: w}) }
	r4 := "stablehlo.num_replicas = 4"
	all4 := rg("[[0, 1, 2, 3]]")

	// Reducers: only `return add(arg0, arg1)` over the operand's type is a sum.
	add("sum", prog{mod: r4, attrs: all4}, want{mode: CrossReplica, groups: "[[0 1 2 3]]"})
	add("sum swapped", prog{mod: r4, attrs: all4, body: `^bb0(%lhs: {E}, %rhs: {E}):
      %s = stablehlo.add %rhs, %lhs : {E}
      stablehlo.return %s : {E}`}, want{groups: "[[0 1 2 3]]"})
	add("sum generic form", prog{mod: r4, attrs: all4, body: `^bb0(%lhs: {E}, %rhs: {E}):
      %s = "stablehlo.add"(%lhs, %rhs) : ({E}, {E}) -> {E}
      "stablehlo.return"(%s) : ({E}) -> ()`}, want{groups: "[[0 1 2 3]]"})
	add("add then return lhs", prog{mod: r4, attrs: all4, body: `^bb0(%lhs: {E}, %rhs: {E}):
      %s = stablehlo.add %lhs, %rhs : {E}
      stablehlo.return %lhs : {E}`}, want{reason: "it returns %lhs, not the result of stablehlo.add"})
	add("add lhs to itself", prog{mod: r4, attrs: all4, body: `^bb0(%lhs: {E}, %rhs: {E}):
      %s = stablehlo.add %lhs, %lhs : {E}
      stablehlo.return %s : {E}`}, want{reason: "it computes add(%lhs, %lhs)"})
	add("add an outside value", prog{mod: r4, attrs: all4, body: `^bb0(%lhs: {E}, %rhs: {E}):
      %s = stablehlo.add %lhs, %k : {E}
      stablehlo.return %s : {E}`}, want{reason: "reads %k, which is not an argument of the region"})
	add("add without its type", prog{mod: r4, attrs: all4, body: `^bb0(%lhs: {E}, %rhs: {E}):
      %s = stablehlo.add %lhs, %rhs s {E}
      stablehlo.return %s : {E}`}, want{err: "5:7: custom op 'stablehlo.add' expected ':' and its type"})
	add("max", prog{mod: r4, attrs: all4, body: `^bb0(%lhs: {E}, %rhs: {E}):
      %s = stablehlo.maximum %lhs, %rhs : {E}
      stablehlo.return %s : {E}`}, want{reason: "reducer is max, arc's kernels sum"})
	add("product", prog{mod: r4, attrs: all4, body: `^bb0(%lhs: {E}, %rhs: {E}):
      %s = stablehlo.multiply %lhs, %rhs : {E}
      stablehlo.return %s : {E}`}, want{reason: "reducer is product"})
	add("sum then negate", prog{mod: r4, attrs: all4, body: `^bb0(%lhs: {E}, %rhs: {E}):
      %s = stablehlo.add %lhs, %rhs : {E}
      %n = stablehlo.negate %s : {E}
      stablehlo.return %n : {E}`}, want{reason: "its body has 2 ops before the return"})
	add("returns an argument", prog{mod: r4, attrs: all4, body: `^bb0(%lhs: {E}, %rhs: {E}):
      stablehlo.return %rhs : {E}`}, want{reason: "its body has 0 ops before the return"})
	add("i1 and", prog{mod: r4, attrs: all4, in: "tensor<16xi1>", red: "i1", body: `^bb0(%lhs: {E}, %rhs: {E}):
      %s = stablehlo.and %lhs, %rhs : {E}
      stablehlo.return %s : {E}`}, want{reason: "reducer is and"})
	add("three arguments", prog{mod: r4, attrs: all4, body: `^bb0(%lhs: {E}, %rhs: {E}, %third: {E}):
      %s = stablehlo.add %lhs, %rhs : {E}
      stablehlo.return %s : {E}`}, want{err: "3:5: 'stablehlo.all_reduce' op Reduction-region must take 2 parameters, but takes 3 parameter(s)"})
	add("returns two values", prog{mod: r4, attrs: all4, body: `^bb0(%lhs: {E}, %rhs: {E}):
      %s = stablehlo.add %lhs, %rhs : {E}
      stablehlo.return %s, %s : {E}, {E}`}, want{err: "3:5: 'stablehlo.all_reduce' op Reduction-region here must produce 1 tensors, but produces 2 instead"})
	// Operand types against their values' (MLIR: "use of value ... expects different type").
	raw("an operand typed otherwise than its argument", strings.Replace(prog{mod: r4, attrs: all4}.text(), "@main(%x: tensor<1024xf32>", "@main(%x: tensor<1024xf16>", 1),
		want{err: "3:33: use of value '%x' expects different type than prior uses: 'tensor<1024xf32>' vs 'tensor<1024xf16>'"})
	raw("an argument with attributes and a location", strings.Replace(prog{mod: r4, attrs: all4}.text(), "@main(%x: tensor<1024xf32>", `@main(%x: tensor<1024 x f32> {mhlo.sharding = "{replicated}"} loc("x")`, 1),
		want{groups: "[[0 1 2 3]]"})
	raw("an operand typed otherwise than a generic op's result", strings.Replace(prog{mod: r4, attrs: all4}.text(), `%0 = "stablehlo.all_reduce"(%x)`, `%y = "stablehlo.negate"(%x) : (tensor<1024xf32>) -> tensor<1024xf16>
    %0 = "stablehlo.all_reduce"(%y)`, 1),
		want{err: "4:33: use of value '%y' expects different type than prior uses: 'tensor<1024xf32>' vs 'tensor<1024xf16>'"})
	// Pretty-form definitions state their result types after ':' or '->'.
	defined := func(def string) string {
		return strings.Replace(prog{mod: r4, attrs: all4}.text(), `%0 = "stablehlo.all_reduce"(%x)`, def+"\n    %0 = \"stablehlo.all_reduce\"(%y)", 1)
	}
	raw("an operand typed otherwise than a pretty op's single type", defined(`%y = stablehlo.abs %x : tensor<1024xf16>`),
		want{err: "4:33: use of value '%y' expects different type than prior uses: 'tensor<1024xf32>' vs 'tensor<1024xf16>'"})
	raw("an operand typed as a pretty op's single type", defined(`%y = stablehlo.abs %x : tensor<1024 x f32>`), want{groups: "[[0 1 2 3]]"})
	raw("an operand typed otherwise than a convert's result", defined(`%y = stablehlo.convert %x : (tensor<1024xf32>) -> tensor<1024xbf16>`),
		want{err: "'tensor<1024xf32>' vs 'tensor<1024xbf16>'"})
	raw("an operand typed otherwise than a while's", defined(`%y = stablehlo.while(%it = %x) : tensor<1024xi32> attributes {w = 1}
    cond {
      %c = stablehlo.constant dense<true> : tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      stablehlo.return %it : tensor<1024xi32>
    }`), want{err: "'tensor<1024xf32>' vs 'tensor<1024xi32>'"})
	raw("an operand of another dialect's op", defined(`%y = vendor.scale %x, %k : tensor<1024xf32>`),
		want{reason: "the type of %y is not stated where it is defined (vendor.scale at 3:5)"})
	raw("an operand of an op with two colons", defined(`%y = stablehlo.custom_call @f(%x) {b = 1} : (tensor<1024xf32>) -> tensor<1024xf32> : x`),
		want{reason: "the type of %y is not stated where it is defined"})
	raw("an operand a call returns otherwise than its function", strings.Replace(defined(`%y = call @g(%x) : (tensor<1024xf32>) -> tensor<1024xf32>`), "\n}\n",
		"\n  func.func private @g(%a: tensor<1024xf32>) -> (tensor<1024xf16> {jax.result_info = \"r\"}) {\n    %h = stablehlo.convert %a : (tensor<1024xf32>) -> tensor<1024xf16>\n    return %h : tensor<1024xf16>\n  }\n}\n", 1),
		want{err: "3:5: 'call' op result type mismatch at index 0: the call states 'tensor<1024xf32>', but @g returns 'tensor<1024xf16>'"})
	raw("an operand of a block argument", strings.Replace(strings.Replace(prog{mod: r4, attrs: all4}.text(), `%0 = "stablehlo.all_reduce"(%x)`, `%0 = "stablehlo.all_reduce"(%b)`, 1),
		"func.func @main(%x: tensor<1024xf32>, %k: tensor<f32>) -> tensor<1024xf32> {", "func.func @main(%x: tensor<1024xf32>, %k: tensor<f32>) -> tensor<1024xf32> {\n    cf.br ^bb1(%x : tensor<1024xf32>)\n  ^bb1(%b: tensor<1024xf16>):", 1),
		want{err: "use of value '%b' expects different type than prior uses: 'tensor<1024xf32>' vs 'tensor<1024xf16>'"})
	add("an add of one operand", prog{mod: r4, attrs: all4, body: `^bb0(%lhs: {E}, %rhs: {E}):
      %s = stablehlo.add %rhs : {E}
      stablehlo.return %s : {E}`}, want{err: "5:7: custom op 'stablehlo.add' takes 2 operands, not 1"})
	add("a generic return with a result type", prog{mod: r4, attrs: all4, body: `^bb0(%lhs: {E}, %rhs: {E}):
      %s = stablehlo.add %lhs, %rhs : {E}
      "stablehlo.return"(%s) : ({E}) -> {E}`}, want{err: "6:7: 'stablehlo.return' op requires zero results"})
	add("a generic return", prog{mod: r4, attrs: all4, body: `^bb0(%lhs: {E}, %rhs: {E}):
      %s = stablehlo.add %lhs, %rhs : {E}
      "stablehlo.return"(%s) : ({E}) -> ()`}, want{groups: "[[0 1 2 3]]"})
	add("no terminator", prog{mod: r4, attrs: all4, body: `^bb0(%lhs: {E}, %rhs: {E}):
      %s = stablehlo.add %lhs, %rhs : {E}`}, want{err: "3:5: 'stablehlo.all_reduce' op expects regions to end with 'stablehlo.return', found 'stablehlo.add'"})
	add("first argument of another type", prog{mod: r4, attrs: all4, body: `^bb0(%lhs: tensor<f16>, %rhs: {E}):
      %s = stablehlo.add %lhs, %rhs : {E}
      stablehlo.return %s : {E}`}, want{err: "3:5: 'stablehlo.all_reduce' op The type of reduction-region's parameter at index 0 is different than the corresponding result type: 'tensor<f16>' vs 'tensor<f32>'"})
	add("second argument bf16", prog{mod: r4, attrs: all4, body: `^bb0(%lhs: {E}, %rhs: tensor<bf16>):
      %s = stablehlo.add %lhs, %rhs : {E}
      stablehlo.return %s : {E}`}, want{err: "3:5: 'stablehlo.all_reduce' op computation must have type (tensor<E>, tensor<E>) -> tensor<E> (all_reduce_c5), but its second argument is 'tensor<bf16>'"})
	add("rank-1 reducer", prog{mod: r4, attrs: all4, red: "1xf32"}, want{err: "3:5: 'stablehlo.all_reduce' op The shape of reduction-region's result type at index 0 differs from the op's corresponding init-value type: 'tensor<1xf32>' vs 'tensor<f32>'"})
	add("i32 reducer over i64", prog{mod: r4, attrs: all4, in: "tensor<8xi64>", out: "tensor<8xi32>", red: "i32"}, want{err: "3:5: 'stablehlo.all_reduce' op The element-type of reduction-region's result type at index 0 is expected to be promotable from the op's corresponding init-value element-type: 'tensor<i32>' vs 'tensor<i64>'"})
	add("f32 reducer over i32", prog{mod: r4, attrs: all4, in: "tensor<8xi32>", out: "tensor<8xf32>"}, want{err: "op The element-type of reduction-region's result type at index 0 is expected to be promotable"})
	add("f16 reducer over f32", prog{mod: r4, attrs: all4, out: "tensor<1024xf16>", red: "f16"}, want{err: "3:5: 'stablehlo.all_reduce' op element type 'f32' is not promotable to the computation's 'f16': it is narrower (all_reduce_c5)"})

	// Promotion: valid, not arc's.
	add("f32 reducer over f16", prog{mod: r4, attrs: all4, in: "tensor<1024xf16>", out: "tensor<1024xf32>"}, want{reason: "operand 0 is f16 but the reducer computes in f32 (promotion)"})
	add("i32 reducer over ui8", prog{mod: r4, attrs: all4, in: "tensor<64xui8>", out: "tensor<64xi32>", red: "i32"}, want{reason: "operand 0 is ui8 but the reducer computes in i32"})
	add("bf16 reducer over f16", prog{mod: r4, attrs: all4, in: "tensor<64xf16>", out: "tensor<64xbf16>", red: "bf16"}, want{reason: "promotion"})
	add("promotion with the operand's result type", prog{mod: r4, attrs: all4, in: "tensor<1024xf16>"}, want{err: "3:5: 'stablehlo.all_reduce' op inferred type(s) 'tensor<1024xf32>' are incompatible with return type(s) of operation 'tensor<1024xf16>'"})

	// Types.
	add("dynamic operand", prog{mod: r4, attrs: all4, in: "tensor<?x8xf32>"}, want{reason: "operand 0 has a dynamic shape (tensor<?x8xf32>)"})
	add("dynamic result of a static operand", prog{mod: r4, attrs: all4, out: "tensor<?xf32>"}, want{reason: "result 0 is tensor<?xf32>, not the operand's tensor<1024xf32>"})
	add("result of another shape", prog{mod: r4, attrs: all4, out: "tensor<512xf32>"}, want{err: "3:5: 'stablehlo.all_reduce' op inferred type(s) 'tensor<1024xf32>' are incompatible with return type(s) of operation 'tensor<512xf32>'"})
	add("bounded dynamic", prog{mod: r4, attrs: all4, in: "tensor<?xf32, #stablehlo.bounds<1024>>"}, want{reason: "arc's custom call would drop its encoding"})
	raw("encoding", "#enc = #sparse_tensor.encoding<{map = (d0) -> (d0 : compressed)}>\n"+prog{mod: r4, attrs: all4, in: "tensor<1024xf32, #enc>"}.text(),
		want{reason: "operand 0 is tensor<1024xf32, #enc>: arc's custom call would drop its encoding"})
	add("complex sum", prog{mod: r4, attrs: all4, in: "tensor<8xcomplex<f32>>", red: "complex<f32>"}, want{groups: "[[0 1 2 3]]"})
	add("unranked", prog{mod: r4, attrs: all4, in: "tensor<*xf32>"}, want{err: "3:5: 'stablehlo.all_reduce' op operand #0 must be variadic of ranked tensor"})

	// Replica groups: the verifier's rules, then the grid's (package ir's
	// parser checks the literal).
	add("1-D groups", prog{mod: r4, attrs: "replica_groups = dense<[0, 1, 2, 3]> : tensor<4xi64>"}, want{err: "3:5: 'stablehlo.all_reduce' op replica groups should be a rank 2 tensor"})
	add("splat of one", prog{mod: "stablehlo.num_replicas = 1", attrs: "replica_groups = dense<0> : tensor<1x1xi64>"}, want{groups: "[[0]]"})
	add("splat of four", prog{mod: r4, attrs: "replica_groups = dense<0> : tensor<2x2xi64>"}, want{err: "3:5: 'stablehlo.all_reduce' op replica id #0 seen more than once"})
	add("splat of padding", prog{mod: r4, attrs: "replica_groups = dense<-1> : tensor<2x2xi64>"}, want{err: "op replica groups name no replicas: cross_replica mode needs each of them in one group"})
	add("duplicate within a group", prog{mod: r4, attrs: rg("[[0, 0], [1, 2]]")}, want{err: "3:5: 'stablehlo.all_reduce' op replica id #0 seen more than once"})
	add("duplicate across groups", prog{mod: r4, attrs: rg("[[0, 1], [1, 2]]")}, want{err: "3:5: 'stablehlo.all_reduce' op replica id #1 seen more than once"})
	add("gap", prog{mod: r4, attrs: rg("[[0, 2]]")}, want{err: "3:5: 'stablehlo.all_reduce' op replica id #1 not seen in replica groups"})
	add("negative id", prog{mod: r4, attrs: rg("[[0, -2]]")}, want{err: "op replica id #1 not seen in replica groups"})
	add("ids beyond num_replicas", prog{mod: "stablehlo.num_replicas = 2", attrs: all4}, want{err: "3:5: 'stablehlo.all_reduce' op replica id #2 is out of range: cross_replica mode numbers replicas 0 to 1 (num_replicas = 2) (all_reduce_c3)"})
	add("groups not covering", prog{mod: "stablehlo.num_replicas = 8", attrs: all4}, want{err: "3:5: 'stablehlo.all_reduce' op replica groups should contain 8 replicas in cross_replica mode (num_replicas = 8), but found 4"})
	add("padded groups of two sizes", prog{mod: r4, attrs: rg("[[0, 1, 2], [3, -1, -1]]")}, want{reason: "groups of different sizes (3 and 1 devices)", groups: "[[0 1 2] [3]]"})
	add("padded groups of one size", prog{mod: r4, attrs: rg("[[0, -1, 1], [2, 3, -1]]")}, want{groups: "[[0 1] [2 3]]"})
	add("padded empty group", prog{mod: "stablehlo.num_replicas = 2", attrs: rg("[[0, 1], [-1, -1]]")}, want{reason: "replica group 1 is empty"})
	add("i32 groups", prog{mod: r4, attrs: "replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi32>"}, want{err: "op attribute 'replica_groups' failed to satisfy constraint: 64-bit signless integer elements attribute"})
	add("hex groups", prog{mod: "stablehlo.num_replicas = 2", attrs: `replica_groups = dense<"0x00000000000000000100000000000000"> : tensor<1x2xi64>`}, want{groups: "[[0 1]]"})
	add("no replica_groups", prog{mod: r4}, want{err: "3:5: 'stablehlo.all_reduce' op requires attribute 'replica_groups'"})
	add("empty groups", prog{mod: r4, attrs: "replica_groups = dense<> : tensor<0x0xi64>"}, want{groups: "[[0 1 2 3]]"})
	add("empty groups in two partitions", prog{mod: grid(2, 2), attrs: "replica_groups = dense<> : tensor<0x0xi64>"}, want{groups: "[[0 1] [2 3]]"})
	add("empty groups, no num_replicas", prog{attrs: "replica_groups = dense<> : tensor<0x0xi64>"}, want{reason: "replica_groups is empty and the module does not state num_replicas"})
	add("empty groups with global ids", prog{mod: r4, attrs: "replica_groups = dense<> : tensor<0x0xi64>, " + ch + ", use_global_device_ids"}, want{err: "3:5: 'stablehlo.all_reduce' op if `use_global_device_ids` is set, the replica groups cannot be empty"})
	add("two groups of no id", prog{mod: r4, attrs: "replica_groups = dense<> : tensor<2x0xi64>"}, want{err: "op replica groups name no replicas"})

	// cross_replica: each group runs in every partition.
	add("cross_replica, 1 partition", prog{mod: grid(4, 1), attrs: rg("[[0, 1], [2, 3]]")}, want{mode: CrossReplica, groups: "[[0 1] [2 3]]"})
	add("cross_replica, 2 partitions", prog{mod: grid(2, 2), attrs: rg("[[0, 1]]")}, want{mode: CrossReplica, groups: "[[0 1] [2 3]]", flat: "[[0 2] [1 3]]"})
	addDA("cross_replica, 2 partitions, replica-major devices", "0,1;2,3", prog{mod: grid(2, 2), attrs: rg("[[0, 1]]")}, want{mode: CrossReplica, groups: "[[0 2] [1 3]]"})
	add("cross_replica, 4 by 2", prog{mod: grid(4, 2), attrs: rg("[[0, 1], [2, 3]]")}, want{groups: "[[0 1] [4 5] [2 3] [6 7]]"})
	add("channel 0 is cross_replica", prog{mod: grid(2, 2), attrs: rg("[[0, 1]]") + ", channel_handle = #stablehlo.channel_handle<handle = 0, type = 0>"}, want{mode: CrossReplica, groups: "[[0 1] [2 3]]"})
	add("cross_replica, no num_replicas", prog{attrs: all4}, want{mode: CrossReplica, groups: "[[0 1 2 3]]"})

	// cross_replica_and_partition: each group takes its replicas in every partition.
	add("cross_replica_and_partition, 1 partition", prog{mod: grid(2, 1), attrs: rg("[[0], [1]]") + ", " + ch}, want{mode: CrossReplicaAndPartition, groups: "[[0] [1]]"})
	add("cross_replica_and_partition, 2 partitions", prog{mod: grid(2, 2), attrs: rg("[[0, 1]]") + ", " + ch}, want{mode: CrossReplicaAndPartition, groups: "[[0 1 2 3]]", flat: "[[0 2 1 3]]"})
	add("cross_replica_and_partition, 1 replica", prog{mod: grid(1, 4), attrs: rg("[[0]]") + ", " + ch}, want{mode: CrossReplicaAndPartition, groups: "[[0 1 2 3]]"})
	add("cross_replica_and_partition, 4 by 2", prog{mod: grid(4, 2), attrs: rg("[[0, 1], [2, 3]]") + ", " + ch}, want{groups: "[[0 1 4 5] [2 3 6 7]]"})
	add("cross_replica_and_partition, too many ids", prog{mod: grid(2, 2), attrs: all4 + ", " + ch}, want{err: "op replica id #2 is out of range: cross_replica_and_partition mode numbers replicas 0 to 1 (num_replicas = 2)"})

	// flattened_ids: replica_id * num_partitions + partition_id.
	gl := ", " + ch + ", use_global_device_ids"
	add("flattened ids, 1 replica", prog{mod: grid(1, 4), attrs: rg("[[0, 1], [2, 3]]") + gl}, want{mode: FlattenedIDs, groups: "[[0 1] [2 3]]"})
	add("flattened ids, 2 by 2", prog{mod: grid(2, 2), attrs: rg("[[0, 1], [2, 3]]") + gl}, want{mode: FlattenedIDs, groups: "[[0 2] [1 3]]", flat: "[[0 1] [2 3]]"})
	add("flattened ids, 1 partition", prog{mod: grid(4, 1), attrs: rg("[[0, 1], [2, 3]]") + gl}, want{mode: FlattenedIDs, groups: "[[0 1] [2 3]]", flat: "[[0 1] [2 3]]"})
	addDA("flattened ids, permuted devices", "3,2,1,0", prog{mod: grid(1, 4), attrs: rg("[[0, 1], [2, 3]]") + gl}, want{groups: "[[3 2] [1 0]]"})
	add("flattened ids not covering", prog{mod: grid(1, 8), attrs: all4 + gl}, want{err: "op replica groups should contain 8 flattened ids in flattened_ids mode (num_replicas x num_partitions = 1 x 8), but found 4"})
	add("flattened ids, no num_replicas", prog{mod: "mhlo.num_partitions = 2 : i32", attrs: rg("[[0, 1, 2, 3, 4, 5]]") + gl}, want{groups: "[[0 3 1 4 2 5]]"})
	add("flattened ids, not a multiple of the partitions", prog{mod: "mhlo.num_partitions = 2 : i32", attrs: rg("[[0, 1, 2]]") + gl}, want{err: "op replica groups name 3 flattened ids, which is not a multiple of num_partitions = 2"})
	add("global ids without a channel", prog{mod: r4, attrs: all4 + ", use_global_device_ids"}, want{err: "3:5: 'stablehlo.all_reduce' op channel_id must be positive when useGlobalDeviceIds is set but got: 0"})
	add("global ids with channel 0", prog{mod: r4, attrs: all4 + ", channel_handle = #stablehlo.channel_handle<handle = 0, type = 0>, use_global_device_ids"}, want{err: "channel_id must be positive when useGlobalDeviceIds is set but got: 0"})
	add("global ids with channel -1", prog{mod: r4, attrs: all4 + ", channel_handle = #stablehlo.channel_handle<handle = -1, type = 0>, use_global_device_ids"}, want{err: "channel_id must be positive when useGlobalDeviceIds is set but got: -1"})
	add("global ids = true", prog{mod: r4, attrs: all4 + ", " + ch + ", use_global_device_ids = true"}, want{err: "op attribute 'use_global_device_ids' failed to satisfy constraint: unit attribute"})

	// Device assignments.
	addDA("permuted replicas", "3;2;1;0", prog{mod: r4, attrs: rg("[[0, 1], [2, 3]]")}, want{groups: "[[3 2] [1 0]]"})
	addDA("assignment gives the grid", "4,5;6,7", prog{attrs: rg("[[0, 1]]")}, want{groups: "[[4 6] [5 7]]"})
	addDA("assignment of another grid", "0;1;2;3", prog{mod: "stablehlo.num_replicas = 2", attrs: rg("[[0, 1]]")}, want{err: "1:1: the module runs on num_replicas = 2, num_partitions = 1, but the device assignment is 4 replica(s) by 1 partition(s)"})

	addDA("assignment's grid against the groups", "0;1;2;3", prog{attrs: rg("[[0, 1]]")}, want{err: "op replica groups should contain 4 replicas in cross_replica mode (num_replicas = 4, from the device assignment), but found 2"})
	addDA("flattened ids on a permuted 2x2 mesh", "3,1;0,2", prog{mod: grid(2, 2), attrs: rg("[[0, 1], [2, 3]]") + gl}, want{mode: FlattenedIDs, groups: "[[3 1] [0 2]]"})
	addDA("flattened subset groups on 8 permuted devices", "7,3,5,1,6,2,4,0", prog{mod: grid(1, 8), attrs: rg("[[0, 1], [2, 3], [4, 5], [6, 7]]") + gl}, want{groups: "[[7 3] [5 1] [6 2] [4 0]]"})

	// Huge worlds: errors or reasons, never their expansion.
	add("2e9 replicas, two named", prog{mod: "stablehlo.num_replicas = 2000000000", attrs: rg("[[0, 1]]")}, want{err: "op replica groups should contain 2000000000 replicas"})
	add("2e9 replicas, empty groups", prog{mod: "stablehlo.num_replicas = 2000000000", attrs: "replica_groups = dense<> : tensor<0x0xi64>"}, want{reason: "the op spans 2000000000 devices, more than arc expands (65536)"})
	add("4 replicas of 100000 partitions", prog{mod: grid(4, 100000), attrs: all4}, want{reason: "the op spans 400000 devices"})
	add("2^32 replicas", prog{mod: "stablehlo.num_replicas = 4294967296", attrs: all4}, want{reason: "the module's stablehlo.num_replicas = 4294967296 is not a count of processes (an integer from 1 to 4294967295): its process grid is unknown"})
	add("0 replicas", prog{mod: "stablehlo.num_replicas = 0", attrs: all4}, want{reason: "the module's stablehlo.num_replicas = 0 is not a count of processes"})
	add("4 replicas typed i32", prog{mod: "stablehlo.num_replicas = 4 : i32", attrs: all4}, want{})
	add("a count of no integer type", prog{mod: "stablehlo.num_replicas = 4 : hi32", attrs: all4}, want{reason: "the module's stablehlo.num_replicas = 4 : hi32 is not a count of processes"})
	add("splat of a million groups", prog{mod: r4, attrs: "replica_groups = dense<1> : tensor<1000x1000xi64>"}, want{err: "op replica id #1 seen more than once"})

	// Tuples.
	tuple := func(types, results string) string {
		return `module @m attributes {stablehlo.num_replicas = 2} {
  func.func @main(%a: tensor<8xf32>, %b: tensor<16xf16>) -> (tensor<8xf32>, tensor<16xf32>) {
    %r:2 = "stablehlo.all_reduce"(%a, %b) ({
    ^bb0(%lhs: tensor<f32>, %rhs: tensor<f32>):
      %s = stablehlo.add %lhs, %rhs : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : ` + types + ` -> ` + results + `
    return %r#0, %r#1 : tensor<8xf32>, tensor<16xf32>
  }
}
`
	}
	raw("two operands", strings.ReplaceAll(tuple("(tensor<8xf32>, tensor<16xf32>)", "(tensor<8xf32>, tensor<16xf32>)"), "16xf16", "16xf32"), want{groups: "[[0 1]]"})
	raw("two operands, the second promoted", tuple("(tensor<8xf32>, tensor<16xf16>)", "(tensor<8xf32>, tensor<16xf32>)"), want{operand: 1, reason: "operand 1 is f16 but the reducer computes in f32"})
	raw("two operands, the first lowerable", tuple("(tensor<8xf32>, tensor<16xf16>)", "(tensor<8xf32>, tensor<16xf32>)"), want{operand: 0, one: true, groups: "[[0 1]]"})
	raw("two operands, results not of the reducer's type", tuple("(tensor<8xf32>, tensor<16xf16>)", "(tensor<8xf32>, tensor<16xf16>)"),
		want{err: "3:5: 'stablehlo.all_reduce' op inferred type(s) 'tensor<8xf32>', 'tensor<16xf32>' are incompatible with return type(s) of operation 'tensor<8xf32>', 'tensor<16xf16>'"})

	// Where the op sits.
	raw("inside async_start", `module @m attributes {stablehlo.num_replicas = 2} {
  func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
    %f = "stablehlo.async_start"(%x) ({
    ^bb0(%a: tensor<8xf32>):
      %r = "stablehlo.all_reduce"(%a) ({
      ^bb0(%lhs: tensor<f32>, %rhs: tensor<f32>):
        %s = stablehlo.add %lhs, %rhs : tensor<f32>
        stablehlo.return %s : tensor<f32>
      }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8xf32>) -> tensor<8xf32>
      "stablehlo.return"(%r) : (tensor<8xf32>) -> ()
    }) {execution_thread = "main"} : (tensor<8xf32>) -> !stablehlo.future<tensor<8xf32>>
    %y = "stablehlo.async_done"(%f) : (!stablehlo.future<tensor<8xf32>>) -> tensor<8xf32>
    return %y : tensor<8xf32>
  }
}
`, want{reason: "inside stablehlo.async_start, whose region arc leaves as it is"})
	raw("inside a while body", `module @m attributes {stablehlo.num_replicas = 2} {
  func.func @main(%x: tensor<8xf32>, %n: tensor<i64>) -> tensor<8xf32> {
    %c = stablehlo.constant dense<0> : tensor<i64>
    %w:2 = stablehlo.while(%i = %c, %v = %x) : tensor<i64>, tensor<8xf32>
     cond {
      %lt = stablehlo.compare  LT, %i, %n,  SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i64>
      %j = stablehlo.add %i, %one : tensor<i64>
      %r = "stablehlo.all_reduce"(%v) ({
      ^bb0(%lhs: tensor<f32>, %rhs: tensor<f32>):
        %s = stablehlo.add %lhs, %rhs : tensor<f32>
        stablehlo.return %s : tensor<f32>
      }) {replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>} : (tensor<8xf32>) -> tensor<8xf32>
      stablehlo.return %j, %r : tensor<i64>, tensor<8xf32>
    }
    return %w#1 : tensor<8xf32>
  }
}
`, want{groups: "[[1 0]]"})
	raw("inside a case branch", `module @m attributes {stablehlo.num_replicas = 4} {
  func.func @main(%i: tensor<i32>, %x: tensor<8xf32>) -> tensor<8xf32> {
    %y = "stablehlo.case"(%i) ({
      "stablehlo.return"(%x) : (tensor<8xf32>) -> ()
    }, {
      %r = "stablehlo.all_reduce"(%x) ({
      ^bb0(%lhs: tensor<f32>, %rhs: tensor<f32>):
        %s = stablehlo.add %lhs, %rhs : tensor<f32>
        stablehlo.return %s : tensor<f32>
      }) {replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>} : (tensor<8xf32>) -> tensor<8xf32>
      "stablehlo.return"(%r) : (tensor<8xf32>) -> ()
    }) : (tensor<i32>) -> tensor<8xf32>
    return %y : tensor<8xf32>
  }
}
`, want{groups: "[[0 2] [1 3]]"})
	raw("in a nested function, in a module of two all-reduces", `module @m {
  func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
    %y = call @inner(%x) : (tensor<8xf32>) -> tensor<8xf32>
    %r = "stablehlo.all_reduce"(%y) ({
    ^bb0(%lhs: tensor<f32>, %rhs: tensor<f32>):
      %s = stablehlo.add %lhs, %rhs : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<8xf32>) -> tensor<8xf32>
    return %r : tensor<8xf32>
  }
  func.func private @inner(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = "stablehlo.all_reduce"(%x) ({
    ^bb0(%lhs: tensor<f32>, %rhs: tensor<f32>):
      %s = stablehlo.add %lhs, %rhs : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : (tensor<8xf32>) -> tensor<8xf32>
    return %r : tensor<8xf32>
  }
}
`, want{which: 1, groups: "[[0 1] [2 3]]"})
	raw("groups that contradict an earlier all-reduce's", `module @m {
  func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
    %a = "stablehlo.all_reduce"(%x) ({
    ^bb0(%lhs: tensor<f32>, %rhs: tensor<f32>):
      %s = stablehlo.add %lhs, %rhs : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8xf32>) -> tensor<8xf32>
    %b = "stablehlo.all_reduce"(%a) ({
    ^bb0(%lhs: tensor<f32>, %rhs: tensor<f32>):
      %s = stablehlo.add %lhs, %rhs : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<8xf32>) -> tensor<8xf32>
    return %b : tensor<8xf32>
  }
}
`, want{which: 1, reason: "the module does not state num_replicas and its all-reduces name different numbers of replicas (2 at 3:5, 4 at 8:5)"})

	// Mesh axes, expanded by package ir, in the same model.
	meshMod := func(mod, axis string) string {
		return `module @m attributes {` + mod + `} {
  sdy.mesh @mesh = <["dp"=2, "tp"=4]>
  func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = [#stablehlo.axis_ref<name = "` + axis + `">]>, use_global_device_ids}> ({
    ^bb0(%lhs: tensor<f32>, %rhs: tensor<f32>):
      %s = stablehlo.add %lhs, %rhs : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<8xf32>) -> tensor<8xf32>
    return %r : tensor<8xf32>
  }
}
`
	}
	raw("mesh axes tp", meshMod(grid(1, 8), "tp"), want{mode: FlattenedIDs, groups: "[[0 1 2 3] [4 5 6 7]]"})
	raw("mesh axes dp", meshMod(grid(1, 8), "dp"), want{mode: FlattenedIDs, groups: "[[0 4] [1 5] [2 6] [3 7]]"})
	raw("mesh smaller than the grid", meshMod(grid(1, 16), "tp"), want{err: "4:5: 'stablehlo.all_reduce' op replica groups should contain 16 flattened ids"})
	raw("mesh that package ir does not find", strings.Replace(meshMod(grid(1, 8), "tp"), "mesh = @mesh", "mesh = @elsewhere", 1),
		want{reason: "groups unknown: "})
	raw("mesh with device ids", strings.Replace(meshMod(grid(1, 8), "tp"), `"tp"=4]>`, `"tp"=4], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>`, 1),
		want{groups: "[[7 6 5 4] [3 2 1 0]]"})

	// Quantized values and MHLO.
	q8, q16 := "!quant.uniform<i8:f32, 2.000000e+00:15>", "!quant.uniform<i16:f32, 2.000000e+00:15>"
	add("quantized sum", prog{mod: r4, attrs: all4, in: "tensor<8x" + q8 + ">", red: q8}, want{groups: "[[0 1 2 3]]"})
	add("quantized promotion", prog{mod: r4, attrs: all4, in: "tensor<8x" + q8 + ">", out: "tensor<8x" + q16 + ">", red: q16}, want{reason: "(promotion)"})
	add("quantized of another expressed type", prog{mod: r4, attrs: all4, in: "tensor<8x" + q8 + ">", out: "tensor<8x!quant.uniform<i32:f64, 2.000000e+00:15>>", red: "!quant.uniform<i32:f64, 2.000000e+00:15>"},
		want{err: "op The element-type of reduction-region's result type at index 0 is expected to be promotable from the op's corresponding init-value element-type: 'tensor<!quant.uniform<i32:f64, 2.000000e+00:15>>' vs 'tensor<!quant.uniform<i8:f32, 2.000000e+00:15>>'"})
	raw("mhlo", strings.NewReplacer(`"stablehlo.all_reduce"`, `"mhlo.all_reduce"`, "stablehlo.add", "mhlo.add", "stablehlo.return", "mhlo.return").Replace(prog{mod: r4, attrs: all4}.text()),
		want{groups: "[[0 1 2 3]]"})
	raw("mhlo, ids out of range", strings.NewReplacer(`"stablehlo.all_reduce"`, `"mhlo.all_reduce"`, "stablehlo.add", "mhlo.add", "stablehlo.return", "mhlo.return").Replace(prog{mod: "mhlo.num_replicas = 2 : i32", attrs: all4}.text()),
		want{err: "3:5: 'mhlo.all_reduce' op replica id #2 is out of range"})

	// A module that does not state num_replicas: its all-reduces say, when they agree.
	two := func(mod, first, second string) string {
		head := "module @m {"
		if mod != "" {
			head = "module @m attributes {" + mod + "} {"
		}
		return head + `
  func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
    %a = "stablehlo.all_reduce"(%x) ({
    ^bb0(%lhs: tensor<f32>, %rhs: tensor<f32>):
      %s = stablehlo.add %lhs, %rhs : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {` + first + `} : (tensor<8xf32>) -> tensor<8xf32>
    %b = "stablehlo.all_reduce"(%a) ({
    ^bb0(%lhs: tensor<f32>, %rhs: tensor<f32>):
      %s = stablehlo.add %lhs, %rhs : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {` + second + `} : (tensor<8xf32>) -> tensor<8xf32>
    return %b : tensor<8xf32>
  }
}
`
	}
	disagree := "the module does not state num_replicas and its all-reduces name different numbers of replicas"
	raw("counts that disagree: the first is not lowerable either", two("", rg("[[0, 1]]"), all4), want{reason: disagree + " (2 at 3:5, 4 at 8:5)"})
	raw("counts that disagree, padded and with a channel", two("", rg("[[0, 2, 4, 6], [1, 3, 5, 7]]")+", "+ch, rg("[[0, 2, 4, -1], [1, 3, 5, 6]]")+", "+ch),
		want{which: 1, reason: disagree + " (8 at 3:5, 7 at 8:5)"})
	raw("counts that agree", two("", rg("[[0, 1], [2, 3]]"), all4), want{which: 1, groups: "[[0 1 2 3]]"})
	raw("counts that agree, in modes of their own", two(grid(2, 2)[:len("mhlo.num_partitions = 2 : i32")], rg("[[0, 1]]"), rg("[[0, 1, 2, 3]]")+", "+ch+", use_global_device_ids"),
		want{which: 1, mode: FlattenedIDs, groups: "[[0 2 1 3]]"})
	raw("empty groups take the count of the others", two("", "replica_groups = dense<> : tensor<0x0xi64>", rg("[[0, 1]]")), want{groups: "[[0 1]]"})
	raw("empty groups in a module whose counts disagree", strings.Replace(two("", rg("[[0, 1]]"), all4), "%b = ", "%c = \"stablehlo.all_reduce\"(%x) ({\n    ^bb0(%l: tensor<f32>, %r: tensor<f32>):\n      %t = stablehlo.add %l, %r : tensor<f32>\n      stablehlo.return %t : tensor<f32>\n    }) {replica_groups = dense<> : tensor<0x0xi64>} : (tensor<8xf32>) -> tensor<8xf32>\n    %b = ", 1),
		want{which: 1, reason: disagree + " (2 at 3:5, 4 at 13:5)"})
	implied := "the module does not state num_partitions, and the all-reduce at 8:5 names 4 flattened ids on num_replicas = 2: they imply 2 partitions, not XLA's default of 1"
	raw("flattened ids that imply partitions: the other op is not lowerable either", two("mhlo.num_replicas = 2 : i32", rg("[[0, 1]]"), rg("[[0, 1], [2, 3]]")+", "+ch+", use_global_device_ids"), want{reason: implied})
	raw("flattened ids that imply partitions: the op itself", two("mhlo.num_replicas = 2 : i32", rg("[[0, 1]]"), rg("[[0, 1], [2, 3]]")+", "+ch+", use_global_device_ids"),
		want{which: 1, reason: "the module does not state num_partitions, and the op's 4 flattened ids on num_replicas = 2 imply 2, not 1"})
	raw("flattened ids that fit one partition", two("mhlo.num_replicas = 2 : i32", rg("[[0, 1]]"), rg("[[0, 1]]")+", "+ch+", use_global_device_ids"), want{groups: "[[0 1]]"})
	raw("counts that disagree, stated", two("stablehlo.num_replicas = 4", rg("[[0, 1]]"), all4), want{err: "3:5: 'stablehlo.all_reduce' op replica groups should contain 4 replicas in cross_replica mode (num_replicas = 4), but found 2"})

	// Grid attributes MLIR accepts that are no counts: valid, nothing lowerable.
	add("num_partitions an empty string", prog{mod: `mhlo.num_partitions = "", mhlo.num_replicas = 4 : i32`, attrs: all4},
		want{reason: `the module's mhlo.num_partitions = "" is not a count of processes (an integer from 1 to 4294967295): its process grid is unknown`})
	add("num_replicas a string", prog{mod: `mhlo.num_replicas = "4"`, attrs: all4}, want{reason: `the module's mhlo.num_replicas = "4" is not a count of processes`})
	add("num_replicas negative", prog{mod: `mhlo.num_replicas = -4 : i32`, attrs: all4}, want{reason: `mhlo.num_replicas = -4 : i32 is not a count`})
	add("num_replicas a float", prog{mod: `mhlo.num_replicas = 4.0 : f32`, attrs: all4}, want{reason: `is not a count of processes`})
	add("num_replicas hexadecimal", prog{mod: `mhlo.num_replicas = 0x4 : i32`, attrs: all4}, want{groups: "[[0 1 2 3]]"})
	add("num_replicas in both dialects, agreeing", prog{mod: `mhlo.num_replicas = 4 : i32, stablehlo.num_replicas = 4 : i64`, attrs: all4}, want{groups: "[[0 1 2 3]]"})
	add("num_replicas in both dialects, disagreeing", prog{mod: `mhlo.num_replicas = 4 : i32, stablehlo.num_replicas = 2 : i64`, attrs: all4}, want{reason: "the module states num_replicas twice, 4 and 2: its process grid is unknown"})
	add("bad num_partitions, flattened ids", prog{mod: `mhlo.num_partitions = true, mhlo.num_replicas = 1 : i32`, attrs: all4 + gl}, want{reason: "mhlo.num_partitions = true is not a count"})
	addDA("bad num_partitions with an assignment", "0,1;2,3", prog{mod: `mhlo.num_partitions = "x", mhlo.num_replicas = 2 : i32`, attrs: rg("[[0, 1]]")}, want{reason: `mhlo.num_partitions = "x" is not a count`})
	add("bad num_partitions, still an op's own error", prog{mod: `mhlo.num_partitions = ""`, attrs: rg("[[0, 0]]")}, want{err: "3:5: 'stablehlo.all_reduce' op replica id #0 seen more than once"})
	add("bad num_replicas, ids against the stated partitions", prog{mod: `mhlo.num_partitions = 2 : i32, mhlo.num_replicas = ""`, attrs: rg("[[0, 1, 2]]") + gl}, want{err: "op replica groups name 3 flattened ids, which is not a multiple of num_partitions = 2"})

	// Flattened ids where the module does not state num_partitions.
	add("flattened ids implying 2 partitions", prog{mod: r4, attrs: rg("[[0, 1, 2, 3], [4, 5, 6, 7]]") + gl},
		want{reason: "the module does not state num_partitions, and the op's 8 flattened ids on num_replicas = 4 imply 2, not 1"})
	add("flattened ids filling no whole replicas", prog{mod: r4, attrs: rg("[[0, 1, 2], [3, 4, 5]]") + gl}, want{err: "op replica id #4 is out of range: flattened_ids mode"})
	add("flattened ids fewer than the replicas", prog{mod: r4, attrs: rg("[[0, 1]]") + gl}, want{err: "op replica groups should contain 4 flattened ids"})
	add("flattened ids of the stated grid", prog{mod: r4, attrs: rg("[[0, 1], [2, 3]]") + gl}, want{mode: FlattenedIDs, groups: "[[0 1] [2 3]]"})

	// Results MLIR's type inference accepts: compatible shapes, within bounds.
	add("dynamic result of a static operand, promoted", prog{mod: r4, attrs: all4, in: "tensor<16xbf16>", out: "tensor<?xf32>"}, want{reason: "operand 0 is bf16 but the reducer computes in f32"})
	add("static result of a dynamic operand", prog{mod: r4, attrs: all4, in: "tensor<?xf32>", out: "tensor<1024xf32>"}, want{reason: "operand 0 has a dynamic shape"})
	add("result of another rank", prog{mod: r4, attrs: all4, out: "tensor<1024x1xf32>"}, want{err: "op inferred type(s) 'tensor<1024xf32>' are incompatible with return type(s) of operation 'tensor<1024x1xf32>'"})
	add("static result beyond the operand's bound", prog{mod: r4, attrs: all4, in: "tensor<?xf32, #stablehlo.bounds<4>>", out: "tensor<8xf32>"},
		want{err: "op inferred type(s) 'tensor<?xf32, #stablehlo.bounds<4>>' are incompatible with return type(s) of operation 'tensor<8xf32>'"})
	add("static result within the operand's bound", prog{mod: r4, attrs: all4, in: "tensor<?xf32, #stablehlo.bounds<4>>", out: "tensor<4xf32>"}, want{reason: "would drop its encoding"})
	add("bounded result below a static operand", prog{mod: r4, attrs: all4, in: "tensor<8xf32>", out: "tensor<?xf32, #mhlo.type_extensions<bounds = [4]>>"}, want{err: "op inferred type(s) 'tensor<8xf32>' are incompatible"})

	// Element types: HLO_Tensor's, as MLIR's ODS checks them.
	for _, e := range []string{"si32", "i3", "i128", "tf32", "complex<f16>", "!quant.uniform<i64:f32, 1.0>", "!quant.uniform<i8:f32, 1.0:200>", "!quant.uniform<i8:f32:0, {1.0, 2.0}>", "index"} {
		add("operand of "+e, prog{mod: r4, attrs: all4, in: "tensor<2x" + e + ">", red: e}, want{err: "3:5: 'stablehlo.all_reduce' op operand #0 must be variadic of ranked tensor of 4/6/8/16/32/64-bit float or bool or 2/4/8/16/32/64-bit integer or complex type with 32/64-bit float elements or per-tensor integer quantized values, but got 'tensor<2x" + e + ">'"})
	}
	add("result of si32", prog{mod: r4, attrs: all4, in: "tensor<2xi32>", out: "tensor<2xsi32>", red: "si32"}, want{err: "3:5: 'stablehlo.all_reduce' op result #0 must be variadic of ranked tensor"})
	for _, e := range []string{"ui4", "i2", "f8E4M3FN", "f4E2M1FN", "f8E8M0FNU", "complex<f64>", "!quant.uniform<u8:f32, 1.0:200>", "!quant.uniform<i4<-7:7>:bf16, 0.5:-7>"} {
		add("operand of "+e, prog{mod: r4, attrs: all4, in: "tensor<2x" + e + ">", red: e}, want{groups: "[[0 1 2 3]]"})
	}
	add("i1 reducer or", prog{mod: r4, attrs: all4, in: "tensor<16xi1>", red: "i1", body: `^bb0(%lhs: {E}, %rhs: {E}):
      %s = stablehlo.or %lhs, %rhs : {E}
      stablehlo.return %s : {E}`}, want{reason: "reducer is or"})
	add("i8 reducer over i1", prog{mod: r4, attrs: all4, in: "tensor<16xi1>", out: "tensor<16xi8>", red: "i8"}, want{err: "3:5: 'stablehlo.all_reduce' op element type 'i1' is not promotable to the computation's 'i8': a boolean is not an integer (all_reduce_c5)"})
	add("i1 reducer over i8", prog{mod: r4, attrs: all4, in: "tensor<16xi8>", out: "tensor<16xi1>", red: "i1"}, want{err: "op The element-type of reduction-region's result type at index 0 is expected to be promotable from the op's corresponding init-value element-type: 'tensor<i1>' vs 'tensor<i8>'"})
	add("ui32 reducer over i32", prog{mod: r4, attrs: all4, in: "tensor<16xi32>", out: "tensor<16xui32>", red: "ui32"}, want{reason: "operand 0 is i32 but the reducer computes in ui32 (promotion)"})
	add("f64 reducer over f8", prog{mod: r4, attrs: all4, in: "tensor<16xf8E5M2>", out: "tensor<16xf64>", red: "f64"}, want{reason: "(promotion)"})
	add("complex<f32> reducer over complex<f64>", prog{mod: r4, attrs: all4, in: "tensor<16xcomplex<f64>>", out: "tensor<16xcomplex<f32>>", red: "complex<f32>"}, want{err: "op The element-type of reduction-region's result type at index 0 is expected to be promotable"})
	add("f32 reducer over bf16, f16 second argument", prog{mod: r4, attrs: all4, in: "tensor<16xbf16>", out: "tensor<16xf32>", body: `^bb0(%lhs: {E}, %rhs: tensor<f16>):
      %s = stablehlo.add %lhs, %rhs : {E}
      stablehlo.return %s : {E}`}, want{err: "(all_reduce_c5), but its second argument is 'tensor<f16>'"})

	// Quantized types: one type however its parameters are spelled; results
	// of the computation's type exactly (all_reduce_c7).
	q8b := "!quant.uniform<i8<-128:127>:f32, 2.0:15>"
	add("quantized sum, parameters spelled otherwise", prog{mod: r4, attrs: all4, in: "tensor<8x" + q8 + ">", out: "tensor<8x" + q8b + ">", red: q8b}, want{groups: "[[0 1 2 3]]"})
	add("quantized promotion of another scale", prog{mod: r4, attrs: all4, in: "tensor<8x" + q8 + ">", out: "tensor<8x!quant.uniform<i32:f32, 1.0>>", red: "!quant.uniform<i32:f32, 1.0>"}, want{reason: "(promotion)"})
	add("quantized result of another scale", prog{mod: r4, attrs: all4, in: "tensor<8x" + q8 + ">", out: "tensor<8x!quant.uniform<i8:f32, 3.0:15>>", red: q8},
		want{err: "3:5: 'stablehlo.all_reduce' op result #0 is 'tensor<8x!quant.uniform<i8:f32, 3.0:15>>' but the computation returns 'tensor<!quant.uniform<i8:f32, 2.000000e+00:15>>': element_type(results...) = E (all_reduce_c7)"})
	add("quantized result of another range", prog{mod: r4, attrs: all4, in: "tensor<8x" + q8 + ">", out: "tensor<8x!quant.uniform<i8<-127:127>:f32, 2.0:15>>", red: q8},
		want{err: "op inferred type(s) 'tensor<8x!quant.uniform<i8:f32, 2.000000e+00:15>>' are incompatible"})
	raw("mhlo, per-axis quantized operand", strings.NewReplacer(`"stablehlo.all_reduce"`, `"mhlo.all_reduce"`, "stablehlo.add", "mhlo.add", "stablehlo.return", "mhlo.return").Replace(
		prog{mod: r4, attrs: all4, in: "tensor<2x!quant.uniform<i8:f32:0, {0.5:1, 0.25:2}>>", out: "tensor<2x!quant.uniform<i16:f32, 0.5>>", red: "!quant.uniform<i16:f32, 0.5>"}.text()),
		want{reason: "(promotion)"})

	// The dialect's own terminator, channel handle and groups.
	add("mhlo.return in a stablehlo reducer", prog{mod: r4, attrs: all4, body: `^bb0(%lhs: {E}, %rhs: {E}):
      %s = stablehlo.add %lhs, %rhs : {E}
      "mhlo.return"(%s) : ({E}) -> ()`}, want{err: "3:5: 'stablehlo.all_reduce' op expects regions to end with 'stablehlo.return', found 'mhlo.return'"})
	add("mhlo channel handle on stablehlo", prog{mod: r4, attrs: all4 + ", channel_handle = #mhlo.channel_handle<handle = 1, type = 1>"}, want{err: "op attribute 'channel_handle' failed to satisfy constraint"})
	raw("mhlo with a stablehlo channel handle", strings.NewReplacer(`"stablehlo.all_reduce"`, `"mhlo.all_reduce"`, "stablehlo.add", "mhlo.add", "stablehlo.return", "mhlo.return").Replace(prog{mod: r4, attrs: all4 + ", " + ch}.text()),
		want{err: "'mhlo.all_reduce' op attribute 'channel_handle' failed to satisfy constraint"})
	raw("mhlo with mesh axes", strings.NewReplacer(`"stablehlo.all_reduce"`, `"mhlo.all_reduce"`, "stablehlo.add", "mhlo.add", "stablehlo.return", "mhlo.return").Replace(meshMod(grid(1, 8), "tp")),
		want{err: "'mhlo.all_reduce' op attribute 'replica_groups' failed to satisfy constraint: 64-bit signless integer elements attribute"})

	// The other collectives' groups: StableHLO's verifier, then the
	// specification's rules that need the grid.
	other := func(name, kind, mod, attrs, in, out string, w want) {
		w.kind = kind
		if w.err == "" {
			w.reason = "arc lowers all-reduces only"
		}
		raw(name, collective(kind, mod, attrs, in, out), w)
	}
	ag := func(groups string) string { return "all_gather_dim = 1 : i64, " + rg(groups) }
	other("all_gather", "all_gather", r4, ag("[[0, 1], [2, 3]]"), "tensor<4x8xf32>", "tensor<4x16xf32>", want{mode: CrossReplica})
	other("all_gather, padded", "all_gather", r4, ag("[[0, 1, 2], [3, -1, -1]]"), "tensor<4x8xf32>", "tensor<4x24xf32>", want{err: "3:5: 'stablehlo.all_gather' op Invalid replica id -1"})
	other("all_gather, an id twice", "all_gather", r4, ag("[[0, 1], [1, 2]]"), "tensor<4x8xf32>", "tensor<4x16xf32>", want{err: "op replica id #1 seen more than once"})
	other("all_gather, an id left out", "all_gather", "", ag("[[0, 2]]"), "tensor<4x8xf32>", "tensor<4x16xf32>", want{err: "op replica id #1 not seen in replica groups"})
	other("all_gather, ids beyond num_replicas", "all_gather", "stablehlo.num_replicas = 2", ag("[[0, 1, 2, 3]]"), "tensor<4x8xf32>", "tensor<4x32xf32>",
		want{err: "op replica id #3 is out of range: cross_replica mode numbers replicas 0 to 1 (num_replicas = 2) (all_gather_c4)"})
	other("all_gather, groups short of num_replicas", "all_gather", r4, ag("[[0, 1]]"), "tensor<4x8xf32>", "tensor<4x16xf32>", want{err: "op replica groups should contain 4 replicas in cross_replica mode"})
	other("all_gather, global ids without a channel", "all_gather", r4, ag("[[0, 1, 2, 3]]")+", use_global_device_ids", "tensor<4x8xf32>", "tensor<4x32xf32>", want{err: "(all_gather_c5)"})
	other("all_gather, flattened ids", "all_gather", grid(2, 2), ag("[[0, 1], [2, 3]]")+", "+ch+", use_global_device_ids", "tensor<4x8xf32>", "tensor<4x16xf32>", want{mode: FlattenedIDs})
	other("all_gather, groups not counted", "all_gather", "", ag("[[0, 1], [2, 3]]"), "tensor<4x8xf32>", "tensor<4x16xf32>", want{mode: CrossReplica})
	rs := func(groups string) string { return "scatter_dimension = 0 : i64, " + rg(groups) }
	other("reduce_scatter", "reduce_scatter", grid(2, 2), rs("[[0, 1, 2, 3]]")+", "+ch+", use_global_device_ids", "tensor<8xf32>", "tensor<2xf32>", want{mode: FlattenedIDs})
	other("reduce_scatter, global ids without a channel", "reduce_scatter", r4, rs("[[0, 1, 2, 3]]")+", use_global_device_ids", "tensor<8xf32>", "tensor<2xf32>",
		want{err: "op channel_id must be positive when useGlobalDeviceIds is set but got: 0"})
	other("reduce_scatter, flattened ids beyond the grid", "reduce_scatter", grid(2, 2), rs("[[0, 1, 2, 3, 4, 5, 6, 7]]")+", "+ch+", use_global_device_ids", "tensor<8xf32>", "tensor<1xf32>",
		want{err: "op replica id #7 is out of range: flattened_ids mode numbers flattened ids 0 to 3 (num_replicas x num_partitions = 2 x 2) (reduce_scatter_c5)"})
	a2a := func(count int, groups string) string {
		return fmt.Sprintf("split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = %d : i64, %s", count, rg(groups))
	}
	other("all_to_all", "all_to_all", r4, a2a(2, "[[0, 1], [2, 3]]"), "tensor<4x8xf32>", "tensor<8x4xf32>", want{mode: CrossReplica})
	other("all_to_all, groups not of split_count", "all_to_all", r4, a2a(4, "[[0, 1], [2, 3]]"), "tensor<4x8xf32>", "tensor<16x2xf32>", want{err: "op group size of replica_groups must be 4"})
	other("all_to_all, no groups", "all_to_all", r4, "split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<> : tensor<0x0xi64>",
		"tensor<4x8xf32>", "tensor<8x4xf32>", want{err: "op group size of replica_groups must be 2"})
	other("all_to_all, split in no parts", "all_to_all", r4, a2a(0, "[[0, 1], [2, 3]]"), "tensor<4x8xf32>", "tensor<4x8xf32>",
		want{err: "op attribute 'split_count' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive"})
	other("all_to_all across partitions", "all_to_all", grid(4, 2), a2a(2, "[[0, 1]]")+", "+ch, "tensor<4x8xf32>", "tensor<8x4xf32>", want{mode: CrossPartition})
	other("all_to_all, partitions beyond num_partitions", "all_to_all", grid(1, 2), a2a(4, "[[0, 1, 2, 3]]")+", "+ch, "tensor<4x8xf32>", "tensor<16x2xf32>",
		want{err: "op replica id #3 is out of range: cross_partition mode numbers partitions 0 to 1 (num_partitions = 2) (all_to_all_c7)"})
	other("collective_broadcast to some replicas", "collective_broadcast", r4, rg("[[2, 1]]"), "tensor<4xf32>", "tensor<4xf32>", want{mode: CrossReplica})
	other("collective_broadcast, a negative id", "collective_broadcast", r4, rg("[[0, -1]]"), "tensor<4xf32>", "tensor<4xf32>", want{err: "op replica_groups values must be positive, but was given -1"})
	other("collective_broadcast, an id twice", "collective_broadcast", r4, rg("[[0, 1], [1, 2]]"), "tensor<4xf32>", "tensor<4xf32>", want{err: "op replica id #1 seen more than once"})
	other("collective_broadcast, ids beyond num_replicas", "collective_broadcast", "stablehlo.num_replicas = 2", rg("[[0, 3]]"), "tensor<4xf32>", "tensor<4xf32>",
		want{err: "op replica id #3 is out of range: cross_replica mode numbers replicas 0 to 1 (num_replicas = 2) (collective_broadcast_c2)"})
	pairs := func(p string) string { return strings.Replace(rg(p), "replica_groups", "source_target_pairs", 1) }
	other("collective_permute, a ring", "collective_permute", r4, pairs("[[0, 1], [1, 2], [2, 3], [3, 0]]"), "tensor<4xf32>", "tensor<4xf32>", want{mode: CrossReplica})
	other("collective_permute, triples", "collective_permute", r4, pairs("[[0, 1, 2]]"), "tensor<4xf32>", "tensor<4xf32>", want{err: "op expect source_target_pairs attribute of shape (N, 2), but got (1, 3)"})
	other("collective_permute, a list", "collective_permute", r4, "source_target_pairs = dense<[0, 1]> : tensor<2xi64>", "tensor<4xf32>", "tensor<4xf32>",
		want{err: "op expect source_target_pairs attribute to be of rank 2, but got rank 1"})
	other("collective_permute, a target twice", "collective_permute", r4, pairs("[[0, 1], [2, 1]]"), "tensor<4xf32>", "tensor<4xf32>", want{err: "op duplicate targets not allowed."})
	other("collective_permute, a source twice", "collective_permute", r4, pairs("[[0, 1], [0, 2]]"), "tensor<4xf32>", "tensor<4xf32>", want{err: "op duplicate sources not allowed."})
	other("collective_permute, a negative id", "collective_permute", r4, pairs("[[0, -1]]"), "tensor<4xf32>", "tensor<4xf32>", want{err: "op replica ids in source_target_pairs must be >= 0."})
	other("collective_permute, partitions beyond num_partitions", "collective_permute", grid(4, 2), pairs("[[0, 1], [1, 2]]")+", "+ch, "tensor<4xf32>", "tensor<4xf32>",
		want{err: "op replica id #2 is out of range: cross_partition mode numbers partitions 0 to 1 (num_partitions = 2) (collective_permute_c4)"})
	other("collective_permute, pairs of one replica", "collective_permute", r4, "source_target_pairs = dense<0> : tensor<1x2xi64>", "tensor<4xf32>", "tensor<4xf32>", want{mode: CrossReplica})
	other("collective_permute, a splat of two pairs", "collective_permute", r4, "source_target_pairs = dense<0> : tensor<2x2xi64>", "tensor<4xf32>", "tensor<4xf32>", want{err: "op duplicate sources not allowed."})
	raw("mhlo collective_permute", strings.Replace(collective("collective_permute", r4, pairs("[[0, 1], [0, 2]]"), "tensor<4xf32>", "tensor<4xf32>"), `"stablehlo.`, `"mhlo.`, 1),
		want{kind: "collective_permute", err: "'mhlo.collective_permute' op duplicate sources not allowed."})

	// arc's marks on an all-reduce say nothing of what it computes: the op is
	// read as any other (select decides it afresh); the reducer decides.
	add("marked by arc", prog{mod: r4, attrs: all4 + `, arc.lowering = "ring"`}, want{groups: "[[0 1 2 3]]"})
	add("marked for arc's kernel, a max", prog{mod: r4, attrs: all4 + `, arc.lowering = "twoshot", arc.algo = "twoshot", arc.codec = "fp"`,
		body: strings.Replace(sumBody, "add", "maximum", 1)}, want{reason: "reducer is max, arc's kernels sum"})
	return cs
}

func TestCheck(t *testing.T) {
	cs := cases()
	if len(cs) < 60 {
		t.Errorf("only %d cases", len(cs))
	}
	for _, tc := range cs {
		t.Run(tc.name, func(t *testing.T) {
			res, err := run(t, tc)
			w := tc.want
			if w.err != "" {
				if err == nil {
					t.Fatalf("want error %q, got none (%+v)", w.err, res)
				}
				var ie *ir.Error
				if !errors.As(err, &ie) {
					t.Fatalf("error %v is not an *ir.Error", err)
				}
				got := fmt.Sprintf("%d:%d: %s", ie.Line, ie.Col, ie.Msg)
				if !strings.Contains(got, w.err) {
					t.Fatalf("error\n  %s\nwant it to contain\n  %s", got, w.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if w.reason != "" {
				if got := res.Reason(w.operand); !strings.Contains(got, w.reason) {
					t.Errorf("reason %q, want it to contain %q", got, w.reason)
				}
			} else {
				for k := range res.Operands {
					if w.one && k != w.operand {
						continue
					}
					if why := res.Reason(k); why != "" {
						t.Errorf("operand %d not lowerable: %s", k, why)
					}
				}
				if res.Reduction != "sum" {
					t.Errorf("reduction %q", res.Reduction)
				}
			}
			if w.mode != 0 && res.Mode != w.mode {
				t.Errorf("mode %v, want %v", res.Mode, w.mode)
			}
			if w.groups != "" {
				if got := fmt.Sprint(res.Groups); got != w.groups {
					t.Errorf("groups %s, want %s", got, w.groups)
				}
			}
			if w.flat != "" {
				if got := fmt.Sprint(res.FlattenedIDs()); got != w.flat {
					t.Errorf("flattened ids %s, want %s", got, w.flat)
				}
			}
			checkConsistent(t, res)
		})
	}
}

// run parses the case and checks its all-reduces in order, up to want.which.
func run(t *testing.T, tc tcase) (Result, error) {
	t.Helper()
	m, err := ir.ParseString("t.mlir", tc.src)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	cs, err := m.Collectives()
	if err != nil {
		t.Fatalf("collectives: %v", err)
	}
	var da DeviceAssignment
	if tc.da != "" {
		if da, err = ParseDeviceAssignment(tc.da); err != nil {
			t.Fatal(err)
		}
	}
	k, err := New(m, da)
	if err != nil {
		return Result{}, err
	}
	var res Result
	n := 0
	for _, c := range cs {
		if kind := tc.want.kind; c.Kind != kind && (kind != "" || c.Kind != "all_reduce") {
			continue
		}
		if res, err = k.Check(c); err != nil || n == tc.want.which {
			return res, err
		}
		n++
	}
	t.Fatalf("module has %d collectives of the kind, want #%d", n, tc.want.which)
	return res, nil
}

// checkConsistent checks that the groups are what the mode, the grid and the
// default (or given) devices make of the logical groups: every process of
// the grid exactly once, Groups the same shape as Processes.
func checkConsistent(t *testing.T, res Result) {
	t.Helper()
	if res.Processes == nil {
		return
	}
	if len(res.Groups) != len(res.Processes) {
		t.Fatalf("%d device groups for %d process groups", len(res.Groups), len(res.Processes))
	}
	seen := map[Process]bool{}
	devs := map[int64]bool{}
	for i, pg := range res.Processes {
		if len(pg) != len(res.Groups[i]) {
			t.Fatalf("group %d: %d devices for %d processes", i, len(res.Groups[i]), len(pg))
		}
		for j, p := range pg {
			if p.Replica < 0 || p.Replica >= res.Replicas || p.Partition < 0 || p.Partition >= res.Partitions {
				t.Fatalf("process %v outside the %dx%d grid", p, res.Replicas, res.Partitions)
			}
			if seen[p] || devs[res.Groups[i][j]] {
				t.Fatalf("process %v (device %d) in two groups", p, res.Groups[i][j])
			}
			seen[p], devs[res.Groups[i][j]] = true, true
		}
	}
	if int64(len(seen)) != res.Replicas*res.Partitions {
		t.Fatalf("groups cover %d of %d processes", len(seen), res.Replicas*res.Partitions)
	}
}

// TestHugeWorldsStaySmall measures what checking a tiny module that claims a
// huge grid allocates: the bound of the package comment.
func TestHugeWorldsStaySmall(t *testing.T) {
	for _, p := range []prog{
		{mod: "stablehlo.num_replicas = 2000000000", attrs: "replica_groups = dense<> : tensor<0x0xi64>"},
		{mod: "stablehlo.num_replicas = 2000000000", attrs: rg("[[0, 1]]")},
		{mod: grid(4000000, 1000), attrs: rg("[[0, 1]]") + ", " + ch},
		{mod: "stablehlo.num_replicas = 4", attrs: "replica_groups = dense<-1> : tensor<1000000000x1000000000xi64>"},
	} {
		m, err := ir.ParseString("t.mlir", p.text())
		if err != nil {
			t.Fatal(err)
		}
		cs, err := m.Collectives()
		if err != nil { // TestSplatsStaySmall covers what ir refuses
			t.Logf("package ir refuses the module first: %v", err)
			continue
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		res, err := Check(m, cs[0], nil)
		runtime.ReadMemStats(&after)
		if err == nil && res.Groups != nil {
			t.Errorf("%s: expanded %d groups", p.mod, len(res.Groups))
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
			t.Errorf("%s: Check allocated %d bytes", p.mod, grew)
		}
	}
}

// FuzzCheck checks that no module package ir reads makes Check panic, that
// its errors are positioned, and that expanded groups hold every process of
// the grid once.
func FuzzCheck(f *testing.F) {
	for _, tc := range cases() {
		f.Add(tc.src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		m, err := ir.ParseString("f.mlir", src)
		if err != nil {
			return
		}
		cs, err := m.Collectives()
		if err != nil {
			return
		}
		k, err := New(m, nil)
		if err != nil {
			var ie *ir.Error
			if !errors.As(err, &ie) {
				t.Fatalf("New: %T %v", err, err)
			}
			return
		}
		for _, c := range cs {
			res, err := k.Check(c)
			if err != nil {
				var ie *ir.Error
				if !errors.As(err, &ie) {
					t.Fatalf("Check: %T %v", err, err)
				}
				return
			}
			checkConsistent(t, res)
		}
	})
}

// TestDumpCases writes the table's modules and the verdict MLIR's verifier
// must give each into $ARC_SPEC_DUMP, for testdata/verify_cases.py.
func TestDumpCases(t *testing.T) {
	dir := os.Getenv("ARC_SPEC_DUMP")
	if dir == "" {
		t.Skip("ARC_SPEC_DUMP is not set")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var tsv strings.Builder
	for i, tc := range cases() {
		if tc.da != "" {
			continue // a device assignment is no part of the module
		}
		verdict, msg := "accept", ""
		if e := tc.want.err; e != "" {
			verdict, msg = "reject", e
			if SpecOnly(e) {
				verdict = "accept"
			}
		}
		name := fmt.Sprintf("case%03d", i)
		if err := os.WriteFile(filepath.Join(dir, name+".mlir"), []byte(tc.src), 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&tsv, "%s\t%s\t%s\t%s\n", name, verdict, tc.name, msg)
	}
	if err := os.WriteFile(filepath.Join(dir, "cases.tsv"), []byte(tsv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
