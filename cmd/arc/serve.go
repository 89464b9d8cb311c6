package main

import (
	"fmt"

	"github.com/arcpass/arc/proxy/worker"
)

func init() {
	// No summary: help does not list it, as only arc's PJRT plugin runs it.
	register("serve", "", func(args []string, io stdio) int {
		if len(args) == 1 && (args[0] == "-h" || args[0] == "--help") { // help asked for: stdout, exit 0
			fmt.Fprintln(io.out, "usage: arc serve\n\nReads framed compile requests on stdin and answers on stdout; arc's standalone PJRT plugin runs it.")
			return exitOK
		}
		return worker.Main(args, io.in, io.out, io.err)
	})
}
