package main

import "github.com/arcpass/arc/proxy/worker"

func init() {
	register("serve", "compile programs for arc's PJRT plugin (framed requests on stdin)", func(args []string, io stdio) int {
		return worker.Main(args, io.in, io.out, io.err)
	})
}
