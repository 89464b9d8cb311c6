package main

import (
	"fmt"

	"github.com/arcpass/arc/ir"
	"github.com/arcpass/arc/passes"
)

func init() {
	register("inspect", "list a module's collectives and the lowerings they carry", runInspect)
}

func runInspect(args []string, io stdio) int {
	fs := newFlags("inspect", io)
	asJSON := fs.Bool("json", false, "print the report as JSON (the schema of arc compile --report)")
	fs.Usage = func() {
		fmt.Fprintln(io.out, "usage: arc inspect [--json] FILE|-")
		fmt.Fprintln(io.out, "\nLists every collective operand of a module: its size, reduction and groups, and the lowering arc recorded if it rewrote it,")
		fmt.Fprintln(io.out, "with the target the module was lowered for and the environment it needs (arc.target, arc.env).")
		fmt.Fprintln(io.out, "\nflags:")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args, io); !ok {
		return code
	}
	name, src, code, ok := readOneInput(fs, io)
	if !ok {
		return code
	}
	if src, code, ok = textOf(name, src, io); !ok {
		return code
	}
	m, err := ir.ParseModule(name, src)
	if err != nil {
		fmt.Fprintf(io.err, "arc: %v\n", err)
		return exitInput
	}
	rep, err := passes.NewReport(m, "", nil)
	if err != nil {
		fmt.Fprintf(io.err, "arc: %v\n", err)
		return exitInput
	}
	if *asJSON {
		err = rep.WriteJSON(io.out)
	} else {
		err = rep.WriteTable(io.out)
	}
	if err != nil {
		fmt.Fprintf(io.err, "arc: %v\n", err)
		return exitInput
	}
	return exitOK
}
