// Package docs holds arc's documentation; its test runs the commands the
// documentation shows.
package docs

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// The pages whose commands TestCommands runs, from the repository root.
var pages = []string{"README.md", "docs/*.md", "examples/README.md"}

// skipped are the commands shown that TestCommands does not run, by a
// pattern of their text, and why: they need a GPU (or the files a GPU run
// writes), build for the GPU machine, or are this suite itself. Every
// command that runs on a CPU is run, --from on the shipped CSVs included.
// Every pattern must match a command shown, so that the list stays the
// docs'.
var skipped = []struct{ pattern, why string }{
	{`^make test$`, "the suite this test is part of"},
	{`^go test \./lowering/\.\.\. -update$`, "rewrites the goldens the command before it checks; internal/golden's TestEveryTestBinaryTakesUpdate checks that every test binary takes -update"},
	{`^make (gpu|gpu plugin|plugin|bench-bin|bench-bin device-bin-examples|device-bin-examples)$`, "builds for the GPU machine: nvcc, or -trimpath builds that compile gomlx and go-xla again (minutes); those run on a CPU too"},
	{`make device-bench$|\bdevtest/\w+\.(sh|py)\b`, "runs on the GPU machine: devtest/ holds its scripts"},
	{`^arc bench (-q |--level )`, "times all-reduces on GPUs"},
	{`^arc tune +--from (xla|kernel)-`, "fits the CSV the GPU run above writes"},
	{`^llama +--plugin|\.devbin/examples/llama --plugin|bin/decoder --plugin`, "runs a model on GPUs"},
	{`\bncu\b`, "profiles a GPU kernel"},
	{`^build/kbench `, "runs arc's kernels on GPUs (docs/KERNELS.md)"},
	{`^ARC_PJRT_PLUGIN=/path/to/|^export ARC_PJRT_PLUGIN=/path/to/`, "names the CUDA PJRT plugin of a GPU machine"},
}

// command is one command a page shows.
type command struct {
	page, text string
	line       int
}

// TestCommands runs the commands of the ```sh blocks of README.md,
// docs/*.md and examples/README.md as shown, in the order shown, in a copy
// of the repository (a command may write files), with arc built from it
// on PATH and /tmp/ standing for the test's temporary directory; the
// commands of the list above are skipped by name. Each must exit 0. The
// ```go blocks must compile, and README.md's claims that can be checked
// are: its dependencies are go.mod's, its cold times are stated.
func TestCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("builds arc and runs the documentation's commands")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	cmds, goBlocks := extract(t, root)
	copyDir := t.TempDir()
	copyRepo(t, root, copyDir)
	tmp, bin := t.TempDir(), t.TempDir()
	run(t, copyDir, nil, 5*time.Minute, "go", "build", "-o", filepath.Join(bin, "arc"), "./cmd/arc")
	env := []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"), "TMPDIR=" + tmp, "GOMLX_NO_AUTO_INSTALL=1"}

	used := make([]bool, len(skipped))
	ran := 0
	for _, c := range cmds {
		if i := skipIndex(c.text); i >= 0 {
			used[i] = true
			t.Logf("skipped %s:%d: %s (%s)", c.page, c.line, c.text, skipped[i].why)
			continue
		}
		shown := strings.ReplaceAll(c.text, "/tmp/", tmp+"/")
		out, err := runShell(copyDir, env, shown)
		if err != nil {
			t.Errorf("%s:%d: %s\n%v\n%s", c.page, c.line, c.text, err, tail(out))
			continue
		}
		ran++
	}
	for i, u := range used {
		if !u {
			t.Errorf("no command shown matches the skip pattern %q: remove it", skipped[i].pattern)
		}
	}
	if ran < 10 {
		t.Errorf("ran %d commands; the pages show more", ran)
	}
	t.Logf("ran %d commands, skipped %d", ran, len(cmds)-ran)
	checkGoBlocks(t, copyDir, goBlocks)
	checkReadme(t, root)
}

var blockStart = regexp.MustCompile("^ *```([a-z]*)\\s*$")

// extract returns the commands of every ```sh block of the pages, and the
// ```go blocks.
func extract(t *testing.T, root string) (cmds []command, goBlocks []command) {
	var files []string
	for _, p := range pages {
		m, err := filepath.Glob(filepath.Join(root, p))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		page, _ := filepath.Rel(root, f)
		lang, start := "", 0
		var block []string
		sc := bufio.NewScanner(bytes.NewReader(data))
		for n := 1; sc.Scan(); n++ {
			line := sc.Text()
			m := blockStart.FindStringSubmatch(line)
			switch {
			case m != nil && lang == "" && start == 0:
				lang, start, block = m[1], n, nil
				if lang == "" {
					lang = "-" // an untagged block: not run
				}
			case m != nil && m[1] == "":
				switch lang {
				case "sh":
					cmds = append(cmds, shellCommands(page, start, block)...)
				case "go":
					goBlocks = append(goBlocks, command{page, strings.Join(block, "\n"), start})
				}
				lang, start = "", 0
			case lang != "":
				block = append(block, line)
			}
		}
	}
	return cmds, goBlocks
}

// shellCommands splits a block into commands: a line ending in \ goes on
// with the next; a # after a space starts a comment.
func shellCommands(page string, start int, lines []string) []command {
	var out []command
	var cur strings.Builder
	first := 0
	for i, l := range lines {
		if cur.Len() == 0 {
			first = start + 1 + i
		}
		if j := strings.Index(l, " #"); j >= 0 {
			l = l[:j]
		}
		l = strings.TrimSpace(l)
		if rest, cont := strings.CutSuffix(l, "\\"); cont {
			cur.WriteString(strings.TrimSpace(rest) + " ")
			continue
		}
		cur.WriteString(l)
		if text := strings.Join(strings.Fields(cur.String()), " "); text != "" {
			out = append(out, command{page, text, first})
		}
		cur.Reset()
	}
	return out
}

func skipIndex(text string) int {
	for i, s := range skipped {
		if regexp.MustCompile(s.pattern).MatchString(text) {
			return i
		}
	}
	return -1
}

// copyRepo copies the repository's files, without git's and without build
// outputs, so that commands may write where they please.
func copyRepo(t *testing.T, from, to string) {
	skipDirs := []string{".git", "build", "bin", ".devbin", ".whl"}
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		if d.IsDir() {
			if slices.Contains(skipDirs, rel) {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		if !d.Type().IsRegular() || strings.HasSuffix(rel, ".test") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), data, info.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
}

// runShell runs one command as a person would paste it, with a time limit.
func runShell(dir string, env []string, text string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-o", "pipefail", "-c", text)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return out, fmt.Errorf("ran past 5 minutes")
	}
	return out, err
}

func run(t *testing.T, dir string, env []string, limit time.Duration, name string, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, tail(out))
	}
}

func tail(b []byte) string {
	if len(b) > 3000 {
		b = b[len(b)-3000:]
	}
	return string(b)
}

// snippetImports are the packages the ```go blocks name, by their identifier.
var snippetImports = map[string]string{
	"arcgomlx": "github.com/arcpass/arc/arcgomlx",
	"arc":      "github.com/arcpass/arc",
	"capture":  "github.com/arcpass/arc/capture",
	"backends": "github.com/gomlx/gomlx/backends",
	"graph":    "github.com/gomlx/gomlx/pkg/core/graph",
}

var declared = regexp.MustCompile(`(?m)^\s*([a-zA-Z_][\w, ]*?)\s*:=`)

// checkGoBlocks compiles every ```go block: a block with its own imports
// is a file; a block of statements becomes a function's body, with the
// imports it names and its variables used.
func checkGoBlocks(t *testing.T, dir string, blocks []command) {
	if len(blocks) == 0 {
		t.Error("no ```go block found")
		return
	}
	for i, b := range blocks {
		var src strings.Builder
		fmt.Fprintf(&src, "// %s:%d\npackage snippet\n\n", b.page, b.line)
		if strings.Contains(b.text, "\nfunc ") || strings.HasPrefix(b.text, "import (") {
			src.WriteString(b.text + "\n")
		} else {
			var body []string
			for _, l := range strings.Split(b.text, "\n") {
				if imp, ok := strings.CutPrefix(strings.TrimSpace(l), "import "); ok {
					fmt.Fprintf(&src, "import %s\n", imp)
					continue
				}
				body = append(body, l)
			}
			text := strings.Join(body, "\n")
			code := regexp.MustCompile(`//.*`).ReplaceAllString(text, "") // a comment names no package
			for id, path := range snippetImports {
				if regexp.MustCompile(`\b`+id+`\.`).MatchString(code) && !strings.Contains(src.String(), `"`+path+`"`) {
					fmt.Fprintf(&src, "import %q\n", path)
				}
			}
			fmt.Fprintf(&src, "\nfunc _() {\n%s\n", text)
			for _, m := range declared.FindAllStringSubmatch(text, -1) {
				for _, v := range strings.Split(m[1], ",") {
					if v = strings.TrimSpace(v); v != "_" {
						fmt.Fprintf(&src, "\t_ = %s\n", v)
					}
				}
			}
			src.WriteString("}\n")
		}
		pkg := filepath.Join(dir, "docsnippets", fmt.Sprint(i))
		if err := os.MkdirAll(pkg, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(pkg, "snippet.go"), []byte(src.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "vet", "./docsnippets/...")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("a ```go block does not compile: %v\n%s", err, tail(out))
	}
}

// checkReadme checks README.md's claims that a test can: the dependencies
// it lists are go.mod's direct ones, with their versions, and it states
// the cold times of its first two commands.
func checkReadme(t *testing.T, root string) {
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(readme)), " ")
	for _, m := range regexp.MustCompile(`(?m)^\t(\S+) (v\S+)$`).FindAllStringSubmatch(string(gomod), -1) {
		if want := m[1] + " " + m[2]; !strings.Contains(text, want) {
			t.Errorf("README.md does not list the dependency %s", want)
		}
	}
	if !regexp.MustCompile(`the first command took [0-9.]+( and [0-9.]+)? (s|min)[^.]* and .make test. [0-9.]+ (s|min)`).MatchString(text) {
		t.Error("README.md does not state the cold times of its first two commands")
	}
}
