//go:build !cgo

package main

import "fmt"

// Without cgo arc cannot load a PJRT plugin or arc's GPU library, so bench
// and tune only say what they need; compile and inspect work anywhere.
func init() {
	for name, summary := range map[string]string{
		"bench": "time arc's all-reduce lowerings against native (needs cgo and GPUs)",
		"tune":  "measure this machine and write arc's cost profile (needs cgo and GPUs)",
	} {
		register(name, summary, func(args []string, io stdio) int {
			fmt.Fprintf(io.err, "arc: %s runs on a GPU machine and needs arc built with cgo (CGO_ENABLED=1 go build ./cmd/arc); this arc was built without cgo\n", name)
			return exitInput
		})
	}
}
