//go:build !xla

package main

// xlaMissing is what an XLA-level sweep says when it cannot start: without
// the XLA runner, that it needs it, whatever else is missing.
func xlaMissing(string) string { return "arc: --level xla needs arc built with its XLA runner" }
