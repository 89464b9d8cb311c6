package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The tests of this file hold arc to what it does with its own marks on an
// input it did not write them on (docs/LOWERINGS.md, "Marks on the
// input"): the arc.* decisions on a plain all-reduce are decided afresh by
// select (and checked, in a pipeline without select), and an arc_allreduce
// call the input holds is checked against the module, the target and this
// compile's options as one arc writes.

// marked is a module of one all-reduce of operand type T over groups
// (replica ids) on num_replicas = replicas, whose reducer is red, carrying
// the attributes marks.
func marked(replicas int, groups, typ, red, marks string) string {
	elem := typ[strings.LastIndexAny(typ, "x<")+1 : len(typ)-1]
	scalar := "tensor<" + elem + ">"
	return fmt.Sprintf(`module @m attributes {stablehlo.num_replicas = %d : i64} {
  func.func @main(%%a: %[2]s) -> %[2]s {
    %%0 = "stablehlo.all_reduce"(%%a) ({
      ^bb0(%%x: %[3]s, %%y: %[3]s):
        %%s = "stablehlo.%[4]s"(%%x, %%y) : (%[3]s, %[3]s) -> %[3]s
        "stablehlo.return"(%%s) : (%[3]s) -> ()
    }) {replica_groups = %[5]s, %[6]s} : (%[2]s) -> %[2]s
    "func.return"(%%0) : (%[2]s) -> ()
  }
}
`, replicas, typ, scalar, red, groups, marks)
}

// kernelMarks are the attributes select writes for an operand that runs
// one of arc's kernels.
func kernelMarks(algo, codec, link string) string {
	return fmt.Sprintf(`arc.lowering = %q, arc.codec = %q, arc.algo = %q, arc.link = %q, arc.cast = false, arc.reason = "written by hand"`, algo, codec, algo, link)
}

const pair = "dense<[[0, 1]]> : tensor<1x2xi64>"

// compileFile writes src to a file and runs arc on it: the exit code, the
// output (stdout) and stderr, with the file's path written IN.
func compileFile(t *testing.T, src string, args ...string) (code int, out, errs string) {
	t.Helper()
	in := filepath.Join(t.TempDir(), "in.mlir")
	if err := os.WriteFile(in, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs = runArc(t, "", append(args, in)...)
	return code, out, strings.ReplaceAll(errs, in, "IN")
}

// TestMarksOnAllReducesAreDecidedAfresh: a plain all-reduce that carries
// arc's decision attributes is decided by this compile's select, for this
// target and these options, whatever the marks say.
func TestMarksOnAllReducesAreDecidedAfresh(t *testing.T) {
	for _, c := range []struct {
		name, src string
		args      []string
		// want must match the output, none of notWant.
		want    string
		notWant []string
	}{
		{"a max reducer marked for the summing kernel", marked(2, pair, "tensor<1024xf32>", "maximum", kernelMarks("twoshot", "fp", "peer")), nil,
			`arc.lowering = "native", arc.reason = "reducer is max, arc's kernels sum"`, []string{"arc_allreduce", "written by hand"}},
		{"a lossy codec without --quant", marked(2, pair, "tensor<4194304xf16>", "add", kernelMarks("twoshot", "int4", "peer")), nil,
			`"stablehlo.custom_call"`, []string{`"int4"`, "written by hand"}},
		{"a lossy codec another compile asked for", marked(2, pair, "tensor<4194304xf16>", "add", kernelMarks("twoshot", "int8", "peer")), []string{"--quant", "int4"},
			`"stablehlo.custom_call"`, []string{`"int8"`}},
		{"an empty operand", marked(2, pair, "tensor<0xf32>", "add", kernelMarks("oneshot", "none", "peer")), nil,
			`arc.reason = "empty tensor"`, []string{"arc_allreduce"}},
		{"an operand of 12 bytes", marked(2, pair, "tensor<3xf32>", "add", kernelMarks("twoshot", "fp", "peer")), nil,
			`algo = "oneshot"`, []string{`"twoshot"`}},
		{"an operand larger than the runtime's buffers", marked(2, pair, "tensor<134217728xf32>", "add", kernelMarks("twoshot", "fp", "peer")), nil,
			`arc.reason = "512 MiB is more than the 256 MiB arc's runtime buffers hold"`, []string{"arc_allreduce"}},
		{"an i32 operand", marked(2, pair, "tensor<1024xi32>", "add", kernelMarks("oneshot", "none", "peer")), nil,
			`arc.reason = "dtype i32: arc's kernels take f16, bf16 and f32"`, []string{"arc_allreduce"}},
		{"the hierarchical kernel on a target without it", marked(4, "dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>", "tensor<4194304xf16>", "add", kernelMarks("hier", "fp", "peer")), nil,
			`"stablehlo.custom_call"`, []string{`"hier"`}},
		{"two-shot at a world of six", marked(6, "dense<[[0, 1, 2, 3, 4, 5]]> : tensor<1x6xi64>", "tensor<8192xf16>", "add", kernelMarks("twoshot", "fp", "peer")), nil,
			`algo = "oneshot"`, []string{`"twoshot"`}},
		{"the host link on a peer machine", marked(2, pair, "tensor<4194304xf16>", "add", kernelMarks("twoshot", "fp", "host")), nil,
			`link = "peer"`, []string{`"host"`}},
		{"native marks on a sum arc lowers", marked(2, pair, "tensor<4194304xf16>", "add", `arc.lowering = "native", arc.reason = "written by hand"`), nil,
			`"stablehlo.custom_call"`, []string{"written by hand"}},
		{"a ring mark on a GPU target", marked(2, pair, "tensor<4194304xf16>", "add", `arc.lowering = "ring", arc.reason = "written by hand"`), nil,
			`"stablehlo.custom_call"`, []string{`"ring"`}},
		{"a stale fusion mark", marked(2, pair, "tensor<1024xf32>", "maximum", kernelMarks("oneshot", "none", "peer")+`, arc.fuse = "rmsnorm", arc.fuse_reason = "written by hand"`), nil,
			`arc.lowering = "native"`, []string{"arc.fuse", "written by hand"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"compile", "--target", "cuda:nvlink"}, c.args...)
			code, out, errs := compileFile(t, c.src, args...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, errs)
			}
			if !strings.Contains(out, c.want) {
				t.Errorf("the output lacks %s:\n%s", c.want, out)
			}
			for _, bad := range c.notWant {
				if strings.Contains(out, bad) {
					t.Errorf("the output holds %s:\n%s", bad, out)
				}
			}
		})
	}
}

// afresh ends the message of a decision refused in a pipeline without
// select: how to have it decided.
const afresh = ` \(arc compile without --passes decides afresh\)$`

// TestMarksWithoutSelect: a pipeline without select (--passes) lowers the
// decisions the module carries, but only those the target could have made
// for the op under this compile's options: others are refused at the op.
func TestMarksWithoutSelect(t *testing.T) {
	for _, c := range []struct {
		name, src string
		args      []string
		first     string // the first line of stderr, a regular expression; "" for success
	}{
		{"a max reducer", marked(2, pair, "tensor<1024xf32>", "maximum", kernelMarks("twoshot", "fp", "peer")), nil,
			`^arc: IN:3:5: stablehlo\.all_reduce: arc\.lowering = "twoshot" on operand 0 is not a lowering cuda:nvlink makes here: reducer is max, arc's kernels sum` + afresh},
		{"a lossy codec without --quant", marked(2, pair, "tensor<4194304xf16>", "add", kernelMarks("twoshot", "int4", "peer")), nil,
			`^arc: IN:3:5: .*: codec int4 changes more than the order of the additions, and this compile does not allow it \(--quant int4\)` + afresh},
		{"a lossy codec with --quant", marked(2, pair, "tensor<4194304xf16>", "add", kernelMarks("twoshot", "int4", "peer")), []string{"--quant", "int4"}, ""},
		{"an empty operand", marked(2, pair, "tensor<0xf32>", "add", kernelMarks("oneshot", "none", "peer")), nil,
			`^arc: IN:3:5: .*: empty tensor` + afresh},
		{"an operand larger than the runtime's buffers", marked(2, pair, "tensor<134217728xf32>", "add", kernelMarks("twoshot", "fp", "peer")), nil,
			`^arc: IN:3:5: .*: 512 MiB is more than the 256 MiB arc's runtime buffers hold` + afresh},
		{"the hierarchical kernel", marked(4, "dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>", "tensor<4194304xf16>", "add", kernelMarks("hier", "fp", "peer")), nil,
			`^arc: IN:3:5: .*: cuda:nvlink has no hierarchical kernel \(algo hier\)` + afresh},
		{"two-shot at a world of six", marked(6, "dense<[[0, 1, 2, 3, 4, 5]]> : tensor<1x6xi64>", "tensor<4194304xf16>", "add", kernelMarks("twoshot", "fp", "peer")), nil,
			`^arc: IN:3:5: .*: twoshot needs a world size in \[2 4 8\], not 6` + afresh},
		{"the host link", marked(2, pair, "tensor<4194304xf16>", "add", kernelMarks("twoshot", "fp", "host")), nil,
			`^arc: IN:3:5: .*: link host: cuda:nvlink's kernels reach their peers through peer` + afresh},
		{"a kernel's marks are what the target makes", marked(2, pair, "tensor<4194304xf16>", "add", kernelMarks("twoshot", "fp", "peer")), nil, ""},
		{"native marks", marked(2, pair, "tensor<1024xf32>", "maximum", `arc.lowering = "native", arc.reason = "max"`), nil, ""},
		{"a kernel on a TPU", marked(2, pair, "tensor<1024xf32>", "add", kernelMarks("oneshot", "none", "peer")), []string{"--target", "tpu:v6e-8", "--passes", "lower-tpu"},
			`^arc: IN:3:5: .*: TPU targets run none of arc's kernels` + afresh},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"compile", "--target", "cuda:nvlink", "--passes", "lower-cuda"}, c.args...)
			if len(c.args) > 1 && c.args[0] == "--target" {
				args = append([]string{"compile"}, c.args...)
			}
			code, out, errs := compileFile(t, c.src, args...)
			if c.first == "" {
				if code != exitOK || !strings.Contains(out, "arc_allreduce") && strings.Contains(c.src, "arc.algo") {
					t.Errorf("exit %d, stderr %s, output:\n%s", code, errs, out)
				}
				return
			}
			first, _, _ := strings.Cut(errs, "\n")
			if code != exitInput || !regexp.MustCompile(c.first).MatchString(first) {
				t.Errorf("exit %d, stderr %q; want exit %d and %s", code, errs, exitInput, c.first)
			}
		})
	}
}

// call is a module of one hand-written arc_allreduce call of operand type
// typ on num_replicas = replicas, with the backend_config cfg.
func call(replicas int, typ, cfg string) string {
	return fmt.Sprintf(`module @m attributes {stablehlo.num_replicas = %d : i64} {
  func.func @main(%%a: %[2]s) -> %[2]s {
    %%0 = "stablehlo.custom_call"(%%a) {api_version = 4 : i32, backend_config = {%[3]s}, call_target_name = "arc_allreduce", has_side_effect = true} : (%[2]s) -> %[2]s
    "func.return"(%%0) : (%[2]s) -> ()
  }
}
`, replicas, typ, cfg)
}

// pretty is src with its arc_allreduce call in MLIR's pretty form.
func pretty(src string) string {
	out := strings.Replace(src, `"stablehlo.custom_call"(%a)`, `stablehlo.custom_call @arc_allreduce(%a)`, 1)
	return strings.Replace(out, `, call_target_name = "arc_allreduce"`, "", 1)
}

// config is a backend_config of arc's call.
func config(algo, codec, devices, groups, link, world string) string {
	return fmt.Sprintf(`algo = %q, cast = 0 : i64, codec = %q, devices = array<i64: %s>, groups = array<i64: %s>, link = %q, world = %s`, algo, codec, devices, groups, link, world)
}

// TestHandWrittenCalls: an arc_allreduce call the input holds is checked
// against the module (its grid and device assignment), the handler's types
// and the target and options of this compile, as a call arc writes; what
// the runtime would refuse, or run other than the module says, is an error
// at the call (exit 1), not a failure of the program when it runs.
func TestHandWrittenCalls(t *testing.T) {
	good := config("oneshot", "none", "0, 1", "0, 1", "peer", "2 : i64")
	f16 := "tensor<1024xf16>"
	for _, c := range []struct {
		name, src string
		args      []string
		first     string // "" for success
	}{
		{"a call as arc writes it", call(2, f16, good), nil, ""},
		{"groups outside the module's replicas", call(2, f16, config("oneshot", "none", "0, 1, 2, 3", "0, 1, 2, 3", "peer", "2 : i64")), nil,
			`^arc: IN:3:5: stablehlo\.custom_call: groups name process 2, but the module's grid has 2 processes \(num_replicas x num_partitions = 2 x 1\)$`},
		{"groups that leave processes out", call(4, f16, good), nil,
			`^arc: IN:3:5: stablehlo\.custom_call: groups hold 2 of the module's 4 processes \(num_replicas x num_partitions = 4 x 1\): a process in no group would wait for its call forever$`},
		{"a repeated process", call(2, f16, config("oneshot", "none", "0, 0", "0, 0", "peer", "2 : i64")), nil,
			`^arc: IN:3:5: stablehlo\.custom_call: process 0 is in the groups twice$`},
		{"a repeated device", call(2, f16, config("oneshot", "none", "0, 0", "0, 1", "peer", "2 : i64")), nil,
			`^arc: IN:3:5: stablehlo\.custom_call: devices \[\[0 0\]\] are not the devices of the groups' processes \[\[0 1\]\] under XLA's default device assignment: \[\[0 1\]\]$`},
		{"devices of another assignment", call(2, f16, config("oneshot", "none", "1, 0", "0, 1", "peer", "2 : i64")), nil,
			`^arc: IN:3:5: stablehlo\.custom_call: devices \[\[1 0\]\] are not the devices`},
		{"devices of this compile's assignment", call(2, f16, config("oneshot", "none", "1, 0", "0, 1", "peer", "2 : i64")), []string{"--device-assignment", "1;0"}, ""},
		{"world as a string", call(2, f16, config("oneshot", "none", "0, 1", "0, 1", "peer", `"2"`)), nil,
			`^arc: IN:3:5: stablehlo\.custom_call: backend_config: world = "2" is a string, but the handler reads world as an i64$`},
		{"algo as an integer", call(2, f16, strings.Replace(good, `algo = "oneshot"`, `algo = 1 : i64`, 1)), nil,
			`^arc: IN:3:5: .*: backend_config: algo = 1 : i64 is not a string, but the handler reads algo as a string$`},
		{"groups as a dense tensor", call(2, f16, strings.Replace(good, `groups = array<i64: 0, 1>`, `groups = dense<[0, 1]> : tensor<2xi64>`, 1)), nil,
			`^arc: IN:3:5: .*: backend_config: groups = dense<\[0, 1\]> : tensor<2xi64> is not an array<i64: \.\.\.>, but the handler reads groups as an array<i64>$`},
		{"world as a float", call(2, f16, config("oneshot", "none", "0, 1", "0, 1", "peer", "2.0 : f32")), nil,
			`^arc: IN:3:5: .*: backend_config: world = 2\.0 : f32 is not an integer, but the handler reads world as an i64$`},
		{"an i32 operand", call(2, "tensor<1024xi32>", good), nil,
			`^arc: IN:3:5: .*: operand type tensor<1024xi32>: dtype i32: arc's kernels take f16, bf16 and f32$`},
		{"an operand of 12 bytes", call(2, "tensor<3xf32>", good), nil, ""},
		{"a scalar operand", call(2, "tensor<f32>", good), nil, ""},
		{"an empty operand", call(2, "tensor<0xf32>", good), nil,
			`^arc: IN:3:5: .*: operand type tensor<0xf32>: empty tensor$`},
		{"a dynamic operand", call(2, "tensor<?xf32>", good), nil,
			`^arc: IN:3:5: .*: operand type tensor<\?xf32>: dynamic shape$`},
		{"a lossy codec without --quant", call(2, f16, config("twoshot", "int4", "0, 1", "0, 1", "peer", "2 : i64")), nil,
			`^arc: IN:3:5: stablehlo\.custom_call: arc's call is not one cuda:nvlink runs here: codec int4 changes more than the order of the additions, and this compile does not allow it \(--quant int4\)$`},
		{"a lossy codec with --quant", call(2, f16, config("twoshot", "int4", "0, 1", "0, 1", "peer", "2 : i64")), []string{"--quant", "int4"}, ""},
		{"a lossy codec --force asks for", call(2, f16, config("twoshot", "int8", "0, 1", "0, 1", "peer", "2 : i64")), []string{"--force", "all=twoshot:int8"}, ""},
		{"the hierarchical kernel on a target without it", call(4, f16, config("hier", "fp", "0, 1, 2, 3", "0, 1, 2, 3", "peer", "4 : i64")), nil,
			`^arc: IN:3:5: .*: cuda:nvlink has no hierarchical kernel \(algo hier\)$`},
		{"the hierarchical kernel, without the analyse pass", call(4, f16, config("hier", "fp", "0, 1, 2, 3", "0, 1, 2, 3", "peer", "4 : i64")), []string{"--passes", "select,lower-cuda"},
			`^arc: IN:3:5: .*: cuda:nvlink has no hierarchical kernel \(algo hier\)$`},
		{"the host link on a peer machine", call(2, f16, config("oneshot", "none", "0, 1", "0, 1", "host", "2 : i64")), nil,
			`^arc: IN:3:5: .*: link host: cuda:nvlink's kernels reach their peers through peer$`},
		{"a group across hosts", call(16, f16, config("oneshot", "none", "7, 8, 0, 1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14, 15", "7, 8, 0, 1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14, 15", "peer", "2 : i64")), nil,
			`^arc: IN:3:5: .*: group \[7 8\] spans hosts of 8 devices$`},
		{"the cast on CUDA", call(2, "tensor<1024xbf16>", strings.Replace(config("twoshot", "fp", "0, 1", "0, 1", "peer", "2 : i64"), "cast = 0", "cast = 1", 1)), nil,
			`^arc: IN:3:5: .*: bf16 cast to f16 \(cast = 1\): cuda:nvlink never casts$`},
		{"the cast without --cast-bf16-to-fp16", call(2, "tensor<1024xbf16>", strings.Replace(config("twoshot", "fp", "0, 1", "0, 1", "peer", "2 : i64"), "cast = 0", "cast = 1", 1)), []string{"--target", "rocm:mi300x"},
			`^arc: IN:3:5: .*: bf16 cast to f16 \(cast = 1\) rounds the sums twice, and this compile does not allow it \(--cast-bf16-to-fp16\)$`},
		{"the cast with --cast-bf16-to-fp16", call(2, "tensor<1024xbf16>", strings.Replace(config("twoshot", "fp", "0, 1", "0, 1", "peer", "2 : i64"), "cast = 0", "cast = 1", 1)), []string{"--target", "rocm:mi300x", "--cast-bf16-to-fp16"}, ""},
		{"a call on a TPU", call(2, f16, good), []string{"--target", "tpu:v6e-8"},
			`^arc: IN:3:5: .*: arc's call is not one tpu:v6e-8 runs here: TPU targets run none of arc's kernels$`},
		{"a call kept by the identity target", call(2, f16, config("twoshot", "int4", "0, 1", "0, 1", "peer", "2 : i64")), []string{"--target", "none"}, ""},
		{"a bad call under the identity target", call(2, f16, config("oneshot", "none", "0, 1, 2, 3", "0, 1, 2, 3", "peer", "2 : i64")), []string{"--target", "none"},
			`^arc: IN:3:5: stablehlo\.custom_call: groups name process 2`},
		// The pretty form, as stablehlo-opt prints arc's output.
		{"a pretty call as arc writes it", pretty(call(2, f16, good)), nil, ""},
		{"a pretty call with a repeated process", pretty(call(2, f16, config("oneshot", "none", "0, 0", "0, 0", "peer", "2 : i64"))), nil,
			`^arc: IN:3:5: stablehlo\.custom_call: process 0 is in the groups twice$`},
		{"a pretty call outside the module's replicas", pretty(call(2, f16, config("oneshot", "none", "0, 1, 2, 3", "0, 1, 2, 3", "peer", "2 : i64"))), nil,
			`^arc: IN:3:5: stablehlo\.custom_call: groups name process 2, but the module's grid has 2 processes`},
		{"a pretty lossy call without --quant", pretty(call(2, f16, config("twoshot", "int4", "0, 1", "0, 1", "peer", "2 : i64"))), nil,
			`^arc: IN:3:5: .*codec int4 changes more than the order of the additions`},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := []string{"compile", "--target", "cuda:nvlink"}
			if len(c.args) > 1 && c.args[0] == "--target" {
				args = []string{"compile"}
			}
			code, out, errs := compileFile(t, c.src, append(args, c.args...)...)
			if c.first == "" {
				if code != exitOK || !strings.Contains(out, "arc_allreduce") {
					t.Errorf("exit %d, stderr %s, output:\n%s", code, errs, out)
				}
				return
			}
			first, _, _ := strings.Cut(errs, "\n")
			if code != exitInput || !regexp.MustCompile(c.first).MatchString(first) {
				t.Errorf("exit %d, stderr %q; want exit %d and %s", code, errs, exitInput, c.first)
			}
		})
	}
}

// TestRecompileDecidesForThisCompile: arc's output (or select's, shown by
// --print-after) compiled again is decided for this compile: a codec an
// earlier compile was allowed does not survive a compile that does not
// allow it, and a compile with the same options changes nothing.
func TestRecompileDecidesForThisCompile(t *testing.T) {
	in, _ := testdata(t, "sizes_w4.mlir")
	code, _, selected := runArc(t, "", "compile", "--target", "cuda:nvlink", "--quant", "int8", "--passes", "analyse,select", "--print-after", "select", in)
	selected = strings.TrimPrefix(selected, "// ----- after select -----\n")
	if code != exitOK || !strings.Contains(selected, `arc.codec = "int8"`) {
		t.Fatalf("exit %d; select with --quant int8 wrote no int8 decision:\n%s", code, selected)
	}
	// (An op whose decision this compile makes alike keeps its reason,
	// which may say why --quant int8 was not used.)
	code, out, errs := compileFile(t, selected, "compile", "--target", "cuda:nvlink")
	if code != exitOK || strings.Contains(out, `codec = "int8"`) || !strings.Contains(out, "arc_allreduce") {
		t.Errorf("the selected module compiled without --quant: exit %d, %s\n%s", code, errs, out)
	}
	code, lowered, errs := compileFile(t, selected, "compile", "--target", "cuda:nvlink", "--quant", "int8")
	if code != exitOK || !strings.Contains(lowered, `codec = "int8"`) {
		t.Fatalf("the selected module compiled with --quant int8: exit %d, %s\n%s", code, errs, lowered)
	}
	// The lowered module's int8 calls need --quant int8 again.
	code, _, errs = compileFile(t, lowered, "compile", "--target", "cuda:nvlink")
	if first, _, _ := strings.Cut(errs, "\n"); code != exitInput || !strings.Contains(first, "codec int8 changes more than the order of the additions") {
		t.Errorf("the lowered module compiled without --quant: exit %d, %q", code, errs)
	}
	code, again, errs := compileFile(t, lowered, "compile", "--target", "cuda:nvlink", "--quant", "int8")
	if code != exitOK || again != lowered {
		t.Errorf("the lowered module compiled again with --quant int8: exit %d, %s; unchanged %v", code, errs, again == lowered)
	}
}
