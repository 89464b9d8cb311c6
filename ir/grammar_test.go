package ir

import (
	"reflect"
	"strings"
	"testing"
)

// structure prints the op tree compactly: each op's name (quoted when
// generic, "=" for an alias definition), its regions in braces and its
// blocks' labels: `module{func.func{^bb0: x.a return}}`.
func structure(m *Module) string {
	var b strings.Builder
	var block func(bl *Block)
	block = func(bl *Block) {
		if bl.Label != "" {
			b.WriteString(bl.Label + ": ")
		}
		for i, op := range bl.Ops {
			if i > 0 {
				b.WriteByte(' ')
			}
			switch {
			case op.Generic:
				b.WriteString(`"` + op.Name + `"`)
			case op.Name == "":
				b.WriteByte('=')
			default:
				b.WriteString(op.Name)
			}
			for _, r := range op.Regions {
				b.WriteByte('{')
				for j, rb := range r.Blocks {
					if j > 0 {
						b.WriteByte(' ')
					}
					block(rb)
				}
				b.WriteByte('}')
			}
		}
	}
	block(m.Body)
	return b.String()
}

// TestGrammar: statements end where MLIR's grammar says, whatever the layout;
// each case is one that a line-based reading got wrong or could.
func TestGrammar(t *testing.T) {
	for _, tc := range grammarCases {
		t.Run(tc.name, func(t *testing.T) {
			m := mustParse(t, tc.src)
			if got := structure(m); got != strings.TrimSpace(tc.want) {
				t.Errorf("tree\n got %s\nwant %s", got, tc.want)
			}
			if m.Src != tc.src {
				t.Errorf("text changed")
			}
			checkSpans(t, m)
		})
	}
}

// grammarCases are the layouts TestGrammar reads (and FuzzParse starts from):
// the source and the tree it must give.
var grammarCases = []struct{ name, src, want string }{
	{"space before the colon of arguments",
		"func.func @f(%x : tensor<4xf32>, %y :tensor<4xf32>) -> tensor<4xf32> {\n  %0 = stablehlo.add %x, %y : tensor<4xf32>\n  return %0 : tensor<4xf32>\n}\n",
		"func.func{stablehlo.add return}"},
	{"comment lines between an op and its region",
		"%0:2 = stablehlo.while(%i = %a, %j = %b) : tensor<i64>, tensor<i64> // c\n// a comment line\n\n cond {\n  stablehlo.return %t : tensor<i1>\n} // c\n  // c\n do {\n  stablehlo.return %i, %j : tensor<i64>, tensor<i64>\n}\n%1 = stablehlo.add %0#0, %0#1 : tensor<i64>\n",
		"stablehlo.while{stablehlo.return}{stablehlo.return} stablehlo.add"},
	{"a function body on the signature's line",
		"func.func @f(%x: tensor<f32>) -> tensor<f32> { return %x : tensor<f32> }\nfunc.func @g() { func.return }\n",
		"func.func{return} func.func{func.return}"},
	{"ops after a one-line region",
		"func.func @f(%x: tensor<f32>) -> tensor<f32> { %0 = stablehlo.abs %x : tensor<f32>  %1 = stablehlo.abs %0 : tensor<f32>\n return %1 : tensor<f32> }",
		"func.func{stablehlo.abs stablehlo.abs return}"},
	{"generic ops on one line",
		`"x.a"() : () -> () "x.b"() ({ "x.c"() : () -> () }) : () -> () %0 = "x.d"() : () -> i32`,
		`"x.a" "x.b"{"x.c"} "x.d"`},
	{"generic op with a token on each line",
		"%0\n,\n%1\n=\n\"x.y\"\n(\n%a\n)\n{\nk = 1\n}\n:\n(\ni32\n)\n->\n(\ni32, i32\n)\nloc\n(\n#l\n)\n\"x.z\"() : () -> !x.t<1>\n",
		`"x.y" "x.z"`},
	{"generic op: successors, properties, two regions, attributes",
		"\"x.y\"(%a) [^bb1, ^bb2] <{p = 1}> ({\n^bb0(%b: i32):\n  \"x.r\"() : () -> ()\n}, {\n  \"x.r\"() : () -> ()\n}) {d = 2} : (i32) -> () loc(#l)\n",
		`"x.y"{^bb0: "x.r"}{"x.r"}`},
	{"operands of a custom op on the next lines",
		"%0:2 = stablehlo.optimization_barrier\n    {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{\"b\"}, {?}]>]>}\n    %arg0, %arg1 : tensor<4xf32>, tensor<4xf32>\n%1 = stablehlo.add %a,\n     %b : tensor<f32>\nreturn %0#0, %1 : tensor<4xf32>, tensor<f32>\n",
		"stablehlo.optimization_barrier stablehlo.add return"},
	{"a label with comments and line breaks",
		"\"x.y\"() ({\n^bb0(%a: i32, // first\n     %b : i32) // then a colon\n   :\n  \"x.r\"(%a, %b) : (i32, i32) -> ()\n^bb1:\n  \"x.r\"() : () -> ()\n}) : () -> ()\n",
		`"x.y"{^bb0: "x.r" ^bb1: "x.r"}`},
	{"successors of a custom op are not labels",
		"func.func @f(%c: i1, %x: i32) {\n  cf.cond_br %c, ^bb1(%x : i32), ^bb2\n^bb1(%y: i32):\n  cf.br ^bb2\n^bb2:\n  return\n}\n",
		"func.func{cf.cond_br ^bb1: cf.br ^bb2: return}"},
	{"braces that are no regions",
		"func.func @f(%a: tensor<8xf32> {jax.buffer_donor}, %b: tensor<8xf32> {}) -> (tensor<8xf32> {jax.result_info = \"\"}) attributes {llvm.emit_c_interface} {\n  %0 = sdy.manual_computation(%a) in_shardings=[<@m, [{\"x\"}]>] out_shardings=[<@m, [{\"x\"}]>] manual_axes={\"x\", \"y\"} (%arg1: tensor<4xf32>) {\n    sdy.return %arg1 : tensor<4xf32>\n  } : (tensor<8xf32>) -> tensor<8xf32>\n  %1 = sdy.manual_computation(%0) in_shardings=[<@m, [{}]>] out_shardings=[<@m, [{}]>] manual_axes={} (%arg1: tensor<8xf32>) { sdy.return %arg1 : tensor<8xf32> } : (tensor<8xf32>) -> tensor<8xf32>\n  return %1 : tensor<8xf32>\n}\n",
		"func.func{sdy.manual_computation{sdy.return} sdy.manual_computation{sdy.return} return}"},
	{"a loop variable is no result",
		"scf.for %i = %lb to %ub step %s {\n  \"x.y\"(%i) : (index) -> ()\n}\n%0 = \"x.z\"() : () -> i32\n",
		`scf.for{"x.y"} "x.z"`},
	{"alias definitions and a resource section",
		"#loc1 = loc(\"f.py\":1:2)\n!t = !quant.uniform<i8:f32, 1.0>\n#map = affine_map<(d0) -> (d0)>\nmodule {\n} loc(#loc1)\n{-#\n  dialect_resources: {}\n#-}\n",
		"= = = module{} ="},
	{"a custom op's location on its own line",
		"%0 = stablehlo.add %a, %b : tensor<f32>\n    loc(#l)\n%1 = stablehlo.abs %0 : tensor<f32>\n",
		"stablehlo.add stablehlo.abs"},
	{"reduce with its reducer on the next lines",
		"%0 = stablehlo.reduce(%x init: %c) across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>\n // reducer\n reducer(%a: tensor<f32>, %b : tensor<f32>)  {\n  %5 = stablehlo.add %a, %b : tensor<f32>\n  stablehlo.return %5 : tensor<f32>\n}\n%1 = stablehlo.reduce(%x init: %c) applies stablehlo.maximum across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>\n",
		"stablehlo.reduce{stablehlo.add stablehlo.return} stablehlo.reduce"},
}

// TestArgumentsWithSpaces: "%x : type" declares an argument in a signature,
// a block label and a pretty region's argument list; at an op's own level it
// is a use followed by the op's type.
func TestArgumentsWithSpaces(t *testing.T) {
	src := "func.func @f(%x : tensor<4xf32>,\n  %y\n  : tensor<4xf32>) -> tensor<4xf32> {\n" +
		"  %0 = \"stablehlo.all_reduce\"(%x) ({\n  ^bb0(%a : tensor<f32>, %b :tensor<f32>):\n    %1 = stablehlo.add %a, %b : tensor<f32>\n    stablehlo.return %1 : tensor<f32>\n  }) : (tensor<4xf32>) -> tensor<4xf32>\n" +
		"  %2 = stablehlo.reduce(%0 init: %c) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>\n   reducer(%p : tensor<f32>, %q : tensor<f32>) {\n    stablehlo.return %p : tensor<f32>\n  }\n" +
		"  return %0 : tensor<4xf32>\n}\n"
	m := mustParse(t, src)
	for line, want := range map[int][]string{
		1:  {"arg %x", "arg %y"},
		4:  {"result %0", "use %x"},
		6:  {"result %1", "use %a", "use %b"},
		9:  {"result %2", "use %0", "use %c", "arg %p", "arg %q"},
		13: {"use %0"},
	} {
		if got := refs(m, opAt(t, m, line)); !reflect.DeepEqual(got, want) {
			t.Errorf("line %d: %q, want %q", line, got, want)
		}
	}
	var args []string
	m.LabelArgs(opAt(t, m, 4).Regions[0].Blocks[0], func(v ValueRef) { args = append(args, []string{"use", "result", "arg"}[v.Kind]+" "+v.Name) })
	if want := []string{"arg %a", "arg %b"}; !reflect.DeepEqual(args, want) {
		t.Errorf("label arguments %q, want %q", args, want)
	}
	if ins, outs, ok := m.FuncType(opAt(t, m, 6)); !ok || ins != nil || !reflect.DeepEqual(outs, []string{"tensor<f32>"}) {
		t.Errorf("type of the add: %q %q %v", ins, outs, ok)
	}
}
