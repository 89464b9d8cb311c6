// Package capture gets the StableHLO program a gomlx graph hands to PJRT
// without any accelerator. It registers a compile-only PJRT plugin inside the
// process: gomlx builds and compiles a graph on it exactly as on a GPU backend,
// and the plugin keeps the program text instead of compiling it. This is how
// the examples write their model.mlir on a machine with no PJRT plugin.
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

	"github.com/arcpass/arc/examples/internal/panics"
)

// pluginName looks like an absolute path so that gomlx takes the registered
// plugin as it is, without searching plugin directories or auto-installing.
const pluginName = "/arc-examples/capture"

// MaxDevices bounds the devices of one capture backend.
const MaxDevices = 256

var (
	mu         sync.Mutex // one backend is made, and one program captured, at a time
	registered error
	once       sync.Once
)

// NewBackend returns a gomlx backend with n devices on which Compile captures programs.
func NewBackend(n int) (backends.Backend, error) {
	if n < 1 || n > MaxDevices {
		return nil, fmt.Errorf("capture: %d devices, want 1 to %d", n, MaxDevices)
	}
	once.Do(func() {
		registered = pjrt.RegisterPreloadedPlugin(pluginName, uintptr(unsafe.Pointer(C.capture_api())))
	})
	if registered != nil {
		return nil, fmt.Errorf("capture: registering the compile-only plugin: %w", registered)
	}
	mu.Lock()
	defer mu.Unlock()
	C.capture_set_devices(C.int(n))
	return xla.NewWithOptions(pluginName, nil)
}

// Compile compiles g, which must be built on a capture backend, with the given
// outputs and returns the program that gomlx handed to PJRT. The graph is left
// uncompiled: it cannot run.
func Compile(g *graph.Graph, outputs ...*graph.Node) (string, error) {
	mu.Lock()
	defer mu.Unlock()
	drop()
	err := panics.Catch(func() { g.Compile(outputs...) })
	program, ok := take()
	switch {
	case ok:
		return program, nil
	case err != nil:
		return "", fmt.Errorf("capture: %s", strings.TrimSpace(err.Error()))
	}
	return "", errors.New("capture: the graph compiled without reaching the capture plugin; was it built on a capture backend?")
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
