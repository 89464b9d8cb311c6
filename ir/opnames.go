package ir

import "strings"

// Which op names are ops. MLIR's parser takes any name in the generic form,
// "stablehlo.all_reduce(" too; its verifier then refuses an op of a
// registered dialect that the dialect does not define, whether or not
// --allow-unregistered-dialect is given (that flag only lets through ops of
// dialects nobody registered). In the custom form the parser itself refuses
// a name its dialect does not know. arc stands in for stablehlo-opt and XLA,
// which register the dialects of StableHLO programs: for those whose ops arc
// knows whole it applies both rules; for the others they register it can
// only refuse a name that no op can have. A dialect arc does not know at all
// may be one the compiler registers or one it is told to let through, so
// arc leaves its ops as they are, as before.

// dialectOps are the ops of the dialects arc knows whole: StableHLO's
// (stablehlo/dialect/StablehloOps.td), func's and builtin's.
var dialectOps = map[string]map[string]bool{
	"stablehlo": setOf(
		"abs", "add", "after_all", "all_gather", "all_reduce", "all_to_all", "and", "async_done", "async_start",
		"atan2", "batch_norm_grad", "batch_norm_inference", "batch_norm_training", "bitcast_convert", "broadcast",
		"broadcast_in_dim", "case", "cbrt", "ceil", "cholesky", "clamp", "collective_broadcast",
		"collective_permute", "collective_reduce", "compare", "complex", "composite", "concatenate", "constant",
		"convert", "convolution", "cosine", "count_leading_zeros", "create_token", "cross-replica-sum",
		"custom_call", "divide", "dot", "dot_general", "dynamic_broadcast_in_dim", "dynamic_conv", "dynamic_gather",
		"dynamic_iota", "dynamic_pad", "dynamic_reshape", "dynamic_slice", "dynamic_update_slice", "einsum",
		"exponential", "exponential_minus_one", "fft", "floor", "gather", "get_dimension_size", "get_tuple_element",
		"if", "imag", "infeed", "iota", "is_finite", "log", "log_plus_one", "logistic", "map", "maximum", "minimum",
		"multiply", "negate", "not", "optimization_barrier", "or", "outfeed", "pad", "partition_id", "popcnt",
		"power", "real", "real_dynamic_slice", "recv", "reduce", "reduce_precision", "reduce_scatter",
		"reduce_window", "remainder", "replica_id", "reshape", "return", "reverse", "rng", "rng_bit_generator",
		"round_nearest_afz", "round_nearest_even", "rsqrt", "scatter", "select", "select_and_scatter", "send",
		"set_dimension_size", "shift_left", "shift_right_arithmetic", "shift_right_logical", "sign", "sine",
		"slice", "sort", "sqrt", "subtract", "tan", "tanh", "torch_index_select", "transpose", "triangular_solve",
		"tuple", "unary_einsum", "uniform_dequantize", "uniform_quantize", "while", "xor",
	),
	"func":    setOf("call", "call_indirect", "constant", "func", "return"),
	"builtin": setOf("module", "unrealized_conversion_cast"),
}

// otherDialects are dialects that XLA registers beside them, whose op lists
// arc does not hold.
var otherDialects = map[string]bool{"chlo": true, "mhlo": true, "sdy": true}

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// unregisteredOp is the verifier's message for a generic op named name, ""
// when the name may be an op.
func unregisteredOp(name string) string {
	dialect, op, _ := strings.Cut(name, ".")
	known, whole := dialectOps[dialect]
	switch {
	case whole && known[op]:
		return ""
	case whole, otherDialects[dialect] && !isOpName(op):
		return "unregistered operation '" + name + "' found in dialect ('" + dialect + "') that does not allow unknown operations"
	}
	return ""
}

// isOpName reports whether s can name an op of a dialect: an identifier,
// '-' allowed (stablehlo.cross-replica-sum).
func isOpName(s string) bool {
	if s == "" || !isIdentStart(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIdentChar(s[i]) {
			return false
		}
	}
	return true
}

// unknownCustomOp is the parser's message for a custom-form op named name,
// "" when its dialect is not one arc knows whole or has the op. MLIR reads
// the name as a bare identifier, which ends before a '-'.
func unknownCustomOp(name string) string {
	dot := strings.IndexByte(name, '.')
	if dot < 0 {
		return ""
	}
	switch name[:dot] { // before a map lookup: this runs for every op
	case "stablehlo", "func", "builtin":
	default:
		return ""
	}
	if i := strings.IndexByte(name, '-'); i >= 0 {
		name = name[:i]
	}
	if !dialectOps[name[:dot]][name[dot+1:]] {
		return "custom op '" + name + "' is unknown"
	}
	return ""
}

// checkOpNames applies the verifier's rule to the module's generic ops.
func (m *Module) checkOpNames() error {
	var err error
	m.Walk(func(op *Op) bool {
		if !op.Generic {
			return true
		}
		if msg := unregisteredOp(op.Name); msg != "" {
			at := int(op.Start) // the op's location is its name's
			if op.resEnd != op.Start {
				at = skipTriviaAt(m.Src, int(op.resEnd)+1)
			}
			err = m.Errorf(at, "%s", msg)
			return false
		}
		return true
	})
	return err
}
