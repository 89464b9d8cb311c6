package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/arcpass/arc"
	"github.com/arcpass/arc/decision"
	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/passes"
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
	fs.StringVar(&report, "report", "", "write the decisions as JSON to `FILE.json` (- for stdout)")
	fs.BoolVar(&explain, "explain", false, "print the decisions as a table on stderr")
	fs.Usage = func() {
		fmt.Fprintln(io.out, "usage: arc compile --target TARGET [flags] FILE|-")
		fmt.Fprintln(io.out, "\nLowers every all-reduce of a StableHLO module for TARGET; text no pass changes is kept byte-for-byte.")
		fmt.Fprintln(io.out, "MLIR bytecode (what JAX hands PJRT) is converted to text when arc_mlir_to_text.py and jaxlib are found.")
		fmt.Fprintln(io.out, "Exit status: 0 on success, 1 on bad input (arc: FILE:LINE:COL: message), 2 on bad usage.")
		fmt.Fprintln(io.out, "\nflags:")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args, io); !ok {
		return code
	}
	noteVariables(fs, io)
	outs := []output{{flag: "-o", path: out}}
	if fs.Changed("report") {
		outs = append(outs, output{flag: "--report", path: report})
	}
	if err := checkOutputs(outs); err != nil {
		fmt.Fprintf(io.err, "arc compile: %v\n", err)
		return exitUsage
	}
	name, src, code, ok := readOneInput(fs, io)
	if !ok {
		return code
	}
	if src, code, ok = textOf(name, src, io); !ok {
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
	if !opt.Strict {
		warnUnlowered(name, src, opt.Target, rep, explain, io)
	}
	if !explain { // the table ends with them
		for _, n := range rep.Notes {
			fmt.Fprintf(io.err, "arc: note: %s\n", n)
		}
	}
	if explain {
		if err := rep.WriteTable(io.err); err != nil {
			fmt.Fprintf(io.err, "arc: %v\n", err)
			return exitInput
		}
	}
	outs[0].data = lowered
	if len(outs) > 1 {
		var buf bytes.Buffer
		if err := rep.WriteJSON(&buf); err != nil {
			fmt.Fprintf(io.err, "arc: %v\n", err)
			return exitInput
		}
		outs[1].data = buf.Bytes()
	}
	if err := writeOutputs(outs, io.out); err != nil {
		fmt.Fprintf(io.err, "arc: %v\n", err)
		return exitInput
	}
	return exitOK
}

// warnUnlowered says on stderr what --strict would refuse: a module lowered
// before for another target, and (unless the --explain table shows it) a
// compile that lowered nothing.
func warnUnlowered(name string, src []byte, target string, rep *passes.Report, explain bool, io stdio) {
	if bytes.Contains(src, []byte(decision.AttrTarget)) {
		if m, err := ir.ParseModule(name, src); err == nil {
			if before := arc.LoweredFor(m); before != "" && before != target {
				fmt.Fprintf(io.err, "arc: warning: %s was lowered for %s before: its arc calls stay as they are, not lowered for %s (--strict makes this an error)\n",
					name, before, target)
				return
			}
		}
	}
	if target == "none" || explain {
		return
	}
	allReduces, lowered := 0, 0
	for _, row := range rep.Collectives {
		if row.Op == "all_reduce" {
			allReduces++
			if row.Lowering != "" && row.Lowering != "native" {
				lowered++
			}
		}
	}
	if allReduces == 0 {
		fmt.Fprintf(io.err, "arc: note: %s has no all-reduce: nothing to lower (the module is unchanged)\n", name)
		return
	}
	if lowered == 0 {
		fmt.Fprintf(io.err, "arc: note: nothing lowered for %s: %d all-reduce operand(s) stay native (--explain says why; --strict makes this an error)\n",
			target, allReduces)
	}
}

// noteVariables says once that ARC_* variables set in the environment are
// not read: they are the plugins' settings, and a compile on the command
// line takes its flags (a script that sets ARC_QUANT for JAX and runs arc
// compile beside it would otherwise think it quantized).
func noteVariables(fs *pflag.FlagSet, io stdio) {
	var set, flags []string
	for _, s := range arc.Settings {
		if s.Env != "" && os.Getenv(s.Env) != "" && !fs.Changed(s.Name) {
			set, flags = append(set, s.Env), append(flags, "--"+s.Name)
		}
	}
	if len(set) > 0 {
		fmt.Fprintf(io.err, "arc: note: %s set: arc compile reads its flags (%s), not the ARC_* variables, which are the plugins' settings\n",
			strings.Join(set, ", ")+map[bool]string{true: " is", false: " are"}[len(set) == 1], strings.Join(flags, ", "))
	}
}
