package report_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"ethicsbot/report"
)

func mustReport(t *testing.T) report.Report {
	t.Helper()
	e := mustEngine(t)
	return report.Of(year2026(t, e), 2026, e, instant(t, asOf))
}

func TestMarkdown(t *testing.T) {
	md := mustReport(t).Markdown()
	for _, want := range []string{
		"# Ethics Commission annual report, 2026\n",
		"\n## Outcomes\n\n- dismissed as insufficient (C)(2): 1\n",
		"- 1 complaint alleged both sections and is ruled on part by part, so the outcomes count 5 parts.\n",
		"- hearing (D): 2 complaints, median 17.5 days, worst 21 days (2026-002)\n",
		"- 30 of 36 deadlines that fell due in 2026 met (83%); 6 missed.\n",
		"- missed: 2026-002, respondent notice by certified mail (B), due Thu 2026-03-19; done late, on Mon 2026-03-23\n",
		"- missed: 2026-003, complainant confirmation by certified mail (B), due Thu 2026-12-31; not done\n",
		"- 3 fines, $6,000 in all.\n",
		"- (F) imposed by a final recommendation after a public hearing: 1, $2,500\n",
		"- 2026-003: election Tue 2027-02-02, decision due Mon 2027-01-04, missed\n",
		"undated tasks",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}
	for _, secret := range []string{"Confidential", "CONFIDENTIAL"} {
		if strings.Contains(md, secret) {
			t.Errorf("the report shows %q", secret)
		}
	}
}

// TestPercentNeverRoundsUp: one miss in many is never shown as 100%.
func TestPercentNeverRoundsUp(t *testing.T) {
	r := report.Report{Year: 2026, Deadlines: report.DeadlineFigures{Met: 999, Missed: 1}}
	if md := r.Markdown(); !strings.Contains(md, "999 of 1000 deadlines that fell due in 2026 met (99%)") {
		t.Errorf("%s", md)
	}
}

func TestCSV(t *testing.T) {
	r := mustReport(t)
	var b bytes.Buffer
	if err := r.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rows[0], report.CSVHeader) {
		t.Fatalf("header %v", rows[0])
	}
	find := func(section, item, rule, month, cas string) string {
		t.Helper()
		for _, row := range rows[1:] {
			if len(row) != len(report.CSVHeader) {
				t.Fatalf("row %v has %d cells", row, len(row))
			}
			if slices.Equal(row[:5], []string{section, item, rule, month, cas}) {
				return row[5]
			}
		}
		t.Errorf("no row %s/%s/%s/%s/%s", section, item, rule, month, cas)
		return ""
	}
	for _, c := range []struct{ section, item, rule, month, cas, want string }{
		{"received", "complaints", "(A)", "", "", "4"},
		{"received", "parts", "", "", "", "5"},
		{"outcome", "attorney_referral", "(C)(3)", "", "", "1"},
		{"outcome", "found_frivolous", "(H)", "", "", "1"},
		{"month", "complaints_received", "(A)", "2026-03", "", "2"},
		{"month", "recommendation", "(E)(2)", "2026-03", "", "1"},
		{"month", "deadlines_missed", "", "2026-12", "", "2"},
		{"step", "hearing_median_days", "(D)", "", "", "17.5"},
		{"step", "decision_worst_days", "(E)", "", "2026-002", "35"},
		{"deadlines", "share_met", "", "", "", "0.8333"}, // 30/36, with 2026-001's (H) meeting notice
		{"missed", "respondent_notice", "(B)", "2026-03", "2026-002", "2026-03-19"},
		{"fines", "total", "", "", "", "6000"},
		{"fines", "total", "(F)", "", "", "2500"},
		{"expedited", "case", "(G)", "", "2026-003", "missed"},
	} {
		if got := find(c.section, c.item, c.rule, c.month, c.cas); got != c.want {
			t.Errorf("%s/%s/%s/%s/%s = %q, want %q", c.section, c.item, c.rule, c.month, c.cas, got, c.want)
		}
	}
}

func TestJSON(t *testing.T) {
	var b bytes.Buffer
	if err := report.WriteJSON(&b, mustReport(t)); err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range got {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	want := []string{"as_of", "complaints_received", "deadlines", "expedited", "fines", "found_frivolous", "months",
		"notes", "outcomes", "parts", "steps", "two_part_complaints", "year", "zone"}
	if !slices.Equal(keys, want) {
		t.Errorf("keys %v, want %v", keys, want)
	}
	for _, want := range []string{
		`"missed_deadlines": [`, `"deadline": "respondent_notice"`, `"due": "2026-03-19"`, `"done_on": "2026-03-23"`,
		`"median_days": 17.5`, `"worst_case": "2026-002"`, `"share_met": 0.8333333333333334`, `"decision_due": "2027-01-04"`,
		`"as_of": "2027-01-15T12:00:00-06:00"`, `"recommendation": 1`,
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("JSON lacks %s", want)
		}
	}
	// The same report writes the same bytes.
	var again bytes.Buffer
	report.WriteJSON(&again, mustReport(t))
	if !bytes.Equal(b.Bytes(), again.Bytes()) {
		t.Error("two runs wrote different JSON")
	}
}

func TestChart(t *testing.T) {
	r := mustReport(t)
	data, err := r.Chart()
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if got := img.Bounds(); got != image.Rect(0, 0, report.ChartWidth, report.ChartHeight) {
		t.Fatalf("bounds %v, want %dx%d", got, report.ChartWidth, report.ChartHeight)
	}
	// Not blank: the bars of each outcome and of met and missed deadlines are drawn.
	seen := map[color.RGBA]int{}
	for y := 0; y < report.ChartHeight; y++ {
		for x := 0; x < report.ChartWidth; x++ {
			seen[color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)]++
		}
	}
	colors := report.ChartColors()
	for _, name := range []string{"dismissed as insufficient", "referred to the attorney", "still open", "met",
		"missed"} {
		if c := colors[name]; seen[c] < 200 {
			t.Errorf("%s: %d pixels of %v", name, seen[c], c)
		}
	}
	again, _ := r.Chart()
	if !bytes.Equal(data, again) {
		t.Error("the same report drew two different charts")
	}
}

// TestChartContrast: every mark of the chart stands out from its white background by at
// least 3:1 (WCAG 2.2, 1.4.11 non-text contrast), so that a reader with low vision sees
// each bar; the grey of open parts was 1.88:1.
func TestChartContrast(t *testing.T) {
	luminance := func(c color.RGBA) float64 {
		lin := func(v uint8) float64 {
			s := float64(v) / 255
			if s <= 0.04045 {
				return s / 12.92
			}
			return math.Pow((s+0.055)/1.055, 2.4)
		}
		return 0.2126*lin(c.R) + 0.7152*lin(c.G) + 0.0722*lin(c.B)
	}
	colors := report.ChartColors()
	if len(colors) != len(report.Outcomes)+2 {
		t.Fatalf("%d colours, want one per outcome, met and missed: %v", len(colors), colors)
	}
	for name, c := range colors {
		if ratio := 1.05 / (luminance(c) + 0.05); ratio < 3 {
			t.Errorf("%s (%v) has a contrast of %.2f:1 on white, under 3:1", name, c, ratio)
		}
	}
}

// TestChartTellsMissedByPattern: met and missed deadlines are told apart by more than
// colour (WCAG 2.2, 1.4.1): the missed bars are hatched with white lines, and each bar is
// labelled with its count.
func TestChartTellsMissedByPattern(t *testing.T) {
	data, err := mustReport(t).Chart()
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	missed := report.ChartColors()["missed"]
	// Along each row of the lower panel, a missed bar is broken by white: count the runs of
	// the missed colour that white interrupts within a bar's width.
	breaks := 0
	for y := report.ChartHeight / 2; y < report.ChartHeight; y++ {
		at := func(x int) color.RGBA { return color.RGBAModel.Convert(img.At(x, y)).(color.RGBA) }
		for x := 1; x+8 < report.ChartWidth; x++ {
			if at(x-1) != missed || at(x) == missed {
				continue
			}
			for gap := 1; gap <= 6; gap++ { // the white line, a few pixels wide, then the colour again
				if at(x+gap) == missed {
					breaks++
					break
				}
			}
		}
	}
	if breaks < 50 {
		t.Errorf("the missed bars are broken by the hatching %d times, want them hatched", breaks)
	}
}

// TestPublicLeaksNothing: the public part holds counts and outcomes only; no case
// number, name, allegation or missed deadline, now or after a field is added.
func TestPublicLeaksNothing(t *testing.T) {
	e := mustEngine(t)
	r := report.Of(year2026(t, e), 2026, e, instant(t, asOf))
	p := report.PublicOf(year2026(t, e), 2026, e, instant(t, asOf))
	var b bytes.Buffer
	if err := report.WriteJSON(&b, p); err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"2026-00", "2025-031", "Confidential", "CONFIDENTIAL", "missed_deadlines",
		"worst_case", "(H)", "1500"} {
		if strings.Contains(b.String(), secret) {
			t.Errorf("the public report holds %q:\n%s", secret, b.String())
		}
	}
	// 2026-003, confidential (nothing of it public yet), is left out: its complaint, its
	// part and its two missed (B) notices. The (H) complainant's notice counts as one more met.
	if p.Received != 3 || p.Parts != 4 || p.DeadlinesMet != 30 || p.DeadlinesMissed != 4 || len(p.Fines) != 2 ||
		p.Fines[1].Total != 2500 {
		t.Errorf("public %+v", p)
	}
	// Every string the type can hold is a label of ours, never a case's.
	var fields []string
	var walk func(reflect.Type, string)
	walk = func(ty reflect.Type, path string) {
		switch ty.Kind() {
		case reflect.Struct:
			if ty.PkgPath() != "ethicsbot/report" {
				return // time.Time
			}
			for i := range ty.NumField() {
				walk(ty.Field(i).Type, path+"."+ty.Field(i).Name)
			}
		case reflect.Slice, reflect.Map:
			if ty.Kind() == reflect.Map {
				walk(ty.Key(), path+"[key]")
			}
			walk(ty.Elem(), path+"[]")
		case reflect.String:
			fields = append(fields, path)
		}
	}
	walk(reflect.TypeFor[report.PublicReport](), "")
	want := []string{".Zone", ".Outcomes[].Outcome", ".Outcomes[].Rule", ".Outcomes[].Name", ".Months[].Month",
		".Months[].Outcomes[key]", ".Fines[].Rule", ".Fines[].Name"}
	if !slices.Equal(fields, want) {
		t.Errorf("PublicReport's strings are %v; want only the labels %v (check a new one holds nothing confidential)",
			fields, want)
	}
	// Changing the public part leaves the report as it was.
	p.Months[2].Outcomes[report.Open] = 99
	if r.Months[2].Outcomes[report.Open] != 0 {
		t.Error("the public part shares its months with the report")
	}
}
