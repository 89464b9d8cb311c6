package exampletest

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/backends/simplego"
)

// UsageError is a command line an example must refuse, and a part of the
// message it must print.
type UsageError struct {
	Args []string
	Msg  string
}

// CheckUsageErrors runs the example's main (run) with each bad command line
// and requires exit status 2 and the message on stderr.
func CheckUsageErrors(t *testing.T, run func(args []string, stdout, stderr io.Writer) int, cases []UsageError) {
	t.Helper()
	for _, tc := range cases {
		var out, errs bytes.Buffer
		if code := run(tc.Args, &out, &errs); code != 2 || !strings.Contains(errs.String(), tc.Msg) {
			t.Errorf("%q: exit %d, %q; want 2 and %q", tc.Args, code, errs.String(), tc.Msg)
		}
	}
}

// CPU returns gomlx's pure-Go backend, finalized when the test ends: the
// examples' model code runs on it without any PJRT plugin.
func CPU(t *testing.T) backends.Backend {
	t.Helper()
	b, err := simplego.New("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Finalize)
	return b
}
