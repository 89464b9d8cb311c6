package ffitest

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
	"testing"
	"time"
)

// group is one run of processes of testdata/shm_driver.cc.
type group struct {
	out     []string // each process's stdout
	errs    []string // and stderr
	killed  []bool   // ended by SIGKILL
	failed  []error  // exited otherwise than 0 (not killed)
	pids    []int
	elapsed time.Duration
}

// runGroup runs n processes of the driver at once over one store and waits
// for them all (at most a minute).
func runGroup(t *testing.T, bin string, n int, args ...string) group {
	t.Helper()
	kv := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	g := group{out: make([]string, n), errs: make([]string, n), killed: make([]bool, n), failed: make([]error, n), pids: make([]int, n)}
	outs, errs := make([]bytes.Buffer, n), make([]bytes.Buffer, n)
	cmds := make([]*exec.Cmd, n)
	start := time.Now()
	for p := range cmds {
		cmds[p] = exec.CommandContext(ctx, bin, append([]string{kv, fmt.Sprint(p)}, args...)...)
		cmds[p].Stdout, cmds[p].Stderr = &outs[p], &errs[p]
		if err := cmds[p].Start(); err != nil {
			t.Fatal(err)
		}
		g.pids[p] = cmds[p].Process.Pid
	}
	for p, c := range cmds {
		err := c.Wait()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
				g.killed[p] = true
				err = nil
			}
		}
		g.failed[p] = err
		g.out[p], g.errs[p] = outs[p].String(), errs[p].String()
	}
	g.elapsed = time.Since(start)
	if ctx.Err() != nil {
		t.Fatalf("the processes ran past a minute:\n%s", strings.Join(g.out, "\n"))
	}
	return g
}

// leftovers lists the entries of /dev/shm that a process of pids created:
// arc's names carry the creator's pid ("/arc-KEY-PID-NONCE").
func leftovers(t *testing.T, pids []int) []string {
	t.Helper()
	entries, err := os.ReadDir("/dev/shm")
	if err != nil {
		t.Skipf("no /dev/shm: %v", err)
	}
	var left []string
	for _, e := range entries {
		for _, pid := range pids {
			if strings.HasPrefix(e.Name(), "arc-") && strings.Contains(e.Name(), fmt.Sprintf("-%d-", pid)) {
				left = append(left, e.Name())
			}
		}
	}
	return left
}

// TestHostLinkAcrossProcesses: groups on the host-staged link whose ranks are
// in several processes share one POSIX shared-memory segment (arc_shm.cc).
// Every process maps it and sees the others' stores in it; its name is gone
// from /dev/shm once the group is made, and also when a process plans
// another communicator or dies in the middle (the others fail within
// ARC_RENDEZVOUS_MS, 500 ms here, and remove the name). Transcripts are
// compared with testdata/shm_<scenario>.golden.
func TestHostLinkAcrossProcesses(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/dev/shm"); err != nil {
		t.Skipf("no /dev/shm: %v", err)
	}
	bin := driver(t, "shm_driver")
	for _, c := range []struct {
		scenario string
		procs    int
		args     []string
		killed   int // the process that dies by SIGKILL, or -1
	}{
		{"four", 4, nil, -1},
		{"pairs", 2, nil, -1},
		{"mismatch", 2, nil, -1},
		{"crash", 2, []string{"crash=1"}, 1},
		{"crash", 2, []string{"crash=0"}, 0},
	} {
		name := c.scenario + strings.Join(c.args, "")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			g := runGroup(t, bin, c.procs, append([]string{c.scenario}, c.args...)...)
			var got bytes.Buffer
			for p := range g.out {
				if g.failed[p] != nil || g.killed[p] != (p == c.killed) {
					t.Errorf("process %d: %v, killed %v (want killed: %v)\nstdout:\n%s\nstderr:\n%s", p, g.failed[p], g.killed[p],
						p == c.killed, g.out[p], g.errs[p])
				}
				fmt.Fprintf(&got, "== process %d\n%s", p, pid.ReplaceAllString(g.out[p], "pid N"))
			}
			compareGolden(t, "shm_"+c.scenario+strings.TrimPrefix(strings.Join(c.args, ""), "crash=")+".golden", got.Bytes())
			// Failures wait ARC_RENDEZVOUS_MS (500 ms); the slack is for a loaded machine.
			if g.elapsed > 15*time.Second {
				t.Errorf("the group took %v", g.elapsed)
			}
			if left := leftovers(t, g.pids); len(left) > 0 {
				t.Errorf("left in /dev/shm: %v", left)
				for _, n := range left {
					os.Remove(filepath.Join("/dev/shm", n))
				}
			}
		})
	}
}
