package topology

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/arcpass/arc/internal/jsonfile"
)

// The JSON form of a topology (arc's --topology FILE.json):
//
//	{
//	  "name": "two-numa",                                 optional; defaults to the file name
//	  "devices": [                                        required, at least one
//	    {"id": 0, "coords": [0, 0], "node": "numa0"},     id: integer >= 0, unique
//	    ...                                               coords: optional integers, on every device or on none
//	  ],                                                  node: optional host/NUMA name (string or integer)
//	  "links": [                                          optional
//	    {"a": 0, "b": 1, "kind": "p2p"},                  a, b: device ids; links are bidirectional
//	    ...                                               kind: optional free text naming the interconnect
//	  ]
//	}
//
// Unknown keys are errors, so a misspelt key never passes silently.

// ParseError is a problem in a topology file, at a 1-based line and byte column.
type ParseError = jsonfile.Error

// Load reads and parses a topology file.
func Load(path string) (*Topology, error) { return jsonfile.Load(path, Parse) }

// Parse parses the JSON form of a topology; file names the input in error positions and is the default name.
// Every error is a *ParseError.
func Parse(file string, data []byte) (*Topology, error) {
	r, err := jsonfile.Open(file, data, "topology", "a JSON object with devices")
	if err != nil {
		return nil, err
	}
	p := &parser{r}
	var (
		name     = file
		devices  []Device
		links    []Link
		haveDevs bool
		at       = map[string][]positions{}
	)
	_, err = p.object("topology", func(key string, keyAt int) error {
		switch key {
		case "name":
			_, err := p.value(key, &name)
			return err
		case "devices":
			haveDevs = true
			return p.array(key, func(i, start int) error {
				d, pos, err := p.device(fmt.Sprintf("devices[%d]", i), start)
				devices = append(devices, d)
				at["devices"] = append(at["devices"], pos)
				return err
			})
		case "links":
			return p.array(key, func(i, start int) error {
				l, pos, err := p.link(fmt.Sprintf("links[%d]", i), start)
				links = append(links, l)
				at["links"] = append(at["links"], pos)
				return err
			})
		}
		return p.ErrAt(keyAt, "unknown key %q (want name, devices, links)", key)
	})
	if err != nil {
		return nil, err
	}
	if off := p.Next(); off < len(data) {
		return nil, p.ErrAt(off, "unexpected data after the topology object")
	}
	if !haveDevs || len(devices) == 0 {
		return nil, p.ErrAt(0, "the topology has no devices")
	}
	t, err := New(name, devices, links)
	var fe *FieldError
	if errors.As(err, &fe) {
		pos := at[fe.List][fe.Index]
		off, ok := pos.field[fe.Field]
		if !ok {
			off = pos.start
		}
		return nil, p.ErrAt(off, "%s", fe.Error())
	}
	if err != nil {
		return nil, p.ErrAt(0, "%v", err)
	}
	return t, nil
}

// positions records where an element and each of its fields start, for errors found after parsing.
type positions struct {
	start int
	field map[string]int
}

func (p *parser) device(what string, start int) (Device, positions, error) {
	var d Device
	pos := positions{start: start, field: map[string]int{}}
	haveID := false
	_, err := p.object(what, func(key string, keyAt int) error {
		var err error
		switch key {
		case "id":
			haveID = true
			pos.field[key], err = p.value(what+".id", &d.ID)
		case "coords":
			pos.field[key], err = p.value(what+".coords", &d.Coords)
			if err == nil && d.Coords == nil {
				d.Coords = []int{} // explicit null or []: New reports the empty coordinates
			}
			if err == nil && slices.ContainsFunc(d.Coords, func(c int) bool { return c < 0 }) {
				err = p.ErrAt(pos.field[key], "%s.coords: %v has a negative coordinate", what, d.Coords)
			}
		case "node":
			var v any
			pos.field[key], err = p.value(what+".node", &v)
			if err == nil {
				d.Node, err = nodeName(v)
				if err != nil {
					err = p.ErrAt(pos.field[key], "%s.node: %v", what, err)
				}
			}
		default:
			err = p.ErrAt(keyAt, "%s: unknown key %q (want id, coords, node)", what, key)
		}
		return err
	})
	if err == nil && !haveID {
		err = p.ErrAt(start, "%s: missing \"id\"", what)
	}
	return d, pos, err
}

func (p *parser) link(what string, start int) (Link, positions, error) {
	var l Link
	pos := positions{start: start, field: map[string]int{}}
	have := map[string]bool{}
	_, err := p.object(what, func(key string, keyAt int) error {
		var err error
		have[key] = true
		switch key {
		case "a":
			pos.field[key], err = p.value(what+".a", &l.A)
		case "b":
			pos.field[key], err = p.value(what+".b", &l.B)
		case "kind":
			pos.field[key], err = p.value(what+".kind", &l.Kind)
		default:
			err = p.ErrAt(keyAt, "%s: unknown key %q (want a, b, kind)", what, key)
		}
		return err
	})
	for _, k := range []string{"a", "b"} {
		if err == nil && !have[k] {
			err = p.ErrAt(start, "%s: missing %q", what, k)
		}
	}
	return l, pos, err
}

// nodeName accepts a node given as a string or as an integer (a NUMA node number).
func nodeName(v any) (string, error) {
	switch v := v.(type) {
	case string:
		return v, nil
	case json.Number:
		if n, err := strconv.ParseInt(string(v), 10, 64); err == nil && n >= 0 {
			return string(v), nil
		}
	}
	return "", fmt.Errorf("want a string or a non-negative integer, got %s", jsonKind(v))
}

// parser walks the JSON token stream so that every error can name the position of the element at fault.
type parser struct{ *jsonfile.Reader }

// delim reads the delimiter want ('{' or '[') or fails naming what was expected.
func (p *parser) delim(want json.Delim, what, expect string) (int, error) {
	tok, off, err := p.Token()
	if err != nil {
		return off, err
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return off, p.ErrAt(off, "%s: want %s, got %s", what, expect, jsonKind(tok))
	}
	return off, nil
}

// object reads an object, calling field for each key with the decoder positioned at the key's value.
func (p *parser) object(what string, field func(key string, keyAt int) error) (int, error) {
	start, err := p.delim('{', what, "an object")
	if err != nil {
		return start, err
	}
	seen := map[string]bool{}
	for p.Dec.More() {
		tok, keyAt, err := p.Token()
		if err != nil {
			return start, err
		}
		key := tok.(string) // inside an object the decoder only returns string keys
		if seen[key] {
			return start, p.ErrAt(keyAt, "%s: key %q repeats", what, key)
		}
		seen[key] = true
		if err := field(key, keyAt); err != nil {
			return start, err
		}
	}
	_, _, err = p.Token() // '}'
	return start, err
}

// array reads an array, calling elem with each element's index and start offset.
func (p *parser) array(what string, elem func(i, start int) error) error {
	if _, err := p.delim('[', what, "a list"); err != nil {
		return err
	}
	for i := 0; p.Dec.More(); i++ {
		if err := elem(i, p.Next()); err != nil {
			return err
		}
	}
	_, _, err := p.Token() // ']'
	return err
}

// value decodes one value into v and returns where it starts.
func (p *parser) value(what string, v any) (int, error) {
	off := p.Next()
	err := p.Dec.Decode(v)
	var te *json.UnmarshalTypeError
	switch {
	case err == nil:
		return off, nil
	case errors.As(err, &te):
		return off, p.ErrAt(off, "%s: want %s, got %s", what, goKind(v), te.Value)
	}
	return off, p.SyntaxError(err, off)
}

func goKind(v any) string {
	switch v.(type) {
	case *int64:
		return "an integer"
	case *[]int:
		return "a list of integers"
	case *string:
		return "a string"
	}
	return fmt.Sprintf("%T", v)
}

func jsonKind(v any) string {
	switch v := v.(type) {
	case json.Delim:
		if v == '{' {
			return "an object"
		}
		if v == '[' {
			return "a list"
		}
		return fmt.Sprintf("%q", string(v))
	case string:
		return "a string"
	case json.Number:
		return "number " + string(v)
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}

// Format returns the topology in its JSON form, one device or link per line; Parse reads it back unchanged.
func (t *Topology) Format() []byte {
	type device struct {
		ID     int64  `json:"id"`
		Coords []int  `json:"coords,omitempty"`
		Node   string `json:"node,omitempty"`
	}
	type link struct {
		A    int64  `json:"a"`
		B    int64  `json:"b"`
		Kind string `json:"kind,omitempty"`
	}
	var b bytes.Buffer
	name, _ := json.Marshal(t.Name)
	fmt.Fprintf(&b, "{\n  \"name\": %s,\n  \"devices\": [", name)
	for i, d := range t.Devices {
		line, _ := json.Marshal(device{d.ID, d.Coords, d.Node})
		b.WriteString(sep(i) + "\n    " + string(line))
	}
	b.WriteString("\n  ],\n  \"links\": [")
	for i, l := range t.Links {
		line, _ := json.Marshal(link{l.A, l.B, l.Kind})
		b.WriteString(sep(i) + "\n    " + string(line))
	}
	if len(t.Links) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteString("]\n}\n")
	return b.Bytes()
}

func sep(i int) string {
	if i == 0 {
		return ""
	}
	return ","
}
