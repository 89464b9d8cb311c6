//go:build !cgo

package proxy

// The proxy is C, compiled in by cgo. Without cgo the build stops here,
// with the error saying so, rather than at "build constraints exclude all
// Go files".
var _ int = "proxy needs cgo: build with CGO_ENABLED=1 and a C compiler (gcc or clang)"
