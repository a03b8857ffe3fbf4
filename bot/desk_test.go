package bot_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"ethicsbot/bot"
)

// homeOpened is the event Slack sends when user opens the app's Home tab.
func homeOpened(user string) []byte {
	return fmt.Appendf(nil, `{"type":"event_callback","team_id":"T1","api_app_id":"A1","event":{"type":"app_home_opened","user":%q,"channel":"D1","tab":"home","event_ts":"1733400000.000100"},"event_id":"Ev1","event_time":1733400000}`, user)
}

// published is the view of the n-th views.publish call for user, as JSON.
func published(t *testing.T, calls []call, user string) []string {
	t.Helper()
	var out []string
	for _, c := range calls {
		if c.Method != "views.publish" || c.Fields["user_id"] != user {
			continue
		}
		v, ok := c.Fields["view"].(string)
		if !ok {
			b, _ := json.Marshal(c.Fields["view"])
			v = string(b)
		}
		out = append(out, v)
	}
	return out
}

// TestHomeRefreshedAfterAction: the Home tab is published when the user opens it, and
// published again after an action changes what it shows (issue 22 §2): a complaint filed
// by slash command appears on the clerk's desk without the clerk reopening the tab.
func TestHomeRefreshedAfterAction(t *testing.T) {
	e := newEnv(t)
	h := (&bot.HTTP{App: e.app, Secret: secret, Now: time.Now, DB: e.db}).Handler()
	const clerk = "U2147483697"
	if w := post(t, h, "/slack/events", homeOpened(clerk), time.Now(), ""); w.Code != 200 {
		t.Fatalf("app_home_opened: %d", w.Code)
	}
	e.app.Wait()
	views := published(t, e.slack.wait(t, 1), clerk)
	if len(views) != 1 || !strings.Contains(views[0], "File a complaint") || !strings.Contains(views[0], "Open cases (0)") {
		t.Fatalf("on opening, published %q", views)
	}
	body := slashBody(t, e.slack, `file respondent="Jane Roe" complainant="John Doe" section=103.10 received=2026-12-04T10:00 summary="x"`, "trig-home")
	if w := post(t, h, "/slack/commands", body, time.Now(), ""); !strings.Contains(replyOf(t, w.Body.Bytes()), "Filed") {
		t.Fatalf("filing: %s", w.Body.String())
	}
	e.app.Wait()
	views = published(t, e.slack.wait(t, 1), clerk)
	if len(views) < 2 || !strings.Contains(views[len(views)-1], "*2026-001*: John Doe v. Jane Roe") {
		t.Fatalf("after the filing, published %d views, the last %q", len(views), views[len(views)-1])
	}
	if n := len(published(t, e.slack.wait(t, 1), "U_COMM1")); n != 0 {
		t.Errorf("published %d views to a commissioner who never opened the tab", n)
	}
}
