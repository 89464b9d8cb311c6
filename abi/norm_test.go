package abi

import (
	"regexp"
	"strings"
	"testing"
)

// The fused kernels' names agree with gpu/arc_gpu.h's enums and the
// handler's tables in gpu/arc_ffi.cc.
func TestNormNamesAgree(t *testing.T) {
	h := read(t, "../gpu/arc_gpu.h")
	for prefix, names := range map[string][]string{"ARC_NORM_KIND_": NormKinds, "ARC_NORM_MEAN_": NormMeans, "ARC_NORM_WEIGHT_": NormWeights} {
		got := enumValues(h, prefix)
		for i, n := range names {
			if v, ok := got[prefix+strings.ToUpper(n)]; !ok || v != i {
				t.Errorf("gpu/arc_gpu.h: %s%s = %d (found %v), want %d", prefix, strings.ToUpper(n), v, ok, i)
			}
		}
	}
	src := read(t, "../gpu/arc_ffi.cc")
	for table, want := range map[string][]string{"kNormKinds": NormKinds, "kNormMeans": NormMeans, "kNormWeights": NormWeights} {
		m := regexp.MustCompile(table + `\[\]\s*=\s*\{([^}]*)\}`).FindStringSubmatch(src)
		if m == nil || strings.ReplaceAll(strings.ReplaceAll(m[1], `"`, ""), " ", "") != strings.Join(want, ",") {
			t.Errorf("gpu/arc_ffi.cc %s: %v, want %v", table, m, want)
		}
	}
}

func TestCheckFused(t *testing.T) {
	for _, c := range []struct {
		algo    string
		row, es int64
		ok      bool
	}{
		{"oneshot", 8192, 2, true}, {"oneshot", 40, 4, true}, {"twoshot", 8192, 2, true},
		{"twoshot", 40, 2, false}, {"hier", 8192, 2, false}, {"oneshot", 32768, 4, false}, {"oneshot", 0, 2, false},
	} {
		if err := CheckFused(c.algo, c.row, c.es); (err == nil) != c.ok {
			t.Errorf("CheckFused(%s, %d, %d) = %v", c.algo, c.row, c.es, err)
		}
	}
}
