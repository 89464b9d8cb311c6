// Command arcserve stands in for an arc binary with `arc serve` in the
// standalone plugin's tests: `serve` runs proxy/worker's loop, recording
// what it is sent; every other command is unknown, as to an arc that has
// only the worker.
//
// $ARC_SERVE_LOG gets one "start PID" line per worker started, and the
// request frames it read are appended to $ARC_SERVE_LOG.frames.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/arcpass/arc/proxy/worker"
)

func main() {
	if len(os.Args) < 2 || os.Args[1] != "serve" {
		fmt.Fprintf(os.Stderr, "arc: unknown command %q\n", os.Args[1:])
		os.Exit(2)
	}
	var in io.Reader = os.Stdin
	if log := os.Getenv("ARC_SERVE_LOG"); log != "" {
		f, err := os.OpenFile(log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintf(f, "start %d\n", os.Getpid())
			f.Close()
		}
		frames, err := os.OpenFile(log+".frames", os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			defer frames.Close()
			in = io.TeeReader(os.Stdin, frames)
		}
	}
	os.Exit(worker.Main(os.Args[2:], in, os.Stdout, os.Stderr))
}
