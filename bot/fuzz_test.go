package bot_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"ethicsbot/bot"
)

// FuzzVerify: no header or body makes signature checking panic, and only the right
// signature over the exact body, in time, passes.
func FuzzVerify(f *testing.F) {
	f.Add("v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503", "1531420618", "token=x&text=")
	f.Add("", "", "")
	f.Add("v0=", "not-a-number", "payload=%7B%7D")
	f.Add("v1=abc", "-99999999999999999999", "\x00\xff")
	now := time.Unix(1531420618, 0)
	f.Fuzz(func(t *testing.T, sig, ts, body string) {
		h := http.Header{}
		h.Set("X-Slack-Signature", sig)
		h.Set("X-Slack-Request-Timestamp", ts)
		if err := bot.Verify(h, []byte(body), secret, now); err == nil {
			secs, _ := strconv.ParseInt(ts, 10, 64)
			if want := sign(secret, secs, []byte(body)); sig != want {
				t.Fatalf("a wrong signature %q passed", sig)
			}
		}
	})
}

// FuzzInteractivity: no signed interaction payload makes the bot panic or answer other
// than 200 or 400.
func FuzzInteractivity(f *testing.F) {
	for _, name := range []string{"block-actions.json", "view-submission.json"} {
		f.Add(string(fixture(f, name)))
	}
	f.Add(`{"type":"block_actions","actions":[null]}`)
	f.Add(`{"type":"view_submission","view":{"callback_id":"ethics:file","private_metadata":"{\"sub\":\"rule\",\"prefill\":{\"number\":\"2026-001\"}}"}}`)
	f.Add(`{"type":"view_submission","view":{"state":{"values":{"x":{"y":{"type":"datetimepicker","selected_date_time":-1}}}}}}`)
	f.Add(`not json`)
	e := newEnv(f)
	h := (&bot.HTTP{App: e.app, Secret: secret, Now: time.Now, DB: e.db}).Handler()
	f.Fuzz(func(t *testing.T, payload string) {
		body := []byte("payload=" + url.QueryEscape(payload))
		now := time.Now()
		r := httptest.NewRequest(http.MethodPost, "/slack/interactivity", bytes.NewReader(body))
		r.Header.Set("X-Slack-Request-Timestamp", strconv.FormatInt(now.Unix(), 10))
		r.Header.Set("X-Slack-Signature", sign(secret, now.Unix(), body))
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != 200 && w.Code != 400 {
			t.Fatalf("status %d for %q", w.Code, payload)
		}
		var cb slack.InteractionCallback
		if json.Unmarshal([]byte(payload), &cb) == nil {
			e.app.Interaction(context.Background(), cb)
		}
		e.app.Wait()
	})
}
