package gpu

import (
	"strings"
	"testing"
)

// A codec abi's table lacks has no cost: the model refuses it, never
// estimating it with a default.
func TestModelRefusesAnUnknownCodec(t *testing.T) {
	for _, codec := range []string{"int5", "none", ""} {
		if _, err := codecOps(codec); err == nil {
			t.Errorf("codecOps(%q) gave no error", codec)
		}
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(string), "has no codec") {
					t.Errorf("Profile with codec %q: panic %v", codec, r)
				}
			}()
			Model{Target: "x", Codecs: []string{"fp", codec}, Worlds: []int{2}}.Profile()
		}()
	}
}
