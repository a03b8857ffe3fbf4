package cli

import (
	"context"
	"strings"
	"testing"
	"time"

	"ethicsbot/app/apptest"
	"ethicsbot/commands"
	"ethicsbot/config"
	"ethicsbot/docket"
)

// TestRecordOfThePreviousRelease: a record made by an earlier ethicsbot verifies, migrates
// and verifies again with this one. testdata/records/6318221.sql was dumped (`sqlite3 .dump`) from the record made by main at
// 6318221 (the release before meetings and letters kept as sent) from the console script
// beside it: a case taken to its (F) final recommendation after a public hearing, and one
// dismissed under (E)(1) after a recessed hearing. Both closed then. The papers this
// version added for those steps (the recessed and public hearings' notices, the demand's
// acknowledgement) are moot once the hearing is held (docket.Period.Moot), so the cases
// stay closed, and the record's columns still agree with its events: without that, verify
// called the file tampered with and migrate refused it.
func TestRecordOfThePreviousRelease(t *testing.T) {
	db := apptest.PreviousRecord(t, "6318221")
	env := map[string]string{"ETHICSBOT_DB": db}
	for _, step := range [][]string{{"verify"}, {"migrate"}, {"verify"}} {
		code, out, errOut := runCLI(t, env, "", step...)
		if code != 0 {
			t.Fatalf("ethicsbot %s: exit %d\n%s%s", step[0], code, out, errOut)
		}
		if step[0] == "verify" && !strings.Contains(out, "38 events in 2 cases; the chain is intact") {
			t.Errorf("ethicsbot verify: %s", out)
		}
	}
}

// TestFoldedMeetingOfThePreviousRelease: in
// testdata/records/6318221-folded.sql, dumped from the record made by main at 6318221 from the console script
// beside it, two cases' sufficiency reviews are at one start and place and only the first
// one's notice is posted. Read by this release, they are one meeting, folded from its
// cases, whose agenda is not posted: one item's notice is not the whole agenda's.
func TestFoldedMeetingOfThePreviousRelease(t *testing.T) {
	db := apptest.PreviousRecord(t, "6318221-folded")
	env := map[string]string{"ETHICSBOT_DB": db}
	for _, step := range []string{"migrate", "verify"} {
		if code, out, errOut := runCLI(t, env, "", step); code != 0 {
			t.Fatalf("ethicsbot %s: exit %d\n%s%s", step, code, out, errOut)
		}
	}
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	_, s := apptest.MustOpenRecord(t, cfg)
	ms, err := s.Meetings(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	m, err := docket.FindMeeting(ms, "2026-12-15")
	if err != nil || !m.Folded || len(m.Cases) != 2 {
		t.Fatalf("the folded meeting: %+v, %v", m, err)
	}
	if !m.Posted().IsZero() || len(m.Postings) != 0 {
		t.Errorf("a folded meeting with one of two items' notices posted reads as posted %v", m.Posted())
	}
}

// TestPhantomMeetingOfThePreviousRelease: in testdata/records/f4daafd-phantom.sql, dumped
// from the record made by main at f4daafd from the console script beside it, the
// sufficiency review of case 2026-001 was an item of meeting 2026-12-15, held, whose
// minutes were then approved and made public; a correction of the step's place afterwards
// took it out, leaving a phantom meeting "2026-12-15b" on the board and the real one with
// fewer items than its approved minutes, and verify said nothing. This release's verify
// names the meeting and the step; the clerk puts the step back where the meeting held it
// (a correction allowed because it mends the record), and the record verifies again.
func TestPhantomMeetingOfThePreviousRelease(t *testing.T) {
	db := apptest.PreviousRecord(t, "f4daafd-phantom")
	env := map[string]string{"ETHICSBOT_DB": db}
	const want = "BROKEN at the record: meeting 2026-12-15 no longer holds the sufficiency meeting of case 2026-001, " +
		"which it held when its minutes were approved, at Tue 12 Jan 2027 17:05 CST: its items differ from its approved " +
		"minutes"
	if code, out, errOut := runCLI(t, env, "", "verify"); code != 1 || !strings.Contains(out+errOut, want) {
		t.Fatalf("ethicsbot verify: exit %d\n%s%s\nwant %q", code, out, errOut, want)
	}
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	engine, st := apptest.MustOpenRecord(t, cfg)
	s := &commands.Service{Record: st, Engine: engine,
		Now: func() time.Time { return time.Date(2027, 1, 14, 16, 0, 0, 0, time.UTC) }}
	s.Configure(commands.Settings{Roles: commands.Roles{Commissioners: []string{"U_COMM1"}, Clerks: []string{"U_CLERK"}}})
	r := s.Handle(context.Background(), commands.Request{User: "U_CLERK", RequestID: "mend",
		Text: `correct 2026-001 place="City Hall, Room 201" meeting=sufficiency reason="Back where the meeting held it."`})
	if got := string(r.Messages[0].Text); !strings.Contains(got,
		`event 2 corrected: place "Council Chambers" → "City Hall, Room 201"`) {
		t.Fatalf("putting the step back: %s", got)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := runCLI(t, env, "", "verify"); code != 0 || !strings.Contains(out, "the chain is intact") {
		t.Errorf("ethicsbot verify after the step is put back: exit %d\n%s%s", code, out, errOut)
	}
}
