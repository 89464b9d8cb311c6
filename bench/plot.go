package bench

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
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
// native, both on log axes. format is "png" or "svg".
func WritePlot(w io.Writer, rs []Result, format string) error {
	var rows [][]*plot.Plot
	ix := indexResults(rs)
	for _, s := range seriesOf(rs) {
		timeP, speedP, err := seriesPlots(s, ix, rs)
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
	width, height := 2*7*vg.Inch, vg.Length(len(rows))*5*vg.Inch
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
	tiles := draw.Tiles{Rows: len(rows), Cols: 2, PadX: vg.Inch / 2, PadY: vg.Inch / 2,
		PadTop: vg.Inch / 4, PadBottom: vg.Inch / 4, PadLeft: vg.Inch / 4, PadRight: vg.Inch / 4}
	for i, row := range plot.Align(rows, tiles, dc) {
		for j, c := range row {
			rows[i][j].Draw(c)
		}
	}
	_, err := canvas.WriteTo(w)
	return err
}

// PlotFormat is the format a plot file's name asks for.
func PlotFormat(path string) (string, error) {
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".png", ".svg":
		return ext[1:], nil
	}
	return "", fmt.Errorf("plot %s: name it .png or .svg", path)
}

// seriesPlots draws one series' two panels, or returns nil plots when it
// has no time to draw. A log axis cannot hold 0, so a panel left without
// lines (no native to compare with) keeps linear axes.
func seriesPlots(s series, ix index, rs []Result) (timeP, speedP *plot.Plot, err error) {
	title := fmt.Sprintf("%s level, %s link, %d GPUs, %s", s.Level, s.Link, s.World, s.DType)
	timeP, speedP = plot.New(), plot.New()
	timeP.Title.Text, speedP.Title.Text = title+": time", title+": speedup over native"
	timeP.Y.Label.Text, speedP.Y.Label.Text = "microseconds per all-reduce", "native time / lowering time"
	var one plotter.XYs
	timeLines, speedLines := 0, 0
	for i, l := range s.lowerings(rs) {
		var times, speeds plotter.XYs
		for n, cell := range ix[s] {
			r, ok := cell[l]
			if !ok || !r.OK() || r.US <= 0 { // noise can push a tiny time to 0 or below
				continue
			}
			times = append(times, plotter.XY{X: float64(n), Y: r.US})
			if sp := ix.speedup(r); sp > 0 {
				speeds = append(speeds, plotter.XY{X: float64(n), Y: sp})
			}
			if l == "native" {
				one = append(one, plotter.XY{X: float64(n), Y: 1})
			}
		}
		if err := addLine(timeP, l, i, times, &timeLines); err != nil {
			return nil, nil, err
		}
		if l != "native" {
			if err := addLine(speedP, l, i, speeds, &speedLines); err != nil {
				return nil, nil, err
			}
		}
	}
	if timeLines == 0 {
		return nil, nil, nil
	}
	if speedLines > 0 {
		if err := addLine(speedP, "native", 0, one, &speedLines); err != nil {
			return nil, nil, err
		}
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
	// One legend serves both panels (same colours); top left is where the
	// times of small messages, all latency, sit lowest.
	timeP.Legend.Top, timeP.Legend.Left = true, true
	speedP.Legend = plot.NewLegend()
	return timeP, speedP, nil
}

// palette tells up to ten lowerings apart; native is black and auto red,
// drawn thicker.
var palette = []color.Color{
	color.RGBA{0, 0, 0, 255}, color.RGBA{31, 119, 180, 255}, color.RGBA{255, 127, 14, 255},
	color.RGBA{44, 160, 44, 255}, color.RGBA{148, 103, 189, 255}, color.RGBA{140, 86, 75, 255},
	color.RGBA{227, 119, 194, 255}, color.RGBA{127, 127, 127, 255}, color.RGBA{188, 189, 34, 255},
	color.RGBA{23, 190, 207, 255},
}

// addLine draws one lowering's points and counts the lines drawn.
func addLine(p *plot.Plot, l Lowering, i int, xys plotter.XYs, lines *int) error {
	if len(xys) == 0 {
		return nil
	}
	*lines++
	sort.Slice(xys, func(a, b int) bool { return xys[a].X < xys[b].X })
	line, points, err := plotter.NewLinePoints(xys)
	if err != nil {
		return err
	}
	c := palette[i%len(palette)]
	width := vg.Points(1.2)
	switch l {
	case "native":
		c, width = palette[0], vg.Points(2.5)
	case Auto:
		c, width = color.RGBA{214, 39, 40, 255}, vg.Points(2.5)
		line.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
	}
	line.Color, line.Width = c, width
	points.Color, points.Radius = c, vg.Points(2)
	p.Add(line, points)
	p.Legend.Add(l.Label(), line, points)
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
