//go:build !cgo

package gputest

// Without cgo there is nothing to load or compile: the tests need cgo.
