package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// progressBar shows how far a long run is. On a terminal it redraws one
// line in place ("DESC [=====>    ] 12/40 1m02s"), at most every frame;
// anywhere else (a log, a pipe) a frame would be noise, so it writes a
// plain line at most every logEvery and nothing once the run is done.
type progressBar struct {
	w        io.Writer
	tty      bool
	name     string // the command, first on every line
	total    int
	frame    time.Duration // between redraws on a terminal
	delay    time.Duration // nothing is shown before the run is this old
	logEvery time.Duration // between lines off a terminal

	mu     sync.Mutex
	done   int
	what   string
	start  time.Time
	drawn  time.Time // last frame or line
	shown  bool      // a frame is on the terminal's line
	finish bool
}

func newProgressBar(w io.Writer, name string, total int) *progressBar {
	return &progressBar{w: w, tty: isTerminal(w), name: name, total: total, frame: 250 * time.Millisecond,
		logEvery: 30 * time.Second, start: time.Now()}
}

// isTerminal tells whether w is a character device (a terminal, or
// /dev/null, where frames cost nothing).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// Describe sets what the run does now.
func (p *progressBar) Describe(what string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.what = what
	p.draw()
}

// Add counts n more steps done.
func (p *progressBar) Add(n int) error {
	p.Set(p.doneNow() + n)
	return nil
}

func (p *progressBar) doneNow() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.done
}

// Set says how many steps are done.
func (p *progressBar) Set(done int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done = min(done, p.total)
	p.draw()
}

// Finish clears the terminal's line; summary, if not empty, is then
// written as a line of its own (on a terminal or not).
func (p *progressBar) Finish(summary string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.finish {
		return
	}
	p.finish = true
	if p.shown {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", 79))
	}
	if summary != "" {
		fmt.Fprintf(p.w, "%s: %s (%s)\n", p.name, summary, elapsed(time.Since(p.start)))
	}
}

func (p *progressBar) draw() {
	now := time.Now()
	if p.finish || now.Sub(p.start) < p.delay {
		return
	}
	every := p.logEvery
	if p.tty {
		every = p.frame
	}
	if !p.drawn.IsZero() && now.Sub(p.drawn) < every {
		return
	}
	if !p.tty && p.drawn.IsZero() && now.Sub(p.start) < p.logEvery {
		return // a short run leaves a log alone
	}
	p.drawn = now
	line := fmt.Sprintf("%s %d/%d %s", p.name, p.done, p.total, elapsed(now.Sub(p.start)))
	if p.what != "" {
		line += " " + p.what
	}
	if !p.tty {
		fmt.Fprintln(p.w, line)
		return
	}
	const width = 24
	fill := 0
	if p.total > 0 {
		fill = width * p.done / p.total
	}
	bar := strings.Repeat("=", fill) + strings.Repeat(" ", width-fill)
	if fill < width && fill > 0 {
		bar = bar[:fill-1] + ">" + bar[fill:]
	}
	frame := fmt.Sprintf("%s [%s] %d/%d %s %s", p.name, bar, p.done, p.total, elapsed(now.Sub(p.start)), p.what)
	if len(frame) > 79 {
		frame = frame[:79]
	}
	fmt.Fprintf(p.w, "\r%-79s", frame)
	p.shown = true
}

// elapsed prints a duration to the second: 42s, 3m02s, 1h05m.
func elapsed(d time.Duration) string {
	s := int(d.Round(time.Second) / time.Second)
	switch {
	case s < 60:
		return fmt.Sprintf("%ds", s)
	case s < 3600:
		return fmt.Sprintf("%dm%02ds", s/60, s%60)
	}
	return fmt.Sprintf("%dh%02dm", s/3600, s/60%60)
}
