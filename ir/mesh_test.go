package ir

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestMeshes(t *testing.T) {
	for _, tc := range []struct {
		file string
		want map[string]string // name -> Mesh.String()
	}{
		{"../testdata/fixtures/jax_tp_mlp_bf16_2dev.mlir", map[string]string{"mesh": `<["tp"=2]>`, "mesh_0": `<["tp"=2]>`}},
		{"../testdata/fixtures/jax_dp2_tp4_8dev.mlir", map[string]string{"mesh": `<["dp"=2, "tp"=4]>`}},
		{"testdata/sdy_device_ids.mlir", map[string]string{"mesh": `<["x"=2, "y"=2], device_ids=[3, 2, 1, 0]>`, "maximal": `<[], device_ids=[0]>`}},
		{"../testdata/fixtures/goxla_allreduce_4rep.mlir", map[string]string{}},
		{"testdata/shardy.mlir", map[string]string{"mesh": `<["x"=4, "y"=2]>`, "ids": `<["a"=2], device_ids=[1, 0]>`, "maximal": `<[], device_ids=[3]>`, "generic": `<["p"=2, "q"=2]>`}},
		{"testdata/jax_export.mlir", map[string]string{"mesh": `<["data"=2]>`}},
	} {
		m := parseFile(t, tc.file)
		meshes, err := m.Meshes()
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		got := map[string]string{}
		for name, ms := range meshes {
			if ms.Name != name {
				t.Errorf("%s: mesh %q has Name %q", tc.file, name, ms.Name)
			}
			got[name] = ms.String()
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: meshes %v, want %v", tc.file, got, tc.want)
		}
	}
}

// TestMeshSpellings: the forms a mesh symbol is defined in.
func TestMeshSpellings(t *testing.T) {
	src := `sdy.mesh @a = #sdy.mesh<["x"=2, "y"=2]>
sdy.mesh @l = <["x"=2]> loc(#loc)
"sdy.mesh"() <{mesh = #sdy.mesh<["x"=4], device_ids=[3, 2, 1, 0]>, sym_name = "g"}> : () -> ()
"sdy.mesh"() {sym_name = "d", stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 2 : i64}], device_ids = dense<[0, 2, 1, 3]> : tensor<4xi64>}} : () -> ()
"x.sym"() {sym_name = "s", mesh = #stablehlo.mesh<axes = [#stablehlo.mesh_axis<name = "z", size = 3>]>} : () -> ()
"x.sym"() {sym_name = "other", mesh = 3 : i64} : () -> ()
func.func private @f()
`
	meshes, err := mustParse(t, src).Meshes()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for name, ms := range meshes {
		got[name] = ms.String()
	}
	want := map[string]string{"a": `<["x"=2, "y"=2]>`, "l": `<["x"=2]>`, "g": `<["x"=4], device_ids=[3, 2, 1, 0]>`,
		"d": `<["x"=2, "y"=2], device_ids=[0, 2, 1, 3]>`, "s": `<["z"=3]>`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("meshes %v, want %v", got, want)
	}
}

func TestMeshDevices(t *testing.T) {
	m := parseFile(t, "testdata/sdy_device_ids.mlir")
	meshes, err := m.Meshes()
	if err != nil {
		t.Fatal(err)
	}
	ms := meshes["mesh"]
	want := &Mesh{Name: "mesh", Axes: []MeshAxis{{"x", 2}, {"y", 2}}, DeviceIDs: []int64{3, 2, 1, 0}}
	if !reflect.DeepEqual(ms, want) || ms.Devices() != 4 {
		t.Errorf("mesh = %+v (%d devices), want %+v", ms, ms.Devices(), want)
	}
	if n := meshes["maximal"].Devices(); n != 1 {
		t.Errorf("maximal mesh has %d devices, want 1", n)
	}
}

func TestMeshErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`sdy.mesh mesh = <["x"=2]>`, "1:1: sdy.mesh: expected @name"},
		{`sdy.mesh @m <["x"=2]>`, "1:1: sdy.mesh: expected @name ="},
		{`sdy.mesh @ = <["x"=2]>`, "1:1: sdy.mesh: expected @name ="},
		{`sdy.mesh @m = ["x"=2]`, "1:1: sdy.mesh @m: expected '<'"},
		{`sdy.mesh @m = <["x"=0]>`, `1:1: sdy.mesh @m: axis "\"x\"=0": bad size`},
		{`sdy.mesh @m = <[x=2]>`, `1:1: sdy.mesh @m: axis "x=2": bad name`},
		{`sdy.mesh @m = <["x"=2, "y"=2], device_ids=[0, 1, 2]>`, "1:1: sdy.mesh @m: 3 device ids for 4 devices"},
		{`sdy.mesh @m = <["x"=2], device_ids=[0, a]>`, `1:1: sdy.mesh @m: device_ids: bad integer "a"`},
		{"\n  sdy.mesh @m = <\"x\"=2>", "2:3: sdy.mesh @m: expected a list of axes"},
		{`sdy.mesh @m = <["x"=4294967296, "y"=4294967296]>`, "1:1: sdy.mesh @m: too many devices"},
		{`sdy.mesh @m = #sdy.mesh["x"=2]`, "1:1: sdy.mesh @m: expected '<'"},
		{`"sdy.mesh"() {sym_name = "m"} : () -> ()`, "1:1: sdy.mesh @m: no mesh attribute"},
		{`"sdy.mesh"() <{mesh = #sdy.mesh<["x"=0]>, sym_name = "m"}> : () -> ()`, `1:1: sdy.mesh @m: axis "\"x\"=0": bad size`},
		{`"sdy.mesh"() {sym_name = "m", stablehlo.mesh = {axes = [{name = "x"}]}} : () -> ()`, `1:1: sdy.mesh @m: bad mesh axis "{name = \"x\"}"`},
		{`"sdy.mesh"() {sym_name = "m", stablehlo.mesh = {axes = [{name = "x", size = 2}], device_ids = dense<[0]> : tensor<1xi64>}} : () -> ()`, "1:1: sdy.mesh @m: 1 device ids for 2 devices"},
	} {
		m := mustParse(t, tc.src)
		_, err := m.Meshes()
		if err == nil || err.Error() != "test.mlir:"+tc.want {
			t.Errorf("%s: error %v, want %s", tc.src, err, tc.want)
		}
		if _, ok := err.(*Error); !ok {
			t.Errorf("%s: error of type %T, want *ir.Error", tc.src, err)
		}
	}
}

// allReduceWith builds a module with one all-reduce whose replica groups are
// given, after the given mesh definitions.
func allReduceWith(meshes, groups string) string {
	return meshes + `
%0 = "stablehlo.all_reduce"(%x) <{replica_groups = ` + groups + `, use_global_device_ids}> ({
^bb0(%a: tensor<f32>, %b: tensor<f32>):
  %1 = stablehlo.add %a, %b : tensor<f32>
  stablehlo.return %1 : tensor<f32>
}) : (tensor<8xf32>) -> tensor<8xf32>
`
}

func TestReplicaGroups(t *testing.T) {
	const xy = `sdy.mesh @xy = <["x"=2, "y"=4]>`
	for _, tc := range []struct {
		name, meshes, groups string
		want                 [][]int64
		spelling, mesh       string
	}{
		{"dense", "", `dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>`, [][]int64{{0, 1}, {2, 3}}, "dense", ""},
		{"dense ragged", "", `dense<[[0, 1, 2], [3, -1, -1]]> : tensor<2x3xi64>`, [][]int64{{0, 1, 2}, {3}}, "dense", ""},
		{"dense splat", "", `dense<5> : tensor<1x1xi64>`, [][]int64{{5}}, "dense", ""},
		{"dense splat rows", "", `dense<0> : tensor<2x1xi64>`, [][]int64{{0}, {0}}, "dense", ""},
		{"dense rank 1", "", `dense<[0, 1, 2]> : tensor<3xi64>`, [][]int64{{0, 1, 2}}, "dense", ""},
		{"dense hex i64", "", `dense<"0x0200000000000000030000000000000000000000000000000100000000000000"> : tensor<2x2xi64>`, [][]int64{{2, 3}, {0, 1}}, "dense", ""},
		{"dense hex i32", "", `dense<"0x00000000FFFFFFFF01000000FFFFFFFF"> : tensor<2x2xi32>`, [][]int64{{0}, {1}}, "dense", ""},
		{"dense hex splat", "", `dense<"0x07000000"> : tensor<1x2xi32>`, [][]int64{{7, 7}}, "dense", ""},
		{"dense multi-line", "", "dense<[[0, 1],\n    [2, 3]]> : tensor<2x2xi64>", [][]int64{{0, 1}, {2, 3}}, "dense", ""},
		{"empty", "", `dense<> : tensor<0x0xi64>`, nil, "dense", ""},
		{"named x", xy, `#stablehlo.replica_group_mesh_axes<mesh = @xy, axes = [#stablehlo.axis_ref<name = "x">]>`,
			[][]int64{{0, 4}, {1, 5}, {2, 6}, {3, 7}}, "mesh_axes", "xy"},
		{"named y", xy, `#stablehlo.replica_group_mesh_axes<mesh = @xy, axes = [#stablehlo.axis_ref<name = "y">]>`,
			[][]int64{{0, 1, 2, 3}, {4, 5, 6, 7}}, "mesh_axes", "xy"},
		{"named y x", xy, `#stablehlo.replica_group_mesh_axes<mesh = @xy, axes = [#stablehlo.axis_ref<name = "y">, #stablehlo.axis_ref<name = "x">]>`,
			[][]int64{{0, 4, 1, 5, 2, 6, 3, 7}}, "mesh_axes", "xy"},
		{"no axes", xy, `#stablehlo.replica_group_mesh_axes<mesh = @xy, axes = []>`,
			[][]int64{{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}}, "mesh_axes", "xy"},
		{"sub-axis major", xy, `#stablehlo.replica_group_mesh_axes<mesh = @xy, axes = [#stablehlo.axis_ref<name = "y", sub_axis_info = (1)2>]>`,
			[][]int64{{0, 2}, {1, 3}, {4, 6}, {5, 7}}, "mesh_axes", "xy"},
		{"sub-axis minor", xy, `#stablehlo.replica_group_mesh_axes<mesh = @xy, axes = [#stablehlo.axis_ref<name = "y", sub_axis_info = (2)2>]>`,
			[][]int64{{0, 1}, {2, 3}, {4, 5}, {6, 7}}, "mesh_axes", "xy"},
		{"sub-axis and axis", xy, `#stablehlo.replica_group_mesh_axes<mesh = @xy, axes = [#stablehlo.axis_ref<name = "x">, #stablehlo.axis_ref<name = "y", sub_axis_info = (2)2>]>`,
			[][]int64{{0, 1, 4, 5}, {2, 3, 6, 7}}, "mesh_axes", "xy"},
		{"shardy spelling", xy, `#stablehlo.replica_group_mesh_axes<mesh = @xy, axes = ["y":(1)2, "x"]>`,
			[][]int64{{0, 4, 2, 6}, {1, 5, 3, 7}}, "mesh_axes", "xy"},
		{"inline", "", `#stablehlo.replica_group_mesh_axes<mesh = #stablehlo.mesh<axes = [#stablehlo.mesh_axis<name = "x", size = 2>, #stablehlo.mesh_axis<name = "y", size = 4>]>, axes = [#stablehlo.axis_ref<name = "y", sub_axis_info = (1)2>]>`,
			[][]int64{{0, 2}, {1, 3}, {4, 6}, {5, 7}}, "mesh_axes", ""},
		{"inline device_ids", "", `#stablehlo.replica_group_mesh_axes<mesh = #stablehlo.mesh<axes = [#stablehlo.mesh_axis<name = "a", size = 2>, #stablehlo.mesh_axis<name = "b", size = 2>], device_ids = [0, 2, 1, 3]>, axes = [#stablehlo.axis_ref<name = "b">]>`,
			[][]int64{{0, 2}, {1, 3}}, "mesh_axes", ""},
		{"named device_ids", `sdy.mesh @t = <["a"=2, "b"=2], device_ids=[0, 2, 1, 3]>`, `#stablehlo.replica_group_mesh_axes<mesh = @t, axes = [#stablehlo.axis_ref<name = "a">]>`,
			[][]int64{{0, 1}, {2, 3}}, "mesh_axes", "t"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := mustParse(t, allReduceWith(tc.meshes, tc.groups))
			cs, err := m.Collectives()
			if err != nil {
				t.Fatal(err)
			}
			c := cs[0]
			if !reflect.DeepEqual(c.Groups, tc.want) || c.GroupSpelling != tc.spelling || c.Mesh != tc.mesh {
				t.Errorf("groups %v (%s, mesh %q), want %v (%s, mesh %q)", c.Groups, c.GroupSpelling, c.Mesh, tc.want, tc.spelling, tc.mesh)
			}
		})
	}
}

// TestUnresolvedMesh: mesh-axes groups may name a symbol that no mesh of the
// module defines (MLIR accepts that: StableHLO resolves it only to run the
// op); the collective then has no groups and says why.
func TestUnresolvedMesh(t *testing.T) {
	for _, meshes := range []string{"", `func.func private @nope()`, `"x.sym"() {sym_name = "nope", mesh = 3 : i64} : () -> ()`} {
		m := mustParse(t, allReduceWith(meshes, `#stablehlo.replica_group_mesh_axes<mesh = @nope, axes = [#stablehlo.axis_ref<name = "x">]>`))
		cs, err := m.Collectives()
		if err != nil {
			t.Fatalf("%q: %v", meshes, err)
		}
		c := cs[0]
		if c.Groups != nil || c.GroupSpelling != "mesh_axes" || c.Mesh != "nope" || c.Unresolved != "replica_groups: mesh @nope is not a mesh the module defines" {
			t.Errorf("%q: groups %v, spelling %q, mesh %q, unresolved %q", meshes, c.Groups, c.GroupSpelling, c.Mesh, c.Unresolved)
		}
	}
}

// TestGroupBudget: the device ids that groups expand to are bounded by the
// module's size, whatever the mesh says; collectives over the same axes
// share one expansion.
func TestGroupBudget(t *testing.T) {
	m := mustParse(t, allReduceWith(`sdy.mesh @big = <["x"=1048576, "y"=2048]>`, `#stablehlo.replica_group_mesh_axes<mesh = @big, axes = []>`))
	cs, err := m.Collectives()
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("replica_groups: 2147483648 device ids to expand, beyond what arc expands for a module of %d bytes (65536 + 1 per byte: %d ids in all)", len(m.Src), 65536+len(m.Src))
	if c := cs[0]; c.Groups != nil || c.Unresolved != want || c.GroupSpelling != "mesh_axes" || c.Mesh != "big" {
		t.Errorf("groups %v, unresolved %q, spelling %q, mesh %q; want no groups and %q", c.Groups, c.Unresolved, c.GroupSpelling, c.Mesh, want)
	}

	// A splat: dense groups too.
	m = mustParse(t, allReduceWith("", `dense<0> : tensor<100000x100000xi64>`))
	if cs, err = m.Collectives(); err != nil || cs[0].Groups != nil || cs[0].GroupSpelling != "dense" ||
		!strings.HasPrefix(cs[0].Unresolved, "replica_groups: 10000000000 device ids to expand, beyond what arc expands for a module of") {
		t.Errorf("huge splat: %v; %+v", err, cs)
	}

	// 200 all-reduces over the same axis of a 65536-device mesh: one
	// expansion of 65536 ids, within the budget of this 50 KB module.
	var b strings.Builder
	b.WriteString(`sdy.mesh @m = <["x"=256, "y"=256]>` + "\n")
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&b, `%%r%d = "stablehlo.all_reduce"(%%x) <{replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @m, axes = [#stablehlo.axis_ref<name = "y">]>}> ({
^bb0(%%a: tensor<f32>, %%b: tensor<f32>):
  stablehlo.return %%a : tensor<f32>
}) : (tensor<8xf32>) -> tensor<8xf32>
`, i)
	}
	m = mustParse(t, b.String())
	cs, err = m.Collectives()
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cs {
		if len(c.Groups) != 256 || len(c.Groups[0]) != 256 || c.Groups[1][0] != 256 || c.Unresolved != "" {
			t.Fatalf("all-reduce %d: %d groups, unresolved %q", i, len(c.Groups), c.Unresolved)
		}
		if &c.Groups[0][0] != &cs[0].Groups[0][0] {
			t.Fatalf("all-reduce %d has its own copy of the groups", i)
		}
	}
	// A second spelling is a second expansion: over the budget of this module.
	src := b.String() + strings.Replace(strings.Repeat(b.String()[strings.Index(b.String(), "%r1 ="):strings.Index(b.String(), "%r2 =")], 1), `name = "y"`, `name = "x"`, 1)
	cs, err = mustParse(t, src).Collectives()
	if err != nil {
		t.Fatal(err)
	}
	if 2*65536 <= 65536+len(src) {
		t.Fatalf("the module of %d bytes affords two expansions", len(src))
	}
	if last := cs[len(cs)-1]; last.Groups != nil || !strings.Contains(last.Unresolved, "65536 device ids to expand") {
		t.Errorf("the second expansion: %d groups, unresolved %q", len(last.Groups), last.Unresolved)
	}
}

func TestReplicaGroupErrors(t *testing.T) {
	const xy = `sdy.mesh @xy = <["x"=2, "y"=4]>`
	axes := func(refs string) string {
		return `#stablehlo.replica_group_mesh_axes<mesh = @xy, axes = [` + refs + `]>`
	}
	for _, tc := range []struct{ name, meshes, groups, want string }{
		{"no mesh", xy, `#stablehlo.replica_group_mesh_axes<axes = []>`, "no mesh given"},
		{"unknown axis", xy, axes(`#stablehlo.axis_ref<name = "z">`), `axis "z" is not in the mesh <["x"=2, "y"=4]>`},
		{"bad axis ref", xy, axes(`#stablehlo.axis_ref<name = y>`), `bad axis reference`},
		{"sub-axis too big", xy, axes(`#stablehlo.axis_ref<name = "y", sub_axis_info = (2)4>`), `sub-axis (2)4 does not divide axis "y" of size 4`},
		{"sub-axis not dividing", xy, axes(`#stablehlo.axis_ref<name = "y", sub_axis_info = (1)3>`), `sub-axis (1)3 does not divide axis "y" of size 4`},
		{"sub-axis zero", xy, axes(`#stablehlo.axis_ref<name = "y", sub_axis_info = (0)2>`), `bad sub-axis "(0)2"`},
		{"sub-axis syntax", xy, axes(`#stablehlo.axis_ref<name = "y", sub_axis_info = 12>`), `bad sub-axis "12"`},
		{"sub-axis number", xy, axes(`"y":(a)2`), `bad sub-axis "(a)2"`},
		{"sub-axis huge", xy, axes(`#stablehlo.axis_ref<name = "y", sub_axis_info = (4294967296)4294967296>`), `does not divide axis "y"`},
		{"axis twice", xy, axes(`#stablehlo.axis_ref<name = "y">, #stablehlo.axis_ref<name = "y", sub_axis_info = (1)2>`), `name part of axis "y" twice`},
		{"sub-axes overlap", xy, axes(`"y":(1)2, "y":(1)4`), `name part of axis "y" twice`},
		{"bad inline mesh", "", `#stablehlo.replica_group_mesh_axes<mesh = #stablehlo.mesh<axes = [#stablehlo.mesh_axis<name = "x", size = -2>]>, axes = []>`, "bad mesh axis"},
		{"inline ids", "", `#stablehlo.replica_group_mesh_axes<mesh = #stablehlo.mesh<axes = [#stablehlo.mesh_axis<name = "x", size = 2>], device_ids = [0]>, axes = []>`, "1 device ids for 2 devices"},
		{"dense rank 3", "", `dense<0> : tensor<1x1x1xi64>`, "expected a static tensor of rank 1 or 2"},
		{"dense overflow", "", `dense<0> : tensor<4294967296x4294967296xi64>`, "expected a static tensor"},
		{"unknown spelling", "", `[[0, 1]]`, "unknown spelling"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := mustParse(t, allReduceWith(tc.meshes, tc.groups))
			_, err := m.Collectives()
			e, ok := err.(*Error)
			if !ok {
				t.Fatalf("error %v (%T), want an *ir.Error", err, err)
			}
			if e.Line != 2 || e.Col != 1 || !strings.Contains(e.Msg, "replica_groups: ") || !strings.Contains(e.Msg, tc.want) {
				t.Errorf("error %q, want one at 2:1 about replica_groups: ...%s", err, tc.want)
			}
		})
	}
}

func TestTensorType(t *testing.T) {
	for _, tc := range []struct {
		in          string
		shape       []int64
		elem        string
		elems, size int64
	}{
		{"tensor<8x1024xf16>", []int64{8, 1024}, "f16", 8192, 16384},
		{"tensor<f32>", nil, "f32", 1, 4},
		{" tensor<2x3xbf16> ", []int64{2, 3}, "bf16", 6, 12},
		{"tensor<0x4xf32>", []int64{0, 4}, "f32", 0, 0},
		{"tensor<?x4xf32>", []int64{-1, 4}, "f32", -1, -1},
		{"tensor<4xcomplex<f32>>", []int64{4}, "complex<f32>", 4, 32},
		{"tensor<4xindex>", []int64{4}, "index", 4, -1},
		{"tensor<2x2xi1>", []int64{2, 2}, "i1", 4, 4},
		{"tensor<16xf8E4M3FN>", []int64{16}, "f8E4M3FN", 16, 16},
		{"tensor<8x8xf32, #sparse>", []int64{8, 8}, "f32", 64, 256},
		{"tensor<3x!quant.uniform<i8:f32, 0.5>>", []int64{3}, "!quant.uniform<i8:f32, 0.5>", 3, 3},
		{"tensor<3x!quant.uniform<u4<0:15>:f32, 0.5>>", []int64{3}, "!quant.uniform<u4<0:15>:f32, 0.5>", 3, 2},
		// Sub-byte elements packed as XLA lays them out: ceil(elements * bits / 8).
		{"tensor<3xi4>", []int64{3}, "i4", 3, 2},
		{"tensor<5xi2>", []int64{5}, "i2", 5, 2},
		{"tensor<4xf6E2M3FN>", []int64{4}, "f6E2M3FN", 4, 3},
		{"tensor<1xf4E2M1FN>", []int64{1}, "f4E2M1FN", 1, 1},
		{"tensor<4xf8E8M0FNU>", []int64{4}, "f8E8M0FNU", 4, 4},
		{"tensor<9xi1>", []int64{9}, "i1", 9, 9}, // a byte per boolean (XLA's PRED)
		{"tensor<4611686018427387904x2xi4>", []int64{1 << 62, 2}, "i4", -1, -1},
		{"tensor<2305843009213693952x2xi2>", []int64{1 << 61, 2}, "i2", 1 << 62, 1 << 60},
		{"tensor<4xtf32>", []int64{4}, "tf32", 4, -1},
		{"tensor<4xf8E9M9>", []int64{4}, "f8E9M9", 4, -1},
		{"tensor<4xi3>", []int64{4}, "i3", 4, -1},
		{"tensor<4611686018427387904x4xf32>", []int64{1 << 62, 4}, "f32", -1, -1},
		{"tensor<1152921504606846976x4xf32>", []int64{1 << 60, 4}, "f32", 1 << 62, -1},
	} {
		tt, err := ParseTensorType(tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if !reflect.DeepEqual(tt.Shape, tc.shape) || tt.Elem != tc.elem || tt.Elems() != tc.elems || tt.Bytes() != tc.size {
			t.Errorf("%s: %v %q %d elems %d bytes, want %v %q %d %d", tc.in, tt.Shape, tt.Elem, tt.Elems(), tt.Bytes(), tc.shape, tc.elem, tc.elems, tc.size)
		}
	}
	for _, bad := range []string{"tensor<>", "tensor<4x>", "tensor<99999999999999999999xf32>", "vector<4xf32>", "tensor<4xf32", "f32", "tensor<4x?>"} {
		if tt, err := ParseTensorType(bad); err == nil {
			t.Errorf("%s: parsed as %+v, want an error", bad, tt)
		}
	}
	if s := (TensorType{Shape: []int64{-1, 2}, Elem: "f16"}).String(); s != "tensor<?x2xf16>" {
		t.Errorf("String() = %s", s)
	}
	if s := (TensorType{Elem: "f16"}).ShapeString(); s != "scalar" {
		t.Errorf("ShapeString() of a scalar = %s", s)
	}
	if s := (TensorType{Shape: []int64{-1, 3}}).ShapeString(); s != "?x3" {
		t.Errorf("ShapeString() = %s", s)
	}
}

func TestPromotable(t *testing.T) {
	for _, tc := range []struct {
		from, to string
		want     bool
	}{
		{"f32", "f32", true}, {"f32", "f64", true}, {"f16", "f32", true}, {"bf16", "f32", true}, {"f8E4M3FN", "bf16", true},
		{"f64", "f32", false}, {"f32", "bf16", false}, {"f32", "i32", false}, {"i32", "f32", false},
		{"i8", "i32", true}, {"ui8", "i16", true}, {"si32", "i64", true}, {"i64", "i32", false},
		{"i1", "i1", true}, {"i1", "i8", false}, {"i8", "i1", false},
		{"complex<f32>", "complex<f64>", true}, {"complex<f64>", "complex<f32>", false}, {"complex<f32>", "f64", false},
		{"!quant.uniform<i8:f32, 2.000000e+00:15>", "!quant.uniform<i16:f32, 2.000000e+00:15>", true},
		{"!quant.uniform<i8<-127:127>:f32, 0.5>", "!quant.uniform<i32:f32, 0.5>", true},
		{"!quant.uniform<i16:f32, 2.0>", "!quant.uniform<i8:f32, 2.0>", false},
		{"!quant.uniform<i8:f32, 2.0>", "!quant.uniform<i16:bf16, 2.0>", false},
		{"index", "i64", false}, {"!x.y", "!x.z", false},
	} {
		if got := Promotable(tc.from, tc.to); got != tc.want {
			t.Errorf("Promotable(%s, %s) = %v, want %v", tc.from, tc.to, got, tc.want)
		}
	}
	for _, tc := range []struct {
		a, b []int64
		want bool
	}{
		{nil, nil, true}, {[]int64{4}, []int64{4}, true}, {[]int64{4}, []int64{-1}, true}, {[]int64{-1, 2}, []int64{3, -1}, true},
		{[]int64{4}, []int64{8}, false}, {[]int64{4}, []int64{4, 1}, false}, {[]int64{}, []int64{-1}, false},
	} {
		if got := CompatibleShapes(tc.a, tc.b); got != tc.want {
			t.Errorf("CompatibleShapes(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestElemBits: every element type of StableHLO's spec (TensorElementType)
// has its width, so that a static tensor of it has a size.
func TestElemBits(t *testing.T) {
	for elem, bits := range map[string]int{
		"i1": 1, "i2": 2, "i4": 4, "i8": 8, "i16": 16, "i32": 32, "i64": 64,
		"si2": 2, "si4": 4, "si8": 8, "si16": 16, "si32": 32, "si64": 64,
		"ui2": 2, "ui4": 4, "ui8": 8, "ui16": 16, "ui32": 32, "ui64": 64,
		"f4E2M1FN": 4, "f6E2M3FN": 6, "f6E3M2FN": 6, "f8E3M4": 8, "f8E4M3": 8,
		"f8E4M3FN": 8, "f8E4M3FNUZ": 8, "f8E4M3B11FNUZ": 8, "f8E5M2": 8,
		"f8E5M2FNUZ": 8, "f8E8M0FNU": 8, "bf16": 16, "f16": 16, "f32": 32, "f64": 64,
		"complex<f32>": 64, "complex<f64>": 128, "complex < f64 >": 128,
		"!quant.uniform<i8:f32, 1.0>": 8, "!quant.uniform<u4:f32, 1.0>": 4, "!quant.uniform<i16<-10:10>:f32:0, {1.0, 2.0}>": 16,
		"index": 0, "tf32": 0, "i3": 0, "f8E9M9": 0, "!quant.uniform<i1:f32, 1.0>": 0, "": 0,
	} {
		if got := ElemBits(elem); got != bits {
			t.Errorf("ElemBits(%s) = %d, want %d", elem, got, bits)
		}
		want := int64(bits / 8)
		if bits == 1 {
			want = 1
		} else if bits%8 != 0 {
			want = 0
		}
		if got := ElemBytes(elem); got != want {
			t.Errorf("ElemBytes(%s) = %d, want %d", elem, got, want)
		}
	}
}
