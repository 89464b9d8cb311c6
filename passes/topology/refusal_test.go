package topology_test

import (
	"strings"
	"testing"

	"github.com/arcpass/arc/passes/topology"
)

// TestRefusals: empty files, byte order marks, numbers JSON lacks and
// negative numbers are errors at their FILE:LINE:COL.
func TestRefusals(t *testing.T) {
	for _, c := range []struct{ name, content, want string }{
		{"empty", "", "t.json:1:1: the topology is empty"},
		{"blank", "\n \r\n", "t.json:1:1: the topology is empty"},
		{"byte order mark", "\xef\xbb\xbf{\"devices\": [{\"id\": 0}]}", "t.json:1:1: the topology starts with a byte order mark"},
		{"NaN", `{"devices": [{"id": NaN}]}`, "t.json:1:21: NaN is not a JSON number"},
		{"-Infinity", `{"devices": [{"id": 0, "coords": [-Infinity]}]}`, "t.json:1:35: -Infinity is not a JSON number"},
		{"negative coordinate", `{"devices": [{"id": 0, "coords": [1, -1]}]}`, "t.json:1:34: devices[0].coords: [1 -1] has a negative coordinate"},
		{"negative node", `{"devices": [{"id": 0, "node": -1}]}`, "t.json:1:32: devices[0].node: want a string or a non-negative integer, got number -1"},
		{"negative id", `{"devices": [{"id": -1}]}`, "t.json:1:21: devices[0].id: device id -1 is negative"},
		{"out of range", `{"devices": [{"id": 1e999}]}`, "t.json:1:21: devices[0].id: want an integer, got number 1e999"},
		{"key repeats", "{\"devices\": [{\"id\": 0}],\r\n \"devices\": []}", `t.json:2:2: topology: key "devices" repeats`},
		{"deep nesting", `{"devices": ` + strings.Repeat("[", 100000), "t.json:1:14: devices[0]: want an object, got a list"},
	} {
		_, err := topology.Parse("t.json", []byte(c.content))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: %v, want %s...", c.name, err, c.want)
		}
	}
}
