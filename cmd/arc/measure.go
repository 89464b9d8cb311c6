//go:build cgo

package main

import (
	"github.com/arcpass/arc/bench"
	"github.com/arcpass/arc/bench/xlarun"
)

// xlaMachine opens the GPUs through arc's PJRT proxy, which cgo builds in.
func (f *sweepFlags) xlaMachine() (bench.Machine, func(), error) {
	m, err := xlarun.NewXLA(xlarun.XLAOptions{Plugin: f.plugin, GPULib: f.gpuLib, Link: f.link, GPUs: f.gpus, Lower: f.lower()})
	if err != nil {
		return nil, nil, err
	}
	return m, m.Close, nil
}
