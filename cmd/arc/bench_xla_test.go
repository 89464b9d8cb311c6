//go:build xla

package main

// xlaMissing is what an XLA-level sweep says when it cannot start.
func xlaMissing(withRunner string) string { return withRunner }
