package ir

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Mesh is a named device mesh: "sdy.mesh @mesh = <["dp"=2, "tp"=4]>", or an
// inline "#stablehlo.mesh<axes = [...]>".
type Mesh struct {
	Name      string // without '@'; "" for an inline mesh
	Axes      []MeshAxis
	DeviceIDs []int64 // nil: the devices are 0..N-1 in row-major order
}

// MeshAxis is one named axis of a mesh.
type MeshAxis struct {
	Name string
	Size int64
}

// Devices is the number of devices of the mesh, or -1 when it does not fit
// in an int64.
func (ms *Mesh) Devices() int64 {
	n := int64(1)
	for _, a := range ms.Axes {
		if a.Size <= 0 || n > math.MaxInt64/a.Size {
			return -1
		}
		n *= a.Size
	}
	return n
}

// device returns the id of the device at a row-major linear index.
func (ms *Mesh) device(linear int64) int64 {
	if ms.DeviceIDs != nil {
		return ms.DeviceIDs[linear]
	}
	return linear
}

// String prints the mesh as sdy prints it.
func (ms *Mesh) String() string {
	parts := make([]string, len(ms.Axes))
	for i, a := range ms.Axes {
		parts[i] = Quote(a.Name) + "=" + strconv.FormatInt(a.Size, 10)
	}
	s := "[" + strings.Join(parts, ", ") + "]"
	if ms.DeviceIDs != nil {
		s += ", device_ids=" + formatInts(ms.DeviceIDs)
	}
	return "<" + s + ">"
}

func formatInts(v []int64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = strconv.FormatInt(x, 10)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// Meshes returns the module's mesh definitions by name: sdy.mesh ops, in
// their pretty form (sdy.mesh @m = <["x"=2]>, or = #sdy.mesh<...>) or generic
// form ("sdy.mesh"() <{mesh = #sdy.mesh<...>, sym_name = "m"}>), and, as
// StableHLO's reference interpreter resolves mesh symbols, any op with a
// sym_name and a mesh or stablehlo.mesh attribute (#stablehlo.mesh<...> or
// {axes = [{name = "x", size = 2}], device_ids = ...}).
func (m *Module) Meshes() (map[string]*Mesh, error) {
	return m.meshes(m.newBudget())
}

func (m *Module) meshes(b *budget) (map[string]*Mesh, error) {
	meshes := map[string]*Mesh{}
	var err error
	m.Walk(func(op *Op) bool {
		var name string
		var ms *Mesh
		if op.Name == "sdy.mesh" && !op.Generic {
			name, ms, err = m.prettyMesh(op, b)
		} else if op.Generic && (op.Name == "sdy.mesh" || m.ownTextHas(op, "sym_name")) {
			name, ms, err = m.genericMesh(op, b)
		}
		if err != nil {
			return false
		}
		if ms != nil {
			ms.Name = name
			meshes[name] = ms
		}
		return true
	})
	return meshes, err
}

// prettyMesh reads "sdy.mesh @name = <...>" or "sdy.mesh @name = #sdy.mesh<...>".
func (m *Module) prettyMesh(op *Op, b *budget) (string, *Mesh, error) {
	name, rest, ok := leadingSymbol(strings.TrimSpace(m.header(op)))
	if !ok {
		return "", nil, m.Errorf(int(op.Start), "sdy.mesh: expected @name")
	}
	body, ok := strings.CutPrefix(strings.TrimSpace(rest), "=")
	if !ok || name == "" {
		return "", nil, m.Errorf(int(op.Start), "sdy.mesh: expected @name =")
	}
	body = strings.TrimPrefix(strings.TrimSpace(body), "#sdy.mesh")
	body = strings.TrimSpace(body)
	if !strings.HasPrefix(body, "<") {
		return "", nil, m.Errorf(int(op.Start), "sdy.mesh @%s: expected '<'", name)
	}
	close := matching(body, 0)
	if close < 0 {
		return "", nil, m.Errorf(int(op.Start), "sdy.mesh @%s: '<' is not closed", name)
	}
	ms, err := parseSdyMesh(body[1:close], b)
	if err != nil {
		return "", nil, m.Errorf(int(op.Start), "sdy.mesh @%s: %v", name, err)
	}
	return name, ms, nil
}

// genericMesh reads a generic op that defines a mesh symbol: nil for one
// that does not.
func (m *Module) genericMesh(op *Op, b *budget) (string, *Mesh, error) {
	attrs := m.Attrs(op)
	sym, ok := AttrValue(attrs, "sym_name")
	if !ok {
		return "", nil, nil
	}
	name := unquote(sym)
	for _, key := range []string{"mesh", "stablehlo.mesh"} {
		v, ok := AttrValue(attrs, key)
		if !ok {
			continue
		}
		ms, err := parseMeshValue(v, b)
		if err != nil {
			if op.Name != "sdy.mesh" {
				return "", nil, nil // not a mesh arc knows: the symbol stays unresolved
			}
			return "", nil, m.Errorf(int(op.Start), "%s @%s: %v", op.Name, name, err)
		}
		return name, ms, nil
	}
	if op.Name == "sdy.mesh" {
		return "", nil, m.Errorf(int(op.Start), "sdy.mesh @%s: no mesh attribute", name)
	}
	return "", nil, nil
}

// parseMeshValue reads a mesh attribute: #sdy.mesh<...>, #stablehlo.mesh<...>
// or the dictionary {axes = [{name = "x", size = 2 : i64}], device_ids = ...}.
func parseMeshValue(v string, b *budget) (*Mesh, error) {
	v = strings.TrimSpace(v)
	switch {
	case strings.HasPrefix(v, "#sdy.mesh<") && matching(v, len("#sdy.mesh")) == len(v)-1:
		return parseSdyMesh(v[len("#sdy.mesh<"):len(v)-1], b)
	case strings.HasPrefix(v, "#stablehlo.mesh<"):
		return parseInlineMesh(v, b)
	case strings.HasPrefix(v, "{") && matching(v, 0) == len(v)-1:
		ms := &Mesh{}
		for _, e := range parseDict(v[1 : len(v)-1]) {
			switch e.Name {
			case "axes":
				if !strings.HasPrefix(e.Value, "[") || !strings.HasSuffix(e.Value, "]") {
					return nil, fmt.Errorf("axes: expected [...]")
				}
				for _, a := range splitTop(e.Value[1:len(e.Value)-1], ',') {
					if !strings.HasPrefix(a, "{") || matching(a, 0) != len(a)-1 {
						return nil, fmt.Errorf("bad mesh axis %q", a)
					}
					f := parseDict(a[1 : len(a)-1])
					n, _ := AttrValue(f, "name")
					sz, _ := AttrValue(f, "size")
					name, named := stringLit(n)
					size, err := strconv.ParseInt(stripType(sz), 10, 64)
					if !named || err != nil || size <= 0 {
						return nil, fmt.Errorf("bad mesh axis %q", a)
					}
					ms.Axes = append(ms.Axes, MeshAxis{name, size})
				}
			case "device_ids":
				ids, err := parseDeviceIDs(e.Value, b)
				if err != nil {
					return nil, fmt.Errorf("device_ids: %v", err)
				}
				ms.DeviceIDs = ids
			}
		}
		return ms, ms.check()
	}
	return nil, fmt.Errorf("expected a mesh, found %q", v)
}

// parseSdyMesh reads `["x"=2, "y"=4], device_ids=[...]`.
func parseSdyMesh(s string, b *budget) (*Mesh, error) {
	parts := splitTop(s, ',')
	if len(parts) == 0 || !strings.HasPrefix(parts[0], "[") {
		return nil, fmt.Errorf("expected a list of axes")
	}
	ms := &Mesh{}
	inner := strings.TrimSuffix(strings.TrimPrefix(parts[0], "["), "]")
	for _, ax := range splitTop(inner, ',') {
		if ax == "" {
			continue
		}
		eq := strings.LastIndexByte(ax, '=')
		if eq < 0 {
			return nil, fmt.Errorf("axis %q: expected \"name\"=size", ax)
		}
		name, ok := stringLit(strings.TrimSpace(ax[:eq]))
		if !ok {
			return nil, fmt.Errorf("axis %q: bad name", ax)
		}
		size, err := strconv.ParseInt(strings.TrimSpace(ax[eq+1:]), 10, 64)
		if err != nil || size <= 0 {
			return nil, fmt.Errorf("axis %q: bad size", ax)
		}
		ms.Axes = append(ms.Axes, MeshAxis{name, size})
	}
	for _, p := range parts[1:] {
		k, v, ok := strings.Cut(p, "=")
		if !ok || strings.TrimSpace(k) != "device_ids" {
			continue
		}
		ids, err := parseDeviceIDs(v, b)
		if err != nil {
			return nil, fmt.Errorf("device_ids: %v", err)
		}
		ms.DeviceIDs = ids
	}
	return ms, ms.check()
}

// parseDeviceIDs reads a list of device ids: [0, 1], array<i64: 0, 1> or
// dense<[0, 1]> : tensor<2xi64>.
func parseDeviceIDs(v string, b *budget) ([]int64, error) {
	v = strings.TrimSpace(v)
	if !strings.HasPrefix(v, "dense<") {
		return parseIntList(v)
	}
	rows, err := parseDenseInts(v, b)
	if err != nil {
		return nil, err
	}
	out := []int64{}
	for _, r := range rows {
		out = append(out, r...)
	}
	return out, nil
}

func (ms *Mesh) check() error {
	if ms.Devices() < 0 {
		return fmt.Errorf("too many devices")
	}
	if ms.DeviceIDs != nil && int64(len(ms.DeviceIDs)) != ms.Devices() {
		return fmt.Errorf("%d device ids for %d devices", len(ms.DeviceIDs), ms.Devices())
	}
	return nil
}

// parseIntList reads "[1, 2, 3]" or "array<i64: 1, 2, 3>".
func parseIntList(s string) ([]int64, error) {
	s = strings.TrimSpace(s)
	switch {
	case strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]"):
		s = s[1 : len(s)-1]
	case strings.HasPrefix(s, "array<") && strings.HasSuffix(s, ">"):
		s = s[len("array<") : len(s)-1]
		if _, rest, ok := strings.Cut(s, ":"); ok {
			s = rest
		} else {
			s = ""
		}
	default:
		return nil, fmt.Errorf("expected a list of integers, found %q", s)
	}
	out := []int64{}
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		v, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("bad integer %q", f)
		}
		out = append(out, v)
	}
	return out, nil
}

// axisRef names a mesh axis, or a sub-axis of it: the sizes of the sub-axes
// before it (pre) and its own size.
type axisRef struct {
	name      string
	pre, size int64 // 0, 0 for the whole axis
}

// parseMeshAxes reads the inside of #stablehlo.replica_group_mesh_axes<...>.
func parseMeshAxes(s string, meshes map[string]*Mesh, b *budget) (*Mesh, []axisRef, error) {
	var ms *Mesh
	var refs []axisRef
	for _, f := range splitTop(s, ',') {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			return nil, nil, fmt.Errorf("expected key = value, found %q", f)
		}
		v = strings.TrimSpace(v)
		switch strings.TrimSpace(k) {
		case "mesh", "mesh_name":
			if strings.HasPrefix(v, "@") {
				ms = meshes[v[1:]]
				if ms == nil {
					return nil, nil, &unresolvedMesh{v}
				}
			} else {
				inline, err := parseInlineMesh(v, b)
				if err != nil {
					return nil, nil, err
				}
				ms = inline
			}
		case "axes":
			if !strings.HasPrefix(v, "[") || !strings.HasSuffix(v, "]") {
				return nil, nil, fmt.Errorf("axes: expected [...]")
			}
			for _, a := range splitTop(v[1:len(v)-1], ',') {
				if a == "" {
					continue
				}
				r, err := parseAxisRef(a)
				if err != nil {
					return nil, nil, err
				}
				refs = append(refs, r)
			}
		}
	}
	if ms == nil {
		return nil, nil, fmt.Errorf("no mesh given")
	}
	return ms, refs, nil
}

// budget bounds the device ids that reading a module's groups may
// materialise, so that memory follows the input's size: ids the text spells
// out cost about what they take to write, but a splat
// (dense<0> : tensor<100000x100000xi64>) or a mesh's axes ("x"=1048576)
// expand from a few bytes. A module of N bytes may expand 65536 + N ids in
// all (8 bytes each); groups beyond it stay unread, with the reason in
// Collective.Unresolved (a mesh's device_ids beyond it are an error).
type budget struct {
	left, limit int64
	what        string // "module", for messages
	size        int    // of what, in bytes
}

func (m *Module) newBudget() *budget { return budgetFor("module", len(m.Src)) }

// budgetFor is the budget of a text of size bytes.
func budgetFor(what string, size int) *budget {
	limit := budgetFloor + budgetPerByte*int64(size)
	return &budget{left: limit, limit: limit, what: what, size: size}
}

// GroupLimit is the most device ids that reading the module's groups may
// materialise: 65536 plus one per byte of the module. Code that writes
// groups out itself (the one group of all replicas that an op without
// groups spans) should keep to it, so that memory follows the input, not
// the num_replicas it states.
func (m *Module) GroupLimit() int64 { return m.newBudget().limit }

const (
	budgetFloor   = 1 << 16
	budgetPerByte = 1
)

// take spends n ids; a nil budget has no bound (tests of the parts).
func (b *budget) take(n int64) error {
	if b == nil {
		return nil
	}
	if n > b.left {
		return &overBudget{n: n, b: b}
	}
	b.left -= n
	return nil
}

// overBudget is groups arc will not expand for a module of this size.
type overBudget struct {
	n int64
	b *budget
}

func (e *overBudget) Error() string {
	return fmt.Sprintf("%d device ids to expand, beyond what arc expands for a %s of %d bytes (%d + %d per byte: %d ids in all)",
		e.n, e.b.what, e.b.size, budgetFloor, budgetPerByte, e.b.limit)
}

// unresolvedMesh is a mesh symbol that no mesh of the module defines: valid
// MLIR (the symbol may name an op arc does not read), whose groups arc cannot
// know.
type unresolvedMesh struct{ symbol string }

func (e *unresolvedMesh) Error() string {
	return fmt.Sprintf("mesh %s is not a mesh the module defines", e.symbol)
}

// parseInlineMesh reads #stablehlo.mesh<axes = [#stablehlo.mesh_axis<name = "x", size = 2>, ...], device_ids = ...>.
func parseInlineMesh(s string, b *budget) (*Mesh, error) {
	const prefix = "#stablehlo.mesh<"
	if !strings.HasPrefix(s, prefix) || !strings.HasSuffix(s, ">") {
		return nil, fmt.Errorf("expected @name or %s...>, found %q", prefix, s)
	}
	ms := &Mesh{}
	for _, f := range splitTop(s[len(prefix):len(s)-1], ',') {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		switch strings.TrimSpace(k) {
		case "axes":
			for _, a := range splitTop(strings.TrimSuffix(strings.TrimPrefix(v, "["), "]"), ',') {
				if a == "" {
					continue
				}
				fields := angleFields(a, "#stablehlo.mesh_axis<")
				size, err := strconv.ParseInt(fields["size"], 10, 64)
				name, named := stringLit(fields["name"])
				if err != nil || !named || size <= 0 {
					return nil, fmt.Errorf("bad mesh axis %q", a)
				}
				ms.Axes = append(ms.Axes, MeshAxis{name, size})
			}
		case "device_ids":
			ids, err := parseDeviceIDs(v, b)
			if err != nil {
				return nil, fmt.Errorf("device_ids: %v", err)
			}
			ms.DeviceIDs = ids
		}
	}
	return ms, ms.check()
}

// angleFields reads `prefix k1 = v1, k2 = v2>` into a map.
func angleFields(s, prefix string) map[string]string {
	out := map[string]string{}
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, prefix) || !strings.HasSuffix(s, ">") {
		return out
	}
	for _, f := range splitTop(s[len(prefix):len(s)-1], ',') {
		if k, v, ok := strings.Cut(f, "="); ok {
			out[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return out
}

// parseAxisRef reads #stablehlo.axis_ref<name = "y", sub_axis_info = (1)2>
// or the Shardy spelling "y":(1)2.
func parseAxisRef(s string) (axisRef, error) {
	s = strings.TrimSpace(s)
	var name, sub string
	if strings.HasPrefix(s, "#stablehlo.axis_ref<") {
		f := angleFields(s, "#stablehlo.axis_ref<")
		n, ok := stringLit(f["name"])
		if !ok {
			return axisRef{}, fmt.Errorf("bad axis reference %q", s)
		}
		name, sub = n, f["sub_axis_info"]
	} else {
		s = strings.TrimSuffix(strings.TrimPrefix(s, "#sdy<axis_ref"), ">")
		q := skipStringAt(s, 0)
		if !strings.HasPrefix(s, `"`) || q < 0 {
			return axisRef{}, fmt.Errorf("bad axis reference %q", s)
		}
		name = unescapeString(s[1 : q-1])
		sub = strings.TrimPrefix(s[q:], ":")
	}
	r := axisRef{name: name}
	if sub != "" {
		// "(pre)size"
		close := strings.IndexByte(sub, ')')
		if !strings.HasPrefix(sub, "(") || close < 0 {
			return axisRef{}, fmt.Errorf("bad sub-axis %q", sub)
		}
		pre, err1 := strconv.ParseInt(sub[1:close], 10, 64)
		size, err2 := strconv.ParseInt(sub[close+1:], 10, 64)
		if err1 != nil || err2 != nil || pre <= 0 || size <= 0 {
			return axisRef{}, fmt.Errorf("bad sub-axis %q", sub)
		}
		r.pre, r.size = pre, size
	}
	return r, nil
}

// expandMeshAxes turns mesh-axes replica groups into explicit device groups:
// devices that agree on every coordinate not covered by refs form a group,
// ordered by the referenced (sub-)axes, the first one major. Groups come in
// the order of their first device in the mesh. The groups hold every device
// of the mesh once: b must afford them.
func expandMeshAxes(ms *Mesh, refs []axisRef, b *budget) ([][]int64, error) {
	type digit struct {
		axis         int
		stride, size int64 // coordinate digit = (c / stride) % size
	}
	total := ms.Devices()
	if total < 0 {
		return nil, fmt.Errorf("mesh %s is too large", ms)
	}
	var digits []digit
	groupSize := int64(1)
	for _, r := range refs {
		ax := -1
		for i, a := range ms.Axes {
			if a.Name == r.name {
				ax = i
			}
		}
		if ax < 0 {
			return nil, fmt.Errorf("axis %q is not in the mesh %s", r.name, ms)
		}
		n := ms.Axes[ax].Size // at most total, so the products below fit
		d := digit{axis: ax, stride: 1, size: n}
		if r.size != 0 {
			if r.pre > n || r.size > n || n%(r.pre*r.size) != 0 {
				return nil, fmt.Errorf("sub-axis (%d)%d does not divide axis %q of size %d", r.pre, r.size, r.name, n)
			}
			d.stride, d.size = n/(r.pre*r.size), r.size
		}
		for _, o := range digits {
			if o.axis == ax && o.stride < d.stride*d.size && d.stride < o.stride*o.size {
				return nil, fmt.Errorf("axes %v name part of axis %q twice", refs, r.name)
			}
		}
		groupSize *= d.size
		digits = append(digits, d)
	}
	if err := b.take(total); err != nil {
		return nil, err
	}
	index := map[int64]int{} // key of the uncovered coordinates -> group
	var groups [][]int64
	ids := make([]int64, total) // the groups' rows, in one allocation
	coords := make([]int64, len(ms.Axes))
	rest := make([]int64, len(ms.Axes))
	for lin := int64(0); lin < total; lin++ {
		rem := lin
		for i := len(ms.Axes) - 1; i >= 0; i-- {
			coords[i] = rem % ms.Axes[i].Size
			rem /= ms.Axes[i].Size
		}
		copy(rest, coords)
		pos := int64(0)
		for _, d := range digits {
			v := (coords[d.axis] / d.stride) % d.size
			rest[d.axis] -= v * d.stride
			pos = pos*d.size + v
		}
		key := int64(0) // the uncovered coordinates, row-major
		for i, c := range rest {
			key = key*ms.Axes[i].Size + c
		}
		g, ok := index[key]
		if !ok {
			g = len(groups)
			index[key] = g
			if int64(len(groups)+1)*groupSize > total {
				return nil, fmt.Errorf("axes %v cover the same devices twice", refs)
			}
			row := ids[int64(g)*groupSize : int64(g+1)*groupSize : int64(g+1)*groupSize]
			for i := range row {
				row[i] = -1
			}
			groups = append(groups, row)
		}
		if groups[g][pos] >= 0 {
			return nil, fmt.Errorf("axes %v cover the same devices twice", refs)
		}
		groups[g][pos] = ms.device(lin)
	}
	return groups, nil
}
