package bot_test

import (
	"context"
	"maps"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slacktest"
	"github.com/slack-go/slack/socketmode"

	"ethicsbot/bot"
)

// components is Health's judgement of each component, by name.
func components(h *bot.Health) map[string]bool {
	out := map[string]bool{}
	for _, c := range h.Components(context.Background()) {
		out[c.Name] = c.OK
	}
	return out
}

// TestHealthComponents: each part of what /healthz reports is judged by itself, so that
// /metrics can show each and an administrator alert on each: the record, the disk, Slack
// (connected, its token taken), delivery, and the parts the service adds (the sweep, the
// backup), which make /healthz degraded but leave it a 200.
func TestHealthComponents(t *testing.T) {
	e := newRefusalEnv(t)
	slack, sweep := "ok", "ok"
	e.health.Slack = func() string { return slack }
	e.health.Parts = []bot.Part{{Name: "sweep", Check: func(now time.Time) (string, string) {
		if sweep == "ok" {
			return "ok", ""
		}
		return sweep, "the last reminder sweep failed"
	}}, {Name: "backup", Check: func(time.Time) (string, string) { return "", "" }}} // nothing to say yet
	all := map[string]bool{"record": true, "disk": true, "slack": true, "delivery": true, "sweep": true}
	if got := components(e.health); !maps.Equal(got, all) {
		t.Errorf("all well: %v, want %v", got, all)
	}
	if code, body := e.healthz(t); code != 200 || body["status"] != "ok" || body["sweep"] != "ok" || body["backup"] != "" {
		t.Errorf("healthz all well: %d %v", code, body)
	}

	sweep = "failed"
	want := maps.Clone(all)
	want["sweep"] = false
	if got := components(e.health); !maps.Equal(got, want) {
		t.Errorf("the sweep failing: %v, want %v", got, want)
	}
	if code, body := e.healthz(t); code != 200 || body["status"] != "degraded" || body["sweep"] != "failed" ||
		body["reason"] != "the last reminder sweep failed" {
		t.Errorf("healthz with the sweep failing: %d %v", code, body)
	}
	sweep = "ok"

	slack = "connecting" // Socket Mode reconnecting
	want = maps.Clone(all)
	want["slack"] = false
	if got := components(e.health); !maps.Equal(got, want) {
		t.Errorf("Slack connecting: %v, want %v", got, want)
	}
	slack = "ok"
	e.slack.mu.Lock()
	e.slack.fail = map[string]string{"auth.test": "account_inactive"}
	e.slack.mu.Unlock()
	e.d.Probe(context.Background(), e.now)
	if got := components(e.health); !maps.Equal(got, want) {
		t.Errorf("the token refused: %v, want %v", got, want)
	}
	if code, body := e.healthz(t); code != http.StatusServiceUnavailable || body["slack"] != "refused" {
		t.Errorf("healthz with the token refused: %d %v", code, body)
	}

	e.health.DB = fullDisk{e.db}
	want["disk"] = false
	if got := components(e.health); !maps.Equal(got, want) {
		t.Errorf("the disk full: %v, want %v", got, want)
	}

	// The record closed: the disk and the outbox cannot be judged, nor the token's refusal,
	// which delivery reports with the outbox; Slack is judged by its connection, and the
	// parts as before.
	e.health.DB = e.db
	e.db.Close()
	want = map[string]bool{"record": false, "slack": true, "sweep": true}
	if got := components(e.health); !maps.Equal(got, want) {
		t.Errorf("the record closed: %v, want %v", got, want)
	}
}

// TestSocketModeConnectionState: a Socket Mode connection is "connecting" until Slack's
// websocket is open, then "ok" (slack-go's slacktest stands for Slack). The handler runs
// each event on its own goroutine: when the connection's "connected" is handled before its
// "connecting", the "connecting" is not told (App.connection), and "ok" is all there is.
func TestSocketModeConnectionState(t *testing.T) {
	s := slacktest.NewTestServer()
	s.Start()
	defer s.Stop()
	e := newEnv(t)
	states := make(chan string, 16)
	e.app.Connection = func(state string) { states <- state }
	api := slack.New("xoxb-test", slack.OptionAppLevelToken("xapp-test"), slack.OptionAPIURL(s.GetAPIURL()))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- e.app.RunSocketMode(ctx, socketmode.New(api)) }()
	var told []string
	for len(told) == 0 || told[len(told)-1] != "ok" {
		select {
		case state := <-states:
			told = append(told, state)
		case err := <-done:
			t.Fatalf("RunSocketMode ended: %v, after %v", err, told)
		case <-time.After(10 * time.Second):
			t.Fatalf("told %v in 10 s", told)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("RunSocketMode = %v", err)
	}
	if want := []string{"connecting", "ok"}; !slices.Equal(told, want) && !slices.Equal(told, want[1:]) {
		t.Errorf("told %v, want %v or %v", told, want, want[1:])
	}
}

// TestSocketModeConnectionOrder: slack-go runs each event's handler on its own goroutine,
// so a "connecting" may be handled after the "ok" of its connection: it is not told then,
// and the state stays "ok" until the next connection begins.
func TestSocketModeConnectionOrder(t *testing.T) {
	e := newEnv(t)
	states := make(chan string, 16)
	e.app.Connection = func(state string) { states <- state }
	h := e.app.SocketHandler(socketmode.New(e.app.API))
	next := func() string {
		t.Helper()
		select {
		case s := <-states:
			return s
		case <-time.After(5 * time.Second):
			t.Fatal("nothing told in 5 s")
			return ""
		}
	}
	var told []string
	for _, c := range []struct {
		evt  socketmode.Event
		told bool
	}{
		{socketmode.Event{Type: socketmode.EventTypeConnected, Data: &socketmode.ConnectedEvent{ConnectionCount: 0}}, true},
		{socketmode.Event{Type: socketmode.EventTypeConnecting, Data: &slack.ConnectingEvent{ConnectionCount: 0}},
			false}, // late
		{socketmode.Event{Type: socketmode.EventTypeConnecting, Data: &slack.ConnectingEvent{ConnectionCount: 1}},
			true}, // Slack asked to reconnect
		{socketmode.Event{Type: socketmode.EventTypeConnected, Data: &socketmode.ConnectedEvent{ConnectionCount: 1}}, true},
	} {
		h.DispatchEvent(c.evt)
		if c.told {
			told = append(told, next())
		}
	}
	select { // the late "connecting", had it been told
	case s := <-states:
		told = append(told, s)
	case <-time.After(100 * time.Millisecond):
	}
	if want := []string{"ok", "connecting", "ok"}; !slices.Equal(told, want) {
		t.Errorf("told %v, want %v", told, want)
	}
}
