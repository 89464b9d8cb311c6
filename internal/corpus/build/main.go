// Command build writes arc's corpus of public StableHLO modules from bare
// git directories (see package corpus): one file per piece and a manifest.
//
//	go run ./internal/corpus/build -mirror /work/.mirror -out /work/corpus
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/arcpass/arc/internal/corpus"
)

// source is one part of the corpus: the files of a repository it takes.
type source struct {
	name, repo string
	take       func(path string) bool
	jax        bool // .py files holding mlir_module_text strings
}

func under(dir, ext string, except ...string) func(string) bool {
	return func(p string) bool {
		for _, e := range except {
			if strings.HasPrefix(p, e) {
				return false
			}
		}
		return strings.HasPrefix(p, dir) && strings.HasSuffix(p, ext)
	}
}

var sources = []source{
	{name: "stablehlo-lit", repo: "openxla/stablehlo", take: under("stablehlo/tests/", ".mlir", "stablehlo/tests/interpret/")},
	{name: "stablehlo-interpret", repo: "openxla/stablehlo", take: under("stablehlo/tests/interpret/", ".mlir")},
	// The inputs of the linalg and TOSA conversions' lit tests.
	{name: "stablehlo-conversions", repo: "openxla/stablehlo", take: func(p string) bool {
		return strings.HasPrefix(p, "stablehlo/conversions/") && strings.Contains(p, "/tests/") && strings.HasSuffix(p, ".mlir")
	}},
	{name: "stablehlo-testdata", repo: "openxla/stablehlo", take: under("stablehlo/testdata/", ".mlir")},
	{name: "shardy", repo: "openxla/shardy", take: under("", ".mlir")},
	{name: "jax-back-compat", repo: "jax-ml/jax", take: under("jax/_src/internal_test_util/export_back_compat_test_data/", ".py"), jax: true},
	// The MHLO tests; mlir-hlo's stablehlo/ is an older copy of StableHLO's.
	{name: "mhlo", repo: "tensorflow/mlir-hlo", take: under("tests/", ".mlir")},
}

func main() {
	mirror := flag.String("mirror", "/work/.mirror", "directory of bare git directories, OWNER+NAME/repo")
	out := flag.String("out", "/work/corpus", "corpus directory to write (its valid/ and invalid/ are replaced)")
	flag.Parse()
	if err := build(*mirror, *out); err != nil {
		fmt.Fprintln(os.Stderr, "build:", err)
		os.Exit(1)
	}
}

func build(mirror, out string) error {
	for _, d := range []string{"valid", "invalid"} {
		if err := os.RemoveAll(filepath.Join(out, d)); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	mf, err := os.Create(filepath.Join(out, "manifest.jsonl"))
	if err != nil {
		return err
	}
	defer mf.Close()
	w := bufio.NewWriter(mf)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, s := range sources {
		git := filepath.Join(mirror, strings.Replace(s.repo, "/", "+", 1), "repo")
		entries, err := collect(s, git)
		if err != nil {
			return fmt.Errorf("%s (%s): %v", s.name, git, err)
		}
		valid := 0
		for _, e := range entries {
			if e.Valid {
				valid++
			}
			if err := enc.Encode(e.Entry); err != nil {
				return err
			}
			p := filepath.Join(out, e.File)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(p, []byte(e.text), 0o644); err != nil {
				return err
			}
		}
		fmt.Printf("%-20s %5d valid %5d invalid  %s@%.12s\n", s.name, valid, len(entries)-valid, s.repo, entries[0].Commit)
	}
	return w.Flush()
}

type entry struct {
	corpus.Entry
	text string
}

// collect reads the source's files at HEAD and cuts them into pieces.
func collect(s source, git string) ([]entry, error) {
	commit, err := gitOut(git, "rev-parse", "HEAD")
	if err != nil {
		return nil, err
	}
	commit = strings.TrimSpace(commit)
	list, err := gitOut(git, "ls-tree", "-r", "--name-only", commit)
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, p := range strings.Split(strings.TrimSpace(list), "\n") {
		if s.take(p) {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	if len(paths) == 0 {
		return nil, fmt.Errorf("no files")
	}
	texts, err := readBlobs(git, commit, paths)
	if err != nil {
		return nil, err
	}
	var out []entry
	for i, p := range paths {
		pieces := corpus.Split(texts[i])
		if s.jax {
			pieces = corpus.JAXModules(texts[i])
		}
		passes := corpus.RunPasses(texts[i])
		for n, pc := range pieces {
			ds := corpus.Diagnostics(pc.Text)
			e := corpus.Entry{Source: s.name, Valid: !corpus.Invalid(ds), Repo: s.repo, Commit: commit,
				Path: p, Piece: n, Line: pc.Line}
			kind := "valid"
			if !e.Valid {
				kind, e.Expected, e.Passes = "invalid", ds, passes
			}
			e.File = fmt.Sprintf("%s/%s/%s/%03d.mlir", kind, s.name, p, n)
			out = append(out, entry{e, pc.Text})
		}
	}
	return out, nil
}

func gitOut(git string, args ...string) (string, error) {
	b, err := exec.Command("git", append([]string{"--git-dir=" + git}, args...)...).Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %v", strings.Join(args, " "), err)
	}
	return string(b), nil
}

// readBlobs reads the files at commit through one `git cat-file --batch`.
func readBlobs(git, commit string, paths []string) ([]string, error) {
	cmd := exec.Command("git", "--git-dir="+git, "cat-file", "--batch")
	var req strings.Builder
	for _, p := range paths {
		fmt.Fprintf(&req, "%s:%s\n", commit, p)
	}
	cmd.Stdin = strings.NewReader(req.String())
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	r := bufio.NewReader(stdout)
	texts := make([]string, len(paths))
	for i, p := range paths {
		var sha, typ string
		var size int
		header, err := r.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("cat-file %s: %v", p, err)
		}
		if _, err := fmt.Sscanf(header, "%s %s %d", &sha, &typ, &size); err != nil || typ != "blob" {
			return nil, fmt.Errorf("cat-file %s: %q", p, strings.TrimSpace(header))
		}
		b := make([]byte, size+1) // the blob and its newline
		if _, err := io.ReadFull(r, b); err != nil {
			return nil, fmt.Errorf("cat-file %s: %v", p, err)
		}
		texts[i] = string(b[:size])
	}
	return texts, cmd.Wait()
}
