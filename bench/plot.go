package bench

import (
	"bytes"
	"fmt"
	"html"
	"io"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// WritePlot draws, as SVG, for each series WriteTable prints, a row of
// panels: the time of one all-reduce against its size, each lowering's
// speedup over the best native (over native when it is the only one), and,
// where the series has floors (the kernel level), each lowering's time over
// its floor, all on log axes; one legend at the right serves every panel,
// each lowering keeping its colour, marker and dashes throughout.
func WritePlot(w io.Writer, rs []Result) error {
	ix := indexResults(rs)
	styles := lineStyles(rs)
	drawn := map[Lowering]bool{}
	var rows [][]panel
	cols := 0
	for _, s := range seriesOf(rs) {
		if row := seriesPanels(s, ix, rs, drawn); len(row) > 0 {
			rows = append(rows, row)
			cols = max(cols, len(row))
		}
	}
	if len(rows) == 0 {
		return fmt.Errorf("nothing to plot: no measurement succeeded")
	}
	var b bytes.Buffer
	width, height := cols*panelW+legendW, len(rows)*panelH
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="Liberation Serif, Times New Roman, serif" font-size="13">`+"\n",
		width, height, width, height)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", width, height)
	for i, row := range rows {
		for j, p := range row {
			p.draw(&b, float64(j*panelW), float64(i*panelH), styles)
		}
	}
	drawLegend(&b, float64(cols*panelW), rs, styles, drawn)
	b.WriteString("</svg>\n")
	_, err := w.Write(b.Bytes())
	return err
}

// The plot's layout, in pixels: one panel per measure and series, and a
// column at the right for the legend.
const (
	panelW, panelH, legendW = 672, 480, 240
	marginL, marginR        = 84, 24
	marginT, marginB        = 56, 64
)

// PlotFormat checks that a plot file's name asks for what WritePlot draws.
func PlotFormat(path string) error {
	if strings.EqualFold(filepath.Ext(path), ".svg") {
		return nil
	}
	return fmt.Errorf("plot %s: name it .svg (arc draws SVG, which browsers and GitHub show)", path)
}

// panel is one chart: lines of (bytes, value) points on log axes, and a
// reference value (0: none) drawn across it and kept in its range.
type panel struct {
	title, yLabel string
	lines         []line
	yTicks        func(lo, hi float64) []tick
	ref           float64
}

type line struct {
	l   Lowering
	xys [][2]float64 // sorted by size
}

type tick struct {
	v     float64
	label string // "" for a minor tick
}

// seriesPanels makes one series' panels (time, speedup and, where it has
// floors, x of the floor), or none when it has no time to draw; drawn
// records the lowerings it drew. A speedup panel left without lines (no
// native to compare with) is drawn empty, with a note, or left out where
// the floor panel stands beside the time.
func seriesPanels(s series, ix index, rs []Result, drawn map[Lowering]bool) []panel {
	lows := s.lowerings(rs)
	title := s.title()
	over := "native"
	if natives(lows) > 1 {
		over = "the best native"
	}
	timeP := panel{title: title + ": time", yLabel: "microseconds per all-reduce", yTicks: timeTicks}
	speedP := panel{title: title + ": speedup over " + over, yLabel: over + "'s time / lowering's time", yTicks: ratioTicks}
	floorP := panel{title: title + ": x of the " + floorName(s.Link), yLabel: "time / " + floorName(s.Link), yTicks: ratioTicks, ref: 1}
	for _, l := range lows {
		var times, speeds, floors [][2]float64
		for n, cell := range ix[s] {
			r, ok := cell[l]
			if !ok || !r.OK() || r.US <= 0 { // noise can push a tiny time to 0 or below
				continue
			}
			times = append(times, [2]float64{float64(n), r.US})
			if sp := ix.speedupBest(r); sp > 0 {
				speeds = append(speeds, [2]float64{float64(n), sp})
			}
			if x := r.XFloor(); x > 0 {
				floors = append(floors, [2]float64{float64(n), x})
			}
		}
		for _, add := range []struct {
			p   *panel
			xys [][2]float64
		}{{&timeP, times}, {&speedP, speeds}, {&floorP, floors}} {
			if len(add.xys) > 0 {
				sort.Slice(add.xys, func(a, b int) bool { return add.xys[a][0] < add.xys[b][0] })
				add.p.lines = append(add.p.lines, line{l, add.xys})
			}
		}
		if len(times) > 0 {
			drawn[l] = true
		}
	}
	switch {
	case len(timeP.lines) == 0:
		return nil
	case len(floorP.lines) == 0:
		return []panel{timeP, speedP}
	case len(speedP.lines) == 0: // logical ranks: no native, the floor says more
		return []panel{timeP, floorP}
	}
	return []panel{timeP, speedP, floorP}
}

// draw writes the panel with its top left corner at (x0, y0).
func (p panel) draw(b *bytes.Buffer, x0, y0 float64, styles map[Lowering]lineStyle) {
	left, right := x0+marginL, x0+panelW-marginR
	top, bottom := y0+marginT, y0+panelH-marginB
	fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle" font-size="15">%s</text>`+"\n", (left+right)/2, y0+marginT/2, html.EscapeString(p.title))
	fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle">bytes per rank</text>`+"\n", (left+right)/2, bottom+48)
	fmt.Fprintf(b, `<text transform="translate(%.1f %.1f) rotate(-90)" text-anchor="middle">%s</text>`+"\n", x0+20, (top+bottom)/2, html.EscapeString(p.yLabel))
	fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="black"/>`+"\n", left, top, right-left, bottom-top)
	if len(p.lines) == 0 {
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle" fill="#555">no native measured: no speedup to draw</text>`+"\n", (left+right)/2, (top+bottom)/2)
		return
	}
	xlo, xhi, ylo, yhi := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, l := range p.lines {
		for _, xy := range l.xys {
			xlo, xhi = min(xlo, xy[0]), max(xhi, xy[0])
			ylo, yhi = min(ylo, xy[1]), max(yhi, xy[1])
		}
	}
	if p.ref > 0 {
		ylo, yhi = min(ylo, p.ref), max(yhi, p.ref)
	}
	xlo, xhi = widen(xlo, xhi)
	ylo, yhi = widen(ylo, yhi)
	const pad = 8 // keeps markers off the frame
	xAt := func(v float64) float64 {
		return left + pad + (right-left-2*pad)*math.Log(v/xlo)/math.Log(xhi/xlo)
	}
	yAt := func(v float64) float64 {
		return bottom - pad - (bottom-top-2*pad)*math.Log(v/ylo)/math.Log(yhi/ylo)
	}
	for _, t := range sizeTicks(xlo, xhi) {
		x := xAt(t.v)
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/>`+"\n", x, top, x, bottom)
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="black"/>`+"\n", x, bottom, x, bottom+tickLen(t))
		if t.label != "" {
			fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", x, bottom+24, html.EscapeString(t.label))
		}
	}
	for _, t := range labelled(p.yTicks(ylo, yhi), ylo, yhi) {
		y := yAt(t.v)
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/>`+"\n", left, y, right, y)
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="black"/>`+"\n", left-tickLen(t), y, left, y)
		if t.label != "" {
			fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="end">%s</text>`+"\n", left-10, y+4, html.EscapeString(t.label))
		}
	}
	if p.ref > 0 {
		y := yAt(p.ref)
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#555" stroke-dasharray="2 3"/>`+"\n", left, y, right, y)
	}
	for _, l := range p.lines {
		st := styles[l.l]
		pts := make([]string, len(l.xys))
		for i, xy := range l.xys {
			pts[i] = fmt.Sprintf("%.1f,%.1f", xAt(xy[0]), yAt(xy[1]))
		}
		fmt.Fprintf(b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="%g"%s/>`+"\n", strings.Join(pts, " "), st.color, st.width, st.dashAttr())
		for _, xy := range l.xys {
			st.marker(b, xAt(xy[0]), yAt(xy[1]))
		}
	}
}

// widen makes a range a log axis can show: one point gets a factor of two
// around it.
func widen(lo, hi float64) (float64, float64) {
	if hi <= lo {
		return lo / math.Sqrt2, hi * math.Sqrt2
	}
	return lo, hi
}

func tickLen(t tick) float64 {
	if t.label == "" {
		return 3
	}
	return 6
}

// labelled keeps ticks in [lo, hi] and, when fewer than two carry a label,
// labels the axis's ends too, so that every axis can be read.
func labelled(ts []tick, lo, hi float64) []tick {
	var out []tick
	n := 0
	for _, t := range ts {
		if t.v >= lo && t.v <= hi {
			out = append(out, t)
			if t.label != "" {
				n++
			}
		}
	}
	if n < 2 {
		out = append(out, tick{lo, strconv.FormatFloat(lo, 'g', 3, 64)}, tick{hi, strconv.FormatFloat(hi, 'g', 3, 64)})
	}
	return out
}

func drawLegend(b *bytes.Buffer, x0 float64, rs []Result, styles map[Lowering]lineStyle, drawn map[Lowering]bool) {
	y := float64(marginT)
	for _, l := range lineOrder(rs) {
		if !drawn[l] {
			continue
		}
		st := styles[l]
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="%g"%s/>`+"\n",
			x0+16, y, x0+64, y, st.color, st.width, st.dashAttr())
		st.marker(b, x0+40, y)
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f">%s</text>`+"\n", x0+72, y+4, html.EscapeString(l.Label()))
		y += 20
	}
}

// lineStyle is how one lowering is drawn on every panel.
type lineStyle struct {
	color  string
	width  float64
	dashes string // SVG stroke-dasharray, "" for solid
	glyph  int    // index into glyphs
}

func (st lineStyle) dashAttr() string {
	if st.dashes == "" {
		return ""
	}
	return fmt.Sprintf(` stroke-dasharray="%s"`, st.dashes)
}

// marker draws the style's glyph centred at (x, y).
func (st lineStyle) marker(b *bytes.Buffer, x, y float64) {
	const r = 4.0
	c := st.color
	switch glyphs[st.glyph] {
	case "circle":
		fmt.Fprintf(b, `<circle cx="%.1f" cy="%.1f" r="%g" fill="%s"/>`+"\n", x, y, r, c)
	case "ring":
		fmt.Fprintf(b, `<circle cx="%.1f" cy="%.1f" r="%g" fill="white" stroke="%s"/>`+"\n", x, y, r, c)
	case "square":
		fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="%g" height="%g" fill="white" stroke="%s"/>`+"\n", x-r, y-r, 2*r, 2*r, c)
	case "box":
		fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="%g" height="%g" fill="%s"/>`+"\n", x-r, y-r, 2*r, 2*r, c)
	case "triangle":
		fmt.Fprintf(b, `<polygon points="%.1f,%.1f %.1f,%.1f %.1f,%.1f" fill="white" stroke="%s"/>`+"\n", x, y-r, x-r, y+r, x+r, y+r, c)
	case "pyramid":
		fmt.Fprintf(b, `<polygon points="%.1f,%.1f %.1f,%.1f %.1f,%.1f" fill="%s"/>`+"\n", x, y-r, x-r, y+r, x+r, y+r, c)
	case "cross":
		fmt.Fprintf(b, `<path d="M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f" stroke="%s"/>`+"\n", x-r, y-r, x+r, y+r, x-r, y+r, x+r, y-r, c)
	case "plus":
		fmt.Fprintf(b, `<path d="M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f" stroke="%s"/>`+"\n", x-r, y, x+r, y, x, y-r, x, y+r, c)
	}
}

// palette holds colours that stay apart from each other, on screen and in
// print; native is black and auto red, both drawn thicker, and red is kept
// for auto.
var palette = []string{
	"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22",
	"#7f7f7f", "#00008c", "#008080", "#cd9600", "#aa00aa", "#5aaa00", "#fa8072", "#643c00",
}

// glyphs are the markers, one per lowering before they repeat (with
// another colour: palette and glyphs differ in length).
var glyphs = []string{"circle", "square", "triangle", "pyramid", "cross", "plus", "ring", "box"}

// lineOrder lists every lowering of rs once: natives first, then arc's, auto last.
func lineOrder(rs []Result) []Lowering {
	var out []Lowering
	for _, r := range rs {
		if !slices.Contains(out, r.Lowering) {
			out = append(out, r.Lowering)
		}
	}
	rank := func(l Lowering) int {
		switch {
		case l == Native:
			return 0
		case l.IsNative():
			return 1
		case l == Auto:
			return 3
		}
		return 2
	}
	slices.SortStableFunc(out, func(a, b Lowering) int { return rank(a) - rank(b) })
	return out
}

// lineStyles gives each lowering of rs its style, the same in every panel:
// a colour and a marker of its own, native black and auto red (thicker),
// XLA's switches and NCCL in a graph dashed.
func lineStyles(rs []Result) map[Lowering]lineStyle {
	out := map[Lowering]lineStyle{}
	i := 0
	for _, l := range lineOrder(rs) {
		st := lineStyle{width: 1.8}
		switch {
		case l == Native:
			st.color, st.width, st.glyph = "black", 3.2, 0
		case l == Auto:
			st.color, st.width, st.glyph, st.dashes = "#d62728", 3.2, 1, "10 4"
		default:
			st.color, st.glyph = palette[i%len(palette)], (i+2)%len(glyphs)
			if l.IsNative() {
				st.dashes = "5 3"
			}
			i++
		}
		out[l] = st
	}
	return out
}

// sizeTicks marks every power of two in range, labelled at the powers of
// four as FormatSize prints sizes.
func sizeTicks(lo, hi float64) []tick {
	var ticks []tick
	for e := math.Floor(math.Log2(lo)); e <= math.Ceil(math.Log2(hi)); e++ {
		v := math.Exp2(e)
		if v < lo || v > hi {
			continue
		}
		t := tick{v: v}
		if int(e)%2 == 0 {
			t.label = FormatSize(int64(v))
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// timeTicks marks 1, 2 and 5 times the powers of ten in range.
func timeTicks(lo, hi float64) []tick {
	var ticks []tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		for _, m := range []float64{1, 2, 5} {
			if v := m * math.Pow(10, e); v >= lo && v <= hi {
				ticks = append(ticks, tick{v, strconv.FormatFloat(v, 'g', -1, 64)})
			}
		}
	}
	return ticks
}

// ratioTicks marks the powers of two in range: 0.5x, 1x, 2x, ...
func ratioTicks(lo, hi float64) []tick {
	var ticks []tick
	for e := math.Floor(math.Log2(lo)); e <= math.Ceil(math.Log2(hi)); e++ {
		if v := math.Exp2(e); v >= lo && v <= hi {
			ticks = append(ticks, tick{v, strconv.FormatFloat(v, 'g', -1, 64) + "x"})
		}
	}
	return ticks
}
