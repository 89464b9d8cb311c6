package decision

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/arcpass/arc/abi"
	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/reference/norm"
)

// AllReduce is the call target of arc's all-reduce kernels: the name arc's
// runtime registers its FFI handler under (ARC_FFI_ALLREDUCE_TARGET in
// proxy/arc_ffi.h, which decision's test reads).
const AllReduce = "arc_allreduce"

// Targets are arc's call targets. Another kernel of a call's own is a
// second entry here, with its keys in configKeys and its own checks in
// Call.check; the fused all-reduce and norm is a form of AllReduce.
var Targets = []string{AllReduce}

// Call is one of arc's custom calls: what the GPU lowering writes in place
// of the operands of an all-reduce that run arc's kernel, and what the
// runtime's handler (gpu/arc_ffi.cc) reads of it. The kernel, its group and
// its devices travel in backend_config (the handler's attributes); the
// decision's lowering, reason and estimates in arc.* attributes, for people
// and for a later arc compile or arc inspect.
//
// It has two forms. The plain one reads one operand and returns its sum.
// The fused one (Norm set) replaces the all-reduce and the residual add and
// norm that follow it (abi.NormKinds): it reads the all-reduce's operand,
// the residual x of the same type, the weight w (one row's elements) and,
// for a LayerNorm with one, the bias b (as w), and returns h = x + sum and
// y, h's rows normalised, both of the operand's type.
type Call struct {
	Target string // one of Targets
	// Decision is the decision the call runs: Algo, Codec, Link and
	// CastBF16ToFP16 name the kernel (backend_config); Lowering, Reason,
	// EstUS and NativeUS are recorded beside it, and for the fused form
	// Fuse (the norm's kind, Norm.Norm) and FuseReason. Payload is never
	// set.
	Decision
	// Norm is the fused form's norm, as the program computes it; nil for
	// the plain form.
	Norm  *norm.Recipe
	World int // the group size
	// Devices are every process group, flattened group-major, World PJRT
	// global device ids each: a rank is its device's position in its group.
	// Groups are the same groups as flattened process ids (replica *
	// num_partitions + partition), for reading the call back.
	Devices, Groups []int64
	// Operands are the value names the call reads; OperandTypes and
	// ResultTypes their types and those of its results.
	Operands                  []string
	OperandTypes, ResultTypes []ir.TensorType
	// Kept are attributes of the replaced op that the call keeps
	// (KeptAttrs: its shardings and frontend attributes), printed as given.
	Kept []ir.Attr
}

// A ConfigKey is an entry of backend_config, of the type the handler
// reads it as.
type ConfigKey struct {
	Name string
	Kind Kind
	// Required: the handler fails a call without it (arc writes every
	// key; devices is absent only from modules of an older arc).
	Required bool
	// Fused: a key of the fused form only, which it requires unless
	// Optional: then it takes +0 without one (RMSNorm's calls have none).
	Fused, Optional bool
}

// Kind is the XLA FFI attribute type of a backend_config entry.
type Kind int

const (
	String Kind = iota // a string (ARC_XLA_ATTR_STRING)
	Int                // an i64 scalar (ARC_XLA_ATTR_SCALAR)
	IDs                // an array<i64> (ARC_XLA_ATTR_ARRAY)
	F32                // an f32 scalar (ARC_XLA_ATTR_SCALAR), written as its bits
)

func (k Kind) String() string { return [...]string{"string", "i64", "array<i64>", "f32"}[k] }

const (
	keyAlgo    = "algo"
	keyCast    = "cast"
	keyCodec   = "codec"
	keyDevices = "devices"
	keyEps     = "eps"
	keyGroups  = "groups"
	keyInit    = "init"
	keyLink    = "link"
	keyMean    = "mean"
	keyNorm    = "norm"
	keyRow     = "row"
	keyScale   = "scale"
	keyWeight  = "weight"
	keyWorld   = "world"
)

// configKeys are the backend_config entries of each target, sorted by name
// as MLIR prints a dictionary and XLA hands them to the handler.
var configKeys = map[string][]ConfigKey{
	AllReduce: {
		{Name: keyAlgo, Kind: String, Required: true}, {Name: keyCast, Kind: Int}, {Name: keyCodec, Kind: String, Required: true},
		{Name: keyDevices, Kind: IDs}, {Name: keyEps, Kind: F32, Fused: true}, {Name: keyGroups, Kind: IDs, Required: true},
		{Name: keyInit, Kind: F32, Fused: true, Optional: true},
		{Name: keyLink, Kind: String}, {Name: keyMean, Kind: String, Fused: true}, {Name: keyNorm, Kind: String, Fused: true},
		{Name: keyRow, Kind: Int, Fused: true}, {Name: keyScale, Kind: F32, Fused: true}, {Name: keyWeight, Kind: String, Fused: true},
		{Name: keyWorld, Kind: Int, Required: true},
	},
}

// ConfigKeys lists a target's backend_config entries: name and kind.
func ConfigKeys(target string) []ConfigKey { return slices.Clone(configKeys[target]) }

// Arity is how many operands and results a call of the form takes: plain
// (nil) or fused with the norm rc.
func Arity(rc *norm.Recipe) (operands, results int) {
	switch {
	case rc == nil:
		return 1, 1
	case rc.Bias:
		return 4, 2 // the operand, the residual, the weight and the bias; h and y
	}
	return 3, 2 // the operand, the residual and the weight; h and y
}

// config prints backend_config.
func (c *Call) config() string {
	var entries []string
	for _, k := range configKeys[c.Target] {
		if k.Fused && c.Norm == nil || k.Name == keyDevices && len(c.Devices) == 0 || k.Name == keyInit && !c.Norm.Layer() {
			continue
		}
		entries = append(entries, k.Name+" = "+c.value(k.Name))
	}
	return "{" + strings.Join(entries, ", ") + "}"
}

// value prints one backend_config entry of the call.
func (c *Call) value(key string) string {
	f32 := func(v float32) string { return fmt.Sprintf("0x%08X : f32", math.Float32bits(v)) } // exact
	switch key {
	case keyAlgo:
		return ir.Quote(c.Algo)
	case keyCast:
		if c.CastBF16ToFP16 {
			return "1 : i64"
		}
		return "0 : i64"
	case keyCodec:
		return ir.Quote(c.Codec)
	case keyDevices:
		return idArray(c.Devices)
	case keyGroups:
		return idArray(c.Groups)
	case keyLink:
		return ir.Quote(c.Link)
	case keyWorld:
		return fmt.Sprintf("%d : i64", c.World)
	case keyNorm:
		return ir.Quote(c.Norm.Norm)
	case keyRow:
		return fmt.Sprintf("%d : i64", c.Norm.Row)
	case keyMean:
		return ir.Quote(c.Norm.Mean)
	case keyScale:
		return f32(c.Norm.Scale)
	case keyEps:
		return f32(c.Norm.Eps)
	case keyInit:
		return f32(c.Norm.Init)
	case keyWeight:
		return ir.Quote(c.Norm.Weight)
	}
	return "" // a key configKeys lists and value does not print: the round-trip test fails
}

func idArray(ids []int64) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.FormatInt(id, 10)
	}
	return "array<i64: " + strings.Join(s, ", ") + ">"
}

// Format prints the call as a generic op, without its results:
// "stablehlo.custom_call"(%x) {...} : (T) -> T. Its attributes are sorted
// by name, as MLIR prints them.
func (c *Call) Format() string {
	var ops, ins, outs, inLayouts, outLayouts []string
	for i, t := range c.OperandTypes {
		ops, ins, inLayouts = append(ops, c.Operands[i]), append(ins, t.String()), append(inLayouts, layoutOf(len(t.Shape)))
	}
	for _, t := range c.ResultTypes {
		outs, outLayouts = append(outs, t.String()), append(outLayouts, layoutOf(len(t.Shape)))
	}
	attrs := append([]ir.Attr{
		{Name: "api_version", Value: "4 : i32"}, // the typed FFI
		{Name: AttrEstUS, Value: USAttr(c.EstUS)},
		{Name: AttrLowering, Value: ir.Quote(c.Lowering)},
		{Name: AttrNativeUS, Value: USAttr(c.NativeUS)},
		{Name: AttrReason, Value: ir.Quote(c.Reason)},
		{Name: "backend_config", Value: c.config()},
		{Name: "call_target_name", Value: ir.Quote(c.Target)},
		{Name: "has_side_effect", Value: "true"}, // XLA must neither drop nor merge calls
		{Name: "operand_layouts", Value: "[" + strings.Join(inLayouts, ", ") + "]"},
		{Name: "result_layouts", Value: "[" + strings.Join(outLayouts, ", ") + "]"},
	}, c.Kept...)
	if c.Norm != nil {
		attrs = append(attrs, ir.Attr{Name: AttrFuse, Value: ir.Quote(c.Norm.Norm)}, ir.Attr{Name: AttrFuseReason, Value: ir.Quote(c.FuseReason)})
	}
	slices.SortStableFunc(attrs, func(a, b ir.Attr) int { return strings.Compare(a.Name, b.Name) })
	dict := make([]string, len(attrs))
	for i, a := range attrs {
		dict[i] = a.Name + " = " + a.Value
	}
	result := strings.Join(outs, ", ")
	if len(outs) != 1 {
		result = "(" + result + ")"
	}
	return fmt.Sprintf(`"stablehlo.custom_call"(%s) {%s} : (%s) -> %s`,
		strings.Join(ops, ", "), strings.Join(dict, ", "), strings.Join(ins, ", "), result)
}

// layoutOf is the row-major layout of a rank-n tensor: dims n-1 .. 0.
func layoutOf(rank int) string {
	if rank == 0 {
		return "dense<> : tensor<0xindex>"
	}
	dims := make([]string, rank)
	for i := range dims {
		dims[i] = strconv.Itoa(rank - 1 - i)
	}
	return fmt.Sprintf("dense<[%s]> : tensor<%dxindex>", strings.Join(dims, ", "), rank)
}

// target returns which of arc's call targets op calls, or "" for any
// other op.
func target(m *ir.Module, op *ir.Op) string {
	if op.Name != "stablehlo.custom_call" && op.Name != "mhlo.custom_call" {
		return ""
	}
	t := m.Callee(op) // the pretty form names it: custom_call @arc_allreduce(...)
	if op.Generic {
		v, _ := m.Attr(op, "call_target_name")
		t = ir.Unquote(v)
	}
	if slices.Contains(Targets, t) {
		return t
	}
	return ""
}

// IsCall reports a collective that is one of arc's calls (Collectives
// lists them as all-reduces).
func IsCall(c *ir.Collective) bool {
	return c.Kind == "all_reduce" && strings.HasSuffix(c.Op.Name, ".custom_call")
}

// ParseCall reads one of arc's calls; it returns nil for any other op. What
// the handler would refuse, or run other than as the call says, is an error
// at the op: a call naming no kernel arc has, or groups and devices that
// disagree, would fail only at run time.
func ParseCall(m *ir.Module, op *ir.Op) (*Call, error) {
	t := target(m, op)
	if t == "" {
		return nil, nil
	}
	errAt := func(format string, args ...any) error {
		return m.Errorf(int(op.Start), "%s: %s", op.Name, fmt.Sprintf(format, args...))
	}
	c := &Call{Target: t, Operands: m.Operands(op)}
	ins, outs, ok := m.FuncType(op)
	if !ok {
		return nil, errAt("no type signature")
	}
	if ins == nil && !op.Generic { // pretty form: one type for all
		ins = outs
	}
	for _, s := range ins {
		tt, err := ir.ParseTensorType(s)
		if err != nil {
			return nil, errAt("operand type: %v", err)
		}
		c.OperandTypes = append(c.OperandTypes, tt)
	}
	for _, s := range outs {
		tt, err := ir.ParseTensorType(s)
		if err != nil {
			return nil, errAt("result type: %v", err)
		}
		c.ResultTypes = append(c.ResultTypes, tt)
	}
	if len(c.OperandTypes) != len(c.Operands) {
		return nil, errAt("%d operands but %d operand types", len(c.Operands), len(c.OperandTypes))
	}
	var cfg string
	have := false
	for _, a := range m.OpAttrs(op) {
		v := ir.Unquote(ir.StripType(a.Value))
		switch a.Name {
		case "backend_config":
			cfg, have = a.Value, true
		case AttrLowering:
			c.Lowering = v
		case AttrReason:
			c.Reason = v
		case AttrFuseReason:
			c.FuseReason = v
		case AttrEstUS, AttrNativeUS:
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return nil, errAt("%s: %q is not a number", a.Name, v)
			}
			if a.Name == AttrEstUS {
				c.EstUS = f
			} else {
				c.NativeUS = f
			}
		default:
			if slices.Contains(keptNames, a.Name) {
				c.Kept = append(c.Kept, a)
			}
		}
	}
	entries, isDict := ir.SplitDict(cfg)
	if !have || !isDict {
		return nil, errAt("arc's custom call has no backend_config dictionary")
	}
	raw := map[string]string{}
	for _, e := range entries {
		if k, known := configKey(t, e.Name); known {
			if err := checkKind(k, e.Value); err != nil {
				return nil, errAt("backend_config: %v", err)
			}
		}
		raw[e.Name] = ir.Unquote(ir.StripType(e.Value))
	}
	if err := c.check(raw); err != nil {
		return nil, errAt("backend_config: %v", err)
	}
	if _, fused := raw[keyNorm]; fused {
		if err := c.checkNorm(raw, errAt); err != nil {
			return nil, err
		}
	} else if len(c.Operands) != 1 || len(c.ResultTypes) != 1 {
		return nil, errAt("arc's call takes one operand and returns its sum, not %d operands and %d results", len(c.Operands), len(c.ResultTypes))
	} else {
		c.FuseReason = "" // the plain form records no fusion
	}
	if why := KernelType(c.OperandTypes[0]); why != "" {
		return nil, errAt("operand type %s: %s", c.OperandTypes[0], why)
	}
	if c.Lowering == "" {
		c.Lowering = c.Algo
	}
	return c, nil
}

// KernelType says why arc's kernels cannot take an operand of type t, or ""
// when they can: an element type they sum, a static shape of at least one
// element (any count: a scalar, tensor<f32>, is one), and a size that fits
// the runtime's buffers. (The eligibility of an all-reduce says the same
// with select's other rules.)
func KernelType(t ir.TensorType) string {
	n := t.Bytes()
	switch {
	case !slices.Contains(abi.DTypes, t.Elem):
		return fmt.Sprintf("dtype %s: arc's kernels take %s and %s", t.Elem, strings.Join(abi.DTypes[:len(abi.DTypes)-1], ", "), abi.DTypes[len(abi.DTypes)-1])
	case n < 0:
		return "dynamic shape"
	case n == 0:
		return "empty tensor"
	case n > abi.DefaultMaxBytes:
		return fmt.Sprintf("%d bytes is more than the %d arc's runtime buffers hold", n, abi.DefaultMaxBytes)
	}
	return ""
}

// configKey is the entry of a target's backend_config of that name.
func configKey(target, name string) (ConfigKey, bool) {
	for _, k := range configKeys[target] {
		if k.Name == name {
			return k, true
		}
	}
	return ConfigKey{}, false
}

// checkKind checks that v, a backend_config value as the module writes it,
// is of the attribute type the handler reads key k as: XLA hands the
// handler each entry by its MLIR type, and the handler refuses a call whose
// entry is of another (gpu/arc_ffi.cc's parse_attrs). A string is quoted;
// an integer is an integer literal of 8 to 64 bits ("2", "2 : i64", "2 :
// ui32"); an array is "array<i64: ...>" (or of another integer type of 8 to
// 64 bits); an f32 is a float literal typed f32 ("0x3727C5AC : f32",
// "1.0e-05 : f32"): an untyped float is an f64.
func checkKind(k ConfigKey, v string) error {
	v = strings.TrimSpace(v)
	article := "an"
	if k.Kind == String {
		article = "a"
	}
	bad := func(what string) error {
		if v == "" {
			return fmt.Errorf("%s has no value, but the handler reads it as %s %s", k.Name, article, k.Kind)
		}
		return fmt.Errorf("%s = %s is %s, but the handler reads %s as %s %s", k.Name, v, what, k.Name, article, k.Kind)
	}
	quoted := len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"'
	if k.Kind != String && strings.HasPrefix(v, `"`) {
		return bad("a string")
	}
	switch k.Kind {
	case String:
		if !quoted {
			return bad("not a string")
		}
	case Int:
		if !intScalar(v) {
			return bad("not an integer")
		}
	case IDs:
		if !intArray(v) {
			return bad("not an array<i64: ...>")
		}
	case F32:
		if !f32Scalar(v) {
			return bad("not an f32")
		}
	}
	return nil
}

// intType reports an integer type of 8 to 64 bits, which the handler reads
// (read_int): iN, siN or uiN.
func intType(t string) bool {
	for _, prefix := range []string{"i", "si", "ui"} {
		if w, ok := strings.CutPrefix(t, prefix); ok {
			return slices.Contains([]string{"8", "16", "32", "64"}, w)
		}
	}
	return false
}

// typed splits "value : type" at its colon; type is "" without one.
func typed(v string) (value, typ string) {
	if i := strings.LastIndexByte(v, ':'); i >= 0 {
		return strings.TrimSpace(v[:i]), strings.TrimSpace(v[i+1:])
	}
	return v, ""
}

// intScalar reports an integer scalar attribute: an integer literal that
// fits its type, untyped (i64) or of an integer type the handler reads.
func intScalar(v string) bool {
	if _, typ := typed(v); typ != "" && !intType(typ) {
		return false
	}
	_, ok := ir.IntAttr(v)
	return ok
}

// intArray reports a dense array of an integer type the handler reads:
// "array<i64: 0, 1>", "array<i64>".
func intArray(v string) bool {
	inner, ok := strings.CutPrefix(v, "array<")
	if !ok || !strings.HasSuffix(inner, ">") {
		return false
	}
	inner = strings.TrimSuffix(inner, ">")
	typ, list, _ := strings.Cut(inner, ":")
	if !intType(strings.TrimSpace(typ)) {
		return false
	}
	for _, f := range strings.Split(list, ",") {
		if f = strings.TrimSpace(f); f == "" && strings.TrimSpace(list) == "" {
			continue
		}
		if _, ok := ir.IntAttr(f + " : " + strings.TrimSpace(typ)); !ok {
			return false
		}
	}
	return true
}

// f32Scalar reports a float attribute of type f32: a decimal literal or
// its bits in hexadecimal, typed f32.
func f32Scalar(v string) bool {
	value, typ := typed(v)
	if typ != "f32" || value == "" {
		return false
	}
	if hex, ok := strings.CutPrefix(value, "0x"); ok {
		return len(hex) > 0 && len(hex) <= 8 && strings.Trim(strings.ToLower(hex), "0123456789abcdef") == ""
	}
	_, err := strconv.ParseFloat(value, 32)
	return err == nil && strings.ContainsAny(value, "0123456789")
}

// checkNorm reads the fused form's norm (raw as for check) into c, and
// checks the operands and results the handler takes: the operand, the
// residual of its type, a weight of one row's elements and, for a
// LayerNorm with a bias (a fourth operand), the bias as the weight; h and
// y of the operand's type.
func (c *Call) checkNorm(raw map[string]string, errAt func(string, ...any) error) error {
	kind := raw[keyNorm]
	if abi.NormKind(kind) < 0 {
		return errAt("backend_config: norm %q (arc fuses %v)", kind, abi.NormKinds)
	}
	rc := &norm.Recipe{Norm: kind, Mean: raw[keyMean], Weight: raw[keyWeight], Bias: len(c.Operands) == 4}
	ins, outs := Arity(rc)
	if len(c.Operands) != ins || len(c.ResultTypes) != outs || rc.Bias && !rc.Layer() {
		return errAt("the fused call of %s takes the operand, the residual, the weight (and a LayerNorm's bias) and returns h and y, not %d operands and %d results", kind, len(c.Operands), len(c.ResultTypes))
	}
	t := c.OperandTypes[0]
	row, err := strconv.ParseInt(raw[keyRow], 10, 64)
	if err != nil || row <= 0 || row > math.MaxInt32 || len(t.Shape) == 0 || t.Shape[len(t.Shape)-1] != row {
		return errAt("backend_config: row %q is not the last dimension of %s", raw[keyRow], t)
	}
	rc.Row = int(row)
	for _, f := range []struct {
		key string
		to  *float32
	}{{keyScale, &rc.Scale}, {keyEps, &rc.Eps}, {keyInit, &rc.Init}} {
		if _, ok := raw[f.key]; !ok && f.key == keyInit {
			continue // +0
		}
		if *f.to, err = parseF32(raw[f.key]); err != nil {
			return errAt("backend_config: %s %q is not an f32", f.key, raw[f.key])
		}
	}
	if err := rc.Check(); err != nil {
		return errAt("backend_config: %v", err)
	}
	if err := abi.CheckFused(c.Algo, row, ir.ElemBytes(t.Elem)); err != nil {
		return errAt("backend_config: %v", err)
	}
	wt := ir.TensorType{Elem: t.Elem, Shape: c.OperandTypes[2].Shape}
	for i, want := range []ir.TensorType{t, wt, wt}[:ins-1] {
		if got := c.OperandTypes[i+1]; got.String() != want.String() || i >= 1 && got.Elems() != row {
			return errAt("operand %d is %s: the fused call takes %s", i+1, got, []string{"the residual of the operand's type",
				fmt.Sprintf("a weight of %d elements of %s", row, t.Elem), "a bias of the weight's type"}[i])
		}
	}
	for i, r := range c.ResultTypes {
		if r.String() != t.String() {
			return errAt("result %d is %s, not the operand's %s", i, r, t)
		}
	}
	c.Norm, c.Fuse = rc, kind
	return nil
}

// parseF32 reads an f32 attribute as the handler takes it: its bits in
// hexadecimal (as Format writes it, exact) or a decimal literal.
func parseF32(s string) (float32, error) {
	if hex, ok := strings.CutPrefix(s, "0x"); ok {
		bits, err := strconv.ParseUint(hex, 16, 32)
		return math.Float32frombits(uint32(bits)), err
	}
	f, err := strconv.ParseFloat(s, 32)
	return float32(f), err
}

// check reads the target's backend_config entries (raw, unquoted and
// without their types) into c, as the handler would run them.
func (c *Call) check(raw map[string]string) error {
	var err error
	if c.World, err = strconv.Atoi(raw[keyWorld]); err != nil || c.World <= 0 {
		return fmt.Errorf("bad world %q", raw[keyWorld])
	}
	if c.Groups, err = ir.IntArray(raw[keyGroups]); err != nil || len(c.Groups)%c.World != 0 {
		return fmt.Errorf("bad groups %q", raw[keyGroups])
	}
	c.Algo, c.Codec, c.Link = raw[keyAlgo], raw[keyCodec], raw[keyLink]
	if err := abi.CheckKernel(c.Algo, c.Codec, c.World); err != nil {
		return err
	}
	if abi.Link(c.Link) < 0 {
		return fmt.Errorf("unknown link %q (want one of %v)", c.Link, abi.Links)
	}
	switch raw[keyCast] {
	case "0":
	case "1":
		c.CastBF16ToFP16 = true
	default:
		return fmt.Errorf("cast is %q, not 0 or 1", raw[keyCast])
	}
	if d, ok := raw[keyDevices]; ok {
		if c.Devices, err = ir.IntArray(d); err != nil || len(c.Devices) != len(c.Groups) {
			return fmt.Errorf("devices %q do not match groups %q", d, raw[keyGroups])
		}
	}
	return nil
}

// Split cuts ids, group-major, into the call's groups of World ids.
func (c *Call) Split(ids []int64) [][]int64 {
	var out [][]int64
	for i := 0; c.World > 0 && i+c.World <= len(ids); i += c.World {
		out = append(out, ids[i:i+c.World])
	}
	return out
}

// DeviceGroups are the call's groups as global device ids: Devices, or for
// a module of an older arc without them, Groups.
func (c *Call) DeviceGroups() [][]int64 {
	if len(c.Devices) > 0 {
		return c.Split(c.Devices)
	}
	return c.Split(c.Groups)
}
