package spec

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/arcpass/arc/ir"
)

// The other collectives arc lists but does not lower are still the
// specification's to check: a module whose all_gather names a replica twice
// is invalid however arc treats its all-reduces. Their groups follow
// StableHLO's verifier (verifyReplicaGroups with groups of one size for
// all_gather, reduce_scatter and all_to_all, and the checks of its own for
// collective_broadcast and collective_permute), then the specification's
// rules that need the grid, held against the grid the module or the device
// assignment states (the count the all-reduces imply is theirs alone):
//
//   - all_gather C2-C5, reduce_scatter C3-C6: unique ids below
//     num_replicas (num_replicas x num_partitions for flattened ids),
//     covering them, and a positive channel_id with use_global_device_ids;
//   - all_to_all C5-C8: unique ids below num_replicas (num_partitions with
//     a channel), covering them, in groups of split_count;
//   - collective_broadcast C1-C2: unique ids below num_replicas
//     (num_partitions with a channel); the groups need not cover the grid,
//     as a process outside them gets zeros;
//   - collective_permute C1-C4: pairs, sources unique and targets unique,
//     below num_replicas (num_partitions with a channel).

// groupRules are what one kind of collective asks of its groups.
type groupRules struct {
	attr      string // the attribute that holds them
	global    bool   // the op has use_global_device_ids
	dense     bool   // verifyReplicaGroups: the ids are 0..n-1 and cover the grid
	splitSize bool   // groups of split_count ids (all_to_all)
}

var otherRules = map[string]groupRules{
	"all_gather":           {attr: "replica_groups", global: true, dense: true},
	"reduce_scatter":       {attr: "replica_groups", global: true, dense: true},
	"all_to_all":           {attr: "replica_groups", dense: true, splitSize: true},
	"collective_broadcast": {attr: "replica_groups"},
	"collective_permute":   {attr: "source_target_pairs"},
}

// checkOther checks the groups of a collective other than all_reduce.
func (k *Checker) checkOther(c *ir.Collective) (Result, error) {
	res := Result{NotLowerable: "arc lowers all-reduces only"}
	rules, ok := otherRules[c.Kind]
	if !ok {
		return res, nil
	}
	m, op := k.m, c.Op
	fail := func(format string, args ...any) error {
		return m.Errorf(int(op.Start), "'%s' op %s", op.Name, fmt.Sprintf(format, args...))
	}
	mhlo := strings.HasPrefix(op.Name, "mhlo.")
	attrs := m.Attrs(op)
	attr := func(name string) (string, bool) { return ir.AttrValue(attrs, name) }
	v, ok := attr(rules.attr)
	if !ok {
		return res, fail("requires attribute '%s'", rules.attr)
	}
	var lit *dense
	if v = strings.TrimSpace(v); strings.HasPrefix(v, "dense<") {
		var err error
		if lit, err = parseDense(v); err != nil {
			off := int(op.Start)
			if start, _, ok := m.AttrValueSpan(op, rules.attr); ok {
				off = start
			}
			if de, ok := err.(*denseError); ok {
				off += de.off
			}
			return res, m.Errorf(off, "%v", err)
		}
	}
	if lit == nil && (c.GroupSpelling != "mesh_axes" || mhlo || rules.attr != "replica_groups") || lit != nil && lit.elem != "i64" {
		what := "64-bit signless integer elements attribute"
		if !mhlo && rules.attr == "replica_groups" {
			what += " or replica group mesh axes"
		}
		return res, fail("attribute '%s' failed to satisfy constraint: %s", rules.attr, what)
	}
	global := false
	if val, ok := attr("use_global_device_ids"); ok && rules.global {
		if val != "" && val != "unit" {
			return res, fail("attribute 'use_global_device_ids' failed to satisfy constraint: unit attribute, but it is %s", val)
		}
		global = true
	}
	channelAttr, hasChannel := attr("channel_handle")
	channel, err := channelID(channelAttr, hasChannel, strings.TrimSuffix(op.Name, "."+c.Kind), fail)
	if err != nil {
		return res, err
	}
	res.Mode = CrossReplica
	switch {
	case channel > 0 && !rules.global:
		res.Mode = CrossPartition
	case channel > 0 && global:
		res.Mode = FlattenedIDs
	case channel > 0:
		res.Mode = CrossReplicaAndPartition
	}
	if lit == nil && c.Unresolved != "" {
		return res, nil // mesh axes of a mesh package ir did not find
	}
	rule := func(n int) string { return fmt.Sprintf("(%s_c%d)", c.Kind, n) }
	switch c.Kind {
	case "collective_permute":
		return res, k.checkPairs(lit, res.Mode, rule(4), fail)
	case "collective_broadcast":
		return res, k.checkBroadcast(c, lit, res.Mode, rule(2), fail)
	}
	split := int64(0) // all_to_all's split_count, when it reads as one
	if v, ok := attr("split_count"); ok && rules.splitSize {
		if n, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), ": i64")), 10, 64); err == nil {
			if n <= 0 {
				return res, fail("attribute 'split_count' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive")
			}
			split = n
		}
	}
	// verifyReplicaGroups, with groups of one size: no -1 padding.
	if lit != nil && len(lit.shape) == 2 && !(global && lit.n == 0) && hasID(lit, -1) {
		return res, fail("Invalid replica id -1")
	}
	g, err := k.readGroups(c, lit, global, fail)
	if err != nil {
		return res, err
	}
	if split > 0 && lit != nil && (lit.shape[0] == 0 || lit.shape[1] != split) {
		return res, fail("group size of replica_groups must be %d", split)
	}
	switch c.Kind {
	case "all_gather":
		if global && channel < 0 {
			return res, fail("channel_id cannot be negative when useGlobalDeviceIds is set")
		}
		if global && channel == 0 {
			return res, fail("channel_id must be positive when use_global_device_ids is set, but it is 0 %s", rule(5))
		}
	case "reduce_scatter":
		if global && channel <= 0 {
			return res, fail("channel_id must be positive when useGlobalDeviceIds is set but got: %d", channel)
		}
	}
	if err := k.checkNamed(res.Mode, g, fail); err != nil {
		return res, err
	}
	ruleN := map[string]int{"all_gather": 4, "reduce_scatter": 5, "all_to_all": 7}[c.Kind]
	return res, k.checkStated(res.Mode, g.n-1, g.n, true, rule(ruleN), fail)
}

// hasID: the literal holds id.
func hasID(lit *dense, id int64) bool {
	if lit.splat {
		return lit.n > 0 && lit.value == id
	}
	for _, v := range lit.flat {
		if v == id {
			return true
		}
	}
	return false
}

// checkBroadcast applies verifyCollectiveBroadcastOp's rules to the groups
// (rank 2, ids not negative, each once), then C2's bound.
func (k *Checker) checkBroadcast(c *ir.Collective, lit *dense, mode Mode, rule string, fail func(string, ...any) error) error {
	top := int64(-1)
	if lit == nil { // mesh axes, expanded by package ir
		for _, row := range c.Groups {
			for _, id := range row {
				top = max(top, id)
			}
		}
		return k.checkStated(mode, top, 0, false, rule, fail)
	}
	if len(lit.shape) != 2 {
		return fail("replica groups should be a rank 2 tensor,but instead it is of rank %d", len(lit.shape))
	}
	if lit.splat && lit.n > 0 {
		switch {
		case lit.value < 0:
			return fail("replica_groups values must be positive, but was given %d", lit.value)
		case lit.n > 1:
			return fail("replica id #%d seen more than once", lit.value)
		}
		top = lit.value
	}
	seen := map[int64]bool{}
	for _, id := range lit.flat {
		if id < 0 {
			return fail("replica_groups values must be positive, but was given %d", id)
		}
		if seen[id] {
			return fail("replica id #%d seen more than once", id)
		}
		seen[id] = true
		top = max(top, id)
	}
	return k.checkStated(mode, top, 0, false, rule, fail)
}

// checkPairs applies verifyCollectivePermuteOp's rules to
// source_target_pairs (rank 2, pairs, ids not negative, sources unique,
// targets unique), then C4's bound.
func (k *Checker) checkPairs(lit *dense, mode Mode, rule string, fail func(string, ...any) error) error {
	if len(lit.shape) != 2 {
		return fail("expect source_target_pairs attribute to be of rank 2, but got rank %d", len(lit.shape))
	}
	if lit.shape[1] != 2 {
		return fail("expect source_target_pairs attribute of shape (N, 2), but got (%d, %d)", lit.shape[0], lit.shape[1])
	}
	top := int64(-1)
	if lit.splat && lit.n > 0 { // every pair is (value, value)
		switch {
		case lit.value < 0:
			return fail("replica ids in source_target_pairs must be >= 0.")
		case lit.n > 2:
			return fail("duplicate sources not allowed.")
		}
		top = lit.value
	}
	sources, targets := map[int64]bool{}, map[int64]bool{}
	for i, id := range lit.flat {
		if id < 0 {
			return fail("replica ids in source_target_pairs must be >= 0.")
		}
		seen, what := sources, "sources"
		if i%2 == 1 {
			seen, what = targets, "targets"
		}
		if seen[id] {
			return fail("duplicate %s not allowed.", what)
		}
		seen[id] = true
		top = max(top, id)
	}
	return k.checkStated(mode, top, 0, false, rule, fail)
}

// checkStated holds ids up to top against the size of the mode's id space
// on the grid the module or the device assignment states, and where cover
// is set, n distinct ids (0..n-1) against covering it: the specification's
// rules that MLIR's verifier, which does not see the grid, leaves out.
func (k *Checker) checkStated(mode Mode, top, n int64, cover bool, rule string, fail func(string, ...any) error) error {
	what, size := k.space(mode)
	stated := k.replicasStated
	switch mode {
	case CrossPartition:
		stated = k.partitionsStated
	case FlattenedIDs:
		stated = k.replicasStated && k.partitionsStated
	}
	switch {
	case !stated || size <= 0 || k.gridWhy != "" || top < 0:
	case top >= size:
		return fail("replica id #%d is out of range: %s mode numbers %s 0 to %d (%s) %s", top, mode, what, size-1, k.spaceWords(mode), rule)
	case cover && n < size:
		return fail("replica groups should contain %d %s in %s mode (%s), but found %d: every process must be in one group", size, what, mode, k.spaceWords(mode), n)
	}
	return nil
}
