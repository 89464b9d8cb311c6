//go:build cgo

package main

// xlaMissing is what an XLA-level sweep says when it cannot start.
func xlaMissing(withCgo string) string { return withCgo }
