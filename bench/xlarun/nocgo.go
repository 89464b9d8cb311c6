//go:build !cgo

package xlarun

// The XLA runner reaches the GPUs through arc's PJRT proxy, in C. Without
// cgo the build stops here, with the error saying so, rather than at
// "build constraints exclude all Go files".
var _ int = "bench/xlarun needs cgo: build with CGO_ENABLED=1 and a C compiler (gcc or clang)"
