package bench

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// WritePlot draws, for each table WriteTable would print, two panels: the
// time of one all-reduce against its size, and each lowering's speedup over
// the best native (over native when it is the only one), both on log axes;
// one legend at the right serves every panel, each lowering keeping its
// colour, marker and dashes throughout. format is "png" or "svg".
func WritePlot(w io.Writer, rs []Result, format string) error {
	var rows [][]*plot.Plot
	ix := indexResults(rs)
	styles := lineStyles(rs)
	drawn := map[Lowering]bool{}
	for _, s := range seriesOf(rs) {
		timeP, speedP, err := seriesPlots(s, ix, rs, styles, drawn)
		if err != nil {
			return err
		}
		if timeP != nil {
			rows = append(rows, []*plot.Plot{timeP, speedP})
		}
	}
	if len(rows) == 0 {
		return fmt.Errorf("nothing to plot: no measurement succeeded")
	}
	legend := plot.NewLegend()
	legend.Top, legend.Left = true, true
	legend.ThumbnailWidth = vg.Points(36)
	legend.Padding = vg.Points(3)
	for _, l := range lineOrder(rs) {
		if drawn[l] {
			st := styles[l]
			legend.Add(l.Label(), st.line, st.points)
		}
	}
	panelW, panelH := 7*vg.Inch, 5*vg.Inch
	width, height := 2*panelW+legendWidth, vg.Length(len(rows))*panelH
	var canvas vg.CanvasWriterTo
	switch format {
	case "png":
		canvas = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(96))}
	case "svg":
		canvas = vgsvg.New(width, height)
	default:
		return fmt.Errorf("plot format %q: want png or svg", format)
	}
	dc := draw.New(canvas)
	panels := draw.Crop(dc, 0, -legendWidth, 0, 0)
	tiles := draw.Tiles{Rows: len(rows), Cols: 2, PadX: vg.Inch / 2, PadY: vg.Inch / 2,
		PadTop: vg.Inch / 4, PadBottom: vg.Inch / 4, PadLeft: vg.Inch / 4, PadRight: vg.Inch / 4}
	for i, row := range plot.Align(rows, tiles, panels) {
		for j, c := range row {
			rows[i][j].Draw(c)
		}
	}
	key := draw.Crop(dc, 2*panelW, 0, 0, -vg.Inch/2)
	key.Rectangle.Min.X += vg.Inch / 8
	legend.Draw(key)
	_, err := canvas.WriteTo(w)
	return err
}

// legendWidth is the column at the right of the panels that holds the legend.
const legendWidth = 2*vg.Inch + vg.Inch/2

// PlotFormat is the format a plot file's name asks for.
func PlotFormat(path string) (string, error) {
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".png", ".svg":
		return ext[1:], nil
	}
	return "", fmt.Errorf("plot %s: name it .png or .svg", path)
}

// seriesPlots draws one series' two panels, or returns nil plots when it
// has no time to draw; drawn records the lowerings it drew. A log axis
// cannot hold 0, so a panel left without lines (no native to compare with)
// keeps linear axes.
func seriesPlots(s series, ix index, rs []Result, styles map[Lowering]lineStyle, drawn map[Lowering]bool) (timeP, speedP *plot.Plot, err error) {
	lows := s.lowerings(rs)
	title := fmt.Sprintf("%s level, %s link, %d GPUs, %s", s.Level, s.Link, s.World, s.DType)
	over := "native"
	if natives(lows) > 1 {
		over = "the best native"
	}
	timeP, speedP = plot.New(), plot.New()
	timeP.Title.Text, speedP.Title.Text = title+": time", title+": speedup over "+over
	timeP.Y.Label.Text, speedP.Y.Label.Text = "microseconds per all-reduce", over+"'s time / lowering's time"
	timeLines, speedLines := 0, 0
	for _, l := range lows {
		var times, speeds plotter.XYs
		for n, cell := range ix[s] {
			r, ok := cell[l]
			if !ok || !r.OK() || r.US <= 0 { // noise can push a tiny time to 0 or below
				continue
			}
			times = append(times, plotter.XY{X: float64(n), Y: r.US})
			if sp := ix.speedupBest(r); sp > 0 {
				speeds = append(speeds, plotter.XY{X: float64(n), Y: sp})
			}
		}
		if err := addLine(timeP, styles[l], times, &timeLines); err != nil {
			return nil, nil, err
		}
		if err := addLine(speedP, styles[l], speeds, &speedLines); err != nil {
			return nil, nil, err
		}
		if len(times) > 0 {
			drawn[l] = true
		}
	}
	if timeLines == 0 {
		return nil, nil, nil
	}
	for _, p := range []struct {
		plot  *plot.Plot
		lines int
		ticks plot.TickerFunc
	}{{timeP, timeLines, timeTicks}, {speedP, speedLines, ratioTicks}} {
		p.plot.X.Label.Text = "bytes per rank"
		p.plot.Add(plotter.NewGrid())
		if p.lines > 0 {
			p.plot.X.Scale, p.plot.Y.Scale = plot.LogScale{}, plot.LogScale{}
			p.plot.X.Tick.Marker, p.plot.Y.Tick.Marker = plot.TickerFunc(sizeTicks), p.ticks
		}
	}
	return timeP, speedP, nil
}

// lineStyle is how one lowering is drawn on every panel.
type lineStyle struct {
	line   *plotter.Line
	points *plotter.Scatter
}

// palette holds colours that stay apart from each other, on screen and in
// print; native is black and auto red, both drawn thicker, and red is kept
// for auto.
var palette = []color.Color{
	color.RGBA{31, 119, 180, 255}, color.RGBA{255, 127, 14, 255}, color.RGBA{44, 160, 44, 255},
	color.RGBA{148, 103, 189, 255}, color.RGBA{140, 86, 75, 255}, color.RGBA{227, 119, 194, 255},
	color.RGBA{23, 190, 207, 255}, color.RGBA{188, 189, 34, 255}, color.RGBA{127, 127, 127, 255},
	color.RGBA{0, 0, 140, 255}, color.RGBA{0, 128, 128, 255}, color.RGBA{205, 150, 0, 255},
	color.RGBA{170, 0, 170, 255}, color.RGBA{90, 170, 0, 255}, color.RGBA{250, 128, 114, 255},
	color.RGBA{100, 60, 0, 255},
}

// glyphs are the markers, one per lowering before they repeat (with
// another colour: palette and glyphs differ in length).
var glyphs = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.PyramidGlyph{},
	draw.CrossGlyph{}, draw.PlusGlyph{}, draw.RingGlyph{}, draw.BoxGlyph{},
}

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
		line := &plotter.Line{LineStyle: draw.LineStyle{Width: vg.Points(1.4)}}
		points := &plotter.Scatter{GlyphStyle: draw.GlyphStyle{Radius: vg.Points(3)}}
		switch {
		case l == Native:
			line.Color, line.Width, points.Shape = color.Black, vg.Points(2.5), draw.CircleGlyph{}
		case l == Auto:
			line.Color, line.Width, points.Shape = color.RGBA{214, 39, 40, 255}, vg.Points(2.5), draw.SquareGlyph{}
			line.Dashes = []vg.Length{vg.Points(8), vg.Points(3)}
		default:
			line.Color, points.Shape = palette[i%len(palette)], glyphs[(i+2)%len(glyphs)]
			if l.IsNative() {
				line.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
			}
			i++
		}
		points.Color = line.Color
		out[l] = lineStyle{line, points}
	}
	return out
}

// addLine draws one lowering's points in its style and counts the lines drawn.
func addLine(p *plot.Plot, st lineStyle, xys plotter.XYs, lines *int) error {
	if len(xys) == 0 {
		return nil
	}
	*lines++
	sort.Slice(xys, func(a, b int) bool { return xys[a].X < xys[b].X })
	line := *st.line
	points := *st.points
	line.XYs, points.XYs = xys, xys
	p.Add(&line, &points)
	return nil
}

// sizeTicks marks every power of four in range, labelled as FormatSize prints sizes.
func sizeTicks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	for e := math.Floor(math.Log2(lo)); e <= math.Ceil(math.Log2(hi)); e++ {
		v := math.Exp2(e)
		if v < lo || v > hi {
			continue
		}
		t := plot.Tick{Value: v}
		if int(e)%2 == 0 {
			t.Label = FormatSize(int64(v))
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// timeTicks marks 1, 2 and 5 times the powers of ten in range.
func timeTicks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		for _, m := range []float64{1, 2, 5} {
			if v := m * math.Pow(10, e); v >= lo && v <= hi {
				ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', -1, 64)})
			}
		}
	}
	return ticks
}

// ratioTicks marks the powers of two in range: 0.5x, 1x, 2x, ...
func ratioTicks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	for e := math.Floor(math.Log2(lo)); e <= math.Ceil(math.Log2(hi)); e++ {
		if v := math.Exp2(e); v >= lo && v <= hi {
			ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', -1, 64) + "x"})
		}
	}
	return ticks
}
