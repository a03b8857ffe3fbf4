package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ethicsbot/app/apptest"
	"ethicsbot/config"
	"ethicsbot/docket"
)

// TestMinutesCommand: `ethicsbot minutes MEETING --out DIR` writes the open and the closed
// minutes as PDF and Markdown, naming members as the configuration does, marked DRAFT
// until approved; it reads the record only; an unknown meeting writes nothing.
func TestMinutesCommand(t *testing.T) {
	env := apptest.WriteConfig(t, apptest.LettersConfig+`
commissioners:
  - {id: U_COMM1, name: Ann Alder, title: Chair}
  - {id: U_COMM2, name: Bob Birch}
clerk: [U_CLERK]
`)
	env["ETHICSBOT_DB"] = filepath.Join(t.TempDir(), "ethicsbot.db")
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	_, db := apptest.MustOpenRecord(t, cfg)
	loc, _ := time.LoadLocation("America/Chicago")
	at := func(s string) time.Time {
		tm, err := time.ParseInLocation("2006-01-02 15:04", s, loc)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	seated := []string{"U_COMM1", "U_COMM2"}
	vote := &docket.Vote{Seated: seated, Yes: seated, Quorum: 2, Carry: docket.MajorityOfVotesCast}
	for _, ch := range []struct {
		when string
		ch   docket.MeetingChange
	}{
		{"2026-12-04 09:00",
			docket.MeetingChange{Create: &docket.CreateMeeting{Name: "2026-12-15", Start: at("2026-12-15 17:00"),
				Place: "City Hall"},
				Actions: []docket.MeetingAction{docket.AddItem{Item: docket.BusinessItem,
					Text: "Evaluation of the executive director", Authority: "(c)(1)"}, docket.PostAgenda{}}}},
		{"2026-12-15 18:00", docket.MeetingChange{Meeting: "2026-12-15", Actions: []docket.MeetingAction{
			docket.Convene{Seated: seated, Quorum: 2, Present: seated, At: at("2026-12-15 17:05")},
			docket.EnterClosed{Item: 1, Vote: vote, At: at("2026-12-15 17:10"), Recorded: true},
			docket.ReturnToOpen{At: at("2026-12-15 17:20")},
			docket.Adjourn{At: at("2026-12-15 17:30")},
		}}},
	} {
		if _, err := db.ChangeMeeting(context.Background(), docket.Act{By: "U_CLERK", At: at(ch.when)}, ch.ch); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	before, err := os.ReadFile(env["ETHICSBOT_DB"])
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "out")
	code, out, errOut := runCLI(t, env, "", "minutes", "2026-12-15", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, f := range []string{"meeting-2026-12-15-minutes-open.pdf", "meeting-2026-12-15-minutes-open.md",
		"meeting-2026-12-15-minutes-closed.pdf", "meeting-2026-12-15-minutes-closed.md"} {
		if !strings.Contains(out, filepath.Join(dir, f)) {
			t.Errorf("%s not printed:\n%s", f, out)
		}
	}
	open, err := os.ReadFile(filepath.Join(dir, "meeting-2026-12-15-minutes-open.md"))
	if err != nil || !strings.Contains(string(open), "Ann Alder, Chair") || !strings.Contains(string(open), "DRAFT") {
		t.Errorf("the open minutes (%v):\n%s", err, open)
	}
	if text := apptest.PDFText(t, filepath.Join(dir, "meeting-2026-12-15-minutes-closed.pdf")); !strings.Contains(text,
		"CONFIDENTIAL") || !strings.Contains(text, "BobBirch") {
		t.Errorf("the closed minutes:\n%s", text)
	}
	if after, _ := os.ReadFile(env["ETHICSBOT_DB"]); string(after) != string(before) {
		t.Error("ethicsbot minutes changed the database")
	}
	if code, _, errOut := runCLI(t, env, "", "minutes", "2026-12-16", "--out", t.TempDir()); code == 0 ||
		!strings.Contains(errOut, "no meeting") {
		t.Errorf("an unknown meeting: exit %d, %s", code, errOut)
	}
}
