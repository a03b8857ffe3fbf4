package bot_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"ethicsbot/bot"
	"ethicsbot/commands"
	"ethicsbot/outbox"
)

// The channels and the clerk of the refusal tests: ids Slack could give, so that messages
// link to them.
const (
	docketID  = "C0DOCKET1"
	noticesID = "C0NOTICE1"
	clerkID   = "U2147483697"
)

// refusalEnv is a bot whose outbox is drained by the test, at the times it chooses, with
// /healthz reading the same clock.
type refusalEnv struct {
	*env
	d      *outbox.Deliverer
	health *bot.Health
	now    time.Time
}

func newRefusalEnv(t *testing.T) *refusalEnv {
	t.Helper()
	e := newQuietEnv(t, nil)
	reconfigure(e.app.Service,
		func(st *commands.Settings) { st.Channels = commands.Channels{Docket: docketID, Notices: noticesID} })
	d := e.app.Outbox.(*outbox.Deliverer)
	d.Alert = []outbox.Dest{{User: clerkID}}
	d.Zone = e.app.Service.Engine.Cal.Location()
	r := &refusalEnv{env: e, d: d, now: e.now}
	r.health = &bot.Health{DB: e.db, Now: func() time.Time { return r.now }}
	r.health.SetDelivery(d)
	return r
}

// setFail makes chat.postMessage to channel answer code ("" answers ok again).
func (e *refusalEnv) setFail(channel, code string) {
	e.slack.mu.Lock()
	defer e.slack.mu.Unlock()
	if e.slack.failTo == nil {
		e.slack.failTo = map[string]string{}
	}
	if code == "" {
		delete(e.slack.failTo, channel)
	} else {
		e.slack.failTo[channel] = code
	}
}

// drain drains the outbox at the test's clock, moved on by step.
func (e *refusalEnv) drain(t *testing.T, step time.Duration) {
	t.Helper()
	e.now = e.now.Add(step)
	if _, err := e.d.Drain(context.Background(), e.now); err != nil {
		t.Fatal(err)
	}
}

// posts are the texts of the chat.postMessage calls to channel so far.
func (e *refusalEnv) posts(channel string) []string {
	e.slack.mu.Lock()
	defer e.slack.mu.Unlock()
	var texts []string
	for _, c := range e.slack.calls {
		if c.Method == "chat.postMessage" && c.Fields["channel"] == channel {
			texts = append(texts, fmt.Sprint(c.Fields["text"]))
		}
	}
	return texts
}

// healthz is /healthz's status and body at the test's clock.
func (e *refusalEnv) healthz(t *testing.T) (int, map[string]string) {
	t.Helper()
	rec := httptest.NewRecorder()
	e.health.Site(nil).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/healthz", nil))
	var body map[string]string
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatalf("healthz %d %s: %v", rec.Code, rec.Body.String(), err)
	}
	return rec.Code, body
}

// do runs an /ethics command as the clerk and returns its reply.
func (e *refusalEnv) do(t *testing.T, text string) string {
	t.Helper()
	r := e.app.Service.Handle(context.Background(), commands.Request{User: clerkID, Text: text})
	var all []string
	for _, m := range r.Messages {
		all = append(all, string(m.Text))
	}
	return strings.Join(all, "\n")
}

// TestNoticesChannelNotInChannel: ethicsbot was removed from the notices channel. The
// public notice is refused with not_in_channel; the clerk gets one direct message naming
// the notice, the case and what to do; the notice is not retried in a tight loop; the card
// and the App Home tab mark it undelivered; /healthz says degraded once it has waited
// past the threshold; and once ethicsbot is invited back, the notice goes exactly once.
func TestNoticesChannelNotInChannel(t *testing.T) {
	e := newRefusalEnv(t)
	if got := e.do(t,
		`file respondent="Jane Roe" complainant="John Doe" section=103.10 received=2026-12-04T10:00 summary="Used city email."`); !strings.Contains(got, "Filed") {
		t.Fatalf("file: %s", got)
	}
	if got := e.do(t, `schedule 2026-001 sufficiency 2026-12-10T17:00 place="City Hall"`); !strings.Contains(got,
		"scheduled") {
		t.Fatalf("schedule: %s", got)
	}
	e.setFail(noticesID, "not_in_channel")
	e.drain(t, 0)

	dms := e.posts(clerkID)
	if len(dms) != 1 {
		t.Fatalf("the clerk got %d direct messages, want 1: %q", len(dms), dms)
	}
	for _, want := range []string{"Not delivered", "<#" + noticesID + ">", "case 2026-001", "`not_in_channel`",
		"invite @ethicsbot to <#" + noticesID + ">", "PUBLIC NOTICE"} {
		if !strings.Contains(dms[0], want) {
			t.Errorf("the clerk's direct message lacks %q:\n%s", want, dms[0])
		}
	}
	if docket := e.posts(docketID); len(docket) != 3 {
		t.Errorf("the docket channel got %d posts, want the case's card and, in its thread, the filing's and the "+
			"scheduling's lines: one channel's refusal holds back no other", len(docket))
	}

	t.Run("NotRetriedInATightLoop", func(t *testing.T) {
		for range 4 {
			e.drain(t, time.Minute) // Run drains every 30 s and at every kick
		}
		if tries := e.posts(noticesID); len(tries) != 1 {
			t.Errorf("the refused notice was tried %d times in 4 minutes, want 1", len(tries))
		}
		e.drain(t, 2*time.Minute) // past DefaultRefusedRetry: tried once more, still refused
		if tries := e.posts(noticesID); len(tries) != 2 {
			t.Errorf("the refused notice was tried %d times in 6 minutes, want 2", len(tries))
		}
		if dms := e.posts(clerkID); len(dms) != 1 {
			t.Errorf("the clerk got %d direct messages after a second refusal, want still 1", len(dms))
		}
	})

	t.Run("ARestartTellsTheClerkNoMore", func(t *testing.T) {
		// A new process tries at once what the last one was holding back, and is refused
		// again; the direct message is keyed in the outbox, so it is not said again.
		restarted := &outbox.Deliverer{Store: e.db, Sender: e.d.Sender, Alert: e.d.Alert, Zone: e.d.Zone, Log: e.d.Log}
		if _, err := restarted.Drain(context.Background(), e.now); err != nil {
			t.Fatal(err)
		}
		if tries := e.posts(noticesID); len(tries) != 3 {
			t.Errorf("after a restart the notice was tried %d times in all, want 3: at each start, it is "+
				"tried at once", len(tries))
		}
		if dms := e.posts(clerkID); len(dms) != 1 {
			t.Errorf("after a restart the clerk got %d direct messages, want still 1", len(dms))
		}
	})

	t.Run("CardAndHomeMarkItUndelivered", func(t *testing.T) {
		card := e.do(t, "case 2026-001")
		if !strings.Contains(card, "*Undelivered:* a message to <#"+noticesID+">") ||
			!strings.Contains(card, "not_in_channel") {
			t.Errorf("the card does not mark the notice undelivered:\n%s", card)
		}
		var home []string
		for _, b := range e.app.Service.HomeBlocks(context.Background(), clerkID) {
			if sec, ok := b.(*slack.SectionBlock); ok {
				home = append(home, sec.Text.Text)
			}
		}
		if all := strings.Join(home, "\n"); !strings.Contains(all, "Not delivered yet (1)") ||
			!strings.Contains(all, "case 2026-001: :warning: *Undelivered:*") {
			t.Errorf("the Home tab does not mark the notice undelivered:\n%s", all)
		}
	})

	t.Run("HealthzDegradedPastTheThreshold", func(t *testing.T) {
		code, body := e.healthz(t) // 6 minutes
		if code != 200 || body["status"] != "ok" || body["undelivered"] != "1" || body["oldest_undelivered"] != "6m0s" ||
			!strings.Contains(body["last_slack_error"], "not_in_channel") {
			t.Errorf("healthz after 6 minutes: %d %v, want ok with 1 undelivered for 6m0s and the last error", code, body)
		}
		e.now = e.now.Add(10 * time.Minute)
		code, body = e.healthz(t) // 16 minutes
		if code != 200 || body["status"] != "degraded" || body["oldest_undelivered"] != "16m0s" ||
			!strings.Contains(body["reason"], "the oldest undelivered message has waited 16 minutes, longer than 15 minutes") {
			t.Errorf("healthz after 16 minutes: %d %v, want 200 degraded with the age", code, body)
		}
	})

	t.Run("InvitedBackItGoesOnce", func(t *testing.T) {
		e.drain(t, 0) // the slow retry is due: refused a third time
		refused := len(e.posts(noticesID))
		e.setFail(noticesID, "")
		e.drain(t, time.Second)
		if n := len(e.posts(noticesID)); n != refused {
			t.Fatalf("a refused channel was tried again %d times before its slow retry", n-refused)
		}
		// Slack tells ethicsbot it joined the channel: what was refused is tried at once,
		// not at the next slow retry.
		h := (&bot.HTTP{App: e.app, Secret: secret, Now: time.Now, DB: e.db}).Handler()
		ev := `{"type":"event_callback","event":{"type":"member_joined_channel","user":"UBOT","channel":"` + noticesID + `","channel_type":"C"}}`
		if w := post(t, h, "/slack/events", []byte(ev), time.Now(), ""); w.Code != 200 {
			t.Fatalf("event: %d", w.Code)
		}
		e.drain(t, 0)
		if n := len(e.posts(noticesID)); n != refused+1 {
			t.Errorf("after the invitation, %d posts to the notices channel, want the notice at once", n-refused)
		}
		for range 3 {
			e.drain(t, 10*time.Minute)
		}
		tries := e.posts(noticesID)
		if taken := len(tries) - refused; refused != 4 || taken != 1 ||
			!strings.HasPrefix(tries[len(tries)-1], "PUBLIC NOTICE") {
			t.Errorf("after %d refusals and the invitation, Slack took %d posts to the notices channel, want the "+
				"notice once: %q", refused, taken, tries)
		}
		if card := e.do(t, "case 2026-001"); strings.Contains(card, "Undelivered") {
			t.Errorf("the card still marks a delivered notice undelivered:\n%s", card)
		}
		if code, body := e.healthz(t); code != 200 || body["status"] != "ok" || body["undelivered"] != "0" {
			t.Errorf("healthz once delivered: %d %v", code, body)
		}
		if dms := e.posts(clerkID); len(dms) != 1 {
			t.Errorf("the clerk got %d direct messages, want 1", len(dms))
		}
	})
}

// TestTokenRevoked: Slack answers token_revoked. No direct message is tried (none could
// go), nothing is retried until the slow retry, and /healthz fails, 503, degraded with the
// code: nothing can be said in Slack until a person renews the token.
func TestTokenRevoked(t *testing.T) {
	e := newRefusalEnv(t)
	e.do(t,
		`file respondent="Jane Roe" complainant="John Doe" section=103.10 received=2026-12-04T10:00 summary="Used city email."`)
	e.do(t,
		`file respondent="Richard Roe" complainant="John Doe" section=103.10 received=2026-12-04T10:00 summary="Used city car."`)
	e.slack.mu.Lock()
	e.slack.fail = map[string]string{"chat.postMessage": "token_revoked"}
	e.slack.mu.Unlock()
	e.drain(t, 0)
	e.drain(t, time.Minute)
	if n := e.slack.count(); n != 1 {
		t.Errorf("%d calls to Slack with the token refused, want the one that found it out", n)
	}
	code, body := e.healthz(t)
	if code != http.StatusServiceUnavailable || body["status"] != "degraded" || body["slack"] != "refused" ||
		!strings.Contains(body["reason"], "Slack refuses the bot token (token_revoked") ||
		!strings.Contains(body["last_slack_error"], "token_revoked") ||
		body["undelivered"] != "6" { // each case's card, its line and the card's update
		t.Errorf("healthz with the token revoked: %d %v", code, body)
	}
	e.slack.mu.Lock()
	e.slack.fail = nil
	e.slack.mu.Unlock()
	e.drain(t, 5*time.Minute)
	if code, body := e.healthz(t); code != 200 || body["status"] != "ok" || body["undelivered"] != "0" {
		t.Errorf("healthz with the token renewed: %d %v", code, body)
	}
}

// fullDisk is a store whose writes fail as on a full disk.
type fullDisk struct{ bot.Pinger }

func (fullDisk) WriteHealth() string { return "full" }

// TestHealthzWritesFail: while writes fail, /healthz answers 503, degraded, saying so.
func TestHealthzWritesFail(t *testing.T) {
	e := newRefusalEnv(t)
	for _, c := range []struct {
		name string
		db   bot.Pinger
		code int
	}{{"Working", e.db, 200}, {"Full", fullDisk{e.db}, 503}} {
		t.Run(c.name, func(t *testing.T) {
			e.health.DB = c.db
			code, body := e.healthz(t)
			if code != c.code {
				t.Errorf("healthz: %d %v, want %d", code, body, c.code)
			}
			if c.code == 503 &&
				(body["status"] != "degraded" || body["writes"] != "full" ||
					!strings.Contains(body["reason"], "writes to the database fail (full)")) {
				t.Errorf("healthz with writes failing: %v", body)
			}
			if c.code == 200 && (body["status"] != "ok" || body["writes"] != "ok") {
				t.Errorf("healthz with writes working: %v", body)
			}
		})
	}
}

// TestStartChecksTheChannels: at start, ethicsbot asks Slack about both channels. One it
// is not a member of, or one that is archived, is logged and told to the clerk by direct
// message with what to do, once a day however often ethicsbot restarts; a channel that is
// fine is logged as such.
func TestStartChecksTheChannels(t *testing.T) {
	e := newRefusalEnv(t)
	channels := []bot.Channel{{Setting: "channels.docket", ID: docketID}, {Setting: "channels.notices", ID: noticesID}}
	check := func(docket, notices string) ([]bot.ChannelProblem, string) {
		e.slack.mu.Lock()
		e.slack.channels = map[string]string{docketID: docket, noticesID: notices}
		e.slack.mu.Unlock()
		var log strings.Builder
		return bot.CheckChannels(context.Background(), e.app.API, channels,
			slog.New(slog.NewTextHandler(&log, nil))), log.String()
	}
	t.Run("BothFine", func(t *testing.T) {
		problems, log := check(`{"id":"`+docketID+`","is_member":true}`, `{"id":"`+noticesID+`","is_member":true}`)
		if len(problems) != 0 || strings.Count(log, "channel checked: ethicsbot is a member, and it is not archived") != 2 {
			t.Errorf("problems %+v, log:\n%s", problems, log)
		}
	})
	for _, c := range []struct {
		name, notices, code, fix string
	}{
		{"NotAMember", `{"id":"` + noticesID + `","is_member":false}`, "not_in_channel",
			"invite @ethicsbot to <#" + noticesID + ">"},
		{"Archived", `{"id":"` + noticesID + `","is_member":true,"is_archived":true}`, "is_archived",
			"unarchive <#" + noticesID + ">"},
	} {
		t.Run(c.name, func(t *testing.T) {
			problems, log := check(`{"id":"`+docketID+`","is_member":true}`, c.notices)
			if len(problems) != 1 || problems[0].Setting != "channels.notices" || problems[0].Refusal.Code != c.code {
				t.Fatalf("problems %+v", problems)
			}
			if !strings.Contains(log, "ethicsbot cannot post to a channel it needs") || !strings.Contains(log, "code="+c.code) {
				t.Errorf("log:\n%s", log)
			}
			before := len(e.posts(clerkID))
			for range 3 { // three starts in a day
				if err := e.db.Enqueue(context.Background(), problems[0].Posts(e.d.Alert, e.now, e.d.Zone)); err != nil {
					t.Fatal(err)
				}
				e.drain(t, time.Minute)
			}
			dms := e.posts(clerkID)[before:]
			if len(dms) != 1 || !strings.Contains(dms[0], "cannot post to <#"+noticesID+">") ||
				!strings.Contains(dms[0], c.fix) || !strings.Contains(dms[0], "`channels.notices`") {
				t.Errorf("the clerk got %q, want one direct message saying what to do", dms)
			}
		})
	}
	t.Run("Unknown", func(t *testing.T) {
		// The app lacks channels:read (installed before it was asked): logged, not told.
		e.slack.mu.Lock()
		e.slack.fail = map[string]string{"conversations.info": "missing_scope"}
		e.slack.mu.Unlock()
		problems, log := check("", "")
		if len(problems) != 0 || !strings.Contains(log, "could not check a channel") {
			t.Errorf("problems %+v, log:\n%s", problems, log)
		}
	})
}

// TestTokenRevokedWhileIdle: with nothing to say, the deliverer still finds out within
// minutes that Slack refuses the token (auth.test), asking no more than once every 5
// minutes, and finds the renewed token working. Meanwhile /healthz fails (503), says which
// refusal, and what to do in the terms of the install: the file that holds the token.
func TestTokenRevokedWhileIdle(t *testing.T) {
	e := newRefusalEnv(t)
	token := bot.BotToken("the file /etc/ethicsbot/bot-token (SLACK_BOT_TOKEN_FILE)")
	e.health.Token = token
	var log strings.Builder
	e.d.Log = slog.New(slog.NewTextHandler(&log, nil))
	e.d.Sender.(*bot.Sender).Token = token
	authTests := func() int { return e.slack.countOf("auth.test") }
	e.slack.mu.Lock()
	e.slack.fail = map[string]string{"auth.test": "token_revoked"}
	e.slack.mu.Unlock()
	for range 3 {
		e.d.Probe(context.Background(), e.now)
		e.now = e.now.Add(time.Minute)
	}
	if n := authTests(); n != 1 {
		t.Errorf("%d auth.test calls in 3 minutes, want 1", n)
	}
	fix := "put the new Bot User OAuth Token (xoxb-...) in the file /etc/ethicsbot/bot-token (SLACK_BOT_TOKEN_FILE), " +
		"and restart ethicsbot"
	if code, body := e.healthz(t); code != http.StatusServiceUnavailable || body["status"] != "degraded" ||
		body["slack"] != "refused" ||
		!strings.Contains(body["reason"], "Slack refuses the bot token (token_revoked: the token was revoked)") ||
		!strings.Contains(body["reason"], fix) || strings.Contains(body["reason"], "SLACK_BOT_TOKEN,") {
		t.Errorf("healthz with the token revoked and nothing to say: %d %v", code, body)
	}
	if !strings.Contains(log.String(), fix) {
		t.Errorf("the log does not say what to do in the install's terms:\n%s", log.String())
	}
	e.slack.mu.Lock()
	e.slack.fail = nil
	e.slack.mu.Unlock()
	e.now = e.now.Add(2 * time.Minute)
	e.d.Probe(context.Background(), e.now)
	if code, body := e.healthz(t); authTests() != 2 || code != 200 || body["status"] != "ok" {
		t.Errorf("healthz with the token renewed: %d %v after %d auth.test calls", code, body, authTests())
	}

	t.Run("RunProbes", func(t *testing.T) {
		// Run probes on its own, on the clock it is given: here a minute a tick.
		var mu sync.Mutex
		clock := e.now
		tick := func() time.Time {
			mu.Lock()
			defer mu.Unlock()
			clock = clock.Add(time.Minute)
			return clock
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); e.d.Run(ctx, time.Millisecond, tick) }()
		defer func() { cancel(); <-done }()
		for deadline := time.Now().Add(5 * time.Second); authTests() < 3; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("Run never probed the token")
			}
		}
	})
}

// TestLaterNoticesWaitBehindARefusal: a notice queued while the notices channel is left
// alone after a refusal is not tried, is marked undelivered on its own card, and goes
// after the first, in order, once ethicsbot is invited back.
func TestLaterNoticesWaitBehindARefusal(t *testing.T) {
	e := newRefusalEnv(t)
	for _, who := range []string{"Jane Roe", "Richard Roe"} {
		e.do(t, `file respondent="`+who+`" complainant="John Doe" section=103.10 received=2026-12-04T10:00 summary="x"`)
	}
	e.setFail(noticesID, "not_in_channel")
	e.do(t, `schedule 2026-001 sufficiency 2026-12-10T17:00 place="City Hall"`)
	e.drain(t, 0)
	e.now = e.now.Add(time.Minute)
	e.do(t, `schedule 2026-002 sufficiency 2026-12-11T17:00 place="City Hall"`)
	e.drain(t, 0)
	if tries := e.posts(noticesID); len(tries) != 1 {
		t.Errorf("%d posts tried to the notices channel, want the first notice only", len(tries))
	}
	if card := e.do(t, "case 2026-002"); !strings.Contains(card, "*Undelivered:* a message to <#"+noticesID+">") ||
		!strings.Contains(card, "held back: an earlier message to #"+noticesID+" failed: not_in_channel") {
		t.Errorf("the second case's card does not mark its notice undelivered:\n%s", card)
	}
	if dms := e.posts(clerkID); len(dms) != 1 {
		t.Errorf("the clerk got %d direct messages, want 1: the second notice was never refused", len(dms))
	}
	e.setFail(noticesID, "")
	e.d.Retry()
	e.drain(t, 0)
	tries := e.posts(noticesID)
	if len(tries) != 3 || !strings.Contains(tries[1], "Thu 10 Dec") || !strings.Contains(tries[2], "Fri 11 Dec") {
		t.Errorf("after the invitation the notices channel got %q, want both notices in order", tries)
	}
}
