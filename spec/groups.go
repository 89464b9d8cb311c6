package spec

import (
	"fmt"
	"math"

	"github.com/arcpass/arc/ir"
)

// idGroups are the ids an op's replica_groups hold.
type idGroups struct {
	rows [][]int64 // per group, -1 padding dropped; nil for empty lists and for groups that hold no id
	n    int64     // distinct ids; they are 0..n-1 once readGroups succeeds
	// emptyList: zero groups, which XLA reads as one group of every id
	// (GetParticipatingDevicesGroups in xla/service/collective_ops_utils.cc).
	emptyList bool
	written   int64 // ids the module spells out (for the expansion bound)
}

// readGroups reads the groups and applies verifyReplicaGroups of StableHLO's
// verifier: a rank-2 tensor, not empty with use_global_device_ids, -1 only as
// padding, every id once (all_reduce_c1), and the ids forming 0..n-1.
func (k *Checker) readGroups(c *ir.Collective, lit *dense, global bool, fail func(string, ...any) error) (idGroups, error) {
	var g idGroups
	// Ids must come out as 0..n-1, n at most the number of ids: those are
	// kept in a bitmap, any other (an error to come) in a map.
	total := 0
	if lit == nil {
		for _, row := range c.Groups {
			total += len(row)
		}
	} else if !lit.splat {
		total = len(lit.flat)
	} else if lit.n > 0 {
		total = 1
	}
	seen, others := make([]bool, total), map[int64]bool{}
	distinct := int64(0)
	add := func(id int64) error {
		if id == -1 {
			return nil
		}
		dup := false
		if id >= 0 && id < int64(total) {
			dup, seen[id] = seen[id], true
		} else {
			dup, others[id] = others[id], true
		}
		if dup {
			return fail("replica id #%d seen more than once", id)
		}
		distinct++
		return nil
	}
	if lit == nil { // mesh axes, expanded by package ir
		g.rows = c.Groups // not written out: no part of the expansion bound
		for _, row := range c.Groups {
			for _, id := range row {
				if id < 0 {
					return g, fail("replica groups name device %d of the mesh", id)
				}
				if err := add(id); err != nil {
					return g, err
				}
			}
		}
	} else {
		if len(lit.shape) != 2 {
			return g, fail("replica groups should be a rank 2 tensor")
		}
		if global && lit.n == 0 {
			return g, fail("if `use_global_device_ids` is set, the replica groups cannot be empty")
		}
		g.emptyList = lit.shape[0] == 0
		switch {
		case lit.splat && lit.value == -1 || lit.n == 0: // no id at all
		case lit.splat && lit.n > 1:
			return g, fail("replica id #%d seen more than once", lit.value)
		case lit.splat:
			g.rows, g.written = [][]int64{{lit.value}}, 1
			_ = add(lit.value)
		default: // the rows share one array
			cols := lit.shape[1]
			ids := make([]int64, 0, len(lit.flat))
			g.rows = make([][]int64, 0, lit.shape[0])
			for r := int64(0); r < lit.shape[0]; r++ {
				start := len(ids)
				for _, id := range lit.flat[r*cols : (r+1)*cols] {
					if err := add(id); err != nil {
						return g, err
					}
					if id != -1 {
						ids = append(ids, id)
					}
				}
				g.rows = append(g.rows, ids[start:len(ids):len(ids)])
			}
			g.written = int64(len(ids))
		}
	}
	g.n = distinct
	for id := int64(0); id < g.n; id++ {
		if !seen[id] {
			return g, fail("replica id #%d not seen in replica groups", id)
		}
	}
	return g, nil
}

// space names the ids of a mode: what they number, and how many there are
// (-1 when unknown, math.MaxInt64 when the product overflows).
func (k *Checker) space(mode Mode) (what string, size int64) {
	switch mode {
	case CrossPartition:
		if k.partitions == 0 {
			return "partitions", -1
		}
		return "partitions", k.partitions
	case FlattenedIDs:
		if k.replicas == 0 || k.partitions == 0 {
			return "flattened ids", -1
		}
		if k.replicas > math.MaxInt64/k.partitions {
			return "flattened ids", math.MaxInt64
		}
		return "flattened ids", k.replicas * k.partitions
	}
	if k.replicas == 0 {
		return "replicas", -1
	}
	return "replicas", k.replicas
}

// spaceWords says where the size of a mode's id space comes from.
func (k *Checker) spaceWords(mode Mode) string {
	from := ""
	if k.replicasFrom != "" {
		from = ", " + k.replicasFrom
	}
	switch mode {
	case CrossPartition:
		return fmt.Sprintf("num_partitions = %d", k.partitions)
	case FlattenedIDs:
		return fmt.Sprintf("num_replicas x num_partitions = %d x %d%s", k.replicas, k.partitions, from)
	}
	return fmt.Sprintf("num_replicas = %d%s", k.replicas, from)
}

// checkNamed rejects groups that name no process (only padding, or groups
// of no id): they leave every process of every grid out of the op.
func (k *Checker) checkNamed(mode Mode, g idGroups, fail func(string, ...any) error) error {
	if g.n == 0 && !g.emptyList {
		what, _ := k.space(mode)
		if what == "flattened ids" {
			what = "processes"
		}
		return fail("replica groups name no %s: %s mode needs each of them in one group", what, mode)
	}
	return nil
}

// checkSpace applies the specification's rules that need the grid: ids
// below the size of the mode's id space (all_reduce_c2, c3), and groups that
// cover it, every process in one group ("Collective ops": the groups "must
// cover all replica_ids", or all process_ids for flattened ids). Where
// num_replicas is unknown only num_partitions can be held against the ids;
// where num_partitions is not stated (1 by default), flattened ids that
// fill whole replicas are valid for another count, and why says the op
// cannot be lowered.
func (k *Checker) checkSpace(mode Mode, g idGroups, fail func(string, ...any) error) (why string, err error) {
	what, size := k.space(mode)
	switch {
	case g.n == 0:
		return "", nil // XLA's one group of all ids, however many there are
	case size < 0 && mode == FlattenedIDs && k.partitions > 0 && g.n%k.partitions != 0:
		return "", fail("replica groups name %d flattened ids, which is not a multiple of num_partitions = %d", g.n, k.partitions)
	case size < 0:
		return "", nil
	case mode == FlattenedIDs && !k.partitionsStated && g.n > size && g.n%k.replicas == 0:
		return fmt.Sprintf("the module does not state num_partitions, and the op's %d flattened ids on num_replicas = %d imply %d, not 1", g.n, k.replicas, g.n/k.replicas), nil
	case g.n > size:
		return "", fail("replica id #%d is out of range: %s mode numbers %s 0 to %d (%s) (all_reduce_c3)", size, mode, what, size-1, k.spaceWords(mode))
	case g.n < size:
		return "", fail("replica groups should contain %d %s in %s mode (%s), but found %d: every process must be in one group", size, what, mode, k.spaceWords(mode), g.n)
	}
	return "", nil
}

// expand fills in the logical groups, the process groups and the devices,
// when the grid is known and small enough (see MaxDevices).
func (k *Checker) expand(res *Result, g idGroups) {
	res.LogicalGroups = g.rows
	res.ImplicitGroups = g.emptyList
	switch {
	case k.gridWhy != "":
		res.NotLowerable = k.gridWhy
		return
	case k.disagree != "":
		res.NotLowerable = k.disagree
		return
	case k.partitionsWhy != "":
		res.NotLowerable = k.partitionsWhy
		return
	case k.replicas == 0 && g.emptyList:
		res.NotLowerable = "replica_groups is empty and the module does not state num_replicas"
		return
	case k.replicas == 0:
		res.NotLowerable = "the module does not state num_replicas"
		return
	}
	world := int64(math.MaxInt64)
	if k.replicas <= math.MaxInt64/k.partitions {
		world = k.replicas * k.partitions
	}
	limit := max(MaxDevices, g.written)
	if world > limit {
		res.NotLowerable = fmt.Sprintf("the op spans %d devices, more than arc expands (%d)", world, limit)
		return
	}
	if g.emptyList {
		_, size := k.space(res.Mode)
		all := make([]int64, size)
		for i := range all {
			all[i] = int64(i)
		}
		res.LogicalGroups = [][]int64{all}
	}
	res.Processes = processGroups(res.Mode, res.LogicalGroups, k.replicas, k.partitions)
	res.Groups = make([][]int64, len(res.Processes))
	devs := make([]int64, 0, world)
	for i, pg := range res.Processes {
		start := len(devs)
		for _, p := range pg {
			devs = append(devs, k.device(p))
		}
		res.Groups[i] = devs[start:len(devs):len(devs)]
	}
}

// device is the global id of a process: the device assignment's entry, or
// XLA's default partition * num_replicas + replica.
func (k *Checker) device(p Process) int64 {
	if k.da != nil {
		return k.da[p.Replica][p.Partition]
	}
	return p.Partition*k.replicas + p.Replica
}

// processGroups is the specification's split of the process grid for a mode,
// its Python functions written in Go, in their order.
func processGroups(mode Mode, groups [][]int64, replicas, partitions int64) [][]Process {
	n := 0
	for _, g := range groups {
		n += len(g)
	}
	size := int64(n) // processes in all groups
	switch mode {
	case CrossReplica, CrossReplicaAndPartition:
		size *= partitions
	case CrossPartition:
		size *= replicas
	}
	var out [][]Process
	all := make([]Process, 0, size)
	take := func(k int) []Process {
		start := len(all)
		all = all[:start+k]
		return all[start : start+k : start+k]
	}
	switch mode {
	case CrossReplica: // each group in every partition
		for _, g := range groups {
			for p := int64(0); p < partitions; p++ {
				pg := take(len(g))
				for i, r := range g {
					pg[i] = Process{r, p}
				}
				out = append(out, pg)
			}
		}
	case CrossPartition: // each group of partitions in every replica
		for _, g := range groups {
			for r := int64(0); r < replicas; r++ {
				pg := take(len(g))
				for i, p := range g {
					pg[i] = Process{r, p}
				}
				out = append(out, pg)
			}
		}
	case CrossReplicaAndPartition: // each group's replicas in all partitions, partition-major
		for _, g := range groups {
			pg := take(len(g) * int(partitions))[:0]
			for p := int64(0); p < partitions; p++ {
				for _, r := range g {
					pg = append(pg, Process{r, p})
				}
			}
			out = append(out, pg)
		}
	case FlattenedIDs:
		for _, g := range groups {
			pg := take(len(g))
			for i, id := range g {
				pg[i] = Process{id / partitions, id % partitions}
			}
			out = append(out, pg)
		}
	}
	return out
}
