// Package ctest compiles C and C++ for tests, at test time.
//
// Go's build cache hashes only a package's own files, and its test cache
// keys a result on the files the test opened. So a test that compiles C
// sources from elsewhere must read them through Go: Build reads every file
// named in the arguments and every header of each -I directory, hashes them
// into the output's cache key, and so a one-line edit to any of them makes
// the next `go test` compile and run again.
package ctest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// headerExts are the files of an include directory a build may read.
var headerExts = []string{".h", ".hpp", ".cuh", ".inc"}

var cache struct {
	sync.Mutex
	dir   string
	built map[string]*build // key -> its build
}

// build is one compilation: the first test to ask runs it, the others wait.
type build struct {
	done chan struct{}
	file string // in cache.dir
	err  string // the compiler's complaint, "" when it built
}

// Cleanup removes the builds of this process; call it from TestMain after m.Run.
func Cleanup() {
	cache.Lock()
	defer cache.Unlock()
	if cache.dir != "" {
		os.RemoveAll(cache.dir)
		cache.dir, cache.built = "", nil
	}
}

// Build runs compiler (gcc, g++) with args and "-o out", skipping the test
// when the compiler is missing. Identical builds (same compiler, arguments
// and file contents) are compiled once per process and copied: a copy at a
// new path is a new dlopen, with fresh library state. Different builds of
// parallel tests run at the same time. out may be os.DevNull for a syntax
// check.
func Build(t testing.TB, compiler, out string, args ...string) {
	t.Helper()
	if _, err := exec.LookPath(compiler); err != nil {
		t.Skipf("%s not found", compiler)
	}
	key, err := inputsKey(compiler, args)
	if err != nil {
		t.Fatal(err)
	}
	if out == os.DevNull {
		if msg := compile(compiler, out, args); msg != "" {
			t.Fatal(msg)
		}
		return
	}
	cache.Lock()
	if cache.dir == "" {
		dir, err := os.MkdirTemp("", "arc-ctest-")
		if err != nil {
			cache.Unlock()
			t.Fatal(err)
		}
		cache.dir, cache.built = dir, map[string]*build{}
	}
	b, ok := cache.built[key]
	if !ok {
		b = &build{done: make(chan struct{}), file: filepath.Join(cache.dir, key[:16]+"-"+filepath.Base(out))}
		cache.built[key] = b
	}
	cache.Unlock()
	if !ok {
		b.err = compile(compiler, b.file, args)
		close(b.done)
	}
	<-b.done
	if b.err != "" {
		t.Fatal(b.err)
	}
	data, err := os.ReadFile(b.file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, data, 0o755); err != nil {
		t.Fatal(err)
	}
}

// compileLimit bounds one compilation, so that a compiler that hangs fails its test.
const compileLimit = 5 * time.Minute

// compile runs the compiler and returns its complaint, or "".
func compile(compiler, out string, args []string) string {
	ctx, cancel := context.WithTimeout(context.Background(), compileLimit)
	defer cancel()
	cmd := exec.CommandContext(ctx, compiler, append(append([]string{}, args...), "-o", out)...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return fmt.Sprintf("%s %s: %v\n%s", compiler, strings.Join(args, " "), err, msg)
	}
	return ""
}

// inputsKey hashes the compiler, the arguments, the files they name and
// the headers of their include directories and of each source's own
// directory (where `#include "x.h"` looks first).
func inputsKey(compiler string, args []string) (string, error) {
	h := sha256.New()
	h.Write([]byte(compiler + "\x00"))
	for i, a := range args {
		h.Write([]byte(a + "\x00"))
		dir := ""
		switch {
		case a == "-I" && i+1 < len(args):
			continue // the directory is the next argument
		case i > 0 && args[i-1] == "-I":
			dir = a
		case strings.HasPrefix(a, "-I"):
			dir = a[2:]
		}
		if dir != "" {
			if err := hashHeaders(h, dir); err != nil {
				return "", err
			}
			continue
		}
		if st, err := os.Stat(a); err == nil && st.Mode().IsRegular() {
			b, err := os.ReadFile(a)
			if err != nil {
				return "", err
			}
			h.Write(b)
			if err := hashHeaders(h, filepath.Dir(a)); err != nil {
				return "", err
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func hashHeaders(h interface{ Write([]byte) (int, error) }, dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir() || !hasExt(e.Name()) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return err
		}
		h.Write([]byte(e.Name() + "\x00"))
		h.Write(b)
	}
	return nil
}

func hasExt(name string) bool {
	for _, ext := range headerExts {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}

// TrackGoSources stats every Go file of the module below root, for a test
// that builds a program of the module with `go build` at test time: the
// test cache then sees an edit to any of them (it keys a result on the
// files the test looked at, and a child `go build` looks on its own).
func TrackGoSources(t testing.TB, root string) {
	t.Helper()
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "build") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			_, err = os.Stat(path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
