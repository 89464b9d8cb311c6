package bench

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/arcpass/arc"
	"github.com/arcpass/arc/decision"
	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/passes"
)

// Programs are printed in the generic MLIR form go-xla prints for gomlx (the
// form arc's fixtures hold), by hand because go-xla's builder has no
// optimization_barrier.
//
// Each of the K steps of the chained program is
//
//	x = optimization_barrier(all_reduce(x) * (1/W) + d)
//
// and the control program's steps are the same without the all-reduce. The
// input d differs between ranks, so XLA cannot prove the next all-reduce's
// operand replicated and fold it into a multiply (its AllReduceSimplifier
// would); the barrier keeps the control's K multiply-adds from fusing into
// one kernel, so both programs launch the same K elementwise kernels and
// their difference is the K all-reduces. Scaling by 1/W keeps the values
// bounded over any number of steps.

// ProgramText returns a benchmark program over an input of elems values of
// dtype on world replicas: chained all-reduces when chain is set, else the
// control.
func ProgramText(dtype string, elems int64, world, steps int, chain bool) string {
	name := "arc_bench_control"
	if chain {
		name = "arc_bench_chain"
	}
	tensor := fmt.Sprintf("tensor<%dx%s>", elems, dtype)
	scalar := "tensor<" + dtype + ">"
	unary := "(" + tensor + ") -> " + tensor
	binary := "(" + tensor + ", " + tensor + ") -> " + tensor
	ids := make([]string, world)
	for i := range ids {
		ids[i] = strconv.Itoa(i)
	}
	groups := fmt.Sprintf("dense<[[%s]]> : tensor<1x%dxi64>", strings.Join(ids, ", "), world)

	var b strings.Builder
	n := 0
	next := func() string { n++; return "%" + strconv.Itoa(n-1) }
	fmt.Fprintf(&b, "module @%s attributes {stablehlo.num_replicas = %d} {\n", name, world)
	fmt.Fprintf(&b, "  func.func @main(%%x: %s, %%d: %s) -> %s {\n", tensor, tensor, tensor)
	// A scalar broadcast, as JAX writes it: a splat constant of the full
	// shape could become a literal of up to 256 MB in XLA.
	scalarScale, scale := next(), next()
	fmt.Fprintf(&b, "    %s = \"stablehlo.constant\"() { value = dense<%s> : %s } : () -> %s\n",
		scalarScale, strconv.FormatFloat(1/float64(world), 'e', 6, 64), scalar, scalar)
	fmt.Fprintf(&b, "    %s = \"stablehlo.broadcast_in_dim\"(%s) { broadcast_dimensions = array<i64> } : (%s) -> %s\n",
		scale, scalarScale, scalar, tensor)
	x := "%x"
	for range steps {
		v := x
		if chain {
			sum := next()
			v = next()
			fmt.Fprintf(&b, "    %s = \"stablehlo.all_reduce\"(%s) ({\n", v, x)
			fmt.Fprintf(&b, "      ^computation(%%lhs: %s, %%rhs: %s) :\n", scalar, scalar)
			fmt.Fprintf(&b, "          %s = \"stablehlo.add\"(%%lhs, %%rhs) : (%s, %s) -> %s\n", sum, scalar, scalar, scalar)
			fmt.Fprintf(&b, "          \"stablehlo.return\"(%s) : (%s) -> ()\n", sum, scalar)
			fmt.Fprintf(&b, "    }) { replica_groups = %s } : %s\n", groups, unary)
		}
		scaled, shifted, kept := next(), next(), next()
		fmt.Fprintf(&b, "    %s = \"stablehlo.multiply\"(%s, %s) : %s\n", scaled, v, scale, binary)
		fmt.Fprintf(&b, "    %s = \"stablehlo.add\"(%s, %%d) : %s\n", shifted, scaled, binary)
		fmt.Fprintf(&b, "    %s = \"stablehlo.optimization_barrier\"(%s) : %s\n", kept, shifted, unary)
		x = kept
	}
	fmt.Fprintf(&b, "    \"stablehlo.return\"(%s) : (%s) -> ()\n", x, tensor)
	b.WriteString("  }\n}\n")
	return b.String()
}

// ElemSize is the bytes of one value of dtype.
func ElemSize(dtype string) int64 {
	if dtype == "f32" {
		return 4
	}
	return 2
}

// LowerOptions are arc.Compile's settings for the chained programs.
type LowerOptions struct {
	Target  string // arc's --target
	Quant   string // the codec auto may use
	Profile string // the cost profile auto uses ("" : the target's built-in one)
}

// LowerChain returns the chained program of a cell lowered by arc as l (every
// all-reduce forced to l, or left to arc's policy for auto), and the profile
// key of what the all-reduces got. A forced lowering arc did not apply is an
// error, so a table never shows one lowering's time under another's name.
func LowerChain(o LowerOptions, l Lowering, dtype string, elems int64, world, steps int) (text, chose string, err error) {
	src := ProgramText(dtype, elems, world, steps, true)
	out, rep, err := arc.Compile("arc_bench_chain", []byte(src), arc.Options{
		Target: o.Target, Quant: o.Quant, Profile: o.Profile, Force: l.ForceFlags(steps),
	})
	if err != nil {
		return "", "", err
	}
	for i, row := range rep.Collectives {
		k := rowKey(row)
		if i > 0 && k != chose {
			return "", "", fmt.Errorf("arc lowered the chain's all-reduces differently (%s, %s)", chose, k)
		}
		chose = k
	}
	if len(rep.Collectives) != steps {
		return "", "", fmt.Errorf("arc reports %d all-reduces in a chain of %d", len(rep.Collectives), steps)
	}
	want := l.Key()
	if l.IsNative() { // XLA's switches go to XLA's compiler: to arc it is native
		want = "native"
	}
	if l != Auto && chose != want {
		return "", "", fmt.Errorf("arc lowered %s as %s", l, chose)
	}
	return string(out), chose, nil
}

// rowKey is the profile key of the lowering a report row got.
func rowKey(r passes.Row) string {
	switch {
	case r.Lowering == "native" || r.Algo == "":
		return "native"
	case r.Algo == "oneshot":
		return "oneshot"
	}
	return r.Algo + ":" + r.Codec
}

// ProxySettings are the settings (arc_NAME compile options, which arc's
// proxy reads per program) under which the proxy's arc keeps the calls of
// a program arc lowered already: the proxy compiles every program again,
// and a call is kept only where that compile allows what it sends beyond
// the order of the additions, as the compile that wrote it did: its lossy
// codec (arc_quant) and the bf16 cast (arc_cast_bf16_to_fp16). A program
// with no such call needs none.
func ProxySettings(text string) ([]XLAFlag, error) {
	m, err := ir.ParseString("program", text)
	if err != nil {
		return nil, err
	}
	cs, err := decision.Collectives(m)
	if err != nil {
		return nil, err
	}
	quant, cast := "", false
	for _, c := range cs {
		if !decision.IsCall(c) {
			continue
		}
		call, err := decision.ParseCall(m, c.Op)
		if err != nil {
			return nil, err
		}
		if lossy := call.Codec != "none" && call.Codec != "fp"; lossy && quant != "" && call.Codec != quant {
			return nil, fmt.Errorf("the program's calls send two lossy codecs, %s and %s: one compile allows one", quant, call.Codec)
		} else if lossy {
			quant = call.Codec
		}
		cast = cast || call.CastBF16ToFP16
	}
	var out []XLAFlag
	if quant != "" {
		out = append(out, XLAFlag{Name: "arc_quant", Value: quant})
	}
	if cast {
		out = append(out, XLAFlag{Name: "arc_cast_bf16_to_fp16", Value: "true"})
	}
	return out, nil
}
