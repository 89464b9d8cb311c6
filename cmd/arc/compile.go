package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/arcpass/arc"
)

func init() {
	register("compile", "lower a module's all-reduces for a target", runCompile)
}

func runCompile(args []string, io stdio) int {
	fs := newFlags("compile", io)
	var opt arc.Options
	var out, report string
	var explain bool
	addSettings(fs, &opt)
	fs.StringVarP(&out, "output", "o", "-", "write the lowered module to `FILE` (- for stdout)")
	fs.StringVar(&report, "report", "", "write the decisions as JSON to `FILE.json`")
	fs.BoolVar(&explain, "explain", false, "print the decisions as a table on stderr")
	fs.StringArrayVar(&opt.PrintAfter, "print-after", nil, "print the module to stderr after `PASS` (repeatable; all for every pass)")
	fs.StringVar(&opt.DumpDir, "dump-dir", "", "write the module after every pass into `DIR`")
	fs.BoolVar(&opt.VerifyEach, "verify-each", false, "check the module after every pass, not only at the ends")
	fs.StringSliceVar(&opt.Passes, "passes", nil, "run only these passes of the target's table (`LIST`), on a module that carries what the others write")
	fs.Usage = func() {
		fmt.Fprintln(io.err, "usage: arc compile --target TARGET [flags] FILE|-")
		fmt.Fprintln(io.err, "\nLowers every all-reduce of a StableHLO module for TARGET; text no pass changes is kept byte-for-byte.")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args, io); !ok {
		return code
	}
	name, src, code, ok := readOneInput(fs, io)
	if !ok {
		return code
	}
	opt.LibtpuInitArgs = os.Getenv("LIBTPU_INIT_ARGS")
	opt.PrintTo = io.err
	lowered, rep, err := arc.Compile(name, src, opt)
	if err != nil {
		fmt.Fprintf(io.err, "arc: %v\n", err)
		var ue *arc.UsageError
		if errors.As(err, &ue) {
			return exitUsage
		}
		return exitInput
	}
	if explain {
		if err := rep.WriteTable(io.err); err != nil {
			fmt.Fprintf(io.err, "arc: %v\n", err)
			return exitInput
		}
	}
	if report != "" {
		if err := writeFileAtomic(report, func(f *os.File) error { return rep.WriteJSON(f) }); err != nil {
			fmt.Fprintf(io.err, "arc: %v\n", err)
			return exitInput
		}
	}
	if out == "-" {
		if _, err := io.out.Write(lowered); err != nil {
			fmt.Fprintf(io.err, "arc: %v\n", err)
			return exitInput
		}
		return exitOK
	}
	if err := writeFileAtomic(out, func(f *os.File) error { _, err := f.Write(lowered); return err }); err != nil {
		fmt.Fprintf(io.err, "arc: %v\n", err)
		return exitInput
	}
	return exitOK
}
