package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/arcpass/arc/ir"
)

// converterTimeout bounds one bytecode conversion: a Python start, a
// jaxlib import and the conversion take seconds. (A variable for the test
// of the limit.)
var converterTimeout = 2 * time.Minute

// textOf returns the module text arc reads. MLIR bytecode (what JAX hands
// PJRT, what jax.export writes) is converted to text with the converter the
// PJRT proxy uses, when it is found; else, and for any other input that is
// not MLIR text, ir.ParseModule's refusal is printed. When ok is false the
// command exits with code, the message printed.
func textOf(name string, src []byte, io stdio) (text []byte, code int, ok bool) {
	if ir.Detect(src) != ir.FormatBytecode {
		return src, exitOK, true
	}
	how, convert := findConverter()
	if convert == nil {
		fmt.Fprintf(io.err, "arc: %v (%s)\n", ir.CheckInput(name, src), how)
		return nil, exitInput, false
	}
	text, err := convert(src)
	if err != nil {
		fmt.Fprintf(io.err, "arc: %v; converting it with %s failed: %v\n", ir.CheckInput(name, src), how, err)
		return nil, exitInput, false
	}
	if _, err := ir.ParseModule(name, text); err != nil {
		fmt.Fprintf(io.err, "arc: %v (in the text %s made of the bytecode)\n", err, how)
		return nil, exitInput, false
	}
	fmt.Fprintf(io.err, "arc: note: %s is MLIR bytecode, converted to text with %s; positions are the text's\n", name, how)
	return text, exitOK, true
}

// findConverter returns the bytecode converter the PJRT proxy would use
// (docs/RUNTIME.md): $ARC_MLIR_TO_TEXT, a shell command, else
// arc_mlir_to_text.py next to arc (make plugin puts it in build/) run with
// $ARC_PYTHON, $VIRTUAL_ENV/bin/python3 or python3. Without one it says
// how to get one.
func findConverter() (string, func([]byte) ([]byte, error)) {
	if cmd := os.Getenv("ARC_MLIR_TO_TEXT"); strings.TrimSpace(cmd) != "" {
		return "ARC_MLIR_TO_TEXT", func(src []byte) ([]byte, error) { return runConverter(src, "/bin/sh", "-c", cmd) }
	}
	hint := "arc converts bytecode when arc_mlir_to_text.py (make plugin) is next to arc and python3 has jaxlib, or when ARC_MLIR_TO_TEXT names a converter"
	exe, err := os.Executable()
	if err != nil {
		return hint, nil
	}
	script := filepath.Join(filepath.Dir(exe), "arc_mlir_to_text.py")
	if _, err := os.Stat(script); err != nil {
		return hint, nil
	}
	python := os.Getenv("ARC_PYTHON")
	if python == "" {
		if venv := os.Getenv("VIRTUAL_ENV"); venv != "" {
			if p := filepath.Join(venv, "bin", "python3"); isExecutable(p) {
				python = p
			}
		}
	}
	if python == "" {
		if python, err = exec.LookPath("python3"); err != nil {
			return "arc_mlir_to_text.py is next to arc but no python3 was found: set ARC_PYTHON to the Python that has jaxlib", nil
		}
	}
	return script, func(src []byte) ([]byte, error) { return runConverter(src, python, script) }
}

func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// runConverter runs a converter with the bytecode on stdin, within
// converterTimeout, and returns what it printed. The converter runs in a
// process group of its own (a shell command, a Python that may start
// children), and the whole group is killed at the limit and once the
// converter is done: nothing it started outlives the conversion, as the C
// proxy's children do not (proxy/subprocess.c).
func runConverter(src []byte, argv ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), converterTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return killGroup(cmd.Process.Pid) }
	cmd.WaitDelay = time.Second
	cmd.Stdin = bytes.NewReader(src)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if cmd.Process != nil {
		// What the converter left running (a group id is not reused while
		// a member of the group lives).
		_ = killGroup(cmd.Process.Pid)
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return nil, fmt.Errorf("it ran longer than %v", converterTimeout)
	}
	if err != nil {
		msg := strings.TrimSpace(errOut.String())
		if len(msg) > 400 {
			msg = "..." + msg[len(msg)-400:]
		}
		return nil, fmt.Errorf("%v: %s", err, msg)
	}
	if ir.Detect(out.Bytes()) != ir.FormatText {
		return nil, errors.New("it did not print MLIR text")
	}
	return out.Bytes(), nil
}

// killGroup kills the process group that pid leads.
func killGroup(pid int) error {
	if err := syscall.Kill(-pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	return nil
}
