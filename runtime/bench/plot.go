package bench

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"sort"
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
	seen := map[series]bool{}
	for _, r := range rs {
		s := r.series()
		if seen[s] {
			continue
		}
		seen[s] = true
		timeP, speedP, err := seriesPlots(s, ix, rs)
		if err != nil {
			return err
		}
		rows = append(rows, []*plot.Plot{timeP, speedP})
	}
	if len(rows) == 0 {
		return fmt.Errorf("no results to plot")
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

func seriesPlots(s series, ix index, rs []Result) (timeP, speedP *plot.Plot, err error) {
	title := fmt.Sprintf("%s level, %s link, %d GPUs, %s", s.Level, s.Link, s.World, s.DType)
	timeP, speedP = plot.New(), plot.New()
	timeP.Title.Text, speedP.Title.Text = title+": time", title+": speedup over native"
	timeP.Y.Label.Text, speedP.Y.Label.Text = "microseconds per all-reduce", "native time / lowering time"
	for _, p := range []*plot.Plot{timeP, speedP} {
		p.X.Label.Text = "bytes per rank"
		p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
		p.X.Tick.Marker = plot.TickerFunc(sizeTicks)
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
		p.Legend.Top, p.Legend.Left = true, true
		p.Add(plotter.NewGrid())
	}
	var lows []Lowering
	for _, r := range rs {
		if r.series() == s && !containsLowering(lows, r.Lowering) {
			lows = append(lows, r.Lowering)
		}
	}
	one := plotter.XYs{}
	for i, l := range lows {
		var times, speeds plotter.XYs
		for n, cell := range ix[s] {
			r, ok := cell[l]
			if !ok || !r.OK() || r.US <= 0 { // a log axis has no place for 0 or noise below it
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
		if err := addLine(timeP, l, i, times); err != nil {
			return nil, nil, err
		}
		if l != "native" {
			if err := addLine(speedP, l, i, speeds); err != nil {
				return nil, nil, err
			}
		}
	}
	if err := addLine(speedP, "native", 0, one); err != nil {
		return nil, nil, err
	}
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

func addLine(p *plot.Plot, l Lowering, i int, xys plotter.XYs) error {
	if len(xys) == 0 {
		return nil
	}
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
