package arc

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/arcpass/arc/abi"
	"github.com/arcpass/arc/internal/size"
)

// quantNames are the quantized codecs --quant takes besides none.
var quantNames = abi.Quantized

// Options configure one compilation. The zero value plus a Target is the
// configuration `arc compile --target T` runs with: every default is the
// zero value.
type Options struct {
	Target   string   // required: "none", "cuda:nvlink", "rocm:mi300x", "tpu:v6e-8", ...
	Quant    string   // "" or "none" (default), "fp8", "int8", "int6", "int4", "int4r"
	Profile  string   // a profile JSON file written by `arc tune`; "" uses the built-in one
	Topology string   // a topology JSON file describing the machine; "" uses the target's
	KeepBF16 bool     // send bf16 as bf16; by default it travels as fp16 where the codec works in fp16 (ROCm)
	MinBytes int64    // all-reduces smaller than this stay native (0: no bound)
	MaxBytes int64    // all-reduces larger than this stay native (0: no bound)
	Force    []string // per-row overrides, "INDEX=LOWERING[:CODEC]" or "all=LOWERING[:CODEC]"
	// DeviceAssignment maps the module's replicas and partitions to PJRT
	// global device ids: "a,b;c,d" lists replica 0's partitions, then
	// replica 1's. "" assumes XLA's default assignment.
	DeviceAssignment string
	// DeviceCoords places each device on the machine's mesh: "ID=X,Y,Z;..."
	// (the PJRT devices' coords attribute, which the proxies pass). TPU rings
	// are then laid on the chips where they are; "" assumes the slice's
	// device ids are x-minor chip coordinates.
	DeviceCoords string
	// LibtpuInitArgs is the user's LIBTPU_INIT_ARGS, which TPU targets extend.
	LibtpuInitArgs string
	// Strict makes Compile fail when it lowers nothing (every all-reduce
	// stays native, or the module has none) and when the module was
	// lowered before for another target.
	Strict bool
	// ProfileAnyTarget applies a Profile made for another target.
	ProfileAnyTarget bool

	// What the pipeline shows of its work (the CLI's, not the variables').
	PrintAfter []string  // pass names (or "all") after which to print the module
	PrintTo    io.Writer // where PrintAfter goes (default stderr)
	DumpDir    string    // write the module after every pass into this directory
	VerifyEach bool      // check the module after every pass, not only at the ends
	// Passes runs only these passes of the target's table, in its order,
	// on a module that carries what the others would write (their tests,
	// or a decided module lowered by hand).
	Passes []string
}

// Setting is one option as the command line and the environment name it:
// `arc compile --NAME VALUE`, and the ARC_* variable that the PJRT proxies
// (in-process and standalone) read. The table below is the one definition
// of both; the CLI registers its flags from it and the proxies call
// SetFromEnv.
type Setting struct {
	Name  string // the flag, without "--"
	Env   string // the environment variable ("" when the option has none)
	Kind  Kind
	Value string // what the value is, for help: FILE.json, BYTES, ...
	Usage string
	set   func(o *Options, v string) error
	get   func(o *Options) string
}

// Kind is how a setting's text is read.
type Kind int

const (
	String Kind = iota
	Bool        // true/false, 1/0, yes/no, on/off
	Bytes       // a byte count with an optional K, M or G suffix
	List        // repeatable flag; comma-separated in a variable
)

// Settings lists every option the command line and the variables share.
var Settings = []Setting{
	{Name: "target", Env: "ARC_TARGET", Value: "TARGET",
		Usage: "target machine (the proxies also take auto: detected from the devices)",
		set:   func(o *Options, v string) error { o.Target = v; return nil },
		get:   func(o *Options) string { return o.Target }},
	{Name: "quant", Env: "ARC_QUANT", Value: "CODEC",
		Usage: "quantized codec arc may use: none, fp8, int8, int6, int4, int4r, in any case; vLLM's FP is none (default none: exact)",
		set:   func(o *Options, v string) (err error) { o.Quant, err = ParseQuant(v); return err },
		get:   func(o *Options) string { return o.Quant }},
	{Name: "profile", Env: "ARC_PROFILE", Value: "FILE.json",
		Usage: "cost profile written by arc tune (default: the target's built-in one)",
		set:   func(o *Options, v string) error { o.Profile = v; return nil },
		get:   func(o *Options) string { return o.Profile }},
	{Name: "topology", Env: "ARC_TOPOLOGY", Value: "FILE.json",
		Usage: "machine description: devices, links, coordinates, nodes",
		set:   func(o *Options, v string) error { o.Topology = v; return nil },
		get:   func(o *Options) string { return o.Topology }},
	{Name: "cast-bf16-to-fp16", Env: "ARC_CAST_BF16_TO_FP16", Kind: Bool, Value: "BOOL",
		Usage: "send bf16 as fp16 where the codec works in fp16, as QuickReduce does (ROCm); =false keeps bf16",
		set: func(o *Options, v string) error {
			b, err := ParseBool(v)
			o.KeepBF16 = !b
			return err
		},
		get: func(o *Options) string { return strconv.FormatBool(!o.KeepBF16) }},
	{Name: "min-bytes", Env: "ARC_MIN_BYTES", Kind: Bytes, Value: "BYTES",
		Usage: "keep all-reduces smaller than this native (4096, 64K, 16M)",
		set:   func(o *Options, v string) (err error) { o.MinBytes, err = size.Parse(v); return err },
		get:   func(o *Options) string { return strconv.FormatInt(o.MinBytes, 10) }},
	{Name: "max-bytes", Env: "ARC_MAX_BYTES", Kind: Bytes, Value: "BYTES",
		Usage: "keep all-reduces larger than this native (0: no bound)",
		set:   func(o *Options, v string) (err error) { o.MaxBytes, err = size.Parse(v); return err },
		get:   func(o *Options) string { return strconv.FormatInt(o.MaxBytes, 10) }},
	{Name: "force", Env: "ARC_FORCE", Kind: List, Value: "INDEX=LOWERING[:CODEC]",
		Usage: "override one collective (INDEX from arc inspect), or every all-reduce it applies to: all=LOWERING[:CODEC]",
		set:   func(o *Options, v string) error { o.Force = append(o.Force, v); return nil },
		get:   func(o *Options) string { return strings.Join(o.Force, ",") }},
	{Name: "device-assignment", Env: "ARC_DEVICE_ASSIGNMENT", Value: "IDS",
		Usage: "PJRT global device id of each replica and partition: \"a,b;c,d\" (replicas separated by ';'; default: XLA's)",
		set:   func(o *Options, v string) error { o.DeviceAssignment = v; return nil },
		get:   func(o *Options) string { return o.DeviceAssignment }},
	{Name: "device-coords", Env: "ARC_DEVICE_COORDS", Value: "ID=X,Y,Z;...",
		Usage: "where each device sits on the mesh (TPU: the devices' coords; default: ids are x-minor chip coordinates)",
		set:   func(o *Options, v string) error { o.DeviceCoords = v; return nil },
		get:   func(o *Options) string { return o.DeviceCoords }},
	{Name: "strict", Env: "ARC_STRICT", Kind: Bool, Value: "BOOL",
		Usage: "fail (exit 1) when nothing is lowered, or the module was lowered before for another target",
		set:   func(o *Options, v string) (err error) { o.Strict, err = ParseBool(v); return err },
		get:   func(o *Options) string { return strconv.FormatBool(o.Strict) }},
	{Name: "profile-any-target", Env: "ARC_PROFILE_ANY_TARGET", Kind: Bool, Value: "BOOL",
		Usage: "apply a --profile made for another target (refused by default)",
		set:   func(o *Options, v string) (err error) { o.ProfileAnyTarget, err = ParseBool(v); return err },
		get:   func(o *Options) string { return strconv.FormatBool(o.ProfileAnyTarget) }},
}

// ParseQuant reads a codec word as --quant and ARC_QUANT take it: arc's
// names in any case, and the words of vLLM's
// VLLM_ROCM_QUICK_REDUCE_QUANTIZATION (NONE, FP, INT8, INT6, INT4), where
// FP, QuickReduce unquantized, is arc's exact default: none. "" is none.
func ParseQuant(s string) (string, error) {
	q := strings.ToLower(strings.TrimSpace(s))
	switch q {
	case "", "fp", "none":
		return "none", nil
	}
	for _, c := range quantNames {
		if q == c {
			return q, nil
		}
	}
	return "", fmt.Errorf("%q is not a codec (want none, %s; any case; FP means none)", s, strings.Join(quantNames, ", "))
}

// Lookup returns the setting named name.
func Lookup(name string) (Setting, bool) {
	for _, s := range Settings {
		if s.Name == name {
			return s, true
		}
	}
	return Setting{}, false
}

// Set applies one value to o as the setting reads it (a List setting adds).
func (s Setting) Set(o *Options, value string) error { return s.set(o, value) }

// Get prints o's value of the setting as Set reads it.
func (s Setting) Get(o *Options) string { return s.get(o) }

// SetFromEnv applies the ARC_* variables that lookup finds (os.LookupEnv
// when nil); an empty variable is unset. A List variable holds a
// comma-separated list. Errors name the variable.
func (o *Options) SetFromEnv(lookup func(string) (string, bool)) error {
	if lookup == nil {
		lookup = os.LookupEnv
	}
	for _, s := range Settings {
		v, ok := lookup(s.Env)
		if s.Env == "" || !ok || strings.TrimSpace(v) == "" {
			continue
		}
		values := []string{v}
		if s.Kind == List {
			values = strings.Split(v, ",")
		}
		for _, one := range values {
			if err := s.set(o, strings.TrimSpace(one)); err != nil {
				return fmt.Errorf("%s=%q: %v", s.Env, v, err)
			}
		}
	}
	if v, ok := lookup("LIBTPU_INIT_ARGS"); ok {
		o.LibtpuInitArgs = v
	}
	return nil
}

// ParseBool reads the boolean spellings of flags and variables: true/false,
// 1/0, yes/no, on/off, in any case.
func ParseBool(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "1", "yes", "on":
		return true, nil
	case "false", "0", "no", "off":
		return false, nil
	}
	return false, fmt.Errorf("%q is not a boolean (want true or false)", s)
}

// Merge sets on o every option from sets to a value other than the
// default, as flags given after the environment do (a List adds).
func (o *Options) Merge(from Options) {
	var zero Options
	for _, s := range Settings {
		v := s.get(&from)
		if v == s.get(&zero) {
			continue
		}
		values := []string{v}
		if s.Kind == List {
			values = from.listOf(s)
		}
		for _, one := range values {
			s.set(o, one) // a value get printed: set reads it back
		}
	}
	if from.LibtpuInitArgs != "" {
		o.LibtpuInitArgs = from.LibtpuInitArgs
	}
}

// listOf is the entries of a List setting.
func (o *Options) listOf(s Setting) []string {
	if s.Name == "force" {
		return o.Force
	}
	return strings.Split(s.get(o), ",")
}
