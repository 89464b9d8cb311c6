//go:build !cgo

package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestBenchNeedsCgo(t *testing.T) {
	for _, cmd := range []string{"bench", "tune"} {
		var out, errw bytes.Buffer
		code := run([]string{cmd, "--help"}, stdio{strings.NewReader(""), &out, &errw})
		if code != exitInput || !strings.Contains(errw.String(), "arc: "+cmd+" runs on a GPU machine and needs arc built with cgo") {
			t.Errorf("%s without cgo: exit %d, stderr %q", cmd, code, errw.String())
		}
	}
}
