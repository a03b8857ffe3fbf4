package main

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"codeberg.org/go-pdf/fpdf"
	"go.yaml.in/yaml/v3"

	"ethicsbot/commands"
	"ethicsbot/config"
	"ethicsbot/docket"
	"ethicsbot/store"
)

// runCLI runs ethicsbot with args, stdin and environment, and returns its exit status,
// stdout and stderr.
func runCLI(t *testing.T, env map[string]string, stdin string, args ...string) (int, string, string) {
	t.Helper()
	return runCLIAt(t, time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC), env, stdin, args...)
}

// runCLIAt is runCLI on a machine whose clock reads now.
func runCLIAt(t *testing.T, now time.Time, env map[string]string, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	getenv := func(k string) string { return env[k] }
	code := run(args, strings.NewReader(stdin), &stdout, &stderr, getenv, func() time.Time { return now })
	return code, stdout.String(), stderr.String()
}

func TestDeadlinesCommand(t *testing.T) {
	code, out, errOut := runCLI(t, defaults(t),
		`{"received": "2026-12-04T10:00:00-06:00", "violation_date": "2025-12-05", "section": "103.10",
		  "ruling": "probable_cause", "sufficiency_meeting": "2026-12-10T17:00:00-06:00",
		  "elections": ["2027-02-23"], "as_of": "2026-12-09T12:00:00-06:00"}`, "deadlines")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	var got struct {
		Received   string `json:"received"`
		TimeBarred *bool  `json:"time_barred"`
		Expedited  *bool  `json:"expedited"`
		Deadlines  []map[string]string
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("stdout is not the documented JSON: %v\n%s", err, out)
	}
	if got.Received != "2026-12-04" || got.TimeBarred == nil || *got.TimeBarred || got.Expedited == nil || *got.Expedited {
		t.Errorf("header: %+v", got)
	}
	want := []map[string]string{
		{"id": "filing_limit", "rule": "(I)", "due": "2026-12-07", "status": "met"},
		{"id": "respondent_notice", "rule": "(B)", "due": "2026-12-09", "status": "open",
			"basis": "3 business days after receipt on Fri 2026-12-04"},
		{"id": "complainant_confirmation", "rule": "(B)", "due": "2026-12-09", "status": "open"},
		{"id": "sufficiency_ruling", "rule": "(C)(1)", "due": "2026-12-15", "status": "met"},
		{"id": "ruling_notice_respondent", "rule": "(C)(1)", "due": "2026-12-15", "status": "open"},
		{"id": "ruling_notice_complainant", "rule": "(C)(1)", "due": "2026-12-15", "status": "open"},
		{"id": "sufficiency_meeting_notice", "rule": "(C)(1)", "due_at": "2026-12-08T17:00:00-06:00", "status": "missed"},
		{"id": "hearing_by", "rule": "(C)(2)", "due": "2027-01-04", "status": "open"},
	}
	if len(got.Deadlines) != len(want) {
		t.Fatalf("%d deadlines, want %d:\n%s", len(got.Deadlines), len(want), out)
	}
	for i, w := range want {
		for k, v := range w {
			if g := got.Deadlines[i][k]; g != v {
				t.Errorf("deadline %d %s = %q, want %q", i, k, g, v)
			}
		}
		if got.Deadlines[i]["basis"] == "" {
			t.Errorf("deadline %s has no basis", w["id"])
		}
		if _, both := got.Deadlines[i]["due"]; both && got.Deadlines[i]["due_at"] != "" {
			t.Errorf("deadline %s has both due and due_at", w["id"])
		}
	}
}

func TestDeadlinesCommandExtraHolidaysAndZone(t *testing.T) {
	in := `{"received": "2026-11-25T10:00:00-06:00", "extra_holidays": ["2026-11-27"], "as_of": "2026-11-25T10:00:00-06:00"}`
	_, out, _ := runCLI(t, defaults(t), in, "deadlines")
	if !strings.Contains(out, `"due": "2026-12-02"`) {
		t.Errorf("with 2026-11-27 closed, 3 business days after Wed 2026-11-25 is Wed 2026-12-02:\n%s", out)
	}
	// 05:30 UTC on the 5th is the 5th in New York only after 00:00 EST; here 00:30 EST.
	_, out, _ = runCLI(t, defaults(t), `{"received": "2026-12-05T05:30:00Z"}`, "deadlines", "--tz", "America/New_York")
	if !strings.Contains(out, `"received": "2026-12-05"`) {
		t.Errorf("--tz America/New_York: %s", out)
	}
	_, out, _ = runCLI(t, defaults(t), `{"received": "2026-12-05T05:30:00Z"}`, "deadlines")
	if !strings.Contains(out, `"received": "2026-12-04"`) {
		t.Errorf("default zone: %s", out)
	}
}

func TestDeadlinesCommandBadInput(t *testing.T) {
	for _, tc := range []struct {
		name, stdin string
		args        []string
		field       string
	}{
		{"MissingReceived", `{"section": "103.10"}`, nil, "received"},
		{"ImpossibleDate", `{"received": "2026-12-04T10:00:00-06:00", "violation_date": "2026-02-29"}`, nil,
			"violation_date"},
		{"UnknownRuling", `{"received": "2026-12-04T10:00:00-06:00", "ruling": "guilty"}`, nil, "ruling"},
		{"UnknownSection", `{"received": "2026-12-04T10:00:00-06:00", "section": "1.01"}`, nil, "section"},
		{"RulingDoesNotFitSection",
			`{"received": "2026-12-04T10:00:00-06:00", "section": "103.05", "ruling": "probable_cause"}`, nil, "ruling"},
		{"NotJSON", `hello`, nil, "input"},
		{"UnknownZone", `{"received": "2026-12-04T10:00:00-06:00"}`, []string{"--tz", "Mars/Olympus"}, "--tz"},
		{"UnknownFlag", `{}`, []string{"--zone", "UTC"}, "flag provided but not defined"},
		{"ExtraArgument", `{}`, []string{"facts.json"}, "unexpected argument"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, defaults(t), tc.stdin, append([]string{"deadlines"}, tc.args...)...)
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
			if strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, tc.field) {
				t.Errorf("stderr %q: want one line naming %q", errOut, tc.field)
			}
		})
	}
}

func TestUsage(t *testing.T) {
	if code, out, _ := runCLI(t, defaults(t), "", "help"); code != 0 || !strings.Contains(out, "deadlines") {
		t.Errorf("help: exit %d, %q", code, out)
	}
	if code, _, errOut := runCLI(t, defaults(t), "", "frobnicate"); code != 2 || !strings.Contains(errOut, "frobnicate") {
		t.Errorf("unknown command: exit %d, %q", code, errOut)
	}
}

// defaults points ETHICSBOT_CONFIG at an empty file, so a developer's own ./ethicsbot.yml
// cannot change what the tests see.
func defaults(t *testing.T) map[string]string { return writeConfig(t, "") }

func writeConfig(t *testing.T, body string) map[string]string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ethicsbot.yml")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return map[string]string{"ETHICSBOT_CONFIG": path}
}

func TestConfig(t *testing.T) {
	t.Run("OtherTown", func(t *testing.T) {
		env := writeConfig(t, `
timezone: America/Chicago
holidays:
  remove: [columbus_day]
  add: [day_after_thanksgiving]
  closures: [2026-12-24]
ordinance:
  periods:
    sufficiency_ruling: {amount: 14, unit: business_days}
    sufficiency_meeting_notice: {amount: 24}
  fines: {min: 500, max: 2500}
  sections: {hearing: "2-4-10", referral: "2-4-5"}
reminders:
  at: "08:30"
  sweep: "*/5 * * * *"
`)
		code, out, errOut := runCLI(t, env,
			`{"received": "2026-12-04T10:00:00-06:00", "section": "2-4-10", "ruling": "probable_cause",
			"sufficiency_meeting": "2026-12-15T17:00:00-06:00"}`, "deadlines")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		// 14 business days after Fri 12-04, with 12-24 and 12-25 closed, is Mon 12-28.
		for _, want := range []string{`"due": "2026-12-28"`, `"due_at": "2026-12-14T17:00:00-06:00"`,
			`"basis": "14 business days after receipt`} {
			if !strings.Contains(out, want) {
				t.Errorf("output lacks %s:\n%s", want, out)
			}
		}
		cfg, err := config.Load(func(k string) string { return env[k] })
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Ordinance.FineMin != 500 || cfg.Ordinance.FineMax != 2500 || cfg.Ordinance.HearingSection != "2-4-10" ||
			cfg.Reminders.At != 8*time.Hour+30*time.Minute || cfg.Sweep != "*/5 * * * *" {
			t.Errorf("ordinance %+v", cfg.Ordinance)
		}
	})
	// Office closures no statute fixes change business days only: a calendar-day period
	// still ends on the last day 5 ILCS 70/1.11 allows.
	t.Run("OfficeClosures", func(t *testing.T) {
		env := writeConfig(t,
			"holidays:\n  add: [weekend_observance, pulaski_day]\n  closures: [2027-01-29]\n  proclaimed: [2027-03-05]\n")
		cfg, err := config.Load(func(k string) string { return env[k] })
		if err != nil {
			t.Fatal(err)
		}
		cal, err := docket.NewCalendar(cfg.Calendar)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []string{"2027-12-31", "2027-03-01", "2027-01-29"} {
			d, _ := docket.ParseDate(s)
			if cal.IsBusinessDay(d) {
				t.Errorf("%s is a business day; the configuration closes the office", s)
			}
		}
		// 30 days after Wed 2026-12-30 is Fri 2027-01-29, the configured closure: still the
		// last day for the (E) decision.
		code, out, errOut := runCLI(t, env, `{"received": "2026-12-01T10:00:00-06:00", "hearing_concluded": "2026-12-30"}`,
			"deadlines")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		if !strings.Contains(out, `"due": "2027-01-29"`) {
			t.Errorf("decision not due on the office closure 2027-01-29:\n%s", out)
		}
		// A day the Governor proclaims a legal holiday (205 ILCS 630/17) does extend it:
		// 30 days after 2027-02-03 is Fri 2027-03-05, proclaimed, so Mon 2027-03-08.
		_, out, _ = runCLI(t, env, `{"received": "2027-01-04T10:00:00-06:00", "hearing_concluded": "2027-02-03"}`,
			"deadlines")
		if !strings.Contains(out, `"due": "2027-03-08"`) {
			t.Errorf("decision not moved past the proclaimed holiday 2027-03-05:\n%s", out)
		}
	})
	t.Run("Defaults", func(t *testing.T) {
		t.Chdir(t.TempDir()) // no ./ethicsbot.yml there
		cfg, err := config.Load(func(string) string { return "" })
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Path != "" || cfg.Ordinance.FineMin != 1001 || cfg.Ordinance.FineMax != 5000 || !cfg.Voting.Required ||
			cfg.Voting.Quorum != 0 ||
			cfg.UndeliveredAfter != 15*time.Minute {
			t.Errorf("defaults %+v", cfg)
		}
	})
	t.Run("UndeliveredAfter", func(t *testing.T) {
		env := writeConfig(t, "healthz:\n  undelivered_after: 1h\n")
		cfg, err := config.Load(func(k string) string { return env[k] })
		if err != nil || cfg.UndeliveredAfter != time.Hour {
			t.Errorf("undelivered_after %v, %v", cfg.UndeliveredAfter, err)
		}
	})
	t.Run("Voting", func(t *testing.T) {
		env := writeConfig(t,
			"commissioners: [U01A, U01B, U01C, U01D, U01E]\nvoting:\n  required: false\n  quorum: 3\n  carry: "+
				"majority_of_seated\n")
		cfg, err := config.Load(func(k string) string { return env[k] })
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Voting.Required || cfg.Voting.Quorum != 3 || cfg.Voting.Carry != docket.MajorityOfSeated {
			t.Errorf("voting %+v", cfg.Voting)
		}
	})
	for _, tc := range []struct {
		name, body, want string
	}{
		{"ErrUnknownKey", "timezone: America/Chicago\nholiday:\n  remove: [columbus_day]\n", "line 2"},
		{"ErrUnknownZone", "\ntimezone: Springfield\n", "line 2: time zone \"Springfield\""},
		{"ErrUnknownHoliday", "holidays:\n  remove: [boxing_day]\n", "line 1: cannot remove holiday \"boxing_day\""},
		{"ErrBadClosure", "holidays:\n  closures: [2026-02-30]\n", "line 2"},
		{"ErrBadCommissioner", "commissioners:\n  - U01ABC\n  - jane\n",
			"line 3: commissioner \"jane\" is not a Slack user id"},
		{"ErrClerkAlsoCommissioner", "commissioners: [U01ABC]\nclerk: U01ABC\n",
			"line 2: U01ABC is a clerk here and a commissioner on line 1; give each person one role"},
		{"ErrClerkAlsoAttorney", "clerk: [U01ABC, U02DEF]\nattorney: U02DEF\n",
			"line 2: U02DEF is the attorney here and a clerk on line 1"},
		{"ErrAttorneyAlsoCommissioner", "attorney: U03GHI\ncommissioners:\n  - U01ABC\n  - U03GHI\n",
			"line 4: U03GHI is a commissioner here and the attorney on line 1"},
		{"ErrListedClerkAlsoCommissioner", "commissioners: [U01ABC, U02DEF]\nclerk:\n  - U09XYZ\n  - U02DEF\n",
			"line 4: U02DEF is a clerk here and a commissioner on line 1"},
		{"ErrCommissionerTwice", "commissioners:\n  - U01ABC\n  - U01ABC\n",
			"line 3: U01ABC is listed twice as commissioner (also on line 2)"},
		{"ErrBadClerkInList", "clerk:\n  - U01ABC\n  - jane\n", "line 3: clerk \"jane\" is not a Slack user id"},
		{"ErrBadAttorney", "attorney: counsel\n", "line 1: attorney \"counsel\" is not a Slack user id"},
		{"ErrClerkUnknownField", "clerk: {id: U01ABC, role: clerk}\n",
			"line 1: field role not found: a person has id, name and title"},
		{"ErrClerkListOfLists", "clerk: [[U01ABC]]\n", "line 1"},
		{"ErrBadChannel", "channels:\n  docket: ethics docket\n",
			"line 2: channel \"ethics docket\" is not a Slack channel id"},
		{"ErrSameChannels", "channels:\n  docket: C01\n  notices: C01\n", "line 1: the docket channel is private"},
		{"ErrReminderTime", "reminders:\n  at: 9am\n", "line 1: at \"9am\" is not a time of day"},
		{"ErrReminderLead", "reminders:\n  notice_lead: soon\n", "notice_lead \"soon\" is not a duration"},
		{"ErrReminderSweep", "reminders:\n  sweep: every minute\n", "sweep \"every minute\" is not a cron schedule"},
		{"ErrQuorumTooBig", "commissioners: [U01A, U01B, U01C]\nvoting:\n  quorum: 4\n",
			"line 2: quorum 4 is not a number of commissioners from 1 to the 3 seated"},
		{"ErrCarry", "voting:\n  carry: unanimous\n",
			"line 1: carry \"unanimous\" is not one of majority_of_votes_cast, majority_present, majority_of_seated"},
		{"ErrReminderDays", "reminders:\n  days_before: [0]\n", "days_before 0"},
		{"ErrNullClosure", "holidays:\n  closures: [~]\n", "line 2: a closure has no date"},
		{"ErrNullProclaimed", "holidays:\n  proclaimed: [~]\n", "line 2: a proclaimed holiday has no date"},
		{"ErrBadProclaimed", "holidays:\n  proclaimed: [2027-02-30]\n", "line 2"},
		{"ErrUnknownPeriod", "ordinance:\n  periods:\n    hearing_soon: {amount: 3}\n", "line 3: no period \"hearing_soon\""},
		{"ErrBadUnit", "ordinance:\n  periods:\n    hearing_notice: {amount: 2, unit: days}\n",
			"line 3: period hearing_notice (D) counts in hours"},
		{"ErrUnknownPeriodKey", "ordinance:\n  periods:\n    hearing_by: {amount: 3, units: days}\n", "line 3"},
		{"ErrBadFines", "ordinance:\n  fines: {min: 5000, max: 1001}\n", "line 2: fine range"},
		{"ErrBadSections", "ordinance:\n  sections: {hearing: \"103.10\", referral: \"103.10\"}\n", "line 2"},
		{"ErrWrongType", "ordinance:\n  fines: {min: lots, max: 5000}\n", "line 2"},
		{"ErrNotAMapping", "- timezone\n", "line 1"},
		{"ErrBadYAML", "timezone: [\n", "line"},
		{"ErrUndeliveredAfter", "\nhealthz:\n  undelivered_after: 10s\n",
			"line 3: undelivered_after \"10s\" is not a duration such as 15m or 1h, from 1m to 24h"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := writeConfig(t, tc.body)
			_, err := config.Load(func(k string) string { return env[k] })
			if err == nil {
				t.Fatal("accepted")
			}
			if !strings.Contains(err.Error(), env["ETHICSBOT_CONFIG"]) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q: want the path and %q", err, tc.want)
			}
			code, out, errOut := runCLI(t, env, `{"received": "2026-12-04T10:00:00-06:00"}`, "deadlines")
			if code != 1 || out != "" || !strings.Contains(errOut, tc.want) {
				t.Errorf("deadlines with a bad config: exit %d, stdout %q, stderr %q", code, out, errOut)
			}
		})
	}
	t.Run("Clerks", func(t *testing.T) {
		for _, tc := range []struct{ body, want string }{
			{"clerk: U01ABC\n", "U01ABC"}, // files written before the list was allowed
			{"clerk: [U01ABC, U02DEF]\n", "U01ABC U02DEF"},
			{"clerk:\n  - U01ABC\n  - U02DEF\n", "U01ABC U02DEF"},
			{"clerk:\n", ""},
			{"clerk: \"\"\n", ""},
			{"", ""},
		} {
			env := writeConfig(t, tc.body)
			cfg, err := config.Load(func(k string) string { return env[k] })
			if err != nil {
				t.Fatalf("%q: %v", tc.body, err)
			}
			if got := strings.Join(cfg.Roles.Clerks, " "); got != tc.want {
				t.Errorf("%q: clerks %q, want %q", tc.body, got, tc.want)
			}
		}
	})
	t.Run("ErrMissingExplicitFile", func(t *testing.T) {
		_, err := config.Load(func(string) string { return filepath.Join(t.TempDir(), "nope.yml") })
		if err == nil || !strings.Contains(err.Error(), "nope.yml") {
			t.Errorf("error %v", err)
		}
	})
}

// mustOpenRecord opens the database cfg names, with the engine cfg describes; the caller
// closes it.
func mustOpenRecord(t *testing.T, cfg config.Config) (*docket.Engine, *store.Store) {
	t.Helper()
	engine, err := cfg.Engine()
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(cfg.Database, engine)
	if err != nil {
		t.Fatal(err)
	}
	return engine, db
}

// recordEnv returns an environment whose database holds two cases, one dismissed.
func recordEnv(t *testing.T) map[string]string {
	t.Helper()
	env := defaults(t)
	env["ETHICSBOT_DB"] = filepath.Join(t.TempDir(), "ethicsbot.db")
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	_, db := mustOpenRecord(t, cfg)
	defer db.Close()
	at := time.Date(2026, 12, 4, 16, 0, 0, 0, time.UTC)
	for _, name := range []string{"Hidden Respondent", "Public Respondent"} {
		_, err := db.File(context.Background(), "U_CLERK", "", docket.File{
			Complainant: docket.Person{Name: "John Doe"}, Respondent: docket.Person{Name: name},
			Sections: []string{"103.10"}, Received: at, Summary: "Confidential allegation.",
		}, at, nil)
		if err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	// The meeting, its posted notice (C)(1) and both (B) notices: what a ruling needs.
	if _, err := db.Apply(ctx, "2026-002", "U_CLERK", "", at, nil,
		docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: at.Add(72 * time.Hour), Place: "City Hall"},
		docket.PostNotice{Meeting: docket.SufficiencyMeeting},
		docket.RecordMailing{Recipient: docket.Respondent, Article: "94071118987654321712"},
		docket.RecordMailing{Recipient: docket.Complainant, Article: "94071118987654321613"}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Apply(ctx, "2026-002", "U_COMM1", "", at.Add(73*time.Hour), nil,
		docket.Rule{Ruling: docket.Insufficient}); err != nil {
		t.Fatal(err)
	}
	return env
}

func TestRecordCommands(t *testing.T) {
	env := recordEnv(t)
	code, out, errOut := runCLI(t, env, "", "verify")
	if code != 0 || !strings.Contains(out, "7 events in 2 cases; the chain is intact") {
		t.Errorf("verify: exit %d, %q %q", code, out, errOut)
	}
	backup := filepath.Join(t.TempDir(), "copy.db")
	code, out, errOut = runCLI(t, env, "", "backup", backup)
	if code != 0 || !strings.Contains(out, "7 events in 2 cases") {
		t.Errorf("backup: exit %d, %q %q", code, out, errOut)
	}
	code, out, _ = runCLI(t, env, "", "export", "--format", "json", "--public")
	if code != 0 || strings.Contains(out, "Hidden Respondent") || strings.Contains(out, "Confidential") ||
		!strings.Contains(out, "Public Respondent") {
		t.Errorf("public export: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, env, "", "export", "--format", "csv")
	if code != 0 || !strings.Contains(out, "Hidden Respondent") {
		t.Errorf("full export: exit %d\n%s", code, out)
	}

	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"backup"}, 2, "give the path"},
		{[]string{"backup", backup}, 1, "exists"},
		{[]string{"export"}, 2, "--format must be csv or json"},
		{[]string{"export", "--format", "xml"}, 2, "--format must be csv or json"},
		{[]string{"verify", "--public"}, 2, "are for export"},
		{[]string{"verify", "extra"}, 2, "unexpected argument"},
	} {
		if code, out, errOut := runCLI(t, env, "", tc.args...); code != tc.code || out != "" ||
			!strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and %q", tc.args, code, out, errOut, tc.code, tc.want)
		}
	}
	t.Run("NoDatabase", func(t *testing.T) { refusesMissingDatabase(t, "verify") })
	t.Run("Tampered", func(t *testing.T) {
		db, err := sql.Open("sqlite3", "file:"+env["ETHICSBOT_DB"])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(`DROP TRIGGER events_no_update; UPDATE events SET by = 'U_MALLORY' WHERE id = 3`); err != nil {
			t.Fatal(err)
		}
		db.Close()
		code, out, _ := runCLI(t, env, "", "verify")
		if code != 1 || !strings.Contains(out, "BROKEN at event 3 (case 2026-002)") {
			t.Errorf("exit %d, %q", code, out)
		}
	})
}

// refusesMissingDatabase checks that ethicsbot args, run on a database that does not
// exist, fails with exit status 1 naming it, and creates none.
func refusesMissingDatabase(t *testing.T, args ...string) {
	t.Helper()
	env := defaults(t)
	env["ETHICSBOT_DB"] = filepath.Join(t.TempDir(), "missing.db")
	if code, _, errOut := runCLI(t, env, "", args...); code != 1 || !strings.Contains(errOut, "missing.db") {
		t.Errorf("%v: exit %d, %q", args, code, errOut)
	}
	if _, err := os.Stat(env["ETHICSBOT_DB"]); err == nil {
		t.Errorf("%v created a database", args)
	}
}

// TestManifest checks manifest.yml creates the app the code expects: /ethics, the App Home
// tab, interactivity, Socket Mode, and exactly the scopes the code uses.
func TestManifest(t *testing.T) {
	b, err := os.ReadFile("manifest.yml")
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Features struct {
			AppHome struct {
				HomeTab bool `yaml:"home_tab_enabled"`
			} `yaml:"app_home"`
			BotUser struct {
				DisplayName string `yaml:"display_name"`
			} `yaml:"bot_user"`
			SlashCommands []struct {
				Command   string `yaml:"command"`
				UsageHint string `yaml:"usage_hint"`
			} `yaml:"slash_commands"`
			Shortcuts []struct {
				Type       string `yaml:"type"`
				CallbackID string `yaml:"callback_id"`
			} `yaml:"shortcuts"`
		} `yaml:"features"`
		OAuth struct {
			Scopes struct {
				Bot []string `yaml:"bot"`
			} `yaml:"scopes"`
		} `yaml:"oauth_config"`
		Settings struct {
			Events struct {
				BotEvents []string `yaml:"bot_events"`
			} `yaml:"event_subscriptions"`
			Interactivity struct {
				Enabled bool `yaml:"is_enabled"`
			} `yaml:"interactivity"`
			SocketMode bool `yaml:"socket_mode_enabled"`
		} `yaml:"settings"`
	}
	if err := yaml.Unmarshal(b, &m); err != nil {
		t.Fatalf("manifest.yml is not valid YAML: %v", err)
	}
	f, s := m.Features, m.Settings
	if len(f.SlashCommands) != 1 || f.SlashCommands[0].Command != "/ethics" || f.SlashCommands[0].UsageHint == "" {
		t.Errorf("slash commands %+v", f.SlashCommands)
	}
	if !f.AppHome.HomeTab || f.BotUser.DisplayName == "" || !s.Interactivity.Enabled || !s.SocketMode {
		t.Errorf("features %+v settings %+v", f, s)
	}
	if got := strings.Join(m.OAuth.Scopes.Bot,
		","); got != "commands,chat:write,im:write,im:history,groups:history,channels:history,files:write,files:read,channels:read,groups:read" {
		t.Errorf("bot scopes %s", got)
	}
	if len(f.Shortcuts) != 1 || f.Shortcuts[0].Type != "message" || f.Shortcuts[0].CallbackID != commands.AttachShortcut {
		t.Errorf("shortcuts %+v: want the message shortcut %s", f.Shortcuts, commands.AttachShortcut)
	}
	if got := strings.Join(s.Events.BotEvents,
		","); got != "app_home_opened,member_joined_channel,channel_unarchive,group_unarchive" {
		t.Errorf("bot events %s", got)
	}
}

// TestGoRunStartsConsole is `go run .` on a fresh machine: no Slack settings and no
// configuration file, so a demo console on its own database.
func TestGoRunStartsConsole(t *testing.T) {
	t.Chdir(t.TempDir())
	code, out, errOut := runCLI(t, map[string]string{}, "/ethics help\n:quit\n")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"this is a demo", "U_COMM1", "ethicsbot-demo.db", "You are U_CLERK",
		"[ephemeral] */ethics* runs"} {
		if !strings.Contains(out, want) {
			t.Errorf("console output lacks %q:\n%s", want, out)
		}
	}
	if _, err := os.Stat("ethicsbot-demo.db"); err != nil {
		t.Errorf("no demo database: %v", err)
	}
	if _, err := os.Stat("ethicsbot.db"); err == nil {
		t.Error("the demo wrote to ethicsbot.db, the production default")
	}
}

// TestDemoClockStartsAtTheLastEvent: the demo's record persists between runs, so a console
// started again at a real time before the record's last event starts its clock at that
// event instead, says so, and records the next event after it, not before.
func TestDemoClockStartsAtTheLastEvent(t *testing.T) {
	t.Chdir(t.TempDir())
	file := `/ethics file respondent="Jane Roe" complainant="John Doe" section=103.10 summary="x"` + "\n"
	code, out, errOut := runCLI(t, map[string]string{}, ":clock +3d\n"+file+":quit\n")
	if code != 0 || !strings.Contains(out, "Filed as case *2026-001*") {
		t.Fatalf("exit %d: %s\n%s", code, out, errOut)
	}
	if strings.Contains(out, "clock starts at") {
		t.Errorf("a new record's clock starts at the real time:\n%s", out)
	}
	// Started again at the same real time, three days before the case was filed.
	code, out, errOut = runCLI(t, map[string]string{}, ":clock\n"+file+":quit\n")
	if code != 0 || !strings.Contains(out, "Filed as case *2026-002*") {
		t.Fatalf("exit %d: %s\n%s", code, out, errOut)
	}
	for _, want := range []string{
		"[console] The demo's clock starts at Sat 2026-12-05 06:00 CST, the record's last event",
		"[console] the time is 2026-12-05T06:00:00-06:00",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("console output lacks %q:\n%s", want, out)
		}
	}
}

// TestClerksGuideWalkthrough pastes the clerk's guide's "A case in the console"
// (docs/clerk.md) into `go run .` with nothing else set, as a newcomer would, and checks the
// whole case runs: no step refused, and the public notices, votes included, come out.
func TestClerksGuideWalkthrough(t *testing.T) {
	section := docSection(t, "docs/clerk.md", "A case in the console")
	_, block, _ := strings.Cut(section, "```\n")
	block, _, _ = strings.Cut(block, "```")
	if !strings.Contains(block, "/ethics final") {
		t.Fatalf("the clerk's guide's walk-through is not where this test looks:\n%s", block)
	}
	t.Chdir(t.TempDir())
	// The scan of the signed complaint the guide asks for, as a scanner makes it: a PDF.
	writeScan(t, "complaint.pdf", "COMPLAINT OF JOHN DOE, SIGNED")
	code, out, errOut := runCLI(t, map[string]string{}, block)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "[ephemeral] Not done") || strings.HasPrefix(line, "[ephemeral] Only ") ||
			strings.HasPrefix(line, "[ephemeral] There is no") ||
			strings.Contains(line, "no copy was kept") {
			t.Errorf("a step of the walk-through was refused: %s", line)
		}
	}
	for _, want := range []string{
		// The complaint as received is in the case file.
		`[ephemeral] Case 2026-001: document added to the case file: "Signed complaint" (complaint,`,
		// One notice for the meeting of two cases and other business.
		"[#ethics-notices] PUBLIC NOTICE. Ethics Commission, regular meeting on Mon 7 Dec 2026 at 17:00 CST at City Hall, " +
			"Room 201. Agenda: Call to order and roll call. 1. Review of the sufficiency of complaint 2026-001",
		"4. Evaluation of the executive director (closed session, 5 ILCS 120/2(c)(1)). Public comment. Adjournment. " +
			"Open to the public, except the " +
			"items marked closed session.",
		"By roll call: adopted 2–1.",
		"By roll call: adopted 2–0, 1 absent.",
		"[ephemeral] Case 2026-001: final",
		// The minutes of the first meeting, noted, approved at a later one and published.
		"the clerk's note added to its draft minutes, on item 4",
		"Meeting *2026-12-07*: roll call on approving its minutes at meeting 2027-01-04, item 1: adopted 2–0, 1 absent.",
		"Meeting *2026-12-07*: its approved open minutes are on the public board",
		// The card: when each public record reached the board, on its first line.
		"decision (E) on Thu 2026-12-10: recommendation and/or fine (E)(2) · on the board since Thu 10 Dec 2026 15:00 CST",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the walk-through's output lacks %q:\n%s", want, out)
		}
	}
	// The hearing path's letters: every one the procedure needed.
	checkLetters(t, out, "respondent", "complainant", "ruling_respondent", "ruling_complainant",
		"recommendation_respondent", "recommendation_officer", "demand_acknowledgement", "public_hearing_respondent",
		"public_hearing_complainant",
		"final_respondent", "final_officer", "notice_sufficiency", "notice_hearing", "notice_public_hearing")
}

// checkLetters checks that the console wrote exactly the letters of kinds for case
// 2026-001 to the demo's letters folder, as PDF files, and printed their paths.
func checkLetters(t *testing.T, out string, kinds ...string) {
	t.Helper()
	entries, err := os.ReadDir("ethicsbot-demo-letters")
	if err != nil {
		t.Fatalf("no letters folder: %v\n%s", err, out)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
		b, err := os.ReadFile(filepath.Join("ethicsbot-demo-letters", e.Name()))
		if err != nil || !bytes.HasPrefix(b, []byte("%PDF-")) {
			t.Errorf("%s is not a PDF: %v", e.Name(), err)
		}
		if !strings.Contains(out, e.Name()) {
			t.Errorf("the console did not print the path of %s", e.Name())
		}
	}
	var want []string
	for _, k := range kinds {
		want = append(want, "2026-001-"+k+".pdf")
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("letters written:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestConsoleDismissalLetters runs a case to a dismissal in the demo console: the letters
// are the (B) notices, the (C)(2) notices of dismissal and the meeting's public notice, and
// once both dismissal notices are mailed the case leaves the docket.
func TestConsoleDismissalLetters(t *testing.T) {
	t.Chdir(t.TempDir())
	code, out, errOut := runCLI(t, map[string]string{}, `:clock 2026-12-04T10:30:00-06:00
/ethics file respondent="Jane Roe" complainant="John Doe" section=103.10 received=2026-12-04T10:00 summary="Used city email to campaign." respondent_address="34 Oak Avenue | Springfield, IL 62703" complainant_address="12 Elm Street | Springfield, IL 62702"
/ethics schedule 2026-001 sufficiency 2026-12-07T17:00 place="City Hall, Room 201"
/ethics posted 2026-001 sufficiency
/ethics mail 2026-001 respondent 9407 1118 9876 5432 1016 34
/ethics mail 2026-001 complainant 9407 1118 9876 5432 1015 35
:clock 2026-12-07T18:00:00-06:00
:as U_COMM1
/ethics rule 2026-001 insufficient yes=U_COMM1,U_COMM2,U_COMM3
:as U_CLERK
/ethics letters 2026-001
/ethics mail 2026-001 dismissal_respondent 9407 1118 9876 5432 1014 36
/ethics mail 2026-001 dismissal_complainant 9407 1118 9876 5432 1013 37
/ethics docket
`)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "[ephemeral] Not done") || strings.HasPrefix(line, "[ephemeral] Only ") {
			t.Errorf("a step was refused: %s", line)
		}
	}
	checkLetters(t, out, "respondent", "complainant", "dismissal_respondent", "dismissal_complainant",
		"notice_sufficiency")
	if !strings.Contains(out, "No open cases.") {
		t.Errorf("the dismissed case with its notices sent is still on the docket:\n%s", out)
	}
}

func TestSlackModesNeedConfig(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, env := range []map[string]string{
		{"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_APP_TOKEN": "xapp-1"},
		{"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": "s"},
	} {
		code, _, errOut := runCLI(t, env, "")
		if code != exitConfig || !strings.Contains(errOut, "needs ethicsbot.yml") {
			t.Errorf("%v: exit %d, %q", env, code, errOut)
		}
	}
	env := writeConfig(t, "commissioners: [U01]\n")
	env["SLACK_BOT_TOKEN"], env["SLACK_APP_TOKEN"] = "xoxb-1", "xapp-1"
	if code, _, errOut := runCLI(t, env, ""); code != exitConfig ||
		!strings.Contains(errOut, "needs clerk, channels.docket, channels.notices") {
		t.Errorf("exit %d, %q", code, errOut)
	}
}

// TestSlackSettingsIncomplete: one Slack setting without its partner is someone who meant
// to connect to Slack; ethicsbot says what to set instead of opening the console.
func TestSlackSettingsIncomplete(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		want []string
	}{
		{"BotTokenOnly", map[string]string{"SLACK_BOT_TOKEN": "xoxb-1"},
			[]string{"SLACK_APP_TOKEN (xapp-...) for Socket Mode", "SLACK_SIGNING_SECRET for HTTP mode",
				"unset SLACK_BOT_TOKEN"}},
		{"EmptySigningSecret", map[string]string{"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": ""},
			[]string{"SLACK_SIGNING_SECRET for HTTP mode"}},
		{"AppTokenOnly", map[string]string{"SLACK_APP_TOKEN": "xapp-1"},
			[]string{"SLACK_APP_TOKEN is set, but Socket Mode also needs SLACK_BOT_TOKEN"}},
		{"SigningSecretOnly", map[string]string{"SLACK_SIGNING_SECRET": "s"},
			[]string{"SLACK_SIGNING_SECRET is set, but HTTP mode also needs SLACK_BOT_TOKEN"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			code, out, errOut := runCLI(t, tc.env, "/ethics help\n")
			if code != exitConfig || out != "" {
				t.Errorf("exit %d, stdout %q: want %d and no console", code, out, exitConfig)
			}
			for _, want := range tc.want {
				if !strings.Contains(errOut, want) {
					t.Errorf("stderr %q lacks %q", errOut, want)
				}
			}
			if files, _ := filepath.Glob("*.db"); len(files) > 0 {
				t.Errorf("a refused start created %v", files)
			}
		})
	}
}

// slackConfig is a configuration complete enough to connect to Slack.
const slackConfig = "commissioners: [U0COMM1]\nclerk: U0CLERK1\nchannels: {docket: C0DOCKET1, notices: C0NOTICE1}\n"

// TestSlackModesNeedChannelIDs: Slack posts to and reads channels by id, so a #name is
// refused at start with where to find the id; the console keeps accepting names.
func TestSlackModesNeedChannelIDs(t *testing.T) {
	body := "commissioners: [U0COMM1]\nclerk: U0CLERK1\nchannels: {docket: C0DOCKET1, notices: \"#ethics-notices\"}\n"
	for _, mode := range []map[string]string{
		{"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_APP_TOKEN": "xapp-1"},
		{"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": "s"},
	} {
		env := writeConfig(t, body)
		env["ETHICSBOT_DB"] = filepath.Join(t.TempDir(), "ethicsbot.db")
		maps.Copy(env, mode)
		code, _, errOut := runCLI(t, env, "")
		want := `channels.notices is the channel name "#ethics-notices", but Slack needs the channel's id, such as C0123456789: in Slack, open the channel's details; the id is at the bottom`
		if code != exitConfig || !strings.Contains(errOut, want) || !strings.Contains(errOut, env["ETHICSBOT_CONFIG"]) {
			t.Errorf("%v: exit %d, stderr %q", mode, code, errOut)
		}
	}
	env := writeConfig(t, body)
	env["ETHICSBOT_DB"] = filepath.Join(t.TempDir(), "ethicsbot.db")
	if code, out, errOut := runCLI(t, env, "/ethics help\n"); code != 0 || !strings.Contains(out, "You are U0CLERK1") {
		t.Errorf("console with a channel name: exit %d\n%s%s", code, out, errOut)
	}
}

// authSlack is a fake Slack whose auth.test answers with status and body, and counts calls.
func authSlack(t *testing.T, status int, body string) (*httptest.Server, *atomic.Int32) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/auth.test" {
			t.Errorf("unexpected call %s", r.URL.Path)
		}
		calls.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

// TestStartStopsOnRefusedToken: a bad bot token ends start-up at once, with what to do.
func TestStartStopsOnRefusedToken(t *testing.T) {
	srv, calls := authSlack(t, http.StatusOK, `{"ok":false,"error":"invalid_auth"}`)
	env := writeConfig(t, slackConfig)
	env["ETHICSBOT_DB"] = filepath.Join(t.TempDir(), "ethicsbot.db")
	env["SLACK_BOT_TOKEN"], env["SLACK_SIGNING_SECRET"], env["SLACK_API_URL"] = "xoxb-bad", "s", srv.URL+"/api"
	// Any free port: :3000, the default, may be another program's on a shared machine.
	env["ETHICSBOT_ADDR"], env["ETHICSBOT_ADMIN_ADDR"] = "127.0.0.1:0", "127.0.0.1:0"
	code, _, errOut := runCLI(t, env, "")
	want := "Slack refused the bot token (invalid_auth): the token is not valid. To do: reinstall the app in Slack " +
		"(api.slack.com/apps, Install App), put the new Bot User OAuth Token (xoxb-...) in SLACK_BOT_TOKEN in " +
		"ethicsbot's environment, and restart ethicsbot"
	if code != 1 || !strings.Contains(errOut, want) || calls.Load() != 1 {
		t.Errorf("exit %d after %d calls, stderr %q", code, calls.Load(), errOut)
	}
}

// TestStartWaitsForSlackUntilStopped runs ethicsbot in a child process while Slack answers
// 503: it logs that it will try again and keeps waiting, and a SIGTERM then stops it
// cleanly, with exit status 0.
func TestStartWaitsForSlackUntilStopped(t *testing.T) {
	srv, calls := authSlack(t, http.StatusServiceUnavailable, "")
	env := writeConfig(t, slackConfig)
	cmd := exec.Command(os.Args[0], "-test.run=^TestServeChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), serveEnv+"=1", "ETHICSBOT_CONFIG="+env["ETHICSBOT_CONFIG"],
		"ETHICSBOT_DB="+filepath.Join(t.TempDir(), "ethicsbot.db"), "ETHICSBOT_ADDR=127.0.0.1:0",
		"ETHICSBOT_ADMIN_ADDR=localhost:0", // two listeners
		"SLACK_BOT_TOKEN=xoxb-1", "SLACK_SIGNING_SECRET=s", "SLACK_API_URL="+srv.URL+"/api/")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	guard := time.AfterFunc(time.Minute, func() { cmd.Process.Kill() }) // a hang fails, not blocks
	defer guard.Stop()
	var log strings.Builder
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		log.WriteString(sc.Text() + "\n")
		if strings.Contains(sc.Text(), "trying again") {
			break
		}
	}
	if !strings.Contains(log.String(), "retry_in=1s") {
		t.Fatalf("no retry logged:\n%s", log.String())
	}
	// Meanwhile the board and /healthz answer, each on its own address; Slack's routes say
	// to come back.
	m := regexp.MustCompile(`serving the public notice board, Slack's endpoints /slack/\*" addr=(\S+)`).FindStringSubmatch(log.String())
	admin := regexp.MustCompile(`serving /healthz, /metrics" addr=(\S+)`).FindStringSubmatch(log.String())
	if m == nil || admin == nil {
		t.Fatalf("the addresses are not logged:\n%s", log.String())
	}
	for url, want := range map[string]int{admin[1] + "/healthz": 200, admin[1] + "/metrics": 200, m[1] + "/": 200,
		m[1] + "/feed.atom": 200,
		m[1] + "/healthz":   404, m[1] + "/metrics": 404, admin[1] + "/": 404} {
		if resp, err := http.Get("http://" + url); err != nil || resp.StatusCode != want {
			t.Errorf("GET %s while Slack is unreachable: %v %v, want %d", url, resp, err, want)
		}
	}
	if resp, err := http.Get("http://" + admin[1] + "/healthz"); err == nil {
		health, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(health), `"slack":"connecting"`) {
			t.Errorf("/healthz while Slack is unreachable: %s, want slack connecting", health)
		}
	}
	if resp, err := http.Post("http://"+m[1]+"/slack/commands", "application/x-www-form-urlencoded",
		strings.NewReader("x=1")); err != nil || resp.StatusCode != 503 {
		t.Errorf("POST /slack/commands before Slack answered: %v %v, want 503", resp, err)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(stderr)
	log.Write(rest)
	if err := cmd.Wait(); err != nil || !strings.Contains(log.String(), "stopped before Slack answered") {
		t.Errorf("after SIGTERM: %v, after %d calls\n%s", err, calls.Load(), log.String())
	}
}

// TestStartSaysItCreatesADatabase: a start that finds no database at the configured path
// creates one and logs it with the full path, so a record expected elsewhere, or removed,
// shows in the log; a start on the existing database says nothing of the kind.
func TestStartSaysItCreatesADatabase(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	env := writeConfig(t, "commissioners: [U0COMM1]\nclerk: U0CLERK1\nchannels: {docket: C0DOCKET1, notices: C0NOTICE1}\n")
	env["ETHICSBOT_DB"], env["ETHICSBOT_ADDR"] = "bot.db", "127.0.0.1:0"
	code, out, errOut := runCLI(t, env, ":quit\n")
	want := `msg="creating a new database" path=` + filepath.Join(dir, "bot.db") + "\n"
	if code != 0 || !strings.Contains(errOut, want) {
		t.Errorf("exit %d; the log lacks %q:\n%s%s", code, want, out, errOut)
	}
	if code, _, errOut := runCLI(t, env, ":quit\n"); code != 0 || strings.Contains(errOut, "creating a new database") {
		t.Errorf("a start on the existing database: exit %d\n%s", code, errOut)
	}
}

// TestConsoleOnARealRecord: with a configuration file, the console works on the real
// database in real time: :clock is refused, and no reminder is marked said.
func TestConsoleOnARealRecord(t *testing.T) {
	env := writeConfig(t, "commissioners: [U0COMM1]\nclerk: U0CLERK1\nchannels: {docket: C0DOCKET1, notices: C0NOTICE1}\n")
	env["ETHICSBOT_DB"] = filepath.Join(t.TempDir(), "real.db")
	code, out, errOut := runCLI(t, env, ":clock +3d\n/ethics help\n")
	if code != 0 || !strings.Contains(out, ":clock works only in the demo console") ||
		!strings.Contains(out, "You are U0CLERK1") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
}

// TestConsoleServesTheBoard: the demo console serves the public notice board beside
// /healthz and prints its address; a meeting scheduled in the console is on the board at
// once, with when it was posted there.
func TestConsoleServesTheBoard(t *testing.T) {
	t.Chdir(t.TempDir())
	in, feed := io.Pipe()
	out := &lockedBuffer{}
	env := map[string]string{"ETHICSBOT_ADDR": "127.0.0.1:0"}
	now := func() time.Time { return time.Date(2026, 12, 4, 16, 0, 0, 0, time.UTC) }
	done := make(chan int, 1)
	go func() { done <- run(nil, in, out, io.Discard, func(k string) string { return env[k] }, now) }()
	defer func() {
		feed.Close()
		if code := <-done; code != 0 {
			t.Errorf("the console exited %d", code)
		}
	}()
	addr := regexp.MustCompile(`The public notice board is at (http://\S+)`)
	var board string
	for deadline := time.Now().Add(20 * time.Second); board == "" &&
		time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m := addr.FindStringSubmatch(out.String()); m != nil {
			board = m[1]
		}
	}
	if board == "" {
		t.Fatalf("the console did not print the board's address:\n%s", out.String())
	}
	fmt.Fprintln(feed,
		`/ethics file respondent="Jane Roe" complainant="John Doe" section=103.10 received=2026-12-04T10:00 summary="CONFIDENTIAL-WORDS"`)
	fmt.Fprintln(feed, `/ethics schedule 2026-001 sufficiency 2026-12-10T17:00 place="Council Chambers"`)
	var page string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		resp, err := http.Get(board)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if page = string(b); strings.Contains(page, "Sufficiency meeting, case") {
			break
		}
	}
	for _, want := range []string{"Ethics Commission of the City of Demo", "Sufficiency meeting, case", "2026-001",
		"Thursday 10 December 2026", "Council Chambers", "Posted on this board"} {
		if !strings.Contains(page, want) {
			t.Errorf("the board lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, "CONFIDENTIAL-WORDS") || strings.Contains(page, "Jane Roe") {
		t.Error("the board shows what is confidential")
	}
	resp, err := http.Get(board + "healthz")
	if err != nil || resp.StatusCode != 200 {
		t.Errorf("/healthz beside the board: %v %v", resp, err)
	}
}

// TestPublishCommand: `ethicsbot publish` writes the board of the database as files, and
// refuses bad input with exit 2 and one line.
func TestPublishCommand(t *testing.T) {
	t.Chdir(t.TempDir())
	env := map[string]string{"ETHICSBOT_DB": "board.db", "ETHICSBOT_ADDR": "127.0.0.1:0"}
	code, _, errOut := runCLI(t, env, `:clock 2026-12-04T10:30:00-06:00
/ethics file respondent="Jane Roe" complainant="John Doe" section=103.10 received=2026-12-04T10:00 summary="CONFIDENTIAL-WORDS"
/ethics schedule 2026-001 sufficiency 2026-12-10T17:00 place="Council Chambers"
`)
	if code != 0 {
		t.Fatalf("console exit %d: %s", code, errOut)
	}
	code, out, errOut := runCLI(t, env, "", "publish", "--out", "site", "--url", "https://ethics.example.gov/board")
	if code != 0 || !strings.Contains(out, "Wrote the public notice board to site") {
		t.Fatalf("publish exit %d: %s %s", code, out, errOut)
	}
	index, err := os.ReadFile(filepath.Join("site", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(index), "Council Chambers") || strings.Contains(string(index), "CONFIDENTIAL-WORDS") {
		t.Errorf("the published board:\n%s", index)
	}
	atom, err := os.ReadFile(filepath.Join("site", "feed.atom"))
	if err != nil || !strings.Contains(string(atom), "https://ethics.example.gov/board/cases/2026-001.html") {
		t.Errorf("the feed's links do not start at --url: %v\n%s", err, atom)
	}
	for _, args := range [][]string{{"publish"}, {"publish", "--out"}, {"publish", "--out", "x", "extra"},
		{"publish", "--bogus"},
		{"publish", "--out", "x"}, // no --url and no public_url: the feeds would link to localhost
		{"publish", "--out", "x", "--url", "ftp://example.gov"}} {
		if code, out, errOut := runCLI(t, env, "", args...); code != 2 || out != "" || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
}

// writeScan writes a one-page PDF saying text at name, as a scanner would make a scan.
func writeScan(t *testing.T, name, text string) {
	t.Helper()
	p := fpdf.New("P", "mm", "Letter", "")
	p.AddPage()
	p.SetFont("Helvetica", "", 14)
	p.Text(20, 30, text)
	if err := p.OutputFileAndClose(name); err != nil {
		t.Fatal(err)
	}
}
