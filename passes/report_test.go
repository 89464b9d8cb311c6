package passes_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/lowering/tpu"
	"github.com/arcpass/arc/passes"
)

func report(t *testing.T, src string) *passes.Report {
	t.Helper()
	m, err := ir.ParseString("m.mlir", src)
	if err != nil {
		t.Fatal(err)
	}
	r, err := passes.NewReport(m, "cuda:nvlink", nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestNewReportListsEveryOperand(t *testing.T) {
	r := report(t, verifyModule)
	if r.Target != "cuda:nvlink" || r.Module != "m" || len(r.Env) != 0 {
		t.Errorf("report header: %+v", r)
	}
	var got []string
	for _, row := range r.Collectives {
		got = append(got, fmt.Sprintf("%d %s L%d #%d %s %v %d %s %v %d %s/%s", row.Index, row.Op, row.Line, row.Operand, row.DType, row.Shape, row.Bytes, row.Reduction, row.Groups, row.GroupSize, row.Lowering, row.Codec))
	}
	want := []string{
		"0 all_reduce L3 #0 f32 [16] 64 sum [[0 1]] 2 /",
		"1 all_reduce L3 #1 f32 [16] 64 sum [[0 1]] 2 /",
		"2 all_reduce L9 #0 f32 [16] 64 sum [[0 1]] 2 oneshot/none", // arc's call, read back
	}
	if !slices.Equal(got, want) {
		t.Errorf("rows:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestImplicitGroups: an op without replica groups reduces over all replicas
// when it runs across replicas only; otherwise arc leaves its groups unknown.
func TestImplicitGroups(t *testing.T) {
	op := func(attrs string) string {
		return `  func.func @main(%x: tensor<16xf32>) -> tensor<16xf32> {
    %0 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    })` + attrs + ` : (tensor<16xf32>) -> tensor<16xf32>
    "func.return"(%0) : (tensor<16xf32>) -> ()
  }
}
`
	}
	for _, c := range []struct {
		name, module, attrs string
		want                string
	}{
		// StableHLO's empty list is XLA's one group of every id of the mode,
		// which the specification (package spec) expands into devices.
		{"an empty list", `module @m attributes {mhlo.num_replicas = 3 : i32} {`, ` {replica_groups = dense<> : tensor<0x0xi64>}`, "[[0 1 2]]"},
		{"arc's native mark", `module @m attributes {stablehlo.num_replicas = 2 : i64} {`, ` {replica_groups = dense<> : tensor<0x0xi64>, arc.lowering = "native", arc.reason = "x"}`, "[[0 1]]"},
		{"replica count unknown", `module @m {`, ` {replica_groups = dense<> : tensor<0x0xi64>}`, "[]"},
		{"every partition", `module @m attributes {mhlo.num_replicas = 2 : i32, mhlo.num_partitions = 2 : i32} {`, ` {replica_groups = dense<> : tensor<0x0xi64>}`, "[[0 1] [2 3]]"},
		{"a channel", `module @m attributes {stablehlo.num_replicas = 4 : i64} {`, ` {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<> : tensor<0x0xi64>}`, "[[0 1 2 3]]"},
		{"explicit groups", `module @m attributes {stablehlo.num_replicas = 4 : i64} {`, ` {replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>}`, "[[0 2] [1 3]]"},
	} {
		r := report(t, c.module+"\n"+op(c.attrs))
		row := r.Collectives[0]
		if got := fmt.Sprint(row.Groups); got != c.want || row.GroupSize != groupSize(row.Groups) {
			t.Errorf("%s: groups %s of size %d, want %s", c.name, got, row.GroupSize, c.want)
		}
	}
	// StableHLO requires the attribute.
	m, err := ir.ParseString("m.mlir", "module @m attributes {stablehlo.num_replicas = 4 : i64} {\n"+op(""))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := passes.NewReport(m, "", nil); err == nil || !strings.HasPrefix(err.Error(), "m.mlir:3:5: 'stablehlo.all_reduce' op requires attribute 'replica_groups'") {
		t.Errorf("no replica_groups: %v", err)
	}
}

func groupSize(gs [][]int64) int {
	n := 0
	for _, g := range gs {
		n = max(n, len(g))
	}
	return n
}

// TestReportJSONSchema checks the keys of the JSON report, which arc compile
// --report and arc inspect --json share: every row has the schema's keys;
// kernel details, native estimates and TPU rings appear where they apply.
func TestReportJSONSchema(t *testing.T) {
	r := report(t, verifyModule)
	r.Collectives[0].Lowering, r.Collectives[0].Codec, r.Collectives[0].Reason = "native", "none", "group [0 1] is fine"
	r.Collectives[1].Lowering, r.Collectives[1].Payload = "ring", &tpu.Rings{Groups: [][]int64{{0, 1}}, MaxHops: 1}
	r.Collectives[1].FuseReason = "why" // after the payload's fields
	r.Collectives[2].EstUS, r.Collectives[2].NativeUS = 7.5, 20.25
	r.Env["LIBTPU_INIT_ARGS"] = "--x=1"
	var buf bytes.Buffer
	if err := r.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("%v:\n%s", err, buf.String())
	}
	if got := keys(doc); got != "collectives env module target" {
		t.Errorf("report keys: %s", got)
	}
	base := "bytes codec dtype est_us group_size groups index line lowering mode op operand reason reduction shape"
	rows := doc["collectives"].([]any)
	for i, want := range []string{
		base,
		base + " ring ring_max_hops fuse_reason",
		"algo " + base + " link native_us",
	} {
		if got := keys(rows[i].(map[string]any)); got != sortWords(want) {
			t.Errorf("row %d keys:\n%s\nwant\n%s", i, got, sortWords(want))
		}
	}
	// A target's fields sit among the decision's, before the fusion's.
	row1 := buf.String()[strings.Index(buf.String(), `"index": 1`):]
	if i, j, k := strings.Index(row1, `"est_us":`), strings.Index(row1, `"ring":`), strings.Index(row1, `"fuse_reason":`); !(i < j && j < k) {
		t.Errorf("row 1's keys are out of order:\n%s", row1)
	}
	// Number lists sit on one line; strings keep their spaces.
	for _, want := range []string{`"shape": [16],`, `"groups": [` + "\n        [0,1]\n      ],", `"reason": "group [0 1] is fine"`, `"ring": [` + "\n        [0,1]\n      ],"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("JSON lacks %q:\n%s", want, buf.String())
		}
	}
}

func keys(m map[string]any) string {
	var k []string
	for key := range m {
		k = append(k, key)
	}
	sort.Strings(k)
	return strings.Join(k, " ")
}

func sortWords(s string) string {
	w := strings.Fields(s)
	sort.Strings(w)
	return strings.Join(w, " ")
}

func TestReportTable(t *testing.T) {
	r := report(t, verifyModule)
	r.Collectives[0].Lowering, r.Collectives[0].Codec, r.Collectives[0].Reason = "native", "none", "below --min-bytes 4096"
	r.Collectives[1].Lowering, r.Collectives[1].Codec, r.Collectives[1].EstUS, r.Collectives[1].NativeUS = "twoshot", "int8", 12.34, 40
	r.Env["LIBTPU_INIT_ARGS"] = "--x=1"
	var buf bytes.Buffer
	if err := r.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(buf.String(), "\n")
	if lines[0] != "module m, target cuda:nvlink: 3 collective operand(s)" {
		t.Errorf("title: %q", lines[0])
	}
	for _, want := range [][]string{
		{"#", "op", "line", "dtype", "shape", "bytes", "reduce", "ranks", "groups", "lowering", "codec", "est", "us", "why"},
		{"0", "all_reduce[0]", "3", "f32", "16", "64", "B", "sum", "2", "{0", "1}", "native", "none", "-", "below", "--min-bytes", "4096"},
		{"1", "all_reduce[1]", "3", "f32", "16", "64", "B", "sum", "2", "{0", "1}", "twoshot", "int8", "12.3", "(native", "40.0)"},
		{"2", "all_reduce", "9", "f32", "16", "64", "B", "sum", "2", "{0", "1}", "oneshot", "none", "-"},
	} {
		if !slices.ContainsFunc(lines, func(l string) bool { return slices.Equal(strings.Fields(l), want) }) {
			t.Errorf("no line %q in\n%s", strings.Join(want, " "), buf.String())
		}
	}
	for _, want := range []string{"\nlowerings:\n  native ", "\n  oneshot ", "\n  twoshot ", "\nenvironment the program needs:\n  LIBTPU_INIT_ARGS=\"--x=1\"\n"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, buf.String())
		}
	}
	// Every column lines up: the header's words start where the rows' do.
	at := strings.Index(lines[1], "lowering")
	for _, l := range lines[2:5] {
		if len(l) <= at || l[at-1] != ' ' || l[at] == ' ' {
			t.Errorf("lowering column not at %d in %q", at, l)
		}
	}
}

func TestGroupsInTables(t *testing.T) {
	r := report(t, verifyModule)
	r.Collectives = r.Collectives[:1]
	for groups, want := range map[string]string{
		"[]":                            "all",
		"[[0 1]]":                       "{0 1}",
		"[[0 1] [2 3] [4 5]]":           "{0 1} {2 3} {4 5}",
		"[[0 4] [1 5] [2 6] [3 7]]":     "{0 4} {1 5} ... (4 groups)",
		"[[0] [1] [2] [3] [4] [5] [6]]": "{0} {1} ... (7 groups)",
	} {
		var gs [][]int64
		for _, g := range strings.Split(strings.Trim(groups, "[]"), "] [") {
			var ids []int64
			for _, f := range strings.Fields(g) {
				var id int64
				fmt.Sscan(f, &id)
				ids = append(ids, id)
			}
			if ids != nil {
				gs = append(gs, ids)
			}
		}
		r.Collectives[0].Groups = gs
		var buf bytes.Buffer
		r.WriteTable(&buf)
		if out := buf.String(); !strings.Contains(out, "  "+want+"  ") && !strings.Contains(out, "  "+want+"\n") {
			t.Errorf("groups %s: table lacks %q:\n%s", groups, want, buf.String())
		}
	}
}

func TestHumanBytes(t *testing.T) {
	for n, want := range map[int64]string{-1: "?", 0: "0 B", 1023: "1023 B", 1024: "1 KiB", 1536: "1.5 KiB", 1<<20 - 16: "1024 KiB", 1 << 20: "1 MiB", 3 << 29: "1.5 GiB"} {
		if got := passes.HumanBytes(n); got != want {
			t.Errorf("HumanBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestReportMemoryFollowsTheInput: a collective that leaves its groups
// implicit in a module claiming 2e9 replicas lists no groups rather than
// materialising them (16 GB before).
func TestReportMemoryFollowsTheInput(t *testing.T) {
	m, err := ir.ParseString("m.mlir", `module @m attributes {stablehlo.num_replicas = 2000000000 : i64} {
  func.func @main(%x: tensor<16xf32>) -> tensor<8xf32> {
    %0 = "stablehlo.reduce_scatter"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {scatter_dimension = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>} : (tensor<16xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}
`)
	if err != nil {
		t.Fatal(err)
	}
	r, err := passes.NewReport(m, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if g := r.Collectives[0].Groups; len(g) != 0 {
		t.Errorf("%d groups listed for an implicit group of 2e9 replicas", len(g))
	}
}

// TestRecordedDecisionsAreChecked: a module that records a ring not of its
// own groups, or an environment that is no dictionary, is refused at the
// op or the module, as an input error.
func TestRecordedDecisionsAreChecked(t *testing.T) {
	op := func(moduleAttrs, ring string) string {
		return `module @m attributes {stablehlo.num_replicas = 2 : i64` + moduleAttrs + `} {
  func.func @main(%x: tensor<16xf32>) -> tensor<16xf32> {
    %0 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, arc.lowering = "ring", arc.reason = "r", arc.ring = ` + ring + `} : (tensor<16xf32>) -> tensor<16xf32>
    "func.return"(%0) : (tensor<16xf32>) -> ()
  }
}
`
	}
	for _, c := range []struct{ src, want string }{
		{op("", "dense<[[1, 0]]> : tensor<1x2xi64>"), ""},
		{op("", "dense<[[0, 0]]> : tensor<1x2xi64>"), "m.mlir:3:5: arc.ring = [[0 0]] does not hold the op's process groups [[0 1]]"},
		{op("", "dense<[[0, 5]]> : tensor<1x2xi64>"), "m.mlir:3:5: arc.ring = [[0 5]] does not hold the op's process groups [[0 1]]"},
		{op(`, arc.env = "x"`, "dense<[[1, 0]]> : tensor<1x2xi64>"), `m.mlir:1:1: arc.env is not a dictionary: "x"`},
		{strings.Replace(op("", "dense<[[1, 0]]> : tensor<1x2xi64>"), "stablehlo.num_replicas = 2 : i64", `stablehlo.num_replicas = "two"`, 1),
			"m.mlir:3:5: arc.ring = [[1 0]] cannot be checked against the op's process groups, which the module's grid does not give (unknown or too large)"},
	} {
		m, err := ir.ParseString("m.mlir", c.src)
		if err != nil {
			t.Fatal(err)
		}
		_, err = passes.NewReport(m, "", nil)
		if got := fmt.Sprint(err); c.want == "" && err != nil || c.want != "" && got != c.want {
			t.Errorf("%v, want %q", err, c.want)
		}
	}
}

// TestNativeLine: the table says, on a GPU target, which collectives stay
// with NCCL or RCCL, and that a program whose collectives all run on arc's
// kernels needs no communicator of theirs; send and recv between devices
// need one too, host transfers do not; a partitioned program may get
// collectives from XLA's partitioner.
func TestNativeLine(t *testing.T) {
	const sendRecv = `module @m attributes {mhlo.num_replicas = 2 : i32} {
  func.func @main(%w: tensor<4xf32>, %tok: !stablehlo.token) -> !stablehlo.token {
    %t1 = "stablehlo.send"(%w, %tok) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>, is_host_transfer = true} : (tensor<4xf32>, !stablehlo.token) -> !stablehlo.token
    %t2 = "stablehlo.send"(%w, %t1) {channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>} : (tensor<4xf32>, !stablehlo.token) -> !stablehlo.token
    return %t2 : !stablehlo.token
  }
}
`
	lowered := func(r *passes.Report) *passes.Report {
		for i := range r.Collectives {
			r.Collectives[i].Lowering = "oneshot"
		}
		return r
	}
	for _, c := range []struct {
		name string
		r    *passes.Report
		want string
	}{
		{"all on arc's kernels", lowered(report(t, verifyModule)),
			"native collectives: 0 (every collective runs on arc's kernels): the program needs no NCCL communicator"},
		{"one native", func() *passes.Report {
			r := lowered(report(t, verifyModule))
			r.Collectives[1].Lowering = "native"
			return r
		}(), "native collectives: 1 of 3 operand(s) (1 all-reduce): these run on NCCL, so the program still makes NCCL communicators"},
		{"ROCm", func() *passes.Report { r := lowered(report(t, verifyModule)); r.Target = "rocm:mi300x"; return r }(),
			"native collectives: 0 (every collective runs on arc's kernels): the program needs no RCCL communicator"},
		{"partitioned", func() *passes.Report {
			r := lowered(report(t, verifyModule))
			for i := range r.Collectives {
				r.Collectives[i].Partitions = 4
			}
			return r
		}(), "native collectives: 0 (every collective the module states runs on arc's kernels); XLA's SPMD partitioner may add collectives of its own (num_partitions = 4), which would need NCCL"},
		{"a send between devices", report(t, sendRecv),
			"native collectives: 0 of 0 operand(s) (0 all-reduce), and 1 send/recv between devices: these run on NCCL, so the program still makes NCCL communicators"},
		{"TPU", func() *passes.Report { r := lowered(report(t, verifyModule)); r.Target = "tpu:v6e-8"; return r }(), ""},
		{"none", func() *passes.Report { r := lowered(report(t, verifyModule)); r.Target = "none"; return r }(), ""},
	} {
		if got := c.r.NativeLine(); got != c.want {
			t.Errorf("%s: %q\nwant %q", c.name, got, c.want)
		}
	}
	// The table prints it after the estimates.
	var buf bytes.Buffer
	if err := lowered(report(t, verifyModule)).WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "\nnative collectives: 0 (every collective runs on arc's kernels): the program needs no NCCL communicator\n") {
		t.Errorf("the table lacks the line:\n%s", buf.String())
	}
}
