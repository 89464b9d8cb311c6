package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/pflag"
)

// readOneInput reads the one input FILE a command takes after its flags. When
// ok is false the command exits with code (2 without exactly one argument, 1
// when the file cannot be read), the message already printed.
func readOneInput(fs *pflag.FlagSet, s stdio) (name string, src []byte, code int, ok bool) {
	if fs.NArg() != 1 {
		fmt.Fprintf(s.err, "arc %s: want exactly one input FILE (or - for stdin)\n", fs.Name())
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
	if path == "-" {
		data, err := io.ReadAll(s.in)
		return "<stdin>", data, err
	}
	data, err := os.ReadFile(path)
	return path, data, err
}

// writeFileAtomic writes a file through a temporary file in the same
// directory and renames it into place, so a failure never leaves half a file.
// Paths that are not regular files (/dev/stderr, a pipe) are written directly;
// a symbolic link is followed, so the link stays and its target is replaced.
func writeFileAtomic(path string, write func(*os.File) error) error {
	fi, statErr := os.Stat(path) // follows a link: fi describes its target
	if statErr == nil && !fi.Mode().IsRegular() {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return fmt.Errorf("cannot write %s: %v", path, err)
		}
		if err := write(f); err != nil {
			f.Close()
			return fmt.Errorf("cannot write %s: %v", path, err)
		}
		return f.Close()
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	mode := os.FileMode(0o644) // CreateTemp makes 0600: keep what a plain write would give
	if statErr == nil {
		mode = fi.Mode().Perm() // replacing a file keeps its permissions
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("cannot write %s: %v", path, err)
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return fmt.Errorf("cannot write %s: %v", path, err)
	}
	if err := write(tmp); err != nil {
		tmp.Close()
		return fmt.Errorf("cannot write %s: %v", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("cannot write %s: %v", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("cannot write %s: %v", path, err)
	}
	return nil
}
