package bot_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"ethicsbot/bot"
	"ethicsbot/commands"
	"ethicsbot/letters"
)

// withLetters gives e's service letters with every address set, and files one case whose
// sufficiency meeting is scheduled, so it calls for the two (B) notices and the meeting's
// public notice.
func withLetters(t *testing.T, e *env, clerk string) {
	t.Helper()
	m, err := letters.New(letters.Config{Commission: letters.Addressee{Name: "Ethics Commission",
		Address: "City Hall\n100 Main Street"}}, e.app.Service.Engine.Cal.Location())
	if err != nil {
		t.Fatal(err)
	}
	e.app.Service.Letters = m
	ctx := context.Background()
	for _, text := range []string{
		`file respondent="Jane Roe" complainant="John Doe" section=103.10 received=2026-12-04T09:00 summary="Used city email to campaign." respondent_address="34 Oak Avenue | Springfield, IL 62703" complainant_address="12 Elm Street | Springfield, IL 62702"`,
		`schedule 2026-001 sufficiency 2026-12-08T17:00 place="City Hall, Room 201"`,
	} {
		resp := e.app.Service.Handle(ctx, commands.Request{User: clerk, Text: text})
		if len(resp.Messages) == 0 || strings.HasPrefix(string(resp.Messages[0].Text), "Not done") {
			t.Fatalf("%s: %+v", text, resp.Messages)
		}
	}
}

// TestLettersUpload is /ethics letters in Slack: each PDF is uploaded, then all are shared
// in the private docket channel in one files.completeUploadExternal, with a message that
// names each, and the reply lists what was produced.
func TestLettersUpload(t *testing.T) {
	e := newQuietEnv(t, nil)
	withLetters(t, e, "U2147483697")
	before := len(e.slack.wait(t, 0))
	e.app.Slash(context.Background(),
		slack.SlashCommand{Command: "/ethics", Text: "letters 2026-001", UserID: "U2147483697", ChannelID: "C_HERE",
			ResponseURL: "https://hooks.slack.com/commands/T1/1/abc"})
	e.app.Wait()
	calls := e.slack.wait(t, before+1)[before:]
	var got []string
	var reply string
	for _, c := range calls {
		switch c.Method {
		case "files.getUploadURLExternal":
			if !strings.HasPrefix(c.Fields["filename"].(string), "2026-001-") || c.Fields["length"] == "0" {
				t.Errorf("getUploadURLExternal %v", c.Fields)
			}
		case "upload":
			if c.Fields["pdf"] != true {
				t.Errorf("the upload is not a PDF: %v", c.Fields)
			}
		case "files.completeUploadExternal":
			var shared []slack.FileSummary
			json.Unmarshal([]byte(c.Fields["files"].(string)), &shared)
			note, _ := c.Fields["initial_comment"].(string)
			if c.Fields["channel_id"] != "C_DOCKET" || len(shared) != 3 || !strings.Contains(shared[0].Title, "Case 2026-001") {
				t.Errorf("completeUploadExternal %v", c.Fields)
			}
			for _, want := range []string{"Case 2026-001: 3 document(s), produced by <@U2147483697>:", "2026-001-respondent.pdf",
				"2026-001-complainant.pdf", "2026-001-notice_sufficiency.pdf"} {
				if !strings.Contains(note, want) {
					t.Errorf("the share's message lacks %q: %q", want, note)
				}
			}
		case "response_url":
			reply += c.Fields["text"].(string) + "\n"
			continue
		default:
			continue
		}
		got = append(got, c.Method)
	}
	step := "files.getUploadURLExternal upload "
	if g, want := strings.Join(got, " ")+" ", strings.Repeat(step, 3)+"files.completeUploadExternal "; g != want {
		t.Fatalf("calls %q, want %q", g, want)
	}
	for _, want := range []string{"3 document(s) produced", "2026-001-respondent.pdf", "(B)",
		"2026-001-notice_sufficiency.pdf", "(C)(1)", "Uploaded 3 file(s) to the docket channel"} {
		if !strings.Contains(reply, want) {
			t.Errorf("the reply lacks %q:\n%s", want, reply)
		}
	}

	t.Run("Refused", func(t *testing.T) {
		before := len(e.slack.wait(t, 0))
		e.app.Slash(context.Background(),
			slack.SlashCommand{Command: "/ethics", Text: "letters 2026-001 referral", UserID: "U2147483697", ChannelID: "C_HERE",
				ResponseURL: "https://hooks.slack.com/commands/T1/1/def"})
		e.app.Wait()
		calls := e.slack.wait(t, before+1)[before:]
		for _, c := range calls {
			if strings.HasPrefix(c.Method, "files.") || c.Method == "upload" {
				t.Fatalf("a refused request uploaded: %v", c)
			}
		}
		if text, _ := calls[len(calls)-1].Fields["text"].(string); !strings.Contains(text, "(rule (C)(3))") {
			t.Fatalf("reply %q", text)
		}
	})
	t.Run("UploadFails", func(t *testing.T) {
		e.slack.mu.Lock()
		e.slack.fail = map[string]string{"files.completeUploadExternal": "not_in_channel"}
		e.slack.mu.Unlock()
		defer func() { e.slack.mu.Lock(); e.slack.fail = nil; e.slack.mu.Unlock() }()
		before := len(e.slack.wait(t, 0))
		e.app.Slash(context.Background(),
			slack.SlashCommand{Command: "/ethics", Text: "letters 2026-001 complainant", UserID: "U2147483697",
				ChannelID: "C_HERE", ResponseURL: "https://hooks.slack.com/commands/T1/1/ghi"})
		e.app.Wait()
		calls := e.slack.wait(t, before+1)[before:]
		if text, _ := calls[len(calls)-1].Fields["text"].(string); !strings.Contains(text,
			"Not uploaded to the docket channel: 2026-001-complainant.pdf (not_in_channel). Nothing was shared there; try "+
				"`/ethics letters` again.") {
			t.Fatalf("reply %q", text)
		}
	})
}

// TestLettersRecused is /ethics letters by a commissioner recused from the case: nothing
// is produced, as /ethics case shows them nothing.
func TestLettersRecused(t *testing.T) {
	e := newQuietEnv(t, nil)
	withLetters(t, e, "U2147483697")
	ctx := context.Background()
	if r := e.app.Service.Handle(ctx,
		commands.Request{User: "U_COMM1",
			Text: `recuse 2026-001 reason="I know the respondent"`}); strings.HasPrefix(string(r.Messages[0].Text), "Not done") {
		t.Fatal(r.Messages[0].Text)
	}
	resp := e.app.Service.Handle(ctx, commands.Request{User: "U_COMM1", Text: "letters 2026-001"})
	if len(resp.Files) != 0 || !strings.Contains(string(resp.Messages[0].Text), "you are recused from case 2026-001") {
		t.Fatalf("%d files, %q", len(resp.Files), resp.Messages[0].Text)
	}
	if resp := e.app.Service.Handle(ctx,
		commands.Request{User: "U_ATTY", Text: "letters 2026-001"}); len(resp.Files) != 0 {
		t.Fatal("the attorney, who may only read, produced letters")
	}
}

// TestConsoleWritesLetters is /ethics letters in the console: the files are written to its
// folder and their paths printed.
func TestConsoleWritesLetters(t *testing.T) {
	e := newQuietEnv(t, nil)
	withLetters(t, e, "U2147483697")
	dir := filepath.Join(t.TempDir(), "letters")
	c := &bot.Console{Service: e.app.Service, Clock: bot.NewClock(time.Date(2026, 12, 4, 16, 30, 0, 0, time.UTC)),
		User: "U2147483697", Files: dir}
	var out bytes.Buffer
	c.Line(context.Background(), "/ethics letters 2026-001 respondent", &out)
	path := filepath.Join(dir, "2026-001-respondent.pdf")
	if !strings.Contains(out.String(), "[console] wrote "+path) {
		t.Fatalf("output:\n%s", out.String())
	}
	if b, err := os.ReadFile(path); err != nil || !bytes.HasPrefix(b, []byte("%PDF-")) {
		t.Fatalf("%s: %v", path, err)
	}
	out.Reset()
	c.Line(context.Background(), "/ethics letters 2026-001 final_officer", &out)
	if !strings.Contains(out.String(), "(rule (F))") || strings.Contains(out.String(), "wrote") {
		t.Fatalf("a refused request:\n%s", out.String())
	}
}

// TestReportUpload is /ethics report in Slack: the chart goes to the private docket
// channel as a PNG, and the reply is the report, saying where the chart went; a failed
// upload says to try /ethics report again.
func TestReportUpload(t *testing.T) {
	e := newQuietEnv(t, nil)
	withLetters(t, e, "U2147483697")
	slash := func(url string) (methods []string, reply string) {
		before := len(e.slack.wait(t, 0))
		e.app.Slash(context.Background(),
			slack.SlashCommand{Command: "/ethics", Text: "report 2026", UserID: "U2147483697", ChannelID: "C_HERE",
				ResponseURL: url})
		e.app.Wait()
		for _, c := range e.slack.wait(t, before+1)[before:] {
			methods = append(methods, c.Method)
			switch c.Method {
			case "files.getUploadURLExternal":
				// The chart is an image: it has alt text, its figures in words.
				if alt, _ := c.Fields["alt_txt"].(string); c.Fields["filename"] != "ethics-report-2026.png" ||
					!strings.HasPrefix(alt,
						"Two bar charts. Complaints received in 2026, by month and outcome: 1 complaint, 1 part.") ||
					len(alt) > commands.MaxAltText {
					t.Errorf("getUploadURLExternal %v", c.Fields)
				}
			case "upload":
				if c.Fields["pdf"] == true || c.Fields["bytes"].(int) < 1000 {
					t.Errorf("upload %v", c.Fields)
				}
			case "files.completeUploadExternal":
				if c.Fields["channel_id"] != "C_DOCKET" || !strings.Contains(c.Fields["files"].(string), "Annual report 2026") {
					t.Errorf("completeUploadExternal %v", c.Fields)
				}
			case "response_url":
				reply += c.Fields["text"].(string) + "\n"
			}
		}
		return methods, reply
	}
	methods, reply := slash("https://hooks.slack.com/commands/T1/1/rep")
	if got := strings.Join(methods, " "); !strings.Contains(got,
		"files.getUploadURLExternal upload files.completeUploadExternal") {
		t.Errorf("calls %q", got)
	}
	for _, want := range []string{"*Ethics Commission annual report, 2026*", "1 complaint received in 2026",
		"Uploaded 1 file(s) to the docket channel"} {
		if !strings.Contains(reply, want) {
			t.Errorf("the reply lacks %q:\n%s", want, reply)
		}
	}
	e.slack.mu.Lock()
	e.slack.fail = map[string]string{"files.completeUploadExternal": "not_in_channel"}
	e.slack.mu.Unlock()
	defer func() { e.slack.mu.Lock(); e.slack.fail = nil; e.slack.mu.Unlock() }()
	if _, reply := slash("https://hooks.slack.com/commands/T1/1/rep2"); !strings.Contains(reply,
		"Not uploaded to the docket channel: ethics-report-2026.png (not_in_channel). Nothing was shared there; try "+
			"`/ethics report` again.") {
		t.Errorf("reply %q", reply)
	}
}
