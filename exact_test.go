package arc

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arcpass/arc/ir"
)

// TestExact is the table of arc's exactness promise: each module under
// testdata/exact/CLASS/ states, in its first comment lines, how arc compiles
// it and what must come of it:
//
//	// arc: --target tpu:v6e-8 --quant int8     (the flags, as arc compile reads them)
//	// want: error 12:5 some words of the message
//	// want: native some words of a native row's reason
//	// want: lowered
//	// want: lowered quickreduce fp algo=twoshot cast=0
//
// An error is positioned (FILE:LINE:COL) and worded so; native means the
// module compiles and some all-reduce row stays native with that reason;
// lowered means some row runs arc's lowering, and with words, one whose
// "LOWERING CODEC algo=ALGO cast=0|1: REASON" holds them. Every accepted module is then
// checked as FuzzCompile checks it: its output parses and verifies, compiles
// to itself again and computes what the input computes (package oracle).
// A module may carry several want lines: each must hold.
func TestExact(t *testing.T) {
	files, err := filepath.Glob("testdata/exact/*/*.mlir")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no modules under testdata/exact")
	}
	classes := map[string]int{}
	for _, file := range files {
		classes[filepath.Base(filepath.Dir(file))]++
		t.Run(strings.TrimPrefix(file, "testdata/exact/"), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			opt, wants, err := exactHeader(string(src))
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			checkExact(t, file, src, opt, wants)
		})
	}
	for class, n := range classes {
		if n < 3 {
			t.Errorf("testdata/exact/%s has %d cases: each class wants at least 3", class, n)
		}
	}
}

// exactWant is one "// want:" line.
type exactWant struct {
	kind  string // error, native, lowered
	pos   string // LINE:COL, for an error
	words string
}

// exactHeader reads the leading "// arc:" and "// want:" lines.
func exactHeader(src string) (Options, []exactWant, error) {
	var opt Options
	var wants []exactWant
	for _, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "//") {
			break
		}
		line = strings.TrimSpace(strings.TrimPrefix(line, "//"))
		switch {
		case strings.HasPrefix(line, "arc:"):
			args := strings.Fields(strings.TrimPrefix(line, "arc:"))
			for i := 0; i < len(args); i++ {
				name, value, hasValue := strings.Cut(strings.TrimPrefix(args[i], "--"), "=")
				s, ok := Lookup(name)
				if !ok {
					return opt, nil, fmt.Errorf("unknown flag %q", args[i])
				}
				if !hasValue {
					if s.Kind == Bool {
						value = "true"
					} else if i+1 < len(args) {
						i++
						value = args[i]
					}
				}
				if err := s.Set(&opt, value); err != nil {
					return opt, nil, err
				}
			}
		case strings.HasPrefix(line, "want:"):
			kind, rest, _ := strings.Cut(strings.TrimSpace(strings.TrimPrefix(line, "want:")), " ")
			w := exactWant{kind: kind, words: strings.TrimSpace(rest)}
			switch kind {
			case "error":
				w.pos, w.words, _ = strings.Cut(w.words, " ")
			case "native", "lowered":
			default:
				return opt, nil, fmt.Errorf("want %q: want error, native or lowered", kind)
			}
			wants = append(wants, w)
		}
	}
	if opt.Target == "" {
		return opt, nil, errors.New(`no "// arc: --target T" line`)
	}
	if len(wants) == 0 {
		return opt, nil, errors.New(`no "// want:" line`)
	}
	return opt, wants, nil
}

func checkExact(t *testing.T, file string, src []byte, opt Options, wants []exactWant) {
	_, rep, err := Compile(file, src, opt)
	for _, w := range wants {
		switch w.kind {
		case "error":
			var pos *ir.Error
			if err == nil {
				t.Fatalf("compiled; want an error at %s (%s)", w.pos, w.words)
			}
			if !errors.As(err, &pos) {
				t.Fatalf("error without a position: %v", err)
			}
			if at := file + ":" + w.pos + ":"; !strings.HasPrefix(err.Error(), at) || !strings.Contains(err.Error(), w.words) {
				t.Errorf("error %q; want it at %s saying %q", err, at, w.words)
			}
		case "native", "lowered":
			if err != nil {
				t.Fatalf("want %s; the compile fails: %v", w.kind, err)
			}
			found := false
			var rows []string
			for _, r := range rep.Collectives {
				if r.Op != "all_reduce" {
					continue
				}
				cast := 0
				if r.CastBF16ToFP16 {
					cast = 1
				}
				desc := fmt.Sprintf("%s %s algo=%s cast=%d: %s", r.Lowering, r.Codec, r.Algo, cast, r.Reason)
				rows = append(rows, fmt.Sprintf("%d %s", r.Index, desc))
				if w.kind == "native" && r.Lowering == "native" && strings.Contains(r.Reason, w.words) ||
					w.kind == "lowered" && r.Lowering != "native" && strings.Contains(desc, w.words) {
					found = true
				}
			}
			if !found {
				t.Errorf("want a row %s %q; the all-reduce rows are:\n  %s", w.kind, w.words, strings.Join(rows, "\n  "))
			}
		}
	}
	if err == nil {
		checkCompile(t, src, opt, &original{})
	}
}
