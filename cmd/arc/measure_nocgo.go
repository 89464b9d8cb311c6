//go:build !cgo

package main

import (
	"errors"

	"github.com/arcpass/arc/bench"
)

// xlaMachine needs arc's PJRT proxy, which needs cgo; the kernel level
// (an arc kbench process) and --from work without it.
func (f *sweepFlags) xlaMachine() (bench.Machine, func(), error) {
	return nil, nil, errors.New("--level xla needs arc built with cgo (CGO_ENABLED=1 go build ./cmd/arc); " +
		"this arc was built without cgo: --level kernel and --from FILE.csv work")
}
