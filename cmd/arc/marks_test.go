package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The tests of this file hold arc to what it does with its own marks on an
// input it did not write them on (docs/LOWERINGS.md, "Marks on the
// input"): the arc.* decisions on a plain all-reduce are decided afresh by
// select.

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
		{"an operand of 12 bytes", marked(2, pair, "tensor<3xf32>", "add", kernelMarks("oneshot", "none", "peer")), nil,
			`arc.reason = "12 bytes is not a multiple of 16"`, []string{"arc_allreduce"}},
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
