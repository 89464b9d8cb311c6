package oracle

import (
	"fmt"
	"strings"
	"testing"
)

func groupsString(gs [][]Process) string {
	var b strings.Builder
	for _, g := range gs {
		b.WriteString("[")
		for i, p := range g {
			if i > 0 {
				b.WriteString(" ")
			}
			fmt.Fprintf(&b, "%d%d", p.Replica, p.Partition)
		}
		b.WriteString("]")
	}
	return b.String()
}

// TestExpandSpecExamples: the examples of StableHLO's spec for each
// strategy ("Collective ops"), processes written as replica then partition.
func TestExpandSpecExamples(t *testing.T) {
	for _, c := range []struct {
		r, p   int64
		mode   Mode
		groups [][]int64
		want   string
	}{
		{4, 2, CrossReplica, [][]int64{{0, 1}, {2, 3}}, "[00 10][01 11][20 30][21 31]"},
		{4, 2, CrossPartition, [][]int64{{0, 1}}, "[00 01][10 11][20 21][30 31]"},
		{4, 2, CrossReplicaAndPartition, [][]int64{{0, 1}, {2, 3}}, "[00 10 01 11][20 30 21 31]"},
		{4, 2, FlattenedIDs, [][]int64{{0, 1, 2, 3}, {4, 5, 6, 7}}, "[00 01 10 11][20 21 30 31]"},
		// The case a device-blind lowering gets wrong: two replicas, two partitions, no channel.
		{2, 2, CrossReplica, [][]int64{{0, 1}}, "[00 10][01 11]"},
		{2, 2, CrossReplicaAndPartition, [][]int64{{0, 1}}, "[00 10 01 11]"},
		// No groups: every replica (XLA), in every partition.
		{2, 2, CrossReplica, nil, "[00 10][01 11]"},
		{3, 1, CrossReplica, [][]int64{{}}, "[00 10 20]"},
		{2, 2, CrossReplicaAndPartition, nil, "[00 10 01 11]"},
		// Order is kept: it is the order of the reduction.
		{4, 1, CrossReplica, [][]int64{{3, 0, 2, 1}}, "[30 00 20 10]"},
	} {
		g := Grid{Replicas: c.r, Partitions: c.p}
		got, err := g.Expand(c.mode, c.groups)
		if err != nil {
			t.Errorf("%s %v on %dx%d: %v", c.mode, c.groups, c.r, c.p, err)
			continue
		}
		if s := groupsString(got); s != c.want {
			t.Errorf("%s %v on %dx%d: %s, want %s", c.mode, c.groups, c.r, c.p, s, c.want)
		}
	}
}

func TestExpandRejects(t *testing.T) {
	for _, c := range []struct {
		r, p   int64
		mode   Mode
		groups [][]int64
		want   string
	}{
		{4, 1, CrossReplica, [][]int64{{0, 1}, {1, 2}}, "id 1 appears twice"},
		{4, 1, CrossReplica, [][]int64{{0, 1, 2, 3, 4}}, "id 4 is outside [0, 4)"},
		{4, 1, CrossReplica, [][]int64{{0, 1}}, "id 2 is in no replica group"},
		{2, 2, CrossReplica, [][]int64{{0, 1, 2, 3}}, "id 2 is outside [0, 2)"},
		{2, 2, FlattenedIDs, [][]int64{{0, 1, 2}}, "id 3 is in no replica group"},
		{2, 2, FlattenedIDs, nil, "flattened_ids needs replica groups"},
		{1, 4, CrossPartition, [][]int64{{0, 1}, {2}}, "id 3 is in no replica group"},
	} {
		g := Grid{Replicas: c.r, Partitions: c.p}
		_, err := g.Expand(c.mode, c.groups)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %v on %dx%d: %v, want %q", c.mode, c.groups, c.r, c.p, err, c.want)
		}
	}
}

func TestAllReduceMode(t *testing.T) {
	for _, c := range []struct {
		channel int64
		global  bool
		want    string
	}{
		{-1, false, "cross_replica"},
		{0, false, "cross_replica"},
		{1, false, "cross_replica_and_partition"},
		{2, true, "flattened_ids"},
		{-1, true, "C4"},
		{0, true, "C4"},
	} {
		m, err := AllReduceMode(c.channel, c.global)
		got := m.String()
		if err != nil {
			got = err.Error()
		}
		if !strings.Contains(got, c.want) {
			t.Errorf("channel %d, global %v: %s, want %s", c.channel, c.global, got, c.want)
		}
	}
}

func TestDefaultAssignment(t *testing.T) {
	// XLA's ComputationPlacer: device = partition * replicas + replica.
	g := Grid{Replicas: 2, Partitions: 3}
	var got []int64
	for p := range int(g.Size()) {
		got = append(got, g.Device(g.Process(p)))
	}
	if fmt.Sprint(got) != "[0 2 4 1 3 5]" {
		t.Errorf("devices of processes (0,0), (0,1), ...: %v", got)
	}
}

func TestParseGroups(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>", "[[0 1] [2 3]]"},
		{"dense<[[0, 1, 2], [3, 4, -1]]> : tensor<2x3xi64>", "[[0 1 2] [3 4]]"},
		{"dense<0> : tensor<1x1xi64>", "[[0]]"},
		{"dense<[[0]]> : tensor<1x1xi64>", "[[0]]"},
		{`dense<"0x00000000000000000100000000000000"> : tensor<1x2xi64>`, "[[0 1]]"},
		{"dense<> : tensor<0x0xi64>", "[]"},
		{"dense<[]> : tensor<0x0xi64>", "[]"},
		{"dense<[[0, 1], [2, 3]]> : tensor<1x4xi64>", "!the literal's shape [2 2] is not the type's [1 4]"},
		{"dense<[0, 1]> : tensor<2xi64>", "!replica_groups must be a static rank-2 tensor"},
		{"dense<[[0, 1]]> : tensor<1x2xi32>", "!replica_groups must hold i64"},
		{"dense<[[0, 1], [2]]> : tensor<2x2xi64>", "!the dense literal is not rectangular"},
		{"dense<[[0, -2]]> : tensor<1x2xi64>", "!replica_groups: negative id -2"},
		{"dense<[[0, x]]> : tensor<1x2xi64>", "!bad integer"},
		{"dense<[[0, 1]]>", "!dense elements without a type"},
		{"[[0, 1]]", "!is not a dense attribute"},
		{`dense<"0x0000"> : tensor<1x2xi64>`, "!2 bytes of hex data"},
	} {
		g, err := parseGroups(c.in)
		got := fmt.Sprint(g)
		if g == nil && err == nil {
			got = "[]"
		}
		if err != nil {
			got = "!" + err.Error()
		}
		if strings.HasPrefix(c.want, "!") != strings.HasPrefix(got, "!") || !strings.Contains(got, strings.TrimPrefix(c.want, "!")) {
			t.Errorf("parseGroups(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}
