//go:build xla

package main

import (
	"github.com/arcpass/arc/bench"
	"github.com/arcpass/arc/bench/xlarun"
)

// xlaMachine opens the GPUs through arc's PJRT proxy. It is built in with
// -tags xla only (and cgo, which the proxy needs), so that an arc that only
// compiles modules builds no C and none of go-xla (ARCHITECTURE.md).
func (f *sweepFlags) xlaMachine() (bench.Machine, func(), error) {
	m, err := xlarun.NewXLA(xlarun.XLAOptions{Plugin: f.plugin, GPULib: f.gpuLib, Link: f.link, GPUs: f.gpus, Lower: f.lower()})
	if err != nil {
		return nil, nil, err
	}
	return m, m.Close, nil
}
