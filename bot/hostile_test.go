package bot_test

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"ethicsbot/bot"
)

// TestHostileInput sends hostile requests through the HTTP endpoints. Each gets a clear
// answer, none changes the record, and the forged ones post nothing at all.
func TestHostileInput(t *testing.T) {
	e := newEnv(t)
	h := (&bot.HTTP{App: e.app, Secret: secret, Now: time.Now, DB: e.db}).Handler()
	// One real case, so that "unknown case" and "case from another year" are real tests.
	good := slashBody(t, e.slack,
		`file respondent="Jane Roe" complainant="John Doe" section=103.10 received=2026-12-04T10:00 summary="x"`, "setup")
	post(t, h, "/slack/commands", good, time.Now(), "")
	e.app.Wait()
	e.settle(t)
	eventsBefore, _ := e.db.Events(context.Background(), "2026-001")
	slash := func(text string) []byte { return slashBody(t, e.slack, text, "t-"+strconv.Itoa(len(text))) }
	old := time.Now().Add(-10 * time.Minute)
	for _, tc := range []struct {
		name   string
		path   string
		body   []byte
		ts     time.Time
		sig    string // "" signs correctly
		status int
		reply  string // what the reply to the user must say, for signed requests
	}{
		{"ForgedSignature", "/slack/commands", good, time.Now(), "v0=" + strings.Repeat("0", 64), 401, ""},
		{"SignedWithAnotherSecret", "/slack/commands", good, time.Now(), sign("guess", time.Now().Unix(), good), 401, ""},
		{"StaleTimestamp", "/slack/commands", good, old, sign(secret, old.Unix(), good), 401, ""},
		{"ReplayedBodyNewTimestamp", "/slack/commands", good, time.Now(), sign(secret, old.Unix(), good), 401, ""},
		{"Oversized", "/slack/commands", bytes.Repeat([]byte("x"), 300<<10), time.Now(), "", 413, ""},
		{"ForgedInteraction", "/slack/interactivity", []byte("payload=%7B%7D"), time.Now(), "v0=bad", 401, ""},
		{"ForgedEvent", "/slack/events", []byte(`{"type":"url_verification","challenge":"x"}`), time.Now(),
			"v0=bad", 401, ""},
		{"NotAForm", "/slack/commands", []byte("%%%"), time.Now(), "", 400, ""},
		{"NotAPayload", "/slack/interactivity", []byte("payload=not-json"), time.Now(), "", 400, ""},
		{"InvalidUTF8", "/slack/commands",
			slash("file respondent=\"\xff\xfe\" complainant=\"x\" section=103.10 summary=\"x\""), time.Now(), "", 200,
			"not valid UTF-8"},
		{"SQLInName", "/slack/commands", slash(`case 2026-001'; DROP TABLE cases;--`), time.Now(), "", 200,
			"is not a case number"},
		{"LongSummary", "/slack/commands",
			slash(`file respondent="A" complainant="B" section=103.10 summary="` + strings.Repeat("s", 10000) + `"`), time.Now(),
			"", 200, "limit is"},
		{"UnknownCase", "/slack/commands", slash("case 2026-999"), time.Now(), "", 200, "there is no case 2026-999"},
		{"CaseFromAnotherYear", "/slack/commands", slash("case 2025-001"), time.Now(), "", 200, "there is no case 2025-001"},
		{"ControlCharacters", "/slack/commands",
			slash("file respondent=\"A\x07\" complainant=\"B\" section=103.10 summary=\"x\""), time.Now(), "", 200,
			"control character"},
		{"ImpossibleDate", "/slack/commands", slash(`schedule 2026-001 sufficiency 2026-02-30T10:00 place="x"`), time.Now(),
			"", 200, "is not a date and time"},
		{"FineOutOfRange", "/slack/commands", slash(`decide 2026-001 fine fine=999999999999999999999`), time.Now(), "", 200,
			"Only commissioners"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls := e.slack.count()
			w := post(t, h, tc.path, tc.body, tc.ts, tc.sig)
			e.app.Wait()
			if w.Code != tc.status {
				t.Errorf("status %d, want %d", w.Code, tc.status)
			}
			if tc.status != 200 {
				if n := e.slack.count(); n != calls {
					t.Errorf("a rejected request made %d Slack calls", n-calls)
				}
				if tc.status == 401 && !strings.Contains(w.Body.String(), "invalid signature") {
					t.Errorf("body %q", w.Body.String())
				}
			}
			if tc.reply != "" {
				if text := replyOf(t, w.Body.Bytes()); !strings.Contains(text, tc.reply) {
					t.Errorf("reply %q, want %q", text, tc.reply)
				}
			}
			if all, _ := e.db.AllCases(context.Background()); len(all) != 1 {
				t.Fatalf("%d cases: hostile input changed the record", len(all))
			}
			if evs, _ := e.db.Events(context.Background(), "2026-001"); len(evs) != len(eventsBefore) {
				t.Fatalf("hostile input added events")
			}
		})
	}
}
