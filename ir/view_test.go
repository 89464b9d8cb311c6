package ir

import (
	"reflect"
	"strings"
	"testing"
)

// opAt returns the first op that starts on the given line.
func opAt(t testing.TB, m *Module, line int) *Op {
	t.Helper()
	var found *Op
	m.Walk(func(op *Op) bool {
		if m.Position(int(op.Start)).Line == line {
			found = op
			return false
		}
		return true
	})
	if found == nil {
		t.Fatalf("no op starts on line %d", line)
	}
	return found
}

func TestInfo(t *testing.T) {
	for _, tc := range []struct {
		file string
		want Info
	}{
		{"../testdata/fixtures/goxla_allreduce_4rep.mlir", Info{"tp_block", 4, 0}},
		{"../testdata/fixtures/goxla_misc_collectives.mlir", Info{"misc", 8, 0}},
		{"../testdata/fixtures/jax_dp2_tp4_8dev.mlir", Info{"jit_dp_tp", 1, 8}},
		{"../testdata/fixtures/jax_mixed_collectives_f32_2dev.mlir", Info{"jit_reds", 1, 2}},
		{"../testdata/fixtures/jax_tp_mlp_bf16_2dev.mlir", Info{"jit_tp_mlp", 1, 2}},
		{"testdata/generic.mlir", Info{"generic", 2, 1}},
		{"testdata/attributes.mlir", Info{"attrs", 1, 2}},
		{"testdata/comments.mlir", Info{"comments", 0, 0}},
		{"testdata/empty_module.mlir", Info{}},
	} {
		if got := parseFile(t, tc.file).Info(); got != tc.want {
			t.Errorf("%s: Info() = %+v, want %+v", tc.file, got, tc.want)
		}
	}
	for src, want := range map[string]Info{
		"":                             {},
		"#loc = loc(unknown)\n":        {},
		`module @"quoted" {` + "\n}\n": {Name: "quoted"},
		`builtin.module @b attributes {mhlo.num_replicas = 3} {` + "\n}\n": {Name: "b", NumReplicas: 3},
		// Not a number: ignored.
		`module attributes {stablehlo.num_replicas = "x", stablehlo.num_partitions = 2 : i64} {` + "\n}\n": {NumPartitions: 2},
	} {
		if got := mustParse(t, src).Info(); got != want {
			t.Errorf("%q: Info() = %+v, want %+v", src, got, want)
		}
	}
}

func TestFuncs(t *testing.T) {
	m := parseFile(t, "testdata/pretty.mlir")
	var got []string
	for _, f := range m.Funcs() {
		vis := "private"
		if f.Public {
			vis = "public"
		}
		got = append(got, vis+" "+f.Name+" "+m.Position(int(f.Op.Start)).String())
	}
	want := []string{"public main 2:3", "private helper 25:3", "private sink 30:3", "private callee 33:3"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Funcs() = %q, want %q", got, want)
	}
	fs := parseFile(t, "../testdata/fixtures/goxla_allreduce_4rep.mlir").Funcs()
	if len(fs) != 1 || fs[0].Name != "main" || !fs[0].Public {
		t.Errorf("go-xla Funcs() = %+v", fs)
	}
}

func TestOpViews(t *testing.T) {
	type view struct {
		name      string
		generic   bool
		operands  []string
		ins, outs []string
		attrs     []Attr
	}
	for _, tc := range []struct {
		file string
		line int
		want view
	}{
		{"testdata/generic.mlir", 5, view{"stablehlo.all_reduce", true, []string{"%x", "%y"},
			[]string{"tensor<4xf32>", "tensor<4xf32>"}, []string{"tensor<4xf32>", "tensor<4xf32>"},
			[]Attr{{"channel_handle", "#stablehlo.channel_handle<handle = 7, type = 1>"}, {"replica_groups", "dense<[[0, 1]]> : tensor<1x2xi64>"}}}},
		{"testdata/generic.mlir", 10, view{"stablehlo.constant", true, nil, nil, []string{"tensor<4xf32>"},
			[]Attr{{"value", "dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>"}}}},
		{"testdata/generic.mlir", 11, view{"stablehlo.add", true, []string{"%0#0", "%2"},
			[]string{"tensor<4xf32>", "tensor<4xf32>"}, []string{"tensor<4xf32>"},
			[]Attr{{"mhlo.frontend_attributes", `{_xla_note = "a \"quoted\" {brace} [bracket] <angle> \\ back"}`}}}},
		{"testdata/generic.mlir", 13, view{"stablehlo.case", true, []string{"%c"}, []string{"tensor<i32>"}, []string{"tensor<4xf32>"}, nil}},
		{"testdata/generic.mlir", 18, view{"stablehlo.return", true, []string{"%5", "%0#1"}, []string{"tensor<4xf32>", "tensor<4xf32>"}, nil, nil}},
		{"testdata/attributes.mlir", 4, view{"stablehlo.all_reduce", true, []string{"%0"}, []string{"tensor<2x2xi64>"}, []string{"tensor<2x2xi64>"},
			[]Attr{{"channel_handle", "#stablehlo.channel_handle<handle = 5, type = 1>"}, {"replica_groups", `dense<"0x00000000000000000100000000000000"> : tensor<1x2xi64>`},
				{"quoted.name", `"value, with = signs"`}, {"use_global_device_ids", ""}}}},
		// A comment inside the dictionary holds an unbalanced '[' and a quote.
		{"testdata/comments.mlir", 8, view{"stablehlo.all_reduce", true, []string{"%0"}, []string{"tensor<f32>"}, []string{"tensor<f32>"},
			[]Attr{{"replica_groups", "dense<[[0]]> : tensor<1x1xi64>"}}}},
		{"testdata/locations.mlir", 6, view{"stablehlo.multiply", true, []string{"%0", "%0"}, []string{"tensor<4xf32>", "tensor<4xf32>"}, []string{"tensor<4xf32>"}, nil}},
		// Pretty forms.
		{"testdata/locations.mlir", 5, view{"stablehlo.add", false, []string{"%arg0", "%arg1"}, nil, []string{"tensor<4xf32>"}, nil}},
		{"testdata/pretty.mlir", 1, view{"module", false, nil, nil, nil,
			[]Attr{{"mhlo.num_partitions", "1 : i32"}, {"mhlo.num_replicas", "1 : i32"}}}},
		{"testdata/pretty.mlir", 4, view{"stablehlo.reduce", false, []string{"%arg0", "%cst"},
			[]string{"tensor<4x8xf32>", "tensor<f32>"}, []string{"tensor<4xf32>"}, nil}},
		{"testdata/pretty.mlir", 11, view{"stablehlo.while", false, []string{"%c", "%0"}, nil, []string{"tensor<i64>", "tensor<4xf32>"}, nil}},
		{"testdata/pretty.mlir", 13, view{"stablehlo.compare", false, []string{"%iterArg", "%arg1"},
			[]string{"tensor<i64>", "tensor<i64>"}, []string{"tensor<i1>"}, nil}},
		{"testdata/pretty.mlir", 21, view{"stablehlo.multiply", false, []string{"%2#1", "%2#1"}, nil, []string{"tensor<4xf32>"}, nil}},
		{"testdata/pretty.mlir", 23, view{"return", false, []string{"%3", "%4"}, nil, []string{"tensor<4xf32>", "tensor<i64>"}, nil}},
		{"testdata/pretty.mlir", 25, view{"func.func", false, nil, nil, nil, []Attr{{"llvm.emit_c_interface", ""}}}},
		{"testdata/pretty.mlir", 26, view{"call", false, []string{"%arg0"}, []string{"tensor<f32>"}, []string{"tensor<f32>"}, nil}},
		{"testdata/pretty.mlir", 31, view{"return", false, nil, nil, nil, nil}},
		{"../testdata/fixtures/jax_dp2_tp4_8dev.mlir", 8, view{"sdy.manual_computation", false, []string{"%arg0", "%arg1", "%arg2"},
			[]string{"tensor<64x1024xf16>", "tensor<1024x4096xf16>", "tensor<8xf32>"}, []string{"tensor<64x1024xf16>", "tensor<8xf32>", "tensor<8xf32>"}, nil}},
		{"../testdata/fixtures/jax_dp2_tp4_8dev.mlir", 12, view{"stablehlo.add", false, []string{"%arg6", "%arg7"}, nil, []string{"tensor<f16>"}, nil}},
		// The comment after the op mentions %3#0: it is not an operand.
		{"../testdata/fixtures/jax_dp2_tp4_8dev.mlir", 20, view{"stablehlo.multiply", false, []string{"%3#0", "%3#0"}, nil, []string{"tensor<8xf32>"}, nil}},
		{"../testdata/fixtures/jax_dp2_tp4_8dev.mlir", 21, view{"sdy.return", false, []string{"%2", "%3#0", "%4"}, nil,
			[]string{"tensor<32x1024xf16>", "tensor<8xf32>", "tensor<8xf32>"}, nil}},
		// Pretty ops keep their attributes in their own syntax: only "attributes {...}" is a dictionary.
		{"../testdata/fixtures/jax_tp_mlp_bf16_2dev.mlir", 2, view{"sdy.mesh", false, nil, nil, nil, nil}},
	} {
		m := parseFile(t, tc.file)
		op := opAt(t, m, tc.line)
		ins, outs, ok := m.FuncType(op)
		got := view{op.Name, op.Generic, m.Operands(op), ins, outs, m.Attrs(op)}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s:%d:\n got %#v\nwant %#v", tc.file, tc.line, got, tc.want)
		}
		if ok != (tc.want.ins != nil || tc.want.outs != nil) {
			t.Errorf("%s:%d: FuncType ok = %v", tc.file, tc.line, ok)
		}
	}
}

func TestAttr(t *testing.T) {
	m := parseFile(t, "testdata/attributes.mlir")
	op := opAt(t, m, 3)
	for name, want := range map[string]string{
		"call_target_name": `"x"`,
		"backend_config":   `{nested = {deeper = [1, 2, {x = "}"}], angle = #foo<a<b<c>>>}, s = "esc \\ \" \n \t end"}`,
		"has_side_effect":  "true",
		"operand_layouts":  "[dense<[1, 0]> : tensor<2xindex>]",
	} {
		if got, ok := m.Attr(op, name); !ok || got != want {
			t.Errorf("Attr(%s) = %q, %v; want %q", name, got, ok, want)
		}
	}
	if v, ok := m.Attr(op, "nested"); ok {
		t.Errorf("Attr(nested) found %q inside a nested dictionary", v)
	}
	// The module's own dictionary holds a string with escaped quotes.
	mod := m.ModuleOp()
	if v, _ := m.Attr(mod, "mhlo.frontend_attributes"); v != `{xla.sdy.meshes = "{mesh = #sdy.mesh<[\22x\22=2]>}"}` {
		t.Errorf("module frontend attributes = %q", v)
	}
}

func TestParseDict(t *testing.T) {
	got := parseDict(` a = 1 : i64, "b.c" = "x, y", unit, d = {e = [1, 2], f = <3, 4>}, g = array<i64: 1, 2>, ,`)
	want := []Attr{{"a", "1 : i64"}, {"b.c", `"x, y"`}, {"unit", ""}, {"d", "{e = [1, 2], f = <3, 4>}"}, {"g", "array<i64: 1, 2>"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parseDict = %q, want %q", got, want)
	}
}

func TestLayout(t *testing.T) {
	for _, tc := range []struct {
		file string
		line int
		// the text of each part; "" when absent
		operands, props, dict, typ string
	}{
		{"../testdata/fixtures/goxla_allreduce_4rep.mlir", 3, "(%x)", "", "{ replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64> }",
			": (tensor<8x1024xf16>) -> tensor<8x1024xf16>"},
		{"../testdata/fixtures/jax_dp2_tp4_8dev.mlir", 10, "(%1)",
			`<{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = [#stablehlo.axis_ref<name = "tp">]>, use_global_device_ids}>`,
			"", ": (tensor<32x1024xf16>) -> tensor<32x1024xf16>"},
		{"testdata/generic.mlir", 10, "()", "<{value = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>}>", "", ": () -> tensor<4xf32>"},
		{"testdata/comments.mlir", 8, "(%0)", "", "{\n      // a comment inside a multi-line dictionary: {\"not\" = [an, entry\n      replica_groups = dense<[[0]]> : tensor<1x1xi64>\n    }",
			": (tensor<f32>) -> tensor<f32>"},
		{"testdata/locations.mlir", 6, "(%0, %0)", "", "", ": (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>"},
	} {
		m := parseFile(t, tc.file)
		op := opAt(t, m, tc.line)
		l, err := m.Layout(op)
		if err != nil {
			t.Fatalf("%s:%d: %v", tc.file, tc.line, err)
		}
		part := func(open, close int) string {
			if open < 0 && close < 0 {
				return ""
			}
			if open < 0 || close < open {
				return "<bad span>"
			}
			return m.Src[open : close+1]
		}
		got := []string{part(l.OperandsOpen, l.OperandsClose), part(l.PropsOpen, l.PropsClose), part(l.DictOpen, l.DictClose), part(l.TypeColon, l.TypeEnd-1)}
		want := []string{tc.operands, tc.props, tc.dict, tc.typ}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:%d: layout parts\n got %q\nwant %q", tc.file, tc.line, got, want)
		}
	}
	m := parseFile(t, "testdata/pretty.mlir")
	if _, err := m.Layout(opAt(t, m, 13)); err == nil || !strings.Contains(err.Error(), "13:7: stablehlo.compare is not in generic form") {
		t.Errorf("Layout of a pretty op: %v", err)
	}
}

func TestAttrValueSpan(t *testing.T) {
	m := parseFile(t, "testdata/attributes.mlir")
	for _, tc := range []struct {
		line       int
		name, want string
	}{
		{3, "api_version", "4 : i32"},
		{3, "backend_config", `{nested = {deeper = [1, 2, {x = "}"}], angle = #foo<a<b<c>>>}, s = "esc \\ \" \n \t end"}`},
		{3, "result_layouts", "[dense<[1, 0]> : tensor<2xindex>]"},
		{4, "channel_handle", "#stablehlo.channel_handle<handle = 5, type = 1>"},
		{4, "quoted.name", `"value, with = signs"`},
		{4, "replica_groups", `dense<"0x00000000000000000100000000000000"> : tensor<1x2xi64>`},
		{4, "use_global_device_ids", ""}, // a unit attribute has no value
		{4, "nested", ""},
	} {
		op := opAt(t, m, tc.line)
		start, end, ok := m.AttrValueSpan(op, tc.name)
		got := ""
		if ok {
			got = m.Src[start:end]
		}
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("line %d %s: %q, %v; want %q", tc.line, tc.name, got, ok, tc.want)
		}
	}
	// A value that also occurs in its name ("a1 = 1") and properties.
	m = mustParse(t, `%0 = "x.y"(%a) <{a1 = 1, b = 2}> {c2 = 2} : (tensor<f32>) -> tensor<f32>`)
	op := m.Body.Ops[0]
	for name, want := range map[string]int{"a1": strings.Index(m.Src, "1,"), "b": strings.Index(m.Src, "2}>"), "c2": strings.LastIndex(m.Src, "2}")} {
		start, end, ok := m.AttrValueSpan(op, name)
		if !ok || start != want || end != want+1 {
			t.Errorf("%s: span %d..%d %v, want %d..%d", name, start, end, ok, want, want+1)
		}
	}
	// The dictionary with a comment.
	m = parseFile(t, "testdata/comments.mlir")
	if s, e, ok := m.AttrValueSpan(opAt(t, m, 8), "replica_groups"); !ok || m.Src[s:e] != "dense<[[0]]> : tensor<1x1xi64>" {
		t.Errorf("replica_groups after a comment: %q %v", m.Src[s:e], ok)
	}
}

func TestSetAttrs(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
		names, values   []string
	}{
		{"add to a dictionary",
			`%0 = "x.y"(%a) {a = 1} : (tensor<f32>) -> tensor<f32>`,
			`%0 = "x.y"(%a) {a = 1, arc.lowering = "ring"} : (tensor<f32>) -> tensor<f32>`,
			[]string{"arc.lowering"}, []string{`"ring"`}},
		{"replace and add",
			`%0 = "x.y"(%a) {a = 1, b = 2} : (tensor<f32>) -> tensor<f32>`,
			`%0 = "x.y"(%a) {a = 10, b = 2, c = 3} : (tensor<f32>) -> tensor<f32>`,
			[]string{"a", "c"}, []string{"10", "3"}},
		{"no dictionary: after the properties",
			`%0 = "x.y"(%a) <{p = 1}> : (tensor<f32>) -> tensor<f32> loc(#l)`,
			`%0 = "x.y"(%a) <{p = 1}> {arc.reason = "r"} : (tensor<f32>) -> tensor<f32> loc(#l)`,
			[]string{"arc.reason"}, []string{`"r"`}},
		{"replace a property",
			`%0 = "x.y"(%a) <{p = 1}> : (tensor<f32>) -> tensor<f32>`,
			`%0 = "x.y"(%a) <{p = 2}> : (tensor<f32>) -> tensor<f32>`,
			[]string{"p"}, []string{"2"}},
		{"empty dictionary",
			`%0 = "x.y"(%a) {} : (tensor<f32>) -> tensor<f32>`,
			`%0 = "x.y"(%a) {k = 1} : (tensor<f32>) -> tensor<f32>`,
			[]string{"k"}, []string{"1"}},
		{"multi-line dictionary keeps its layout",
			"%0 = \"x.y\"(%a) {\n  a = 1\n} : (tensor<f32>) -> tensor<f32>",
			"%0 = \"x.y\"(%a) {\n  a = 1, k = 1\n} : (tensor<f32>) -> tensor<f32>",
			[]string{"k"}, []string{"1"}},
		{"after a region",
			"%0 = \"x.y\"(%a) ({\n^bb0:\n  \"x.r\"() : () -> ()\n}) : (tensor<f32>) -> tensor<f32>",
			"%0 = \"x.y\"(%a) ({\n^bb0:\n  \"x.r\"() : () -> ()\n}) {k = 1} : (tensor<f32>) -> tensor<f32>",
			[]string{"k"}, []string{"1"}},
	} {
		m := mustParse(t, tc.src)
		ed := m.Edit()
		if err := ed.SetAttrs(m.Body.Ops[0], tc.names, tc.values); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		out, err := ed.Apply()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if out.Src != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, out.Src, tc.want)
		}
	}
	m := mustParse(t, "%0 = stablehlo.add %a, %b : tensor<f32>")
	if err := m.Edit().SetAttrs(m.Body.Ops[0], []string{"k"}, []string{"1"}); err == nil {
		t.Errorf("SetAttrs on a pretty op: no error")
	}
}

func TestGenericWith(t *testing.T) {
	m := parseFile(t, "../testdata/fixtures/jax_dp2_tp4_8dev.mlir")
	op := opAt(t, m, 15)
	text, err := m.GenericWith(op, []int{1}, func(s string) string { return s + "_r" })
	if err != nil {
		t.Fatal(err)
	}
	want := `"stablehlo.all_reduce"(%arg5_r) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = [#stablehlo.axis_ref<name = "dp">]>, use_global_device_ids}> ({
      ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
        %5 = stablehlo.add %arg6, %arg7 : tensor<f32>
        stablehlo.return %5 : tensor<f32>
      }) : (tensor<8xf32>) -> tensor<8xf32>`
	if text != want {
		t.Errorf("GenericWith keep [1]:\n%s\nwant\n%s", text, want)
	}
	text, err = m.GenericWith(op, []int{1, 0}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(text, `"stablehlo.all_reduce"(%arg5, %arg5) <{`) || !strings.HasSuffix(text, "}) : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)") {
		t.Errorf("GenericWith keep [1 0]:\n%s", text)
	}
	// The location after the type stays.
	op = opAt(t, m, 10)
	if text, err = m.GenericWith(op, []int{0}, nil); err != nil || !strings.HasSuffix(text, ": (tensor<32x1024xf16>) -> tensor<32x1024xf16> loc(#loc4)") {
		t.Errorf("GenericWith with a loc: %q, %v", text, err)
	}
	if _, err := m.GenericWith(op, []int{1}, nil); err == nil {
		t.Errorf("GenericWith out of range: no error")
	}
	if _, err := m.GenericWith(opAt(t, m, 9), []int{0}, nil); err == nil {
		t.Errorf("GenericWith on a pretty op: no error")
	}
	m = mustParse(t, `%0 = "x.y"(%a) : (tensor<f32>) -> tensor<f16>`)
	if _, err := m.GenericWith(m.Body.Ops[0], []int{0}, nil); err != nil {
		t.Errorf("GenericWith with a changed type: %v", err) // types need only mirror in number
	}
	m = mustParse(t, `%0 = "x.y"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>`)
	if _, err := m.GenericWith(m.Body.Ops[0], []int{0}, nil); err == nil || !strings.Contains(err.Error(), "types do not mirror operands") {
		t.Errorf("GenericWith on an op whose results do not mirror its operands: %v", err)
	}
}

// TestCompactType: blanks go, but a blank between two words separates
// tokens ("i 2" is no i2); a dimension's x needs none.
func TestCompactType(t *testing.T) {
	for in, want := range map[string]string{
		"tensor<4xf32, #enc>":             "tensor<4xf32,#enc>",
		"tensor<4 x f32>":                 "tensor<4xf32>",
		"tensor< 2x3 x bf16 >":            "tensor<2x3xbf16>",
		"tensor<1024xi 2>":                "tensor<1024xi 2>",
		"tensor<f 32>":                    "tensor<f 32>",
		`!quant.uniform<i8:f32, 0.5 : 3>`: `!quant.uniform<i8:f32,0.5:3>`,
		`tensor<4xf32, #a<"x  y">>`:       `tensor<4xf32,#a<"x  y">>`,
		"tensor<4xf32>":                   "tensor<4xf32>",
		"tensor<4x\n  f32>":               "tensor<4xf32>",
	} {
		if got := CompactType(in); got != want {
			t.Errorf("CompactType(%q) = %q, want %q", in, got, want)
		}
	}
}
