//go:build !cgo

package main

// xlaMissing is what an XLA-level sweep says when it cannot start: without
// cgo, that it needs cgo, whatever else is missing.
func xlaMissing(string) string { return "arc: --level xla needs arc built with cgo" }
