package main

import "fmt"

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

func init() {
	register("version", "print arc's version", func(args []string, io stdio) int {
		if len(args) != 0 {
			fmt.Fprintln(io.err, "arc: version takes no arguments")
			return exitUsage
		}
		fmt.Fprintf(io.out, "arc %s\n", version)
		return exitOK
	})
}
