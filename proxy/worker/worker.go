// Package worker is `arc serve`: the compile loop that arc's standalone PJRT
// plugin keeps alive beside itself and feeds over pipes, so that a compile
// costs arc's pipeline and not a process start (docs/RUNTIME.md).
//
// The protocol (proxy/subprocess.h): every message is a frame, a 4-byte
// little-endian length and that many bytes. The worker first writes one
// frame, Hello. Then, for each request, it reads two frames, the settings
// ("name=value" lines, named as `arc compile` names its flags) and the
// program text, and answers with one frame: a 0 byte and the lowered module,
// or a 1 byte and the error message. It returns when its input ends.
package worker

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/arcpass/arc"
)

// Hello is the worker's first frame.
const Hello = "arc-worker 1"

// MaxFrame bounds a frame's length, as the plugin's side does.
const MaxFrame = 1 << 31

// Main runs the worker on the process's standard streams: it is `arc serve`.
// It returns the exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintln(stderr, "usage: arc serve (reads framed requests on stdin; run by arc's PJRT plugin)")
		return 2
	}
	if err := Serve(stdin, stdout); err != nil {
		fmt.Fprintf(stderr, "arc serve: %v\n", err)
		return 1
	}
	return 0
}

// Serve writes Hello to w, then answers the requests it reads from r until r
// ends. An error is a broken stream, never a failed compile: those are
// answers.
func Serve(r io.Reader, w io.Writer) error {
	in := bufio.NewReaderSize(r, 1<<16)
	out := bufio.NewWriterSize(w, 1<<16)
	if err := writeFrame(out, []byte(Hello)); err != nil {
		return err
	}
	for {
		settings, err := readFrame(in)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		program, err := readFrame(in)
		if err != nil {
			return fmt.Errorf("a request without its program: %w", err)
		}
		text, cerr := compile(settings, program)
		answer := append([]byte{0}, text...)
		if cerr != nil {
			answer = append([]byte{1}, cerr.Error()...)
		}
		if err := writeFrame(out, answer); err != nil {
			return err
		}
	}
}

// compile runs arc's pipeline on one program, as `arc compile` would with
// the same flags.
func compile(settings, program []byte) (text []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			text, err = nil, fmt.Errorf("arc panicked: %v", r)
		}
	}()
	opt, err := options(string(settings))
	if err != nil {
		return nil, err
	}
	text, _, err = arc.Compile("<stdin>", program, opt)
	var usage *arc.UsageError
	if errors.As(err, &usage) {
		return nil, fmt.Errorf("bad options: %w", err)
	}
	return text, err
}

// options reads a request's settings, each named as `arc compile` names
// its flag (arc.Settings), over what the ARC_* variables of the worker's
// environment (the host program's) say: so every option reaches the
// standalone plugin as it reaches the in-process one.
func options(settings string) (arc.Options, error) {
	var opt arc.Options
	if err := opt.SetFromEnv(nil); err != nil {
		return opt, fmt.Errorf("bad options: %w", err)
	}
	// A program's compiler option arc_NAME arrives as NAME: name both.
	err := opt.SetLines(settings, func(name string) string {
		return fmt.Sprintf("arc serve: setting %q (compiler option arc_%s)", name, strings.ReplaceAll(name, "-", "_"))
	})
	return opt, err
}

func readFrame(r io.Reader) ([]byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, fmt.Errorf("a truncated frame header")
		}
		return nil, err
	}
	n := binary.LittleEndian.Uint32(hdr[:])
	if n > MaxFrame {
		return nil, fmt.Errorf("a frame of %d bytes, more than the protocol allows", n)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, fmt.Errorf("a truncated frame of %d bytes: %w", n, err)
	}
	return b, nil
}

// writeFrame writes one frame and flushes it: the plugin waits for it.
func writeFrame(w *bufio.Writer, b []byte) error {
	var hdr [4]byte
	binary.LittleEndian.PutUint32(hdr[:], uint32(len(b)))
	if _, err := w.Write(hdr[:]); err != nil {
		return err
	}
	if _, err := w.Write(b); err != nil {
		return err
	}
	return w.Flush()
}
