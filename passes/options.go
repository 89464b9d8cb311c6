package passes

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/arcpass/arc/abi"
	"github.com/arcpass/arc/passes/topology"
	"github.com/arcpass/arc/spec"
)

// Options are the user's choices that shape selection.
type Options struct {
	// Quant is the one quantized codec arc may use: none (default: results
	// are exact apart from the order of the additions), fp8, int8, int6,
	// int4 or int4r.
	Quant string
	// KeepBF16 sends bf16 data as bf16; by default it travels as fp16 where
	// the kernel's codec works in fp16 (ROCm's QuickReduce path), as
	// QuickReduce does.
	KeepBF16 bool
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
	// LibtpuInitArgs is the user's LIBTPU_INIT_ARGS, which TPU lowerings extend.
	LibtpuInitArgs string
	// DeviceAssignment maps the module's processes to global device ids
	// (nil: XLA's default).
	DeviceAssignment spec.DeviceAssignment
	// DeviceCoords places devices on the machine's mesh (nil: the target's
	// own numbering).
	DeviceCoords map[int64][]int
}

// ParseDeviceCoords reads "ID=X,Y,Z;ID=X,Y,Z": each device's coordinates.
func ParseDeviceCoords(s string) (map[int64][]int, error) {
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

// Quants lists the values --quant accepts.
var Quants = append([]string{"none"}, abi.Quantized...)

// Lowerings are the words reports and --force name lowerings with.
var Lowerings = []string{"native", "oneshot", "twoshot", "quickreduce", "lowprec", "ring"}

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

// ParseForce reads "3=twoshot:int8" or "all=twoshot:int8" (index ForceAll).
func ParseForce(s string) (int, Force, error) {
	idx, rest, ok := strings.Cut(s, "=")
	i, err := strconv.Atoi(idx)
	if idx == "all" {
		i, err = ForceAll, nil
	}
	if !ok || err != nil || (i < 0 && i != ForceAll) || (i == ForceAll && idx != "all") {
		return 0, Force{}, fmt.Errorf("--force %q: want INDEX=LOWERING[:CODEC] or all=LOWERING[:CODEC]", s)
	}
	low, codec, _ := strings.Cut(rest, ":")
	if !slices.Contains(Lowerings, low) {
		return 0, Force{}, fmt.Errorf("--force %q: unknown lowering %q (%s)", s, low, strings.Join(Lowerings, ", "))
	}
	codecs := abi.Codecs[1:] // "none" is no codec one can ask for
	if codec != "" && !slices.Contains(codecs, codec) {
		return 0, Force{}, fmt.Errorf("--force %q: unknown codec %q (%s)", s, codec, strings.Join(codecs, ", "))
	}
	return i, Force{low, codec}, nil
}

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
	return Native(""), errors.New(msg)
}
