// Package safefile writes files the way every file arc writes is written:
// never half-written (the content goes to a temporary file beside the
// destination, renamed into place once complete) and never redirected by a
// planted link (the temporary file has a random name and is created with
// O_EXCL). The CLI's -o, --report and bench outputs and the pipeline's
// --dump-dir go through it.
package safefile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Staging is a file written in full and not yet in place.
type Staging struct {
	path, tmp string
	direct    []byte // a device or pipe: written at commit, as it cannot be replaced
	done      bool
}

// Stage writes a file's content through a temporary file in the
// destination's directory. A symbolic link at path is followed (the user's
// own link to where outputs go stays, and its target is written); paths that
// are not regular files (/dev/stderr, a pipe) are written directly, at
// Commit.
func Stage(path string, write func(io.Writer) error) (*Staging, error) {
	return stage(path, ResolveLinks(path), write)
}

// StageNoFollow is Stage for a name arc chose, in a directory the user
// named (--dump-dir): what is at path, a symbolic link too, is replaced, and
// nothing is written through it.
func StageNoFollow(path string, write func(io.Writer) error) (*Staging, error) {
	return stage(path, path, write)
}

func stage(path, real string, write func(io.Writer) error) (*Staging, error) {
	fail := func(err error) (*Staging, error) { return nil, fmt.Errorf("cannot write %s: %v", path, err) }
	fi, statErr := os.Lstat(real)
	switch {
	case statErr == nil && fi.IsDir():
		return fail(errors.New("is a directory"))
	case statErr == nil && fi.Mode()&os.ModeSymlink != 0:
		statErr = os.ErrNotExist // a link not followed is replaced
	case statErr == nil && !fi.Mode().IsRegular():
		var buf bytes.Buffer
		if err := write(&buf); err != nil {
			return fail(err)
		}
		return &Staging{path: real, direct: buf.Bytes()}, nil
	}
	mode := os.FileMode(0o644) // CreateTemp makes 0600: keep what a plain write would give
	if statErr == nil {
		mode = fi.Mode().Perm() // replacing a file keeps its permissions
	}
	tmp, err := os.CreateTemp(filepath.Dir(real), "."+filepath.Base(real)+".tmp*")
	if err != nil {
		return fail(err)
	}
	s := &Staging{path: real, tmp: tmp.Name()}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		s.Abort()
		return fail(err)
	}
	if err := write(tmp); err != nil {
		tmp.Close()
		s.Abort()
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		s.Abort()
		return fail(err)
	}
	return s, nil
}

// Commit puts the file in place.
func (s *Staging) Commit() error {
	s.done = true
	if s.tmp == "" {
		f, err := os.OpenFile(s.path, os.O_WRONLY, 0)
		if err != nil {
			return fmt.Errorf("cannot write %s: %v", s.path, err)
		}
		if _, err := f.Write(s.direct); err != nil {
			f.Close()
			return fmt.Errorf("cannot write %s: %v", s.path, err)
		}
		return f.Close()
	}
	if err := os.Rename(s.tmp, s.path); err != nil {
		os.Remove(s.tmp)
		return fmt.Errorf("cannot write %s: %v", s.path, err)
	}
	return nil
}

// Abort removes the temporary file of a staging not committed.
func (s *Staging) Abort() {
	if !s.done && s.tmp != "" {
		os.Remove(s.tmp)
	}
	s.done = true
}

// Write writes one file as Stage and Commit do.
func Write(path string, write func(io.Writer) error) error {
	s, err := Stage(path, write)
	if err != nil {
		return err
	}
	defer s.Abort()
	return s.Commit()
}

// WriteNoFollow writes one file as StageNoFollow and Commit do.
func WriteNoFollow(path string, data []byte) error {
	s, err := StageNoFollow(path, func(w io.Writer) error { _, err := w.Write(data); return err })
	if err != nil {
		return err
	}
	defer s.Abort()
	return s.Commit()
}

// ResolveLinks follows path while it is a symbolic link, to the file a
// write through it reaches, whether that exists yet or not.
func ResolveLinks(path string) string {
	for i := 0; i < 40; i++ {
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			return path
		}
		target, err := os.Readlink(path)
		if err != nil {
			return path
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(path), target)
		}
		path = target
	}
	return path
}
