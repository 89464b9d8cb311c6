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

// Options configure arc's proxy. Empty fields take the ARC_* variable named
// in their comment, then the default.
type Options struct {
	Target  string // arc's --target, e.g. "cuda:nvlink" (ARC_TARGET; default "auto": detected from the GPUs)
	Quant   string // "none", "fp8", "int8", "int6", "int4", "int4r" (ARC_QUANT; default none)
	Profile string // a profile written by `arc tune` (ARC_PROFILE)
	// Force overrides the policy per collective, "INDEX=LOWERING[:CODEC]" or
	// "all=LOWERING[:CODEC]" as `arc compile --force` takes them; ARC_FORCE
	// adds a comma-separated list.
	Force []string

	Plugin         string // the real PJRT plugin's path (ARC_PJRT_PLUGIN; default: go-xla's plugin for the platform)
	GPULib         string // libarc_gpu.so (ARC_GPU_LIB; default: next to the executable, then the loader's path)
	DumpDir        string // write each program before and after arc, numbered (ARC_DUMP_DIR)
	FallbackNative bool   // on a pipeline error compile the unmodified program (ARC_FALLBACK=native)

	// Pipeline options with no variable.
	KeepBF16 bool   // send bf16 as bf16 (the default casts it to f16 where the codec works in f16)
	MinBytes int64  // all-reduces smaller than this stay native
	MaxBytes int64  // all-reduces larger than this stay native
	Topology string // a topology JSON file for machines no built-in target describes
}

var libtpuArgs = C.CString("LIBTPU_INIT_ARGS")

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
		{&cfg.settings.target, opt.Target},
		{&cfg.settings.quant, opt.Quant},
		{&cfg.settings.profile, opt.Profile},
		{&cfg.gpu_lib, opt.GPULib},
		{&cfg.dump_dir, opt.DumpDir},
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
		os.Setenv("LIBTPU_INIT_ARGS", C.GoString(v))
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
	popt := pipelineOptions(opt, C.GoString(s.target), C.GoString(s.quant), C.GoString(s.profile))
	if force := C.GoString(s.force); force != "" {
		popt.Force = append(strings.Split(force, ","), popt.Force...)
	}
	popt.DeviceAssignment = C.GoString(s.device_assignment) // from the client's compile options
	text, err := runPipeline(src, popt)
	if err != nil {
		*errMsg = C.CString(err.Error())
		return 1
	}
	*out = (*C.char)(C.CBytes(text))
	*outSize = C.size_t(len(text))
	return 0
}

// pipelineOptions are arc.Compile's options for one program.
func pipelineOptions(opt *Options, target, quant, profile string) arc.Options {
	return arc.Options{
		Target:   target,
		Quant:    quant,
		Profile:  profile,
		Topology: opt.Topology,
		KeepBF16: opt.KeepBF16,
		MinBytes: opt.MinBytes,
		MaxBytes: opt.MaxBytes,
		Force:    opt.Force,
	}
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
