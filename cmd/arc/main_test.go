package main

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"testing"
)

// TestMain runs the test binary as arc itself when ARC_TEST_AS_ARC is set,
// so that tests can run arc as a child process (contract_test.go) without
// building it. ARC_TEST_RLIMIT_AS caps the address space the child may add
// to what it holds at its start (the Go runtime's reservations), in bytes:
// a small input that made arc allocate without bound then fails the test
// instead of the machine. ARC_TEST_RLIMIT_FSIZE caps the size of a file the
// child writes, in bytes, so that a write fails as on a full disk.
func TestMain(m *testing.M) {
	if os.Getenv("ARC_TEST_AS_ARC") == "1" {
		if n, err := strconv.ParseUint(os.Getenv("ARC_TEST_RLIMIT_AS"), 10, 64); err == nil {
			n += vmSize()
			if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: n, Max: n}); err != nil {
				os.Stderr.WriteString("arc test: setrlimit: " + err.Error() + "\n")
				os.Exit(3)
			}
		}
		if n, err := strconv.ParseUint(os.Getenv("ARC_TEST_RLIMIT_FSIZE"), 10, 64); err == nil {
			// Writes past n bytes fail with EFBIG (Go ignores SIGXFSZ), as on a full disk.
			if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: n, Max: n}); err != nil {
				os.Stderr.WriteString("arc test: setrlimit: " + err.Error() + "\n")
				os.Exit(3)
			}
		}
		os.Exit(run(os.Args[1:], stdio{os.Stdin, os.Stdout, os.Stderr}))
	}
	os.Exit(m.Run())
}

// vmSize is the process's address space now, in bytes (Linux; 0 elsewhere).
func vmSize() uint64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range bytes.Split(status, []byte("\n")) {
		if rest, ok := bytes.CutPrefix(line, []byte("VmSize:")); ok {
			kb, err := strconv.ParseUint(string(bytes.TrimSpace(bytes.TrimSuffix(bytes.TrimSpace(rest), []byte("kB")))), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}
