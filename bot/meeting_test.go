package bot_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"ethicsbot/bot"
	"ethicsbot/commands"
	"ethicsbot/docket"
	"ethicsbot/outbox"
)

// meetingScript is a meeting of the commission with three cases, regular business and a
// closed item (issue 19), from its creation to its adjournment, as a clerk types it.
const meetingScript = `:clock 2026-12-04T10:30:00-06:00
/ethics file respondent="Ann Roe" complainant="John Doe" section=103.10 received=2026-12-04T10:00 summary="Used city email to campaign."
/ethics file respondent="Bob Roe" complainant="John Doe" section=103.10 received=2026-12-04T10:05 summary="Used a city car."
/ethics file respondent="Cy Roe" complainant="John Doe" section=103.10 received=2026-12-04T10:10 summary="Used city paper."
/ethics meeting 2026-12-15T17:00 place="City Hall, Room 201"
/ethics schedule 2026-001 sufficiency meeting=2026-12-15
/ethics schedule 2026-002 sufficiency meeting=2026-12-15
/ethics schedule 2026-003 sufficiency 2026-12-15T17:00 place="City Hall, Room 201"
/ethics agenda 2026-12-15 add item=minutes 2026-11-10
/ethics agenda 2026-12-15 add "Evaluation of the executive director" closed="5 ILCS 120/2(c)(1)"
/ethics posted 2026-12-15
/ethics mail 2026-001 respondent 9407 1118 9876 5432 1016 34
/ethics mail 2026-001 complainant 9407 1118 9876 5432 1015 35
:clock 2026-12-15T17:02:00-06:00
/ethics convene 2026-12-15 present=U_COMM1,U_COMM2 absent=U_COMM3
/ethics session 2026-12-15 close 5
:as U_COMM1
/ethics rule 2026-001 insufficient
:as U_CLERK
/ethics session 2026-12-15 open
:as U_COMM1
/ethics rule 2026-001 insufficient
:as U_CLERK
/ethics adjourn 2026-12-15
/ethics meetings
`

// TestConsoleMeetingOfThreeCases: in the console, a meeting with three cases, regular
// business and a closed item has one public notice, posted once; the ruling in closed
// session is refused citing 2(e), and taken after the return with the roll defaulting to
// the members present.
func TestConsoleMeetingOfThreeCases(t *testing.T) {
	e := newQuietEnv(t, nil)
	svc := e.app.Service
	reconfigure(svc, func(st *commands.Settings) {
		st.Roles.Clerks, st.Roles.Commissioners = []string{"U_CLERK"}, []string{"U_COMM1", "U_COMM2", "U_COMM3"}
		st.Channels = commands.Channels{Docket: "#ethics-docket", Notices: "#ethics-notices"}
	})
	clock := bot.NewClock(time.Date(2026, 12, 2, 15, 0, 0, 0, time.UTC))
	svc.Now = clock.Now
	c := &bot.Console{Service: svc, Clock: clock, User: "U_CLERK", Deliver: bot.Printing(&outbox.Deliverer{Store: e.db})}
	var out bytes.Buffer
	if err := c.Run(context.Background(), strings.NewReader(meetingScript), &out); err != nil {
		t.Fatal(err)
	}
	var notices []string
	for _, l := range strings.Split(out.String(), "\n") {
		// The meeting notices; the dismissal's public notice (C)(2) follows the ruling.
		if strings.HasPrefix(l, "[#ethics-notices] ") && !strings.Contains(l, "has dismissed case 2026-001") {
			notices = append(notices, l)
		}
	}
	if len(notices) != 1 || !strings.Contains(notices[0], "PUBLIC NOTICE. Ethics Commission, regular meeting on Tue 15 Dec 2026 at 17:00 CST at City Hall, Room 201. Agenda: 1. Review of the sufficiency of complaint 2026-001") ||
		!strings.Contains(notices[0], "5. Evaluation of the executive director (closed session, 5 ILCS 120/2(c)(1))") {
		t.Errorf("public notices, want the meeting's one:\n%s", strings.Join(notices, "\n"))
	}
	for _, want := range []string{
		"[ephemeral] Meeting *2026-12-15*: notice and agenda posted Fri 4 Dec 2026 10:30 CST, for all 5 items.",
		"Present: <@U_COMM1>, <@U_COMM2>. Absent: <@U_COMM3>. A quorum is present.",
		"closed session entered for item 5 by roll call, adopted 2–0, 1 absent",
		"may not be taken in closed session",
		"5 ILCS 120/2(e)",
		"returned to open session",
		"By roll call: adopted 2–0, 1 absent.",
		"adjourned at Tue 15 Dec 2026 17:02 CST",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the console lacks %q:\n%s", want, out.String())
		}
	}
	if r, err := e.db.Verify(context.Background()); err != nil || r.Broken != nil {
		t.Errorf("verify: %v %v", r.Broken, err)
	}
}

// TestHTTPMeetingOfThreeCases: over HTTP, the same meeting's joins and posting reach the
// public channel as one message.
func TestHTTPMeetingOfThreeCases(t *testing.T) {
	e := newEnv(t)
	h := (&bot.HTTP{App: e.app, Secret: secret, Now: time.Now, DB: e.db}).Handler()
	lines := []string{}
	for _, l := range strings.Split(meetingScript, "\n") {
		if strings.HasPrefix(l, "/ethics ") && !strings.HasPrefix(l, "/ethics mail ") && !strings.HasPrefix(l, "/ethics convene") {
			lines = append(lines, strings.TrimPrefix(l, "/ethics "))
		}
		if strings.HasPrefix(l, ":clock 2026-12-15") {
			break
		}
	}
	for i, text := range lines {
		w := post(t, h, "/slack/commands", slashBody(t, e.slack, text, fmt.Sprintf("trig-%d", i)), time.Now(), "")
		if w.Code != http.StatusOK {
			t.Fatalf("%s: %d", text, w.Code)
		}
		if reply := replyOf(t, w.Body.Bytes()); strings.Contains(reply, "Not done") {
			t.Fatalf("%s: %s", text, reply)
		}
		e.app.Wait()
	}
	e.settle(t)
	var notices []string
	for _, c := range e.slack.wait(t, 1) {
		if c.Method == "chat.postMessage" && c.Fields["channel"] == "C_NOTICES" {
			notices = append(notices, fmt.Sprint(c.Fields["text"]))
		}
	}
	if len(notices) != 1 || !strings.Contains(notices[0], "regular meeting on Tue 15 Dec 2026") || !strings.Contains(notices[0], "2026-003") {
		t.Errorf("the public channel got %d messages, want the meeting's one notice: %q", len(notices), notices)
	}
	ms, err := e.db.Meetings(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if m, err := docket.FindMeeting(ms, "2026-12-15"); err != nil || len(m.Agenda()) != 5 || m.Posted().IsZero() {
		t.Errorf("the meeting over HTTP: %+v, %v", m, err)
	}
}
