// Package gputest checks arc's GPU kernels (runtime/gpu) against the Go
// reference (runtime/collective) bit for bit.
//
// The library is loaded at run time with dlopen (build/libarc_gpu.so, or the
// path in ARC_GPU_LIB), so the package builds and its tests skip on machines
// without the library or a GPU. The CPU test of this package compiles the
// kernels' codec arithmetic (runtime/gpu/arc_codec.h) for the host and
// compares it with runtime/codec, so it runs everywhere cgo does.
//
// Go's build cache hashes only this directory's files, not the headers the
// C++ side includes from runtime/gpu: after editing arc_codec.h or
// arc_port.h, run the CPU test with `go test -a` (or touch hostcodec.cc's
// contents) so it compiles them again.
//
// On the GPU machine: `make device-bin` here builds .devbin/gputest.test,
// `make device-test` there builds the library and runs it.
package gputest
