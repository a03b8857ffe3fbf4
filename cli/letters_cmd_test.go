package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ethicsbot/app/apptest"
	"ethicsbot/config"
	"ethicsbot/docket"
)

// twoCases returns an environment whose record holds two cases with different parties,
// complaints and article numbers, each with its sufficiency meeting scheduled and its
// respondent's notice mailed.
func twoCases(t *testing.T) map[string]string {
	t.Helper()
	env := apptest.WriteConfig(t, apptest.LettersConfig)
	env["ETHICSBOT_DB"] = filepath.Join(t.TempDir(), "ethicsbot.db")
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	_, db := apptest.MustOpenRecord(t, cfg)
	defer db.Close()
	ctx := context.Background()
	at := time.Date(2026, 12, 4, 16, 0, 0, 0, time.UTC)
	for i, p := range []struct{ respondent, complainant, summary, place, article string }{
		{"Olga Secretive", "Quentin Hidden", "Accepted a gift from Acme Paving.", "Annex Basement", "94071118987654321699"},
		{"Jane Roe", "John Doe", "Used city email to campaign.", "City Hall, Room 201", "94071118987654321712"},
	} {
		res, err := db.File(ctx, docket.Act{By: "U_CLERK", At: at},
			docket.File{Complainant: docket.Person{Name: p.complainant, Address: "12 Elm Street\nSpringfield, IL 62702"},
				Respondent: docket.Person{Name: p.respondent, Address: "34 Oak Avenue\nSpringfield, IL 62703"},
				Sections:   []string{"103.10"}, Received: at, Summary: p.summary})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Apply(ctx, docket.Act{By: "U_CLERK", At: at}, res.Case.Number,
			docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: at.Add(time.Duration(72+i) * time.Hour),
				Place: p.place},
			docket.RecordMailing{Recipient: docket.Respondent, Article: p.article}); err != nil {
			t.Fatal(err)
		}
	}
	return env
}

func TestLettersCommand(t *testing.T) {
	env := twoCases(t)
	dir := filepath.Join(t.TempDir(), "out")
	code, out, errOut := runCLI(t, env, "", "letters", "2026-002", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.pdf"))
	if got, want := len(files), 3; got != want || strings.Count(out, "\n") != want {
		t.Fatalf("%d files, want %d (respondent, complainant, notice_sufficiency); stdout:\n%s", got, want, out)
	}
	for _, f := range files {
		if !strings.HasPrefix(filepath.Base(f), "2026-002-") || !strings.Contains(out, f) {
			t.Errorf("%s: not named for the case, or not printed:\n%s", f, out)
		}
		text := apptest.PDFText(t, f)
		// Nothing of the other case may be in a letter of this one.
		for _, other := range []string{"2026-001", "Olga", "Secretive", "Quentin", "Hidden", "Acme", "Annex", "99"} {
			if strings.Contains(text, other) {
				t.Errorf("%s holds %q of the other case:\n%s", f, other, text)
			}
		}
		wants := []string{"Case2026-002", "EthicsCommissionofSpringfield", "Springfield,IL62701", "CityHall,Room201"}
		if strings.HasSuffix(f, "-notice_sufficiency.pdf") {
			// The case's notice is its meeting's one agenda, dated by its
			// posting (here not yet posted: a draft), not a notice of the case alone.
			wants = []string{"AGENDA", "complaint2026-002", "Agendaofthemeetingof2026-12-07b", "thisagendaisnotyetposted",
				"EthicsCommissionofSpringfield", "CityHall,Room201"}
		}
		for _, want := range wants {
			if !strings.Contains(text, want) {
				t.Errorf("%s lacks %q:\n%s", f, want, text)
			}
		}
	}
	// A meeting, named by its date: its one agenda, as /ethics letters <meeting> draws it.
	meetingDir := filepath.Join(t.TempDir(), "meeting")
	if code, out, errOut := runCLI(t, env, "", "letters", "2026-12-07b", "--out", meetingDir); code != 0 {
		t.Errorf("letters 2026-12-07b: exit %d: %s%s", code, out, errOut)
	} else if text := apptest.PDFText(t, filepath.Join(meetingDir, "meeting-2026-12-07b-agenda.pdf")); !strings.Contains(text,
		"AGENDA") ||
		!strings.Contains(text, "complaint2026-002") {
		t.Errorf("the meeting's agenda:\n%s", text)
	}
	if text := apptest.PDFText(t, filepath.Join(dir, "2026-002-respondent.pdf")); !strings.Contains(text, "JaneRoe") ||
		!strings.Contains(text, "Usedcityemailtocampaign.") ||
		!strings.Contains(text, "94071118987654321712") || !strings.Contains(text, "(B)") {
		t.Errorf("the respondent's notice lacks its facts:\n%s", text)
	}

	// A paper whose mailing kept its letter is written as that copy, byte for
	// byte; one mailed without a copy kept is a re-print that says so, not a draft.
	t.Run("AsSent", func(t *testing.T) {
		cfg, err := config.Load(func(k string) string { return env[k] })
		if err != nil {
			t.Fatal(err)
		}
		_, db := apptest.MustOpenRecord(t, cfg)
		sent := []byte("%PDF-1.4\nthe confirmation as it went out\n%%EOF\n")
		sum := sha256.Sum256(sent)
		at := time.Date(2026, 12, 4, 17, 0, 0, 0, time.UTC)
		act := docket.RecordMailing{Paper: docket.ComplainantConfirmPaper, Article: "94071118987654321729",
			Letter: &docket.SentLetter{SHA256: hex.EncodeToString(sum[:]), Size: int64(len(sent)),
				Dated: docket.NewDate(2026, 12, 4), PDF: sent}}
		if _, err := db.Apply(context.Background(), docket.Act{By: "U_CLERK", At: at}, "2026-002", act); err != nil {
			t.Fatal(err)
		}
		db.Close()
		dir := t.TempDir()
		code, out, errOut := runCLI(t, env, "", "letters", "2026-002", "--out", dir)
		if code != 0 || !strings.Contains(out, "2026-002-complainant.pdf\tcomplainant\t(B)\tas sent 2026-12-04") ||
			!strings.Contains(out,
				"2026-002-respondent.pdf\trespondent\t(B)\tre-print: mailed 2026-12-04, no copy kept at mailing") {
			t.Fatalf("exit %d, %q %q", code, out, errOut)
		}
		if got, _ := os.ReadFile(filepath.Join(dir, "2026-002-complainant.pdf")); !bytes.Equal(got, sent) {
			t.Errorf("the letter as sent was not written byte for byte: %q", got)
		}

		// Without the letters' configuration, the copy as sent, which needs none, is still
		// written; each letter that cannot be made is named, and the exit status says so.
		bare := map[string]string{"ETHICSBOT_DB": env["ETHICSBOT_DB"]}
		for k, v := range apptest.WriteConfig(t, "") {
			bare[k] = v
		}
		dir = t.TempDir()
		code, out, errOut = runCLI(t, bare, "", "letters", "2026-002", "--out", dir)
		if code != 2 || !strings.Contains(out, "2026-002-complainant.pdf\tcomplainant\t(B)\tas sent") ||
			strings.Count(out, "\n") != 1 ||
			!strings.Contains(errOut, "respondent (B) not produced: letters.commission.address: is not set") ||
			!strings.Contains(errOut, "notice_sufficiency (C)(1) not produced") {
			t.Fatalf("without the letters' configuration: exit %d, %q %q", code, out, errOut)
		}
		if got, _ := os.ReadFile(filepath.Join(dir, "2026-002-complainant.pdf")); !bytes.Equal(got, sent) {
			t.Errorf("the letter as sent was not written without the configuration: %q", got)
		}
	})

	t.Run("Only", func(t *testing.T) {
		dir := t.TempDir()
		code, out, errOut := runCLI(t, env, "", "letters", "--only", "complainant", "--out", dir, "2026-001")
		if code != 0 || strings.Count(out, "\n") != 1 || !strings.Contains(out, "2026-001-complainant.pdf") {
			t.Fatalf("exit %d, %q %q", code, out, errOut)
		}
	})
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"UnknownKind", []string{"letters", "2026-001", "--only", "summons"}, 2, `there is no document "summons"`},
		{"NotYet", []string{"letters", "2026-001", "--only", "ruling_respondent"}, 2, "(rule (C)(1))"},
		{"UnknownCase", []string{"letters", "2026-077"}, 2, "2026-077"},
		{"NoCase", []string{"letters"}, 2, "give the case number"},
		{"TwoCases", []string{"letters", "2026-001", "2026-002"}, 2, "unexpected argument"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			code, out, errOut := runCLI(t, env, "", append(tc.args, "--out", dir)...)
			if code != tc.code || out != "" || !strings.Contains(errOut, tc.want) {
				t.Fatalf("exit %d, stdout %q, stderr %q; want exit %d and %q", code, out, errOut, tc.code, tc.want)
			}
			if _, err := os.Stat(dir); err == nil {
				t.Fatal("a refused command wrote its folder")
			}
		})
	}
	t.Run("NoAddress", func(t *testing.T) {
		env := map[string]string{"ETHICSBOT_DB": env["ETHICSBOT_DB"]}
		for k, v := range apptest.WriteConfig(t, "") {
			env[k] = v
		}
		code, _, errOut := runCLI(t, env, "", "letters", "2026-001", "--out", t.TempDir())
		if code != 2 || !strings.Contains(errOut, "letters.commission.address: is not set") {
			t.Fatalf("exit %d, %q", code, errOut)
		}
	})
}

func TestLettersConfig(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "respondant.tmpl"), []byte("x"), 0o644)
	_, err := config.Parse([]byte("letters:\n  templates: " + dir + "\n"))
	if err == nil || !strings.Contains(err.Error(), "line 2:") ||
		!strings.Contains(err.Error(), "respondant.tmpl is not the name of a template") {
		t.Fatalf("err = %v", err)
	}
	cfg, err := config.Parse([]byte(apptest.LettersConfig + "  out: papers\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := cfg.Letters.Commission.Address, "City Hall, Room 201\nSpringfield, IL 62701"; got != want {
		t.Errorf("address %q, want %q", got, want)
	}
	if cfg.Letters.Officer.Title != "Mayor" || cfg.Letters.Attorney.Name != "Lionel Hutz" ||
		cfg.LettersFolder() != "papers" {
		t.Errorf("letters config %+v, out %q", cfg.Letters, cfg.LettersFolder())
	}
	if _, err := config.Parse([]byte("letters:\n  oficer: {name: x}\n")); err == nil ||
		!strings.Contains(err.Error(), "line 2") {
		t.Errorf("a misspelt key: err = %v", err)
	}
}
