package abi

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// The table keeps the C numbers and wire sizes docs/FORMATS.md gives.
func TestCodecTable(t *testing.T) {
	want := "none=0 fp=1 int8=2 int6=3 int4=4 int4r=5 fp8=6"
	var got []string
	for i, c := range CodecTable {
		got = append(got, fmt.Sprintf("%s=%d", c.Name, i))
		if (c.Desc == "") != (c.Name == "none") {
			t.Errorf("%s: description %q", c.Name, c.Desc)
		}
		if c.Lossy != (c.CodeBits > 0) {
			t.Errorf("%s: lossy %v with %d-bit codes", c.Name, c.Lossy, c.CodeBits)
		}
	}
	if strings.Join(got, " ") != want {
		t.Errorf("codecs %s, want %s", strings.Join(got, " "), want)
	}
	for _, c := range []struct {
		codec, dtype string
		cast         bool
		want         int
	}{
		{"fp", "f16", false, 64}, {"fp", "bf16", false, 64}, {"fp", "bf16", true, 65}, {"fp", "f16", true, 64},
		{"fp", "f32", false, 128}, {"fp", "f8", false, 0}, {"int8", "f16", false, 34}, {"int6", "bf16", false, 26},
		{"int4", "f32", false, 18}, {"int4r", "f16", true, 18}, {"fp8", "bf16", false, 36}, {"none", "f16", false, 0},
		{"int5", "f16", false, 0},
	} {
		if got := BlockBytes(c.codec, c.dtype, c.cast); got != c.want {
			t.Errorf("BlockBytes(%s, %s, %v) = %d, want %d", c.codec, c.dtype, c.cast, got, c.want)
		}
	}
	if got := strings.Join(Quantized, " "); got != "fp8 int8 int6 int4 int4r" {
		t.Errorf("Quantized = %s", got)
	}
}

func TestLoweringsAndFamilies(t *testing.T) {
	for _, l := range LoweringTable {
		if _, ok := AlgoOf(l.Algo); l.Algo != "" && !ok {
			t.Errorf("lowering %s: unknown algorithm %q", l.Name, l.Algo)
		}
		if _, ok := CodecOf(l.Codec); l.Codec != "" && !ok {
			t.Errorf("lowering %s: unknown codec %q", l.Name, l.Codec)
		}
		if l.Family != "" {
			if _, ok := FamilyOf(l.Family + ":x"); !ok {
				t.Errorf("lowering %s: unknown family %q", l.Name, l.Family)
			}
		}
	}
	for target, want := range map[string]string{"cuda:nvlink": "cuda", "tpu:v6e-8": "tpu", "rocm:": "rocm", "cudax:a": "", "none": ""} {
		if f, _ := FamilyOf(target); f.Name != want {
			t.Errorf("FamilyOf(%q) = %q, want %q", target, f.Name, want)
		}
	}
}

// docs/ACCURACY.md names every codec's bound as the table does.
func TestBoundsAreDocumented(t *testing.T) {
	page := read(t, "../docs/ACCURACY.md")
	_, section, ok := strings.Cut(page, "\n## Each codec's bound\n")
	if !ok {
		t.Fatal(`docs/ACCURACY.md has no "## Each codec's bound"`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	for _, c := range CodecTable {
		row := ""
		for _, line := range strings.Split(section, "\n") {
			if strings.HasPrefix(line, "| "+c.Bound+" |") {
				row = line
			}
		}
		if row == "" || !slices.Contains(strings.Split(strings.TrimSpace(strings.Split(row, "|")[2]), ", "), c.Name) {
			t.Errorf("docs/ACCURACY.md's bounds do not list %s under %q", c.Name, c.Bound)
		}
	}
}
