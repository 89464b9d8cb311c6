// Command arc rewrites the all-reduce collectives of StableHLO programs into
// the fastest lowering the target hardware allows, and reports what it chose.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/spf13/pflag"

	"github.com/arcpass/arc"
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

// command is one subcommand: its one-line summary and its entry point. A
// command without a summary is not the user's (arc serve, which arc's PJRT
// plugin runs) and help does not list it.
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

// run dispatches to a subcommand and returns the process exit code. Help
// that is asked for goes to stdout with exit 0; help after a mistake goes
// to stderr with exit 2.
func run(args []string, io stdio) int {
	if len(args) == 0 {
		usage(io.err)
		return exitUsage
	}
	switch args[0] {
	case "-h", "--help", "help":
		if len(args) > 1 && args[0] == "help" { // arc help compile
			if cmd, ok := commands[args[1]]; ok {
				return cmd.run([]string{"--help"}, io)
			}
			fmt.Fprintf(io.err, "arc: unknown command %q\n\n", args[1])
			usage(io.err)
			return exitUsage
		}
		usage(io.out)
		return exitOK
	case "--version", "-version":
		return commands["version"].run(args[1:], io)
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
	for n, c := range commands {
		if c.summary != "" {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'arc <command> --help' for a command's flags; arc --version prints the version.")
	fmt.Fprintln(w, "Exit status: 0 on success, 1 on bad input (arc: FILE:LINE:COL: message), 2 on bad usage.")
}

// newFlags makes a subcommand's flag set. pflag writes only help to it
// (under ContinueOnError errors come back to parseFlags), so it is stdout.
func newFlags(name string, io stdio) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(io.out)
	fs.SortFlags = true
	return fs
}

// parseFlags parses a subcommand's flags. When ok is false the command exits
// with code: 0 after --help, 2 on a bad flag (reported here: pflag prints
// nothing under ContinueOnError).
func parseFlags(fs *pflag.FlagSet, args []string, io stdio) (code int, ok bool) {
	if err := checkBoolValues(fs, args); err != nil {
		fmt.Fprintf(io.err, "arc %s: %v\n", fs.Name(), err)
		return exitUsage, false
	}
	err := fs.Parse(args)
	switch {
	case err == nil:
		return exitOK, true
	case errors.Is(err, pflag.ErrHelp):
		return exitOK, false
	}
	fmt.Fprintf(io.err, "arc %s: %v (arc %s --help lists the flags)\n", fs.Name(), err, fs.Name())
	return exitUsage, false
}

// checkBoolValues refuses a boolean flag followed by a boolean word, as in
// `--cast-bf16-to-fp16 false`: a boolean flag takes its value after "="
// only, so pflag would set it true and read "false" as an input file.
func checkBoolValues(fs *pflag.FlagSet, args []string) error {
	for i := 0; i < len(args)-1; i++ {
		a := args[i]
		if a == "--" {
			return nil
		}
		var f *pflag.Flag
		switch {
		case strings.HasPrefix(a, "--") && !strings.Contains(a, "="):
			f = fs.Lookup(a[2:])
		case len(a) == 2 && a[0] == '-' && a[1] != '-':
			f = fs.ShorthandLookup(a[1:])
		default:
			continue
		}
		if f == nil {
			continue
		}
		if f.NoOptDefVal == "" {
			i++ // the flag's value, whatever it says
			continue
		}
		if _, err := arc.ParseBool(args[i+1]); err == nil {
			return fmt.Errorf("%s %s: a boolean flag takes its value after '=': write %s=%s (or ./%s for a file)",
				a, args[i+1], a, args[i+1], args[i+1])
		}
	}
	return nil
}
