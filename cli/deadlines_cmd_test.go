package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ethicsbot/app/apptest"
	"ethicsbot/config"
	"ethicsbot/docket"
)

func TestDeadlinesCommand(t *testing.T) {
	code, out, errOut := runCLI(t, apptest.Defaults(t),
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
	_, out, _ := runCLI(t, apptest.Defaults(t), in, "deadlines")
	if !strings.Contains(out, `"due": "2026-12-02"`) {
		t.Errorf("with 2026-11-27 closed, 3 business days after Wed 2026-11-25 is Wed 2026-12-02:\n%s", out)
	}
	// 05:30 UTC on the 5th is the 5th in New York only after 00:00 EST; here 00:30 EST.
	_, out, _ = runCLI(t, apptest.Defaults(t), `{"received": "2026-12-05T05:30:00Z"}`, "deadlines", "--tz", "America/New_York")
	if !strings.Contains(out, `"received": "2026-12-05"`) {
		t.Errorf("--tz America/New_York: %s", out)
	}
	_, out, _ = runCLI(t, apptest.Defaults(t), `{"received": "2026-12-05T05:30:00Z"}`, "deadlines")
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
			code, out, errOut := runCLI(t, apptest.Defaults(t), tc.stdin, append([]string{"deadlines"}, tc.args...)...)
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

func TestConfig(t *testing.T) {
	t.Run("OtherTown", func(t *testing.T) {
		env := apptest.WriteConfig(t, `
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
		env := apptest.WriteConfig(t,
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
		env := apptest.WriteConfig(t, "healthz:\n  undelivered_after: 1h\n")
		cfg, err := config.Load(func(k string) string { return env[k] })
		if err != nil || cfg.UndeliveredAfter != time.Hour {
			t.Errorf("undelivered_after %v, %v", cfg.UndeliveredAfter, err)
		}
	})
	t.Run("Voting", func(t *testing.T) {
		env := apptest.WriteConfig(t,
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
			env := apptest.WriteConfig(t, tc.body)
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
			env := apptest.WriteConfig(t, tc.body)
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
