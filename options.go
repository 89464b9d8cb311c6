package arc

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/arcpass/arc/abi"
	"github.com/arcpass/arc/lowering"
	"github.com/arcpass/arc/lowering/tpu"
	"github.com/arcpass/arc/passes"
	"github.com/arcpass/arc/passes/topology"
	"github.com/arcpass/arc/spec"
)

// Options configure one compilation. The zero value plus a Target is the
// configuration `arc compile --target T` runs with: every default is the
// zero value. Each field but PrintTo and LibtpuInitArgs is one of Settings.
type Options struct {
	Target   string // required: "none", "cuda:nvlink", "rocm:mi300x", "tpu:v6e-8", ...
	Quant    string // "" or "none" (default), or another of passes.Quants: "fp", "int8", ...
	Profile  string // a profile JSON file written by `arc tune`; "" uses the built-in one
	Topology string // a topology JSON file describing the machine; "" uses the target's
	// CastBF16ToFP16 sends bf16 through the fp codec as f16 scaled per
	// block, where the target offers it (ROCm, as QuickReduce does): its
	// sums round twice (docs/FORMATS.md), so it is off by default.
	CastBF16ToFP16 bool
	MinBytes       int64    // all-reduces smaller than this stay native (0: no bound)
	MaxBytes       int64    // all-reduces larger than this stay native (0: no bound)
	Force          []string // per-row overrides, "INDEX=LOWERING[:CODEC]" or "all=LOWERING[:CODEC]"
	// Fuse is "" or "true" (the default: the residual add and RMSNorm
	// after an all-reduce run in arc's kernel where it pays, exact but for
	// the order of the norm's sum), or "false", which keeps them apart.
	Fuse string
	// DeviceAssignment maps the module's replicas and partitions to PJRT
	// global device ids: "a,b;c,d" lists replica 0's partitions, then
	// replica 1's. "" assumes XLA's default assignment.
	DeviceAssignment string
	// DeviceCoords places each device on the machine's mesh: "ID=X,Y,Z;..."
	// (the PJRT devices' coords attribute, which the proxies pass). TPU rings
	// are then laid on the chips where they are; "" assumes the slice's
	// device ids are x-minor chip coordinates.
	DeviceCoords string
	// DeviceProcesses names the process that holds each device: "ID=P;..."
	// (the PJRT client's devices, which arc's plugin passes for a client
	// of several processes). A group whose ranks run in several processes
	// gets only a lowering the runtime runs across processes; "" knows of
	// one process.
	DeviceProcesses string
	// Strict makes Compile fail when it lowers nothing (every all-reduce
	// stays native, or the module has none) and when the module was
	// lowered before for another target.
	Strict bool
	// ProfileAnyTarget applies a Profile made for another target.
	ProfileAnyTarget bool

	// What the pipeline shows of its work (settings of the command line and
	// of key=value lists, not of the variables).
	PrintAfter []string // pass names (or "all") after which to print the module
	DumpDir    string   // write the module after every pass into this directory
	VerifyEach bool     // check the module after every pass, not only at the ends
	// Passes runs only these passes of the target's table, in its order,
	// on a module that carries what the others would write (their tests,
	// or a decided module lowered by hand).
	Passes []string

	// Not settings: where PrintAfter goes (default stderr), and the
	// user's LIBTPU_INIT_ARGS, libtpu's own variable, which TPU targets
	// extend (SetFromEnv reads it).
	PrintTo        io.Writer
	LibtpuInitArgs string
}

// Setting is one option as every source names it: `arc compile --NAME
// VALUE`, the ARC_* variable the PJRT proxies (in-process and standalone)
// read, and NAME=VALUE in a key=value list (the standalone plugin's
// requests, a program's arc_NAME compiler options). The table below is
// the one definition of all of them, and of how a value reaches the
// pipeline: the CLI registers its flags from it, the proxies call
// SetFromEnv and SetLines, and Compile hands each value on (prepare).
type Setting struct {
	Name  string // the flag, without "--"
	Env   string // the environment variable ("" for the command line and key=value lists only)
	Kind  Kind
	Value string // what the value is, for help: FILE.json, BYTES, ...
	Usage string
	// field points at the option's field in Options: a *string (String,
	// File), *bool, *int64 (Bytes) or *[]string (List).
	field func(o *Options) any
	// parse checks one value and spells it as arc does (nil: any text).
	parse func(v string) (string, error)
	// apply hands the option to the pipeline: the state, the pass table
	// (nil: Compile itself reads it).
	apply func(o *Options, st *passes.State, p *passes.Pipeline) error
}

// Kind is how a setting's text is read.
type Kind int

const (
	String Kind = iota
	Bool        // true/false, 1/0, yes/no, on/off
	Bytes       // a byte count with an optional K, M or G suffix
	List        // repeatable flag; each value, and a variable, may be a comma-separated list
	File        // a path: what is wrong in the file is bad input, not bad usage
)

// Settings lists every option, in the order Compile applies them (the
// target first: the others may depend on it).
var Settings = []Setting{
	{Name: "target", Env: "ARC_TARGET", Value: "TARGET",
		Usage: "target machine (the proxies also take auto: detected from the devices)",
		field: func(o *Options) any { return &o.Target },
		apply: applyTarget},
	{Name: "quant", Env: "ARC_QUANT", Value: "CODEC",
		Usage: "the one lossy codec arc may use: " + strings.Join(passes.Quants, ", ") + ", in any case (default none: exact); fp allows the fp codec where it rounds a partial sum (the hierarchical kernel's half sums), vLLM's FP",
		field: func(o *Options) any { return &o.Quant },
		parse: ParseQuant,
		apply: func(o *Options, st *passes.State, _ *passes.Pipeline) (err error) {
			if st.Options.Quant, err = ParseQuant(o.Quant); err != nil {
				return fmt.Errorf("--quant %v", err)
			}
			return nil
		}},
	{Name: "profile", Env: "ARC_PROFILE", Kind: File, Value: "FILE.json",
		Usage: "cost profile written by arc tune (default: the target's built-in one)",
		field: func(o *Options) any { return &o.Profile },
		apply: func(o *Options, st *passes.State, _ *passes.Pipeline) error {
			if o.Profile == "" {
				return nil
			}
			p, err := passes.LoadProfile(o.Profile)
			if err == nil {
				err = p.CheckTarget(st.Target.Name(), o.ProfileAnyTarget)
			}
			st.Options.Profile = p
			return err
		}},
	{Name: "topology", Env: "ARC_TOPOLOGY", Kind: File, Value: "FILE.json",
		Usage: "machine description: devices, links, coordinates, nodes",
		field: func(o *Options) any { return &o.Topology },
		apply: func(o *Options, st *passes.State, _ *passes.Pipeline) (err error) {
			if o.Topology != "" {
				st.Options.Topology, err = topology.Load(o.Topology)
			}
			return err
		}},
	{Name: "cast-bf16-to-fp16", Env: "ARC_CAST_BF16_TO_FP16", Kind: Bool, Value: "BOOL",
		Usage: "send bf16 through the fp codec as f16 scaled per block, as QuickReduce casts (ROCm; off by default: the sums then round twice)",
		field: func(o *Options) any { return &o.CastBF16ToFP16 },
		apply: pass(func(o *Options, po *passes.Options) { po.CastBF16ToFP16 = o.CastBF16ToFP16 })},
	{Name: "fuse", Env: "ARC_FUSE", Value: "BOOL",
		Usage: "run the residual add and RMSNorm after an all-reduce in arc's kernel where it pays (exact but for the order of the norm's sum; default true); false keeps them apart",
		field: func(o *Options) any { return &o.Fuse },
		parse: func(v string) (string, error) {
			b, err := ParseBool(v)
			return strconv.FormatBool(b), err
		},
		apply: func(o *Options, st *passes.State, _ *passes.Pipeline) error {
			if o.Fuse == "" {
				return nil
			}
			b, err := ParseBool(o.Fuse)
			if err != nil {
				return fmt.Errorf("--fuse %q: %v", o.Fuse, err)
			}
			st.Options.NoFuse = !b
			return nil
		}},
	{Name: "min-bytes", Env: "ARC_MIN_BYTES", Kind: Bytes, Value: "BYTES",
		Usage: "keep all-reduces smaller than this native (4096, 64K, 16M)",
		field: func(o *Options) any { return &o.MinBytes },
		apply: pass(func(o *Options, po *passes.Options) { po.MinBytes = o.MinBytes })},
	{Name: "max-bytes", Env: "ARC_MAX_BYTES", Kind: Bytes, Value: "BYTES",
		Usage: "keep all-reduces larger than this native (0: no bound)",
		field: func(o *Options) any { return &o.MaxBytes },
		apply: func(o *Options, st *passes.State, _ *passes.Pipeline) error {
			lo, hi := st.Options.MinBytes, o.MaxBytes
			if lo < 0 || hi < 0 || (hi > 0 && lo > hi) {
				return fmt.Errorf("--min-bytes %d and --max-bytes %d do not make a range", lo, hi)
			}
			st.Options.MaxBytes = hi
			return nil
		}},
	{Name: "force", Env: "ARC_FORCE", Kind: List, Value: "INDEX=LOWERING[:CODEC]",
		Usage: "override one collective (INDEX from arc inspect), or every all-reduce it applies to: all=LOWERING[:CODEC]",
		field: func(o *Options) any { return &o.Force },
		parse: func(v string) (string, error) { _, _, err := parseForce(v); return v, err },
		apply: func(o *Options, st *passes.State, _ *passes.Pipeline) error {
			st.Options.Force = map[int]passes.Force{}
			if len(o.Force) > 0 && st.Target.Lower() == nil {
				return fmt.Errorf("--force: target %s lowers nothing", st.Target.Name())
			}
			for _, f := range o.Force {
				i, force, err := parseForce(f)
				if err != nil {
					return fmt.Errorf("--force %q: %v", f, err)
				}
				st.Options.Force[i] = force
			}
			return nil
		}},
	{Name: "device-assignment", Env: "ARC_DEVICE_ASSIGNMENT", Value: "IDS",
		Usage: "PJRT global device id of each replica and partition: \"a,b;c,d\" (replicas separated by ';'; default: XLA's)",
		field: func(o *Options) any { return &o.DeviceAssignment },
		parse: func(v string) (string, error) { _, err := spec.ParseDeviceAssignment(v); return v, err },
		apply: func(o *Options, st *passes.State, _ *passes.Pipeline) (err error) {
			if o.DeviceAssignment == "" {
				return nil
			}
			if st.Options.DeviceAssignment, err = spec.ParseDeviceAssignment(o.DeviceAssignment); err != nil {
				return fmt.Errorf("--device-assignment %q: %v", o.DeviceAssignment, err)
			}
			return nil
		}},
	{Name: "device-coords", Env: "ARC_DEVICE_COORDS", Value: "ID=X,Y,Z;...",
		Usage: "where each device sits on the mesh (TPU: the devices' coords; default: ids are x-minor chip coordinates)",
		field: func(o *Options) any { return &o.DeviceCoords },
		parse: func(v string) (string, error) { _, err := parseDeviceCoords(v); return v, err },
		apply: func(o *Options, st *passes.State, _ *passes.Pipeline) (err error) {
			if o.DeviceCoords == "" {
				return nil
			}
			if st.Options.DeviceCoords, err = parseDeviceCoords(o.DeviceCoords); err != nil {
				return fmt.Errorf("--device-coords: %v", err)
			}
			return nil
		}},
	{Name: "device-processes", Env: "ARC_DEVICE_PROCESSES", Value: "ID=P;...",
		Usage: "the process that holds each device (arc's plugin passes its client's): groups across processes get only what the runtime runs across processes",
		field: func(o *Options) any { return &o.DeviceProcesses },
		parse: func(v string) (string, error) { _, err := parseDeviceProcesses(v); return v, err },
		apply: func(o *Options, st *passes.State, _ *passes.Pipeline) (err error) {
			if o.DeviceProcesses == "" {
				return nil
			}
			if st.Options.DeviceProcesses, err = parseDeviceProcesses(o.DeviceProcesses); err != nil {
				return fmt.Errorf("--device-processes: %v", err)
			}
			return nil
		}},
	{Name: "strict", Env: "ARC_STRICT", Kind: Bool, Value: "BOOL",
		Usage: "fail (exit 1) when nothing is lowered, a --quant codec is used by no all-reduce, or the module was lowered before for another target",
		field: func(o *Options) any { return &o.Strict }},
	{Name: "profile-any-target", Env: "ARC_PROFILE_ANY_TARGET", Kind: Bool, Value: "BOOL",
		Usage: "apply a --profile made for another target (refused by default)",
		field: func(o *Options) any { return &o.ProfileAnyTarget }},
	{Name: "print-after", Kind: List, Value: "PASS",
		Usage: "print the module to stderr after PASS (repeatable; all for every pass)",
		field: func(o *Options) any { return &o.PrintAfter },
		apply: show(func(o *Options, p *passes.Pipeline) { p.PrintAfter = o.PrintAfter })},
	{Name: "dump-dir", Value: "DIR",
		Usage: "write the module after every pass into DIR",
		field: func(o *Options) any { return &o.DumpDir },
		apply: show(func(o *Options, p *passes.Pipeline) { p.DumpDir = o.DumpDir })},
	{Name: "verify-each", Kind: Bool, Value: "BOOL",
		Usage: "check the module after every pass, not only at the ends",
		field: func(o *Options) any { return &o.VerifyEach },
		apply: show(func(o *Options, p *passes.Pipeline) { p.VerifyEach = o.VerifyEach })},
	{Name: "passes", Kind: List, Value: "LIST",
		Usage: "run only these passes of the target's table, on a module that carries what the others write",
		field: func(o *Options) any { return &o.Passes },
		apply: applyPasses},
}

// pass hands a value to the pipeline's options as it is.
func pass(set func(o *Options, po *passes.Options)) func(*Options, *passes.State, *passes.Pipeline) error {
	return func(o *Options, st *passes.State, _ *passes.Pipeline) error { set(o, &st.Options); return nil }
}

// show hands the pipeline what it shows of its work.
func show(set func(o *Options, p *passes.Pipeline)) func(*Options, *passes.State, *passes.Pipeline) error {
	return func(o *Options, _ *passes.State, p *passes.Pipeline) error { set(o, p); return nil }
}

// applyTarget resolves the target and lays out its pipeline.
func applyTarget(o *Options, st *passes.State, p *passes.Pipeline) error {
	if o.Target == "" {
		return fmt.Errorf("--target is required (targets: %s)", strings.Join(Targets(), ", "))
	}
	t, err := lowering.Lookup(o.Target)
	if err != nil {
		return err
	}
	st.Target = t
	p.Passes = passes.Passes(t)
	if o.LibtpuInitArgs != "" {
		st.Options.Env = map[string]string{tpu.InitArgsVar: o.LibtpuInitArgs}
	}
	return nil
}

// applyPasses keeps the passes --passes names, in the table's order.
func applyPasses(o *Options, st *passes.State, p *passes.Pipeline) error {
	if len(o.Passes) == 0 {
		return nil
	}
	for _, name := range o.Passes {
		if !slices.Contains(p.Names(), name) {
			return fmt.Errorf("target %s: --passes %s: no such pass (passes: %s)", st.Target.Name(), name, strings.Join(p.Names(), ", "))
		}
	}
	p.Passes = slices.DeleteFunc(p.Passes, func(ps passes.Pass) bool { return !slices.Contains(o.Passes, ps.Name()) })
	p.Partial = true
	return nil
}

// ParseQuant reads a codec word as --quant and ARC_QUANT take it: arc's
// names in any case, and the words of vLLM's
// VLLM_ROCM_QUICK_REDUCE_QUANTIZATION (NONE, FP, INT8, INT6, INT4), whose
// FP, QuickReduce unquantized, is arc's fp. "" is none.
func ParseQuant(s string) (string, error) {
	q := strings.ToLower(strings.TrimSpace(s))
	if q == "" {
		return "none", nil
	}
	if slices.Contains(passes.Quants, q) {
		return q, nil
	}
	return "", fmt.Errorf("%q is not a codec (want %s; any case)", s, strings.Join(passes.Quants, ", "))
}

// parseForce reads "3=twoshot:int8" or "all=twoshot:int8" (index
// passes.ForceAll).
func parseForce(s string) (int, passes.Force, error) {
	idx, rest, ok := strings.Cut(s, "=")
	i, err := strconv.Atoi(idx)
	if idx == "all" {
		i, err = passes.ForceAll, nil
	}
	if !ok || err != nil || (i < 0 && i != passes.ForceAll) || (i == passes.ForceAll && idx != "all") {
		return 0, passes.Force{}, errors.New("want INDEX=LOWERING[:CODEC] or all=LOWERING[:CODEC]")
	}
	low, codec, _ := strings.Cut(rest, ":")
	codec = strings.ToLower(strings.TrimSpace(codec)) // codec words in any case, as --quant reads them
	if !slices.Contains(passes.Lowerings, low) {
		return 0, passes.Force{}, fmt.Errorf("unknown lowering %q (%s)", low, strings.Join(passes.Lowerings, ", "))
	}
	codecs := abi.Codecs[1:] // "none" is no codec one can ask for
	if codec != "" && !slices.Contains(codecs, codec) {
		return 0, passes.Force{}, fmt.Errorf("unknown codec %q (%s)", codec, strings.Join(codecs, ", "))
	}
	return i, passes.Force{Lowering: low, Codec: codec}, nil
}

// parseDeviceProcesses reads "ID=P;ID=P": the process of each device.
func parseDeviceProcesses(s string) (map[int64]int, error) {
	out := map[int64]int{}
	for _, entry := range strings.Split(s, ";") {
		if entry = strings.TrimSpace(entry); entry == "" {
			continue
		}
		id, p, ok := strings.Cut(entry, "=")
		n, err := strconv.ParseInt(strings.TrimSpace(id), 10, 64)
		proc, perr := strconv.Atoi(strings.TrimSpace(p))
		if !ok || err != nil || perr != nil || n < 0 || proc < 0 {
			return nil, fmt.Errorf("%q: want ID=PROCESS, both non-negative integers", entry)
		}
		if _, dup := out[n]; dup {
			return nil, fmt.Errorf("device %d is placed twice", n)
		}
		out[n] = proc
	}
	return out, nil
}

// parseDeviceCoords reads "ID=X,Y,Z;ID=X,Y,Z": each device's coordinates.
func parseDeviceCoords(s string) (map[int64][]int, error) {
	out := map[int64][]int{}
	for _, entry := range strings.Split(s, ";") {
		if entry = strings.TrimSpace(entry); entry == "" {
			continue
		}
		id, cs, ok := strings.Cut(entry, "=")
		n, err := strconv.ParseInt(strings.TrimSpace(id), 10, 64)
		if !ok || err != nil || n < 0 {
			return nil, fmt.Errorf("%q: want ID=X,Y,Z", entry)
		}
		if _, dup := out[n]; dup {
			return nil, fmt.Errorf("device %d is placed twice", n)
		}
		var c []int
		for _, f := range strings.Split(cs, ",") {
			v, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || v < 0 || v > 1<<16 {
				return nil, fmt.Errorf("%q: coordinates are small non-negative integers", entry)
			}
			c = append(c, v)
		}
		out[n] = c
	}
	return out, nil
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

// Set applies one value to o as the setting reads it: a List setting adds
// each entry of a comma-separated value.
func (s Setting) Set(o *Options, value string) error {
	switch p := s.field(o).(type) {
	case *bool:
		b, err := ParseBool(value)
		if err == nil {
			*p = b
		}
		return err
	case *int64:
		n, err := ParseSize(value)
		if err == nil {
			*p = n
		}
		return err
	case *[]string:
		for _, one := range strings.Split(value, ",") {
			if one = strings.TrimSpace(one); one == "" {
				continue
			}
			v, err := s.check(one)
			if err != nil {
				return err
			}
			*p = append(*p, v)
		}
		return nil
	case *string:
		v, err := s.check(value)
		if err == nil {
			*p = v
		}
		return err
	}
	panic("arc: setting " + s.Name + " has no field")
}

func (s Setting) check(v string) (string, error) {
	if s.parse == nil {
		return v, nil
	}
	return s.parse(v)
}

// Get prints o's value of the setting as Set reads it.
func (s Setting) Get(o *Options) string {
	switch p := s.field(o).(type) {
	case *bool:
		return strconv.FormatBool(*p)
	case *int64:
		return strconv.FormatInt(*p, 10)
	case *[]string:
		return strings.Join(*p, ",")
	case *string:
		return *p
	}
	panic("arc: setting " + s.Name + " has no field")
}

// SetFromEnv applies the ARC_* variables that lookup finds (os.LookupEnv
// when nil), and LIBTPU_INIT_ARGS; an empty variable is unset. Errors name
// the variable.
func (o *Options) SetFromEnv(lookup func(string) (string, bool)) error {
	if lookup == nil {
		lookup = os.LookupEnv
	}
	for _, s := range Settings {
		v, ok := lookup(s.Env)
		if s.Env == "" || !ok || strings.TrimSpace(v) == "" {
			continue
		}
		if err := s.Set(o, strings.TrimSpace(v)); err != nil {
			return fmt.Errorf("%s=%q: %v", s.Env, v, err)
		}
	}
	if v, ok := lookup(tpu.InitArgsVar); ok {
		o.LibtpuInitArgs = v
	}
	return nil
}

// SetLines applies a key=value list, one NAME=VALUE a line (empty lines
// skipped), NAME as the flag: the standalone plugin's requests, a
// program's arc_NAME compiler options. A List setting the lines name
// replaces what o had, then adds each of their entries. Errors name the
// line's setting as what(NAME) spells it (a compiler option: arc_NAME).
func (o *Options) SetLines(lines string, what func(name string) string) error {
	named := map[string]bool{}
	for _, line := range strings.Split(lines, "\n") {
		if line == "" {
			continue
		}
		name, value, ok := strings.Cut(line, "=")
		s, known := Lookup(name)
		switch {
		case !ok:
			return fmt.Errorf("%s: no value (want NAME=VALUE)", what(name))
		case !known:
			return fmt.Errorf("%s: arc has no setting %s", what(name), name)
		}
		if list, isList := s.field(o).(*[]string); isList && !named[name] {
			*list = nil
		}
		named[name] = true
		if err := s.Set(o, value); err != nil {
			return fmt.Errorf("%s: %w", what(name), err)
		}
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
	for _, s := range Settings {
		switch p, q := s.field(o), s.field(&from); p := p.(type) {
		case *bool:
			*p = *p || *q.(*bool)
		case *int64:
			if v := *q.(*int64); v != 0 {
				*p = v
			}
		case *[]string:
			*p = append(*p, *q.(*[]string)...)
		case *string:
			if v := *q.(*string); v != "" {
				*p = v
			}
		}
	}
	if from.LibtpuInitArgs != "" {
		o.LibtpuInitArgs = from.LibtpuInitArgs
	}
}
