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
// purples, the hearing's outcomes in oranges and reds, open parts grey.
var outcomeColors = map[Outcome]color.RGBA{
	DismissedInsufficient: {0x9e, 0xc5, 0xe8, 0xff},
	DismissedNoCause:      {0x44, 0x7d, 0xb8, 0xff},
	JudicialReferral:      {0xb3, 0x9d, 0xdb, 0xff},
	AttorneyReferral:      {0x6a, 0x3d, 0x9a, 0xff},
	DismissedAfterHearing: {0x66, 0xc2, 0xa5, 0xff},
	Recommendation:        {0xfd, 0xae, 0x61, 0xff},
	FinalRecommendation:   {0xd7, 0x30, 0x27, 0xff},
	Open:                  {0xbd, 0xbd, 0xbd, 0xff},
}

var (
	metColor    = color.RGBA{0x1a, 0x98, 0x50, 0xff}
	missedColor = color.RGBA{0xd7, 0x30, 0x27, 0xff}
	monthNames  = []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
)

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
		bars.LineStyle.Width = 0
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
	}{{"met", met, metColor, -px(11)}, {"missed", missed, missedColor, px(11)}} {
		bars, err := plotter.NewBarChart(s.vs, px(22))
		if err != nil {
			return panel{}, err
		}
		bars.Color, bars.Offset = s.colour, s.offset
		bars.LineStyle.Width = 0
		pl.Add(bars)
		legend.Add(s.name, bars)
	}
	countAxis(pl, peak)
	return panel{pl, legend}, nil
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
	pl.Y.Min, pl.Y.Max = 0, float64(top)*1.05
	var ticks []plot.Tick
	for v := 0; v <= top; v += step {
		ticks = append(ticks, plot.Tick{Value: float64(v), Label: strconv.Itoa(v)})
	}
	pl.Y.Tick.Marker = plot.ConstantTicks(ticks)
}
