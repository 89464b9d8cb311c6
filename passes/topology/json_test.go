package topology

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestParseExample(t *testing.T) {
	top, err := Load(filepath.Join("testdata", "pcie-2numa.json"))
	if err != nil {
		t.Fatal(err)
	}
	if top.Name != "pcie-2numa" || len(top.Devices) != 8 || top.HasCoords() {
		t.Fatalf("parsed %s, coords %v", top, top.HasCoords())
	}
	d, _ := top.Device(5)
	if d.Node != "1" {
		t.Errorf("device 5 on node %q, want \"1\"", d.Node)
	}
	for _, c := range []struct {
		a, b int64
		want int
	}{{0, 3, 1}, {0, 4, 1}, {1, 5, 3}, {3, 6, 3}} {
		if got, _ := top.Hops(c.a, c.b); got != c.want {
			t.Errorf("Hops(%d, %d) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestFormatRoundTrip(t *testing.T) {
	torus, _ := Mesh("tpu:v6e-256", []int{16, 16}, []bool{true, true}, "ici")
	example, err := Load(filepath.Join("testdata", "pcie-2numa.json"))
	if err != nil {
		t.Fatal(err)
	}
	lone, _ := New("one \"quoted\" chip", []Device{{ID: 3, Node: "h"}}, nil)
	for _, want := range []*Topology{torus, example, lone} {
		got, err := Parse("round-trip.json", want.Format())
		if err != nil {
			t.Fatalf("%s: %v", want.Name, err)
		}
		if got.Name != want.Name || !reflect.DeepEqual(got.Devices, want.Devices) || !reflect.DeepEqual(got.Links, want.Links) {
			t.Errorf("%s changed in a round trip", want.Name)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{``, "t.json:1:1: the topology is empty (want a JSON object with devices)"},
		{`[]`, "t.json:1:1: topology: want an object, got a list"},
		{"{\n  \"devices\": [x]\n}", "t.json:2:15: invalid character 'x' looking for beginning of value"},
		{`{"devices": [{"id": 0}`, "t.json:1:23: unexpected end of the topology"},
		{`{"devices" []}`, "t.json:1:12: invalid character '[' after object key"},
		{`{"devices": [{"id": 0} {"id": 1}]}`, "t.json:1:24: invalid character '{' after array element"},
		{"{\"devices\": [{\"id\": 0, \"node\": \"a\tb\"}]}", "t.json:1:34: invalid character '\\t' in string literal"},
		{`{"devices": [{"id": 0}]} {}`, "t.json:1:26: unexpected data after the topology object"},
		{`{}`, "t.json:1:1: the topology has no devices"},
		{`{"devices": []}`, "t.json:1:1: the topology has no devices"},
		{`{"name": 3, "devices": []}`, "t.json:1:10: name: want a string, got number"},
		{`{"devices": [], "nodes": 2}`, "t.json:1:17: unknown key \"nodes\" (want name, devices, links)"},
		{`{"devices": [], "devices": []}`, "t.json:1:17: topology: key \"devices\" repeats"},
		{`{"devices": {}}`, "t.json:1:13: devices: want a list, got an object"},
		{`{"devices": [3]}`, "t.json:1:14: devices[0]: want an object, got number 3"},
		{`{"devices": [{"coords": [0]}]}`, "t.json:1:14: devices[0]: missing \"id\""},
		{`{"devices": [{"id": "a"}]}`, "t.json:1:21: devices[0].id: want an integer, got string"},
		{`{"devices": [{"id": 1.5}]}`, "t.json:1:21: devices[0].id: want an integer, got number 1.5"},
		{`{"devices": [{"id": 0, "coords": [0, "a"]}]}`, "t.json:1:34: devices[0].coords: want a list of integers, got string"},
		{`{"devices": [{"id": 0, "node": 1.5}]}`, "t.json:1:32: devices[0].node: want a string or a non-negative integer, got number 1.5"},
		{`{"devices": [{"id": 0, "node": [1]}]}`, "t.json:1:32: devices[0].node: want a string or a non-negative integer, got []interface {}"},
		{`{"devices": [{"id": 0, "numa": 1}]}`, "t.json:1:24: devices[0]: unknown key \"numa\" (want id, coords, node)"},
		{"{\"devices\": [\n  {\"id\": 0},\n  {\"id\": 0}\n]}", "t.json:3:10: devices[1].id: device id 0 repeats devices[0]"},
		{`{"devices": [{"id": -2}]}`, "t.json:1:21: devices[0].id: device id -2 is negative"},
		{`{"devices": [{"id": 0, "coords": [0]}, {"id": 1}]}`, "t.json:1:40: devices[1].coords: give coordinates for every device or for none"},
		{`{"devices": [{"id": 0, "coords": null}]}`, "t.json:1:34: devices[0].coords: coordinates are empty"},
		{`{"devices": [{"id": 0, "coords": [0]}, {"id": 1, "coords": [0]}]}`, "t.json:1:60: devices[1].coords: coordinates [0] repeat devices[0]"},
		{`{"devices": [{"id": 0}], "links": [{"a": 0}]}`, "t.json:1:36: links[0]: missing \"b\""},
		{`{"devices": [{"id": 0}], "links": [{"a": 0, "b": 9}]}`, "t.json:1:50: links[0].b: no device has id 9"},
		{`{"devices": [{"id": 0}], "links": [{"a": 0, "b": 0}]}`, "t.json:1:36: links[0]: links device 0 to itself"},
		{`{"devices": [{"id": 0}], "links": [{"a": 0, "b": 0, "kind": 1}]}`, "t.json:1:61: links[0].kind: want a string, got number"},
		{`{"devices": [{"id": 0}], "links": [{"a": 0, "b": 0, "lanes": 2}]}`, "t.json:1:53: links[0]: unknown key \"lanes\" (want a, b, kind)"},
	} {
		_, err := Parse("t.json", []byte(c.in))
		var pe *ParseError
		if !errors.As(err, &pe) || err.Error() != c.want {
			t.Errorf("Parse(%s):\n got %v\nwant %s", c.in, err, c.want)
		}
	}
}

func TestLoadMissingFile(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "absent.json"))
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Load of a missing file: %v", err)
	}
}
