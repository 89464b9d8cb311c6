// Package capture gets the StableHLO program a gomlx graph hands to PJRT,
// on any machine: no accelerator and no PJRT plugin needed. It registers a
// compile-only PJRT plugin inside the process (C, built by cgo): gomlx builds
// and compiles a graph on it exactly as on a GPU backend, and the plugin keeps
// the program text instead of compiling it. arc compile reads what it gives.
//
//	b, err := capture.NewBackend(8)           // a gomlx backend of 8 devices
//	g := graph.NewGraph(b, "model")          // build the graph as on any backend
//	...
//	text, err := capture.Compile(g, outputs...) // the StableHLO text gomlx hands PJRT
//
// The plugin holds no buffers: inputs and weights must be graph parameters
// (graph.Parameter), not tensors sent to a device, so build the graph itself
// rather than through graph.Exec or a context, which transfer their arguments
// before compiling. This is gomlx's counterpart of JAX's
// jax.jit(f).lower(*args).as_text() (docs/RUNTIME.md).
package capture

/*
#cgo LDFLAGS: -lpthread
#include <stdlib.h>
#include "capture.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"unsafe"

	"github.com/gomlx/go-xla/pkg/pjrt"
	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/backends/xla"
	"github.com/gomlx/gomlx/pkg/core/graph"
)

// pluginName looks like an absolute path so that gomlx takes the registered
// plugin as it is, without searching plugin directories or auto-installing.
const pluginName = "/arc/capture"

// MaxDevices bounds the devices of one capture backend.
const MaxDevices = 256

var (
	mu         sync.Mutex // one backend is made, and one program captured, at a time
	registered error
	once       sync.Once
)

// NewBackend returns a gomlx backend with n devices on which Compile captures programs.
func NewBackend(n int) (backends.Backend, error) {
	mu.Lock()
	defer mu.Unlock()
	return newBackend(n)
}

func newBackend(n int) (backends.Backend, error) {
	if n < 1 || n > MaxDevices {
		return nil, fmt.Errorf("capture: %d devices, want 1 to %d", n, MaxDevices)
	}
	once.Do(func() {
		registered = pjrt.RegisterPreloadedPlugin(pluginName, uintptr(unsafe.Pointer(C.capture_api())))
	})
	if registered != nil {
		return nil, fmt.Errorf("capture: registering the compile-only plugin: %w", registered)
	}
	C.capture_set_devices(C.int(n))
	return xla.NewWithOptions(pluginName, nil)
}

// Compile compiles g, which must be built on a capture backend, with the given
// outputs and returns the program that gomlx handed to PJRT. The graph is left
// uncompiled: it cannot run.
func Compile(g *graph.Graph, outputs ...*graph.Node) (string, error) {
	mu.Lock()
	defer mu.Unlock()
	program, ok, err := captured(func() { g.Compile(outputs...) })
	switch {
	case ok:
		return program, nil
	case err != nil:
		return "", fmt.Errorf("capture: %s", strings.TrimSpace(err.Error()))
	}
	return "", errors.New("capture: the graph compiled without reaching the capture plugin; was it built on a capture backend?")
}

// captured runs fn, which should compile a graph on a capture backend, and
// returns the program the plugin kept, or what fn panicked with.
func captured(fn func()) (program string, ok bool, err error) {
	drop()
	err = Catch(fn)
	program, ok = take()
	return program, ok, err
}

// Catch runs fn and returns what it panicked with as an error, nil when it
// returns normally: gomlx reports errors (building, compiling or running a
// graph) by panicking. A panic with an error gives that error, any other
// value its %v text.
func Catch(fn func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(error); ok {
				err = e
			} else {
				err = fmt.Errorf("%v", r)
			}
		}
	}()
	fn()
	return nil
}

func take() (string, bool) {
	var size C.size_t
	p := C.capture_take(&size)
	if p == nil {
		return "", false
	}
	defer C.free(unsafe.Pointer(p))
	return C.GoStringN(p, C.int(size)), true
}

func drop() { take() }
