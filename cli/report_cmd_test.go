package cli

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ethicsbot/app/apptest"
	"ethicsbot/report"
)

// runAt runs ethicsbot with args at now, and returns its exit status, stdout and stderr.
func runAt(env map[string]string, now time.Time, args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := Run(args, strings.NewReader(""), &stdout, &stderr, func(k string) string { return env[k] },
		func() time.Time { return now })
	return code, stdout.String(), stderr.String()
}

func TestReportCommand(t *testing.T) {
	env := apptest.RecordEnv(t) // 2026-001 untouched, 2026-002 dismissed as insufficient
	now := time.Date(2026, 12, 20, 18, 0, 0, 0, time.UTC)

	code, out, errOut := runAt(env, now, "report", "2026")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{
		"# Ethics Commission annual report, 2026",
		"- 2 complaints received in 2026.",
		"- dismissed as insufficient (C)(2): 1",
		"- still open: 1",
		// 2026-001's (B) notices, due 3 business days after Fri 4 Dec, were never mailed.
		"- missed: 2026-001, respondent notice by certified mail (B), due Wed 2026-12-09; not done",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	for _, secret := range []string{"Hidden Respondent", "John Doe", "Confidential"} {
		if strings.Contains(out, secret) {
			t.Errorf("the report shows %q", secret)
		}
	}

	chart := filepath.Join(t.TempDir(), "chart.png")
	code, out, errOut = runAt(env, now, "report", "--format", "csv", "2026", "--chart", chart)
	if code != 0 || errOut != "" {
		t.Fatalf("csv: exit %d, stderr %q", code, errOut)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(rows) < 10 || strings.Join(rows[0], ",") != "section,item,rule,month,case,value" ||
		strings.Join(rows[1], ",") != "received,complaints,(A),,,2" {
		t.Errorf("csv: %v\n%s", err, out)
	}
	f, err := os.Open(chart)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if img, err := png.Decode(f); err != nil || img.Bounds().Dx() != report.ChartWidth {
		t.Errorf("chart: %v", err)
	}

	code, out, _ = runAt(env, now, "report", "2026", "--format=json")
	var r report.Report
	if err := json.Unmarshal([]byte(out), &r); code != 0 || err != nil || r.Received != 2 || r.Year != 2026 {
		t.Errorf("json: exit %d, %v, %+v", code, err, r)
	}

	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"report"}, 2, "give the year"},
		{[]string{"report", "26"}, 2, `year: "26" is not a year`},
		{[]string{"report", "2027"}, 2, "2027 has not begun"},
		{[]string{"report", "2026", "--format", "xml"}, 2, "--format must be md, csv or json"},
		{[]string{"report", "2026", "2025"}, 2, "unexpected argument"},
		{[]string{"report", "2026", "--public"}, 2, "flag provided but not defined"},
	} {
		code, out, errOut := runAt(env, now, tc.args...)
		if code != tc.code || out != "" || !strings.Contains(errOut, tc.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and one line with %q", tc.args, code, out, errOut,
				tc.code, tc.want)
		}
	}
	// runCLI's clock is in December 2026, so 2026 is a year that has begun.
	t.Run("NoDatabase", func(t *testing.T) { refusesMissingDatabase(t, "report", "2026") })
}
