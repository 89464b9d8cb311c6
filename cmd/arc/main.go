// Command arc rewrites the all-reduce collectives of StableHLO programs into
// the fastest lowering the target hardware allows, and reports what it chose.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/spf13/pflag"
)

// Exit codes shared by every subcommand.
const (
	exitOK    = 0 // success
	exitInput = 1 // bad input (file contents, profile, ...)
	exitUsage = 2 // bad usage (flags, arguments)
)

// stdio is what a subcommand may touch of the process; tests pass buffers.
type stdio struct {
	in       io.Reader
	out, err io.Writer
}

// command is one subcommand: its one-line summary and its entry point.
type command struct {
	summary string
	run     func(args []string, io stdio) int
}

// commands is the subcommand table; each entry lives in a file of its own name.
var commands = map[string]command{}

func register(name, summary string, run func([]string, stdio) int) {
	commands[name] = command{summary, run}
}

func main() {
	os.Exit(run(os.Args[1:], stdio{os.Stdin, os.Stdout, os.Stderr}))
}

// run dispatches to a subcommand and returns the process exit code.
func run(args []string, io stdio) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(io.err)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(io.err, "arc: unknown command %q\n\n", args[0])
		usage(io.err)
		return exitUsage
	}
	return cmd.run(args[1:], io)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: arc <command> [flags] [args]")
	fmt.Fprintln(w, "\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'arc <command> --help' for a command's flags.")
}

// newFlags makes a subcommand's flag set, writing to the command's stderr.
func newFlags(name string, io stdio) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(io.err)
	return fs
}

// parseFlags parses a subcommand's flags. When ok is false the command exits
// with code: 0 after --help, 2 on a bad flag (reported here: pflag prints
// nothing under ContinueOnError).
func parseFlags(fs *pflag.FlagSet, args []string, io stdio) (code int, ok bool) {
	err := fs.Parse(args)
	switch {
	case err == nil:
		return exitOK, true
	case errors.Is(err, pflag.ErrHelp):
		return exitOK, false
	}
	fmt.Fprintf(io.err, "arc %s: %v\n", fs.Name(), err)
	return exitUsage, false
}
