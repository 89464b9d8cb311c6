//go:build !cgo

package capture

// Capture compiles a PJRT plugin in C. Without cgo the build stops here,
// with the error saying so, rather than at "build constraints exclude all
// Go files".
var _ int = "capture needs cgo: build with CGO_ENABLED=1 and a C compiler (gcc or clang)"
