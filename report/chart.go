package report

import (
	"bytes"
	"fmt"
	"image/color"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// The chart's size in pixels, at ChartDPI.
const (
	ChartWidth  = 1000
	ChartHeight = 800
	ChartDPI    = 96
)

// outcomeColors are the outcomes' colours in the chart: dismissals in blues, referrals in
// purples, the hearing's outcomes in green, orange and red, open parts grey. Each stands
// out from the white background by at least 3:1 (WCAG 2.2, 1.4.11), and the parts of a
// bar are parted by a white line, so each part borders white whatever its neighbour.
var outcomeColors = map[Outcome]color.RGBA{
	DismissedInsufficient: {0x4a, 0x86, 0xc5, 0xff},
	DismissedNoCause:      {0x1f, 0x4e, 0x8c, 0xff},
	JudicialReferral:      {0x8e, 0x6c, 0xc4, 0xff},
	AttorneyReferral:      {0x5b, 0x2d, 0x91, 0xff},
	DismissedAfterHearing: {0x2a, 0x80, 0x62, 0xff},
	Recommendation:        {0xb8, 0x5c, 0x00, 0xff},
	FinalRecommendation:   {0xb2, 0x18, 0x2b, 0xff},
	Open:                  {0x73, 0x73, 0x73, 0xff},
}

// Met and missed deadlines are told apart by more than colour (WCAG 2.2, 1.4.1): missed
// bars are hatched, and every bar is labelled with its count.
var (
	metColor    = color.RGBA{0x1a, 0x7f, 0x45, 0xff}
	missedColor = color.RGBA{0xb2, 0x18, 0x2b, 0xff}
	monthNames  = []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
)

// ChartColors are the colours of the chart's marks, by name, for a test of their contrast:
// each outcome's, "met" and "missed".
func ChartColors() map[string]color.RGBA {
	out := map[string]color.RGBA{"met": metColor, "missed": missedColor}
	for o, c := range outcomeColors {
		out[o.Name()] = c
	}
	return out
}

// Chart draws the report's chart as a PNG of ChartWidth × ChartHeight pixels: above, the
// year's complaints by month of receipt, each bar stacked by its parts' outcomes; below,
// the deadlines that fell due each month, met beside missed. It holds counts only, no
// case numbers, so it may go wherever the public part goes. The same report always
// draws the same picture.
func (r Report) Chart() ([]byte, error) {
	return r.public().Chart()
}

// Chart draws the public report's chart: see Report.Chart.
func (p PublicReport) Chart() ([]byte, error) {
	img := vgimg.NewWith(vgimg.UseWH(px(ChartWidth), px(ChartHeight)), vgimg.UseDPI(ChartDPI))
	dc := draw.New(img)
	half := dc.Max.Y / 2
	top := draw.Crop(dc, 0, 0, half, 0)
	bottom := draw.Crop(dc, 0, 0, 0, -half)

	outcomes, err := p.outcomePlot()
	if err != nil {
		return nil, err
	}
	deadlines, err := p.deadlinePlot()
	if err != nil {
		return nil, err
	}
	for _, pl := range []struct {
		p      *plot.Plot
		legend plot.Legend
		c      draw.Canvas
	}{{outcomes.p, outcomes.legend, top}, {deadlines.p, deadlines.legend, bottom}} {
		// The legend has a column of its own, right of the plot, so it never hides a bar.
		legendWidth := px(340)
		plotArea := draw.Crop(pl.c, px(10), -legendWidth, px(10), -px(10))
		pl.p.Draw(plotArea)
		legendArea := draw.Crop(pl.c, pl.c.Max.X-pl.c.Min.X-legendWidth+px(10), -px(10), px(40), -px(40))
		pl.legend.Draw(legendArea)
	}
	var buf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// px is a length of n pixels at ChartDPI.
func px(n float64) vg.Length { return vg.Length(n) * vg.Inch / ChartDPI }

type panel struct {
	p      *plot.Plot
	legend plot.Legend
}

// outcomePlot is the complaints received each month, stacked by outcome.
func (p PublicReport) outcomePlot() (panel, error) {
	pl := newPlot(fmt.Sprintf("Complaints received in %d, by month and outcome", p.Year), "parts of complaints")
	legend := newLegend()
	var below *plotter.BarChart
	peak := 0
	totals := make([]int, 12)
	for _, o := range Outcomes {
		vs := make(plotter.Values, 12)
		some := false
		for i, m := range p.Months {
			vs[i] = float64(m.Outcomes[o])
			totals[i] += m.Outcomes[o]
			some = some || m.Outcomes[o] > 0
		}
		if !some {
			continue
		}
		bars, err := plotter.NewBarChart(vs, px(40))
		if err != nil {
			return panel{}, err
		}
		bars.Color = outcomeColors[o]
		bars.LineStyle = draw.LineStyle{Color: color.White, Width: px(2)} // parts each part from the next
		if below != nil {
			bars.StackOn(below)
		}
		below = bars
		pl.Add(bars)
		legend.Add(withRule(o.Name(), o.Rule()), bars)
	}
	for _, t := range totals {
		peak = max(peak, t)
	}
	if below == nil {
		legend.Add("no complaints received")
	}
	if err := addCounts(pl, totals, 0); err != nil {
		return panel{}, err
	}
	countAxis(pl, peak)
	return panel{pl, legend}, nil
}

// deadlinePlot is the deadlines that fell due each month, met beside missed.
func (p PublicReport) deadlinePlot() (panel, error) {
	pl := newPlot(fmt.Sprintf("Deadlines that fell due in %d: %d met, %d missed", p.Year, p.DeadlinesMet,
		p.DeadlinesMissed), "deadlines")
	legend := newLegend()
	met, missed := make(plotter.Values, 12), make(plotter.Values, 12)
	peak := 0
	for i, m := range p.Months {
		met[i], missed[i] = float64(m.DeadlinesMet), float64(m.DeadlinesMissed)
		peak = max(peak, m.DeadlinesMet, m.DeadlinesMissed)
	}
	for _, s := range []struct {
		name   string
		vs     plotter.Values
		colour color.RGBA
		offset vg.Length
		hatch  bool
	}{{"met", met, metColor, -px(11), false}, {"missed (hatched)", missed, missedColor, px(11), true}} {
		bars, err := plotter.NewBarChart(s.vs, px(22))
		if err != nil {
			return panel{}, err
		}
		bars.Color, bars.Offset = s.colour, s.offset
		bars.LineStyle.Width = 0
		counts := make([]int, len(s.vs))
		for i, v := range s.vs {
			counts[i] = int(v)
		}
		if err := addCounts(pl, counts, s.offset); err != nil {
			return panel{}, err
		}
		if s.hatch {
			pl.Add(hatched{bars})
			legend.Add(s.name, hatched{bars})
			continue
		}
		pl.Add(bars)
		legend.Add(s.name, bars)
	}
	countAxis(pl, peak)
	return panel{pl, legend}, nil
}

// hatched draws its bars with white diagonal lines across their colour: a pattern that
// tells them apart without colour.
type hatched struct{ *plotter.BarChart }

// Plot implements plot.Plotter.
func (h hatched) Plot(c draw.Canvas, plt *plot.Plot) {
	h.BarChart.Plot(c, plt)
	trX, trY := plt.Transforms(&c)
	for i, v := range h.Values {
		if v <= 0 {
			continue
		}
		x := trX(h.XMin+float64(i)) - h.Width/2 + h.Offset
		hatch(c, vg.Rectangle{Min: vg.Point{X: x, Y: trY(0)}, Max: vg.Point{X: x + h.Width, Y: trY(v)}})
	}
}

// Thumbnail implements plot.Thumbnailer: the legend's swatch is hatched too.
func (h hatched) Thumbnail(c *draw.Canvas) {
	h.BarChart.Thumbnail(c)
	hatch(*c, c.Rectangle)
}

// hatch draws white lines rising at 45° across r, a few pixels apart.
func hatch(c draw.Canvas, r vg.Rectangle) {
	style := draw.LineStyle{Color: color.White, Width: px(2)}
	w, h := r.Max.X-r.Min.X, r.Max.Y-r.Min.Y
	for k := -h + px(3); k < w; k += px(8) {
		from, to := max(0, -k), min(h, w-k)
		if to > from {
			c.StrokeLine2(style, r.Min.X+k+from, r.Min.Y+from, r.Min.X+k+to, r.Min.Y+to)
		}
	}
}

// addCounts writes each month's count above its bar (offset from the month's middle), so
// the chart says its figures in words too; a month of none is left unlabelled.
func addCounts(pl *plot.Plot, counts []int, offset vg.Length) error {
	var xys plotter.XYs
	var labels []string
	for i, n := range counts {
		if n > 0 {
			xys, labels = append(xys, plotter.XY{X: float64(i), Y: float64(n)}), append(labels, strconv.Itoa(n))
		}
	}
	if len(xys) == 0 {
		return nil
	}
	l, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: labels})
	if err != nil {
		return err
	}
	for i := range l.TextStyle {
		l.TextStyle[i].Font.Size = vg.Points(9)
		l.TextStyle[i].XAlign = draw.XCenter
	}
	l.Offset = vg.Point{X: offset, Y: px(3)}
	pl.Add(l)
	return nil
}

func newPlot(title, yLabel string) *plot.Plot {
	pl := plot.New()
	pl.Title.Text = title
	pl.Title.TextStyle.Font.Size = vg.Points(13)
	pl.Y.Label.Text = yLabel
	pl.NominalX(monthNames...)
	pl.X.Min, pl.X.Max = -0.6, 11.6 // room for the outer bars
	pl.Add(plotter.NewGrid())
	return pl
}

func newLegend() plot.Legend {
	l := plot.NewLegend()
	l.Top, l.Left = true, true
	l.TextStyle.Font.Size = vg.Points(9)
	l.Padding = px(5)
	return l
}

// countAxis makes the Y axis run from 0 past peak, with whole-number ticks.
func countAxis(pl *plot.Plot, peak int) {
	step := max(1, (peak+4)/5)
	top := max(step, (peak+step-1)/step*step)
	pl.Y.Min, pl.Y.Max = 0, float64(top)*1.12 // room for the counts above the bars
	var ticks []plot.Tick
	for v := 0; v <= top; v += step {
		ticks = append(ticks, plot.Tick{Value: float64(v), Label: strconv.Itoa(v)})
	}
	pl.Y.Tick.Marker = plot.ConstantTicks(ticks)
}
