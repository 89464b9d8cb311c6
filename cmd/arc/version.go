package main

import "fmt"

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

func init() {
	register("version", "print arc's version (also arc --version)", func(args []string, io stdio) int {
		fs := newFlags("version", io)
		fs.Usage = func() {
			fmt.Fprintln(io.out, "usage: arc version\n\nPrints arc's version on stdout.")
		}
		if code, ok := parseFlags(fs, args, io); !ok {
			return code
		}
		if fs.NArg() != 0 {
			fmt.Fprintln(io.err, "arc version: takes no arguments")
			return exitUsage
		}
		fmt.Fprintf(io.out, "arc %s\n", version)
		return exitOK
	})
}
