package app

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"ethicsbot/app/apptest"
)

// notInChannelSlack is a fake Slack Web API that answers not_in_channel to every post to
// the notices channel, says at conversations.info that ethicsbot is not a member of it,
// and keeps every other message posted.
type notInChannelSlack struct {
	*httptest.Server
	mu      sync.Mutex
	posted  map[string][]string // channel or user → texts Slack took
	refused int
}

func newNotInChannelSlack(t *testing.T, notices string) *notInChannelSlack {
	f := &notInChannelSlack{posted: map[string][]string{}}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		w.Header().Set("Content-Type", "application/json")
		f.mu.Lock()
		defer f.mu.Unlock()
		ch := r.Form.Get("channel")
		switch strings.TrimPrefix(r.URL.Path, "/api/") {
		case "chat.postMessage":
			if ch == notices {
				f.refused++
				io.WriteString(w, `{"ok":false,"error":"not_in_channel"}`)
				return
			}
			f.posted[ch] = append(f.posted[ch], r.Form.Get("text"))
			json.NewEncoder(w).Encode(map[string]any{"ok": true, "channel": ch,
				"ts": fmt.Sprintf("1800000000.%06d", len(f.posted[ch]))})
		case "conversations.info":
			fmt.Fprintf(w, `{"ok":true,"channel":{"id":%q,"is_member":%v}}`, ch, ch != notices)
		default:
			io.WriteString(w, `{"ok":true,"user_id":"UBOT","team_id":"T1"}`)
		}
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *notInChannelSlack) dms(user string) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.posted[user]...)
}

// TestNotInChannelEndToEnd runs ethicsbot in HTTP mode with ethicsbot removed from the
// notices channel: the start-up check logs it and tells the clerk; a meeting's public
// notice is refused, the clerk is told once what to do, and /healthz counts it undelivered
// with Slack's error.
func TestNotInChannelEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("starts ethicsbot in a child process")
	}
	slackAPI := newNotInChannelSlack(t, "C0NOTICE1")
	_, env := apptest.ChildEnv(t, t.TempDir(), slackAPI.URL, "commissioners: [U_COMM1]\n"+apptest.FaultPeople)
	srv := apptest.StartServer(t, env, apptest.FreeAddr(t))
	defer srv.Cmd.Process.Kill()
	waitUntil := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !ok(); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s: not after 10 s\n%s", what, srv.Stderr.String())
			}
		}
	}
	waitUntil("the start-up check tells the clerk", func() bool { return len(slackAPI.dms("U_CLERK")) == 1 })
	if dm := slackAPI.dms("U_CLERK")[0]; !strings.Contains(dm, "cannot post to <#C0NOTICE1>") ||
		!strings.Contains(dm, "invite @ethicsbot to <#C0NOTICE1>") {
		t.Errorf("the clerk was told %q", dm)
	}
	for _, want := range []string{`channel checked: ethicsbot is a member, and it is not archived" setting=channels.docket`,
		`ethicsbot cannot post to a channel it needs" setting=channels.notices channel=C0NOTICE1 code=not_in_channel`} {
		if !strings.Contains(srv.Stderr.String(), want) {
			t.Errorf("the log lacks %q:\n%s", want, srv.Stderr.String())
		}
	}

	n, ok := srv.File(1)
	if !ok || !srv.Schedule(n, 1) {
		t.Fatalf("filing and scheduling failed:\n%s", srv.Stderr.String())
	}
	waitUntil("the refused notice is told to the clerk", func() bool { return len(slackAPI.dms("U_CLERK")) == 2 })
	if dm := slackAPI.dms("U_CLERK")[1]; !strings.Contains(dm, "Not delivered") || !strings.Contains(dm, "case "+n) ||
		!strings.Contains(dm, "PUBLIC NOTICE") {
		t.Errorf("the clerk was told %q", dm)
	}
	// The other messages of the filing and the meeting may still be on their way: wait
	// until only the refused notice is left.
	var resp *http.Response
	var health map[string]string
	waitUntil("only the refused notice is undelivered", func() bool {
		r, err := http.Get("http://" + srv.Addr + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		health = nil
		json.NewDecoder(r.Body).Decode(&health)
		r.Body.Close()
		resp = r
		return health["undelivered"] == "1"
	})
	if resp.StatusCode != 200 || health["undelivered"] != "1" ||
		!strings.Contains(health["last_slack_error"], "not_in_channel") || health["writes"] != "ok" {
		t.Errorf("healthz: %d %v", resp.StatusCode, health)
	}
	slackAPI.mu.Lock()
	refused := slackAPI.refused
	slackAPI.mu.Unlock()
	if refused != 1 {
		t.Errorf("the notice was tried %d times, want once until the slow retry", refused)
	}
	if dms := slackAPI.dms("U_CLERK"); len(dms) != 2 {
		t.Errorf("the clerk got %d direct messages, want 2", len(dms))
	}
}
