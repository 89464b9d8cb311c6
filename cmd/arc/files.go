package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/pflag"

	"github.com/arcpass/arc/internal/safefile"
)

// maxInput bounds what arc reads of one input: far above any program, far
// below what would exhaust memory.
const maxInput = 1 << 30

// readOneInput reads the one input FILE a command takes after its flags. When
// ok is false the command exits with code (2 without exactly one argument, 1
// when the file cannot be read), the message already printed.
func readOneInput(fs *pflag.FlagSet, s stdio) (name string, src []byte, code int, ok bool) {
	if fs.NArg() != 1 {
		fmt.Fprintf(s.err, "arc %s: want exactly one input FILE (or - for stdin)\n", fs.Name())
		return "", nil, exitUsage, false
	}
	if fs.Arg(0) == "" {
		fmt.Fprintf(s.err, "arc %s: the input FILE is empty text (- reads stdin)\n", fs.Name())
		return "", nil, exitUsage, false
	}
	name, src, err := readInput(fs.Arg(0), s)
	if err != nil {
		fmt.Fprintf(s.err, "arc: %v\n", err)
		return "", nil, exitInput, false
	}
	return name, src, exitOK, true
}

// readInput reads FILE, or standard input for "-" (named <stdin> in messages).
func readInput(path string, s stdio) (string, []byte, error) {
	name, r := path, s.in
	if path == "-" {
		name = "<stdin>"
	} else {
		f, err := os.Open(path)
		if err != nil {
			return path, nil, err
		}
		defer f.Close()
		if fi, err := f.Stat(); err == nil && fi.IsDir() {
			return path, nil, fmt.Errorf("%s: is a directory, not a module", path)
		}
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, maxInput+1))
	if err != nil {
		return name, nil, fmt.Errorf("%s: %v", name, err)
	}
	if len(data) > maxInput {
		return name, nil, fmt.Errorf("%s:1:1: the input is larger than arc reads (%d bytes)", name, maxInput)
	}
	return name, data, nil
}

// output is one file a command writes: "-" is standard output.
type output struct {
	flag, path string
	data       []byte
}

// checkOutputs refuses output paths that cannot work: an empty path, and
// two outputs on one file (or both on standard output), which would
// leave one of them lost. The paths are compared after symbolic links.
func checkOutputs(outs []output) error {
	for i, o := range outs {
		if o.path == "" {
			return fmt.Errorf("%s \"\": want a file name, or - for stdout", o.flag)
		}
		for _, p := range outs[:i] {
			if samePath(o.path, p.path) {
				if p.path == "-" {
					return fmt.Errorf("%s and %s both write standard output (give %s a FILE)", p.flag, o.flag, p.flag)
				}
				return fmt.Errorf("%s and %s both write %s", p.flag, o.flag, p.path)
			}
		}
	}
	return nil
}

func samePath(a, b string) bool {
	if a == "-" || b == "-" {
		return a == b
	}
	ra, rb := safefile.ResolveLinks(a), safefile.ResolveLinks(b)
	if fa, err := os.Stat(ra); err == nil {
		if fb, err := os.Stat(rb); err == nil {
			return os.SameFile(fa, fb)
		}
	}
	aa, err1 := filepath.Abs(ra)
	ab, err2 := filepath.Abs(rb)
	return err1 == nil && err2 == nil && aa == ab
}

// writeOutputs writes every output or, when one cannot be written, none:
// each file is written in full beside its destination first, and renamed
// into place only once all are. Standard output comes last.
func writeOutputs(outs []output, stdout io.Writer) error {
	var staged []*safefile.Staging
	defer func() {
		for _, s := range staged {
			s.Abort()
		}
	}()
	for _, o := range outs {
		if o.path == "-" {
			continue
		}
		data := o.data
		s, err := safefile.Stage(o.path, func(w io.Writer) error { _, err := w.Write(data); return err })
		if err != nil {
			return err
		}
		staged = append(staged, s)
	}
	for _, s := range staged {
		if err := s.Commit(); err != nil {
			return err
		}
	}
	for _, o := range outs {
		if o.path == "-" {
			if _, err := stdout.Write(o.data); err != nil {
				return fmt.Errorf("cannot write standard output: %v", err)
			}
		}
	}
	return nil
}

// writer is io.Writer, for commands whose stdio parameter is named io.
type writer = io.Writer

// writeFileAtomic writes one file as writeOutputs does.
func writeFileAtomic(path string, write func(io.Writer) error) error {
	return safefile.Write(path, write)
}
