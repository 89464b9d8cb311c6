//go:build !xla

package main

import (
	"errors"

	"github.com/arcpass/arc/bench"
)

// xlaMachine needs the XLA runner (bench/xlarun: arc's PJRT proxy, cgo),
// which only -tags xla builds in; the kernel level (an arc kbench process)
// and --from work without it.
func (f *sweepFlags) xlaMachine() (bench.Machine, func(), error) {
	return nil, nil, errors.New("--level xla needs arc built with its XLA runner, which this arc was built without: " +
		"make bench-bin (CGO_ENABLED=1 go build -tags xla ./cmd/arc; a C compiler) builds it")
}
