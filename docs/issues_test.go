package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// issueNumber is a citation of a tracker's issue: the word issue (or
// issues), then a number, with or without #, that is not a decimal ("issues
// 0.44 instructions a cycle" is a profile); or a number after "(#".
var issueNumber = regexp.MustCompile(`(?i)\bissues? #?[0-9]+(?:[^.0-9]|\.(?:[^0-9]|$)|$)|\(#[0-9]+\)`)

// TestCodeCitesNoIssueNumbers: the tracker is not in the repository, so a
// comment or a page that names an issue number tells a reader nothing; it
// says the reason instead.
func TestCodeCitesNoIssueNumbers(t *testing.T) {
	files := trackedFiles(t, "*.go", "*.c", "*.cc", "*.cu", "*.cuh", "*.h", "*.py", "*.sh", "Makefile", ".ci/*", "*.md")
	if len(files) < 100 {
		t.Fatalf("git ls-files found %d code files; the repository has more", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join("..", f))
		if err != nil {
			continue // deleted in the work tree
		}
		for i, line := range strings.Split(string(data), "\n") {
			if m := issueNumber.FindString(line); m != "" && !strings.Contains(line, "issueNumber") {
				t.Errorf("%s:%d: %q names an issue of a tracker the repository does not hold: say the reason", f, i+1, m)
			}
		}
	}
}
