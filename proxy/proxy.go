// Package proxy is arc's PJRT proxy: a PJRT plugin that wraps the real one
// and runs arc's pipeline on every program before the real compile (proxy.c,
// proxy.h). The same C core serves two forms: compiled into a Go program
// through this package, where the pipeline is arc.Compile itself, and as the
// standalone plugin pjrt_c_api_arc_plugin.so (standalone/, built by `make
// plugin`), which runs the arc binary. The C sources and headers are this
// package's own files, so Go's build cache sees every change to them.
package proxy

/*
#cgo LDFLAGS: -ldl -lpthread
#include <stdint.h>
#include <stdlib.h>
#include "proxy.h"

void arc_proxy_use_go(arc_proxy_config *c, uintptr_t handle);
*/
import "C"

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/cgo"
	"strings"
	"unsafe"

	"github.com/arcpass/arc"
)

// Options configure arc's proxy: the compile options (arc.Options, whose
// every setting also comes from its ARC_* variable; an option set here
// wins over the variable) and where the runtime pieces are.
type Options struct {
	// Compile are arc compile's options; Target "" or "auto" is detected
	// from the GPUs.
	Compile arc.Options

	Plugin         string // the real PJRT plugin's path (ARC_PJRT_PLUGIN; default: go-xla's plugin for the platform)
	GPULib         string // libarc_gpu.so (ARC_GPU_LIB; default: next to the executable, then the loader's path)
	Dump           string // write each program before and after arc, numbered, into this directory (ARC_DUMP_DIR)
	FallbackNative bool   // on a pipeline error compile the unmodified program (ARC_FALLBACK=native)
}

var libtpuArgs = C.CString(C.ARC_LIBTPU_INIT_ARGS)

// Open loads the PJRT plugin at path, wraps it in arc's proxy and returns
// the proxy's PJRT_Api table (a C pointer that lives as long as the process).
func Open(path string, opt Options) (uintptr, error) {
	cfg := (*C.arc_proxy_config)(C.calloc(1, C.sizeof_arc_proxy_config))
	defer C.free(unsafe.Pointer(cfg))
	C.arc_proxy_config_from_env(cfg)
	var strs []*C.char
	cstr := func(s string) *C.char {
		p := C.CString(s)
		strs = append(strs, p)
		return p
	}
	defer func() {
		for _, p := range strs {
			C.free(unsafe.Pointer(p))
		}
	}()
	cfg.plugin = cstr(path)
	for _, f := range []struct {
		field **C.char
		value string
	}{
		{&cfg.settings.target, opt.Compile.Target},
		{&cfg.gpu_lib, opt.GPULib},
		{&cfg.dump_dir, opt.Dump},
	} {
		if f.value != "" {
			*f.field = cstr(f.value)
		}
	}
	if opt.FallbackNative {
		cfg.fallback_native = 1
	}
	if exe, err := os.Executable(); err == nil {
		cfg.home = cstr(filepath.Dir(exe))
	}

	handle := cgo.NewHandle(&opt) // lives as long as the proxy: the process
	C.arc_proxy_use_go(cfg, C.uintptr_t(handle))
	var cerr *C.char
	api := C.arc_proxy_open(cfg, &cerr)
	// For a TPU target the C core added libtpu's ring flag to the C
	// environment, which Go's copy does not see.
	if v := C.getenv(libtpuArgs); v != nil {
		os.Setenv(C.ARC_LIBTPU_INIT_ARGS, C.GoString(v))
	}
	if api == nil {
		handle.Delete()
		msg := C.GoString(cerr)
		C.free(unsafe.Pointer(cerr))
		return 0, fmt.Errorf("arc: %s", msg)
	}
	return uintptr(api), nil
}

// arcProxyTransform is the proxy's transform: it runs arc.Compile on a
// program for the resolved target. It is called from C, concurrently.
//
//export arcProxyTransform
func arcProxyTransform(handle C.uintptr_t, s *C.arc_settings, in *C.char, inSize C.size_t, out **C.char,
	outSize *C.size_t, errMsg **C.char) (rc C.int) {
	defer func() {
		if r := recover(); r != nil {
			*errMsg = C.CString(fmt.Sprintf("arc panicked: %v", r))
			rc = 1
		}
	}()
	opt := cgo.Handle(handle).Value().(*Options)
	src := C.GoBytes(unsafe.Pointer(in), C.int(inSize))
	popt, err := pipelineOptions(opt, C.GoString(s.target))
	if err != nil {
		*errMsg = C.CString(err.Error())
		return 1
	}
	if err := programOptions(&popt, C.GoString(s.program)); err != nil {
		*errMsg = C.CString(err.Error())
		return 1
	}
	popt.DeviceAssignment = C.GoString(s.device_assignment) // from the client's compile options
	if coords := C.GoString(s.device_coords); coords != "" && popt.DeviceCoords == "" {
		popt.DeviceCoords = coords // from the client's devices
	}
	if procs := C.GoString(s.device_processes); procs != "" {
		popt.DeviceProcesses = procs // from the client's devices
	}
	text, err := runPipeline(src, popt)
	if err != nil {
		*errMsg = C.CString(err.Error())
		return 1
	}
	*out = (*C.char)(C.CBytes(text))
	*outSize = C.size_t(len(text))
	return 0
}

// pipelineOptions are arc.Compile's options for one program: the ARC_*
// variables, then the options given to Open, then the target the proxy
// resolved (never "auto").
func pipelineOptions(opt *Options, target string) (arc.Options, error) {
	var o arc.Options
	if err := o.SetFromEnv(nil); err != nil {
		return o, fmt.Errorf("bad options: %w", err)
	}
	o.Merge(opt.Compile)
	o.Target = target
	return o, nil
}

// programOptions applies a program's own settings (its arc_NAME compiler
// options, one NAME=VALUE line each) over o: a setting the program names
// replaces what the process said, a list included.
func programOptions(o *arc.Options, lines string) error {
	return o.SetLines(lines, func(name string) string { return "compiler option arc_" + strings.ReplaceAll(name, "-", "_") })
}

// runPipeline runs arc's pipeline; a usage error (bad options) is reported as such.
func runPipeline(src []byte, opt arc.Options) ([]byte, error) {
	text, _, err := arc.Compile("<program>", src, opt)
	var usage *arc.UsageError
	if errors.As(err, &usage) {
		return nil, fmt.Errorf("bad options: %w", err)
	}
	return text, err
}
