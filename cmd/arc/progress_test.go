package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestProgressOffATerminal: into a log (not a terminal) the bar writes no
// frames: nothing for a short run, plain lines for a long one.
func TestProgressOffATerminal(t *testing.T) {
	var log bytes.Buffer
	bar := newProgressBar(&log, "arc bench", 3)
	for i := 1; i <= 3; i++ {
		bar.Describe("f16 4K oneshot")
		bar.Add(1)
	}
	bar.Finish("")
	if log.Len() != 0 {
		t.Errorf("a short run wrote %q into a log", log.String())
	}

	log.Reset()
	bar = newProgressBar(&log, "arc bench", 3)
	bar.logEvery = 0
	bar.start = time.Now().Add(-time.Minute)
	bar.Describe("f16 4K oneshot")
	bar.Add(2)
	bar.Finish("3 measurements")
	out := log.String()
	if strings.Contains(out, "\r") {
		t.Errorf("frames in a log: %q", out)
	}
	for _, want := range []string{"arc bench 0/3 1m00s f16 4K oneshot\n", "arc bench 2/3 1m00s f16 4K oneshot\n", "arc bench: 3 measurements (1m00s)\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
}

// TestProgressOnATerminal: a terminal gets frames redrawn in place, and a
// clean line at the end.
func TestProgressOnATerminal(t *testing.T) {
	var term bytes.Buffer
	bar := newProgressBar(&term, "arc accuracy", 4)
	bar.tty, bar.frame = true, 0
	bar.Set(1)
	bar.Set(4)
	bar.Finish("")
	out := term.String()
	frames := strings.Split(out, "\r")
	if len(frames) < 4 || !strings.HasPrefix(frames[1], "arc accuracy [=====>                  ] 1/4") ||
		!strings.HasPrefix(frames[2], "arc accuracy [========================] 4/4") || strings.TrimSpace(frames[3]) != "" {
		t.Errorf("frames %q", frames)
	}
	if strings.Contains(out, "\n") {
		t.Errorf("a bar that ends clean leaves no line: %q", out)
	}
}

func TestElapsed(t *testing.T) {
	for d, want := range map[time.Duration]string{0: "0s", 59 * time.Second: "59s", 62 * time.Second: "1m02s", 3900 * time.Second: "1h05m"} {
		if got := elapsed(d); got != want {
			t.Errorf("elapsed(%v) = %q, want %q", d, got, want)
		}
	}
}
