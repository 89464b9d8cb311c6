//go:build cgo

package xlarun

import (
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/gomlx/go-xla/pkg/pjrt"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/arcpass/arc/bench"
)

// XLA reads XLA_FLAGS once per process, when the plugin first parses its
// flags, so one process cannot hold two clients with different XLA_FLAGS.
// A program's compile options can carry the same debug options for that
// program alone: CompileOptionsProto.env_option_overrides, which the PJRT
// plugin applies on top of XLA_FLAGS and XLA's defaults before it compiles
// (CompileOptions::ApplyAllOptionOverrides), and which JAX fills from
// jax.jit(f).lower(...).compile(compiler_options={...}). That is what a
// native lowering with XLA's switches compiles with, in the same client and
// run as everything else.
//
// go-xla v0.1.4's CompileConfig builds the proto but has no setter for that
// field, so withXLAFlags reaches its unexported options through reflection
// and sets the map with protobuf's reflection API (the message types are
// internal to go-xla). TestXLAFlagsReachTheCompileOptions pins this to the
// go-xla version in go.mod.

// withXLAFlags sets flags as env_option_overrides of cc's compile options.
func withXLAFlags(cc *pjrt.CompileConfig, flags []bench.XLAFlag) error {
	if len(flags) == 0 {
		return nil
	}
	m, err := compileOptions(cc)
	if err != nil {
		return err
	}
	fd := m.Descriptor().Fields().ByName("env_option_overrides")
	if fd == nil || !fd.IsMap() || fd.MapValue().Message() == nil {
		return fmt.Errorf("go-xla's compile options have no env_option_overrides map: cannot set XLA flags per program")
	}
	overrides := m.Mutable(fd).Map()
	for _, f := range flags {
		v := overrides.NewValue()
		if err := setOverride(v.Message(), f.Value); err != nil {
			return fmt.Errorf("XLA flag %s: %w", f, err)
		}
		overrides.Set(protoreflect.ValueOfString(f.Name).MapKey(), v)
	}
	return nil
}

// compileOptions is cc's CompileOptionsProto.
func compileOptions(cc *pjrt.CompileConfig) (protoreflect.Message, error) {
	field := reflect.ValueOf(cc).Elem().FieldByName("options")
	if !field.IsValid() || field.Kind() != reflect.Pointer {
		return nil, fmt.Errorf("go-xla's CompileConfig has no options field: cannot set XLA flags per program")
	}
	field = reflect.NewAt(field.Type(), unsafe.Pointer(field.UnsafeAddr())).Elem()
	msg, ok := field.Interface().(proto.Message)
	if !ok || field.IsNil() {
		return nil, fmt.Errorf("go-xla's CompileConfig options are not a protobuf message: cannot set XLA flags per program")
	}
	return msg.ProtoReflect(), nil
}

// setOverride fills an OptionOverrideProto (a oneof of string_field,
// bool_field, int_field and double_field) from a flag's value as XLA_FLAGS
// spells it.
func setOverride(m protoreflect.Message, value string) error {
	fields := m.Descriptor().Fields()
	set := func(name string, v protoreflect.Value) error {
		fd := fields.ByName(protoreflect.Name(name))
		if fd == nil {
			return fmt.Errorf("go-xla's OptionOverrideProto has no %s", name)
		}
		m.Set(fd, v)
		return nil
	}
	if b, err := strconv.ParseBool(value); err == nil && (value == "true" || value == "false") {
		return set("bool_field", protoreflect.ValueOfBool(b))
	}
	if n, err := strconv.ParseInt(value, 10, 64); err == nil {
		return set("int_field", protoreflect.ValueOfInt64(n))
	}
	if x, err := strconv.ParseFloat(value, 64); err == nil {
		return set("double_field", protoreflect.ValueOfFloat64(x))
	}
	return set("string_field", protoreflect.ValueOfString(value))
}

// overridesOf reads back the env_option_overrides of cc's compile options,
// as the plugin will receive them (for tests).
func overridesOf(cc *pjrt.CompileConfig) (map[string]string, error) {
	m, err := compileOptions(cc)
	if err != nil {
		return nil, err
	}
	wire, err := proto.Marshal(m.Interface())
	if err != nil {
		return nil, err
	}
	back := m.New()
	if err := proto.Unmarshal(wire, back.Interface()); err != nil {
		return nil, err
	}
	out := map[string]string{}
	fd := back.Descriptor().Fields().ByName("env_option_overrides")
	back.Get(fd).Map().Range(func(k protoreflect.MapKey, v protoreflect.Value) bool {
		o := v.Message()
		o.Range(func(f protoreflect.FieldDescriptor, x protoreflect.Value) bool {
			out[k.String()] = fmt.Sprintf("%s=%v", f.Name(), x.Interface())
			return true
		})
		return true
	})
	return out, nil
}

// SwitchCheck is what became of one native lowering's XLA flags in the plugin.
type SwitchCheck struct {
	Lowering   bench.Lowering
	World      int
	Flags      []bench.XLAFlag
	CompileErr error // the plugin refused the flags, or failed to compile with them
	RunErr     error // the program compiled but failed when run
	RunUS      float64
}

// CheckSwitches compiles and runs a small chain of all-reduces (64 KiB of
// bf16, two steps) with each native lowering's XLA flags on the GPUs of
// opt, one rank per GPU (one GPU is enough to see whether the plugin
// accepts a flag), and says what happened to each.
func CheckSwitches(opt XLAOptions, lows []bench.Lowering) ([]SwitchCheck, error) {
	client, devices, err := OpenClient(opt)
	if err != nil {
		return nil, err
	}
	world := devices
	if opt.GPUs > 0 {
		world = min(opt.GPUs, devices)
	}
	x := &XLA{lower: opt.Lower, client: client, world: world}
	defer x.Close()
	opened, err := x.Open("bf16", 64<<10)
	if err != nil {
		return nil, err
	}
	defer opened.Close()
	cell := opened.(*xlaCell)
	var out []SwitchCheck
	for _, l := range append(slices.Clone(lows), noSuchFlag) {
		c := SwitchCheck{Lowering: l, World: world, Flags: l.XLAFlags()}
		var p bench.Program
		if l == noSuchFlag {
			c.Flags = []bench.XLAFlag{{Name: "xla_arc_no_such_option", Value: "true"}}
			p, err = cell.compile(bench.ProgramText("bf16", cell.elems, world, 2, true), c.Flags)
		} else {
			p, _, err = cell.Chain(l, 2)
		}
		if err != nil {
			c.CompileErr = err
		} else {
			d, err := p.Run()
			c.RunErr, c.RunUS = err, float64(d.Nanoseconds())/1e3
			p.Close()
		}
		out = append(out, c)
	}
	return out, nil
}

// noSuchFlag stands for the control CheckSwitches ends with: a flag XLA has
// not, which the plugin must refuse ("No such compile option"), or the
// others' acceptance would say nothing.
const noSuchFlag bench.Lowering = "(control)"

// WriteSwitchChecks prints CheckSwitches' findings, one line per lowering.
func WriteSwitchChecks(w io.Writer, checks []SwitchCheck) {
	for _, c := range checks {
		verdict := fmt.Sprintf("accepted: compiled and ran (%.0f us, world %d)", c.RunUS, c.World)
		switch {
		case c.Lowering == noSuchFlag && c.CompileErr != nil:
			verdict = "refused, as it must be (the flags reach XLA): " + oneLine(c.CompileErr)
		case c.Lowering == noSuchFlag:
			verdict = "ACCEPTED: the plugin takes any flag, so the lines above prove nothing"
		case c.CompileErr != nil:
			verdict = "refused at compile: " + oneLine(c.CompileErr)
		case c.RunErr != nil:
			verdict = "compiled, failed to run: " + oneLine(c.RunErr)
		}
		flags := make([]string, len(c.Flags))
		for i, f := range c.Flags {
			flags[i] = f.String()
		}
		fmt.Fprintf(w, "%-16s %s\n  flags: %s\n", c.Lowering, verdict, strings.Join(flags, " "))
	}
}

func oneLine(err error) string {
	s := strings.Join(strings.Fields(err.Error()), " ")
	if len(s) > 400 {
		s = s[:400] + "..."
	}
	return s
}
