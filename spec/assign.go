package spec

import (
	"fmt"
	"strconv"
	"strings"
)

// DeviceAssignment maps the process grid onto devices: [replica][partition]
// is the global device id of that process, as XLA's DeviceAssignment holds it
// (CompileOptionsProto.executable_build_options.device_assignment, whose
// computation_devices[p].replica_device_ids[r] is d[r][p]).
//
// A nil assignment means XLA's default, ComputationPlacer::AssignDevices in
// xla/service/computation_placer.cc: device = partition * num_replicas +
// replica. (PJRT's GPU client hands out its addressable devices in order
// instead when num_partitions is 1 and they are enough, ids 0..R-1 in one
// process: the same ids. TPU clients place by topology and always pass their
// assignment in the compile options.)
type DeviceAssignment [][]int64

// ParseDeviceAssignment reads the text form "a,b;c,d": ';' separates
// replicas, ',' the partitions of one replica, so "0,1;2,3" puts replica 0 on
// devices 0 and 1 and replica 1 on devices 2 and 3. Blanks are ignored.
// Every replica must have the same number of partitions, and every id must be
// a distinct non-negative integer.
func ParseDeviceAssignment(s string) (DeviceAssignment, error) {
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("device assignment %q: empty", s)
	}
	var d DeviceAssignment
	for r, row := range strings.Split(s, ";") {
		var ids []int64
		for _, f := range strings.Split(row, ",") {
			f = strings.TrimSpace(f)
			id, err := strconv.ParseInt(f, 10, 64)
			if err != nil || id < 0 {
				return nil, fmt.Errorf("device assignment %q: replica %d: %q is not a device id (a non-negative integer)", s, r, f)
			}
			ids = append(ids, id)
		}
		d = append(d, ids)
	}
	if err := d.Validate(); err != nil {
		return nil, fmt.Errorf("device assignment %q: %v", s, err)
	}
	return d, nil
}

// Validate checks that d is a non-empty rectangle of distinct non-negative
// ids, as XLA requires (DeviceAssignment::LogicalIdForDevice fails on a
// device that appears twice).
func (d DeviceAssignment) Validate() error {
	if len(d) == 0 || len(d[0]) == 0 {
		return fmt.Errorf("no replicas or no partitions")
	}
	seen := make(map[int64][2]int, len(d)*len(d[0]))
	for r, row := range d {
		if len(row) != len(d[0]) {
			return fmt.Errorf("replica %d has %d partitions but replica 0 has %d", r, len(row), len(d[0]))
		}
		for p, id := range row {
			if id < 0 {
				return fmt.Errorf("replica %d partition %d: device id %d is negative", r, p, id)
			}
			if at, dup := seen[id]; dup {
				return fmt.Errorf("device %d is assigned twice (replica %d partition %d, replica %d partition %d)", id, at[0], at[1], r, p)
			}
			seen[id] = [2]int{r, p}
		}
	}
	return nil
}

// String prints d in the form ParseDeviceAssignment reads.
func (d DeviceAssignment) String() string {
	rows := make([]string, len(d))
	for r, row := range d {
		ids := make([]string, len(row))
		for p, id := range row {
			ids[p] = strconv.FormatInt(id, 10)
		}
		rows[r] = strings.Join(ids, ",")
	}
	return strings.Join(rows, ";")
}

// DefaultDeviceAssignment is XLA's default assignment of a grid of replicas
// by partitions, written out: d[r][p] = p*replicas + r. It allocates
// replicas*partitions ids; callers bound the grid first.
func DefaultDeviceAssignment(replicas, partitions int) DeviceAssignment {
	d := make(DeviceAssignment, replicas)
	for r := range d {
		d[r] = make([]int64, partitions)
		for p := range d[r] {
			d[r][p] = int64(p*replicas + r)
		}
	}
	return d
}
