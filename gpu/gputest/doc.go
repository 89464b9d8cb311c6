// Package gputest checks arc's GPU kernels (gpu/) against the Go
// reference (reference/collective) bit for bit.
//
// The library is loaded at run time with dlopen (build/libarc_gpu.so, or the
// path in ARC_GPU_LIB), so the package builds and its tests skip on machines
// without the library or a GPU. The CPU test of this package compiles the
// kernels' codec arithmetic (gpu/arc_codec.h, through testdata/hostcodec.cc)
// for the host with g++ and compares it with reference/codec, so it runs
// everywhere cgo and g++ do. ctest.Build reads the sources and headers it
// compiles, so an edit to any of them reruns the test.
//
// On the GPU machine: `make device-bin` here builds .devbin/gputest.test,
// `make device-test` there builds the library and runs it.
package gputest
