package passes

import (
	"fmt"
	"strconv"

	"github.com/arcpass/arc/abi"
	"github.com/arcpass/arc/passes/topology"
	"github.com/arcpass/arc/spec"
)

// Options are the user's choices that shape selection.
type Options struct {
	// Quant is the one lossy codec arc may use, one of Quants: none
	// (default: results are exact apart from the order of the additions),
	// fp (the fp codec also where it rounds a partial sum to the I/O type)
	// or a lossy codec of abi's table.
	Quant string
	// CastBF16ToFP16 sends bf16 through the fp codec as f16 scaled per
	// block where the target offers it: --cast-bf16-to-fp16.
	CastBF16ToFP16 bool
	// MinBytes and MaxBytes keep all-reduces outside [MinBytes, MaxBytes]
	// native (0: no bound).
	MinBytes, MaxBytes int64
	// Force maps a row index to the lowering it must get; ForceAll's entry
	// applies to every all-reduce row without an entry of its own.
	Force map[int]Force
	// Profile replaces the target's built-in cost model.
	Profile *Profile
	// Topology, from --topology, describes the machine; nil means the
	// target's own (every device of a node reaches every other).
	Topology *topology.Topology
	// Env holds the user's values of the environment variables a target's
	// lowering extends (its package names them), by variable.
	Env map[string]string
	// DeviceAssignment maps the module's processes to global device ids
	// (nil: XLA's default).
	DeviceAssignment spec.DeviceAssignment
	// DeviceCoords places devices on the machine's mesh (nil: the target's
	// own numbering).
	DeviceCoords map[int64][]int
	// DeviceProcesses is the process that holds each device, for a client
	// of several processes (nil: one process holds them all).
	DeviceProcesses map[int64]int
	// NoFuse keeps the work after an all-reduce out of arc's kernels
	// (--fuse=false; FusePass).
	NoFuse bool
}

// Quants lists the values --quant accepts.
var Quants = append([]string{"none", "fp"}, abi.Quantized...)

// Lowerings are the words reports and --force name lowerings with (abi's
// table).
var Lowerings = abi.LoweringNames()

// Force is a per-row override: --force INDEX=LOWERING[:CODEC].
type Force struct{ Lowering, Codec string }

func (f Force) String() string {
	if f.Codec == "" {
		return f.Lowering
	}
	return f.Lowering + ":" + f.Codec
}

// ForceAll is the index of --force all=LOWERING[:CODEC]: every all-reduce
// gets that lowering where it applies, and keeps native, with the reason,
// where it does not (a max reduction, a world the kernel lacks). An INDEX
// entry wins over it for its row.
const ForceAll = -1

// Forced is a --force entry as it applies to one row.
type Forced struct {
	Force
	On  bool // the row is forced
	All bool // by all=, which keeps the row native where the lowering cannot apply
	Row int
}

// ForceOf returns the --force entry that applies to a row: its own INDEX
// entry, else all=.
func (o Options) ForceOf(row int) Forced {
	if f, ok := o.Force[row]; ok {
		return Forced{Force: f, On: true, Row: row}
	}
	if f, ok := o.Force[ForceAll]; ok {
		return Forced{Force: f, On: true, All: true, Row: row}
	}
	return Forced{Row: row}
}

// Allows reports a codec this compile allows arc's kernels to send: one
// that is not lossy always (none and fp change nothing beyond the order of
// the additions, but for the cast, which has a flag of its own), a lossy
// one only when --quant names it or a --force entry asks for it, by name
// or by a lowering that implies it (abi.LoweringInfo.Codec).
func (o Options) Allows(codec string) bool {
	if c, ok := abi.CodecOf(codec); ok && !c.Lossy || codec == o.Quant {
		return true
	}
	for _, f := range o.Force {
		if l, _ := abi.LoweringOf(f.Lowering); f.Codec == codec || f.Codec == "" && l.Codec != "" && l.Codec == codec {
			return true
		}
	}
	return false
}

// OptionError is an option that does not fit the module: a --force row it
// lacks, or a lowering the row cannot take. The usage is wrong, not the
// input, and the message names the option, not the pass that found it.
type OptionError struct{ Msg string }

func (e *OptionError) Error() string { return e.Msg }

// Cannot reports a forced lowering that does not apply to its row: an error
// for an INDEX entry, native with the reason for all=.
func (f Forced) Cannot(format string, args ...any) (Decision, error) {
	who := strconv.Itoa(f.Row)
	if f.All {
		who = "all"
	}
	msg := fmt.Sprintf("--force %s=%s: ", who, f.Force) + fmt.Sprintf(format, args...)
	if f.All {
		return Native(msg), nil
	}
	return Native(""), &OptionError{msg}
}
