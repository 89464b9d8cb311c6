package abi

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// enumValues reads "NAME = N" entries of the C header that start with prefix.
func enumValues(src, prefix string) map[string]int {
	out := map[string]int{}
	for _, m := range regexp.MustCompile(`\b(`+prefix+`[A-Z0-9_]+)\s*=\s*(\d+)`).FindAllStringSubmatch(src, -1) {
		n, _ := strconv.Atoi(m[2])
		out[m[1]] = n
	}
	return out
}

// TestCHeaderAgrees checks the enums of gpu/arc_gpu.h, which includes the
// generated gpu/arc_vocab.h, against this package.
func TestCHeaderAgrees(t *testing.T) {
	api := read(t, "../gpu/arc_gpu.h")
	if !strings.Contains(api, `#include "arc_vocab.h"`) {
		t.Error("gpu/arc_gpu.h does not include arc_vocab.h")
	}
	h := api + read(t, "../gpu/arc_vocab.h")
	for _, c := range []struct {
		prefix string
		names  []string
		cname  func(string) string
	}{
		{"ARC_CODEC_", Codecs, func(n string) string { return "ARC_CODEC_" + strings.ToUpper(n) }},
		{"ARC_LINK_", Links, func(n string) string { return "ARC_LINK_" + strings.ToUpper(n) }},
		{"ARC_", Algos, func(n string) string { return "ARC_" + strings.ToUpper(n) }},
		{"ARC_", DTypes, func(n string) string { return "ARC_" + strings.ToUpper(n) }},
	} {
		got := enumValues(h, c.prefix)
		for i, n := range c.names {
			if v, ok := got[c.cname(n)]; !ok || v != i {
				t.Errorf("gpu/arc_gpu.h: %s = %d (found %v), want %d", c.cname(n), v, ok, i)
			}
		}
	}
	if !strings.Contains(api, fmt.Sprintf("the default, %d MiB", DefaultMaxBytes>>20)) {
		t.Errorf("gpu/arc_gpu.h does not state the default max_bytes of %d MiB", DefaultMaxBytes>>20)
	}
}

// TestHandlerNamesAgree checks that the FFI handler (gpu/arc_ffi.cc) reads
// the custom call's algorithm, codec and link through the generated name
// tables (arc_vocab.h), not through a copy of its own.
func TestHandlerNamesAgree(t *testing.T) {
	src := read(t, "../gpu/arc_ffi.cc")
	for _, table := range []string{"algo", "codec", "link"} {
		want := fmt.Sprintf("lookup(arc_%s_name, ARC_%s_COUNT,", table, strings.ToUpper(table))
		if !strings.Contains(src, want) {
			t.Errorf("gpu/arc_ffi.cc does not read %ss with %s...)", table, want)
		}
	}
	for _, name := range Codecs[1:] {
		if strings.Contains(src, fmt.Sprintf("%q", name)) {
			t.Errorf("gpu/arc_ffi.cc spells the codec %q: read arc_codec_name", name)
		}
	}
}

// TestKernelWorldsAgree checks the world sizes the library plans for
// (gpu/arc_comm.cc's oneshot_world and twoshot_world) against this package.
func TestKernelWorldsAgree(t *testing.T) {
	src := read(t, "../gpu/arc_comm.cc")
	for fn, want := range map[string][]int{"oneshot_world": OneShotWorlds, "twoshot_world": TwoShotWorlds} {
		m := regexp.MustCompile(`bool ` + fn + `\(int w\) \{ return ([^;]*); \}`).FindStringSubmatch(src)
		if m == nil {
			t.Errorf("gpu/arc_comm.cc has no %s", fn)
			continue
		}
		var got []int
		for _, w := range regexp.MustCompile(`w == (\d+)`).FindAllStringSubmatch(m[1], -1) {
			n, _ := strconv.Atoi(w[1])
			got = append(got, n)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("gpu/arc_comm.cc %s takes %v, abi says %v", fn, got, want)
		}
	}
}

func TestWorldList(t *testing.T) {
	for _, c := range []struct {
		ns   []int
		want string
	}{{nil, ""}, {[]int{8}, "8"}, {[]int{2, 4}, "2 or 4"}, {OneShotWorlds, "2, 4, 6 or 8"}} {
		if got := WorldList(c.ns); got != c.want {
			t.Errorf("WorldList(%v) = %q, want %q", c.ns, got, c.want)
		}
	}
}
