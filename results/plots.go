package results

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// The report's plots, drawn with gonum/plot as SVG documents that the
// HTML page embeds inline (no file, no network).

// plotFirstBug draws, per strategy, the executions each hunt needed to
// its first bug: one box (quartiles) and the hunts as points. "" when no
// hunt found a bug.
func plotFirstBug(ss []*Summary) (string, error) {
	strategies, _, found := ExecutionsToBug(ss)
	var names []string
	p := plot.New()
	p.Title.Text = "Executions to the first bug, per strategy"
	p.Y.Label.Text = "executions (log scale)"
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	for _, l := range strategies {
		xs := found[l]
		if len(xs) == 0 {
			continue
		}
		x := float64(len(names))
		names = append(names, l)
		box, err := plotter.NewBoxPlot(vg.Points(30), x, plotter.Values(xs))
		if err != nil {
			return "", err
		}
		pts := make(plotter.XYs, len(xs))
		for i, v := range xs {
			pts[i] = plotter.XY{X: x, Y: v}
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return "", err
		}
		sc.Color = plotutil.Color(len(names) - 1)
		p.Add(box, sc)
	}
	if len(names) == 0 {
		return "", nil
	}
	// Whole decades, so that the log axis has labelled ticks.
	p.Y.Min, p.Y.Max = 1, math.Pow(10, math.Ceil(math.Log10(max(10, p.Y.Max*1.01))))
	p.NominalX(names...)
	return svgOf(p, vg.Length(160+110*len(names)), 9*vg.Centimeter)
}

// plotCoverage draws the distinct happens-before classes against the
// executions, one line per hunt that recorded them. "" when none did.
func plotCoverage(ss []*Summary) (string, error) {
	p := plot.New()
	p.Title.Text = "Coverage: distinct happens-before classes"
	p.X.Label.Text = "executions"
	p.Y.Label.Text = "classes"
	p.Legend.Top, p.Legend.Left = false, true
	lines := 0
	for _, s := range ss {
		if len(s.Coverage) == 0 {
			continue
		}
		pts := make(plotter.XYs, len(s.Coverage))
		for i, c := range s.Coverage {
			pts[i] = plotter.XY{X: float64(c.Executions), Y: float64(c.Classes)}
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return "", err
		}
		l.Color = plotutil.Color(lines)
		l.Dashes = plotutil.Dashes(lines / 7)
		l.Width = vg.Points(1.5)
		p.Add(l)
		p.Legend.Add(fmt.Sprintf("%s (%s)", s.Test, StrategyLabel(s)), l)
		lines++
	}
	if lines == 0 {
		return "", nil
	}
	p.Add(plotter.NewGrid())
	return svgOf(p, 16*vg.Centimeter, 10*vg.Centimeter)
}

// plotRate draws the executions per second of each hunt, grouped by
// strategy: the cost side of the overhead table.
func plotRate(ss []*Summary) (string, error) {
	strategies, _, _ := ExecutionsToBug(ss)
	sum := map[string][2]float64{}
	for _, s := range ss {
		c := sum[StrategyLabel(s)]
		sum[StrategyLabel(s)] = [2]float64{c[0] + s.Seconds, c[1] + float64(s.Executions)}
	}
	var vals plotter.Values
	var names []string
	for _, l := range strategies {
		if c := sum[l]; c[0] > 0 {
			vals = append(vals, c[1]/c[0])
			names = append(names, l)
		}
	}
	if len(vals) == 0 {
		return "", nil
	}
	p := plot.New()
	p.Title.Text = "Executions per second, per strategy (all hunts)"
	p.Y.Label.Text = "executions / s"
	bars, err := plotter.NewBarChart(vals, vg.Points(30))
	if err != nil {
		return "", err
	}
	bars.Color = color.RGBA{R: 70, G: 110, B: 170, A: 255}
	p.Add(bars)
	p.NominalX(names...)
	return svgOf(p, vg.Length(160+110*len(names)), 8*vg.Centimeter)
}

// svgOf renders the plot as an SVG element (the XML prolog dropped, so
// that it can sit inside HTML).
func svgOf(p *plot.Plot, w, h vg.Length) (string, error) {
	wt, err := p.WriterTo(w, h, "svg")
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	if _, err := wt.WriteTo(&b); err != nil {
		return "", err
	}
	s := b.String()
	if i := strings.Index(s, "<svg"); i >= 0 {
		s = s[i:]
	}
	return s, nil
}
